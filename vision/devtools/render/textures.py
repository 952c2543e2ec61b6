"""Procedural table surfaces for :mod:`vision.devtools.render.photos`: noise, sinusoids and streaks.

Every texture is made here from a seeded generator: no image is read. The scale of a texture's
features is given in tile widths (``Look.texture_scale``) and turned into pixels with the tile
width, so a table looks the same at any zoom.
"""

from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.devtools.render.looks import Look

F32 = npt.NDArray[np.float32]
U8 = npt.NDArray[np.uint8]


def as_u8(a: Any) -> U8:
    """An OpenCV result as the uint8 array it is (for the type checker; no copy)."""
    return np.asarray(a, dtype=np.uint8)


def as_f32(a: Any) -> F32:
    """An OpenCV result as the float32 array it is (for the type checker; no copy)."""
    return np.asarray(a, dtype=np.float32)


def smooth_noise(
    rng: np.random.Generator, shape: tuple[int, int], cell: tuple[float, float]
) -> F32:
    """Smooth noise of about unit deviation, ``(H, W)`` float32, whose features are ``cell``
    ``(along y, along x)`` pixels: Gaussian values on a coarse grid, resized with cubic
    interpolation (to a grid of about 6 px per cell, then linearly: the same to the eye, and
    a fraction of the work)."""
    h, w = shape
    k = min(1.0, 6.0 / max(1.0, min(cell)))
    hs, ws = max(2, round(h * k)), max(2, round(w * k))
    gy = max(2, math.ceil(hs / max(cell[0] * k, 1.0)) + 2)
    gx = max(2, math.ceil(ws / max(cell[1] * k, 1.0)) + 2)
    grid = rng.standard_normal((gy, gx), dtype=np.float32)
    # Oversize by one cell and crop, so the grid's edges do not show.
    sy, sx = hs * gy / max(gy - 2, 1), ws * gx / max(gx - 2, 1)
    big = cv2.resize(
        grid, (max(ws + 2, round(sx)), max(hs + 2, round(sy))), interpolation=cv2.INTER_CUBIC
    )
    oy, ox = (big.shape[0] - hs) // 2, (big.shape[1] - ws) // 2
    small = np.ascontiguousarray(big[oy : oy + hs, ox : ox + ws]) * np.float32(1.35)
    if (hs, ws) == (h, w):
        return as_f32(small)
    return as_f32(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR))


def grain(rng: np.random.Generator, shape: tuple[int, int]) -> F32:
    """Pixel-level noise of unit deviation (uniform), ``(H, W)`` float32."""
    a = rng.integers(0, 256, shape, dtype=np.uint8).astype(np.float32)
    a -= np.float32(127.5)
    a *= np.float32(1.0 / 73.9)
    return a


def streaks(rng: np.random.Generator, shape: tuple[int, int], length: float) -> F32:
    """Fibres along x: noise of unit deviation stretched ``length`` pixels, ``(H, W)``."""
    h, w = shape
    cols = max(2, round(w / max(length, 1.0)))
    small = rng.standard_normal((h, cols), dtype=np.float32)
    return as_f32(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR))


def _mix(a: tuple[float, float, float], b: tuple[float, float, float], m: F32) -> U8:
    """``a + m * (b - a)`` per channel, clipped: ``(H, W, 3)`` uint8 from a weight ``(H, W)``
    (``m`` is read in steps of 1/128 within -0.5..1.5, through a lookup table)."""
    idx = cv2.convertScaleAbs(
        np.maximum(m, np.float32(-0.5)), alpha=128.0, beta=64.0
    )  # m = -0.5 -> 0 .. 1.5 -> 255
    t = (np.arange(256, dtype=np.float64) - 64.0) / 128.0
    ca, cb = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    lut = np.clip(ca[None, :] + t[:, None] * (cb - ca)[None, :], 0, 255)
    lut_u8 = np.rint(lut).astype(np.uint8).reshape(256, 1, 3)
    return as_u8(cv2.LUT(cv2.merge([idx, idx, idx]), lut_u8))


def table_texture(
    rng: np.random.Generator, look: Look, shape: tuple[int, int], tile_px: float
) -> U8:
    """The bare table under ``look``: ``(H, W, 3)`` uint8 BGR, ``shape`` = (H, W),
    with the tile ``tile_px`` pixels wide."""
    h, w = shape
    c = look.texture_contrast
    s = max(look.texture_scale * tile_px, 1.0)
    kind = look.table
    if kind in ("dark_wood", "light_wood"):
        across = rng.random() < 0.5  # grain along y: draw along x, transposed
        hh, ww = (w, h) if across else (h, w)
        y = np.arange(hh, dtype=np.float32)[:, None]
        x = np.arange(ww, dtype=np.float32)[None, :]
        slope = np.float32(math.tan(math.radians(float(rng.uniform(-6, 6)))))
        warp = smooth_noise(rng, (hh, ww), (s * 3.0, s * 14.0)) * np.float32(0.9)
        phase = (y + slope * x) / np.float32(s) + warp
        rings = np.sin(np.float32(2 * math.pi) * phase) * np.float32(0.5) + np.float32(0.5)
        rings = rings * rings
        fibres = streaks(rng, (hh, ww), s * 6.0)
        fibres = as_f32(cv2.GaussianBlur(fibres, (0, 0), sigmaX=0.1, sigmaY=0.6))
        broad = smooth_noise(rng, (hh, ww), (s * 4.0, s * 20.0))
        m = rings * np.float32(0.55) + fibres * np.float32(0.2) + broad * np.float32(0.15)
        m = m * np.float32(c) + np.float32(0.5 * (1 - c))
        if across:
            m = np.ascontiguousarray(m.T)
        out = _mix(look.table_bgr, look.table_bgr2, m)
    elif kind in ("green_felt", "blue_felt"):
        fine = cv2.GaussianBlur(grain(rng, shape), (0, 0), max(0.5, s * 0.4))
        fine = fine * np.float32(1.0 / max(0.25, 0.9 - 0.12 * s))
        fibre = streaks(rng, shape, s * 8.0) if rng.random() < 0.5 else fine
        mottle = smooth_noise(rng, shape, (tile_px * 3.0, tile_px * 3.0))
        m = fine * np.float32(0.22) + fibre * np.float32(0.08) + mottle * np.float32(0.06)
        m = m * np.float32(c) + np.float32(0.3)
        out = _mix(look.table_bgr, look.table_bgr2, m)
    elif kind == "wallpaper":
        ang = float(rng.uniform(0, math.pi))
        ca, sa = math.cos(ang), math.sin(ang)
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        k = np.float32(2 * math.pi / s)
        warp_a = smooth_noise(rng, shape, (s * 0.5, s * 0.5)) * np.float32(1.1)
        warp_b = smooth_noise(rng, shape, (s * 0.5, s * 0.5)) * np.float32(1.1)
        u = (x * np.float32(ca) + y * np.float32(sa)) * k + warp_a
        v = (y * np.float32(ca) - x * np.float32(sa)) * k + warp_b
        orn = np.cos(u) * np.cos(v) + np.float32(0.6) * np.cos(u + v) * np.cos(u - v)
        # a fine speckle of two colours, a faint ornament, broad patches of either colour
        speckle = smooth_noise(rng, shape, (s * 0.12, s * 0.12))
        blotch = smooth_noise(rng, shape, (s * 3.0, s * 3.0))
        f = speckle * np.float32(0.9) + orn * np.float32(0.35) + blotch * np.float32(0.5)
        m = np.float32(1.0) / (np.float32(1.0) + np.exp(f * np.float32(-2.2)))
        m = m * np.float32(c) + np.float32(0.5 * (1 - c))
        m += grain(rng, shape) * np.float32(0.06)
        out = _mix(look.table_bgr, look.table_bgr2, m)
    else:  # black, white paper, light grey, grey: plain, a mottle and a fine grain
        mottle = smooth_noise(rng, shape, (tile_px * 2.0, tile_px * 2.0))
        fine = grain(rng, shape)
        if s > 1.5:
            fine = cv2.GaussianBlur(fine, (0, 0), 0.5) * np.float32(1.6)
        amp, low = (0.08, 0.1) if kind == "black" else (0.12, 0.14)
        m = (mottle * np.float32(low) + fine * np.float32(amp)) * np.float32(c) + np.float32(0.3)
        if kind == "white_paper" and rng.random() < 0.5:
            m += streaks(rng, shape, s * 10.0) * np.float32(0.08 * c)
        out = _mix(look.table_bgr, look.table_bgr2, m)
    return out
