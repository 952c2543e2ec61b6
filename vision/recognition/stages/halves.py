"""Stage 5: reading a proposal's two halves on the pip grid.

Each half (on one side of the bar, ``w`` across and as long as its measured end, see
``end_trust``) is resampled to ``half_px`` square, the bar along its first column. The ink
contrast is averaged over a pip's core at the nine positions of a 3x3 grid (spacings
``grid_spacings``, centre shifted by ``grid_shifts``, both shares of the side: sets differ).
A half is blank when no position at the middle spacing holds ink; otherwise the standard
layout (any of its images under the square's symmetries) whose weakest pip position most
exceeds its strongest free position is the reading, kept only where the pips are ink
(``pip_share``) and the free positions are not (``free_share``). Counting positions, not
blobs, reads pips merged by blur or pips touching the bar.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.layouts import grid_masks
from vision.recognition.stages.ink import Ink
from vision.recognition.stages.outline import Proposal
from vision.recognition.stages.params import StagedParams

F32 = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Half:
    """``pips`` (None: unreadable), ``confidence`` in [0, 1] and ``center`` (working px)."""

    pips: int | None
    confidence: float
    center: tuple[float, float]


@cache
def _masks(max_pips: int) -> tuple[int, ...]:
    return tuple(sorted(m for m in grid_masks() if 0 < m.bit_count() <= max_pips))


def read(prop: Proposal, ink: Ink, p: StagedParams, max_pips: int = 6) -> tuple[Half, Half]:
    """The two halves of ``prop``: first along ``+axis``, then ``-axis``."""
    return (_read_half(prop, 1.0, ink, p, max_pips), _read_half(prop, -1.0, ink, p, max_pips))


def _read_half(prop: Proposal, sign: float, ink: Ink, p: StagedParams, max_pips: int) -> Half:
    s = p.half_px
    c, u, n, w = np.array(prop.center), np.array(prop.across), np.array(prop.axis), prop.width
    length = w + p.end_trust * ((prop.ends[0] if sign > 0 else prop.ends[1]) - w)
    src = np.array(
        [c - u * w / 2, c - u * w / 2 + sign * n * length, c + u * w / 2 + sign * n * length],
        dtype=np.float32,
    )
    dst = np.array([[0, 0], [s, 0], [s, s]], dtype=np.float32)
    m = cv2.getAffineTransform(src, dst)
    contrast = np.asarray(cv2.warpAffine(ink.contrast, m, (s, s), flags=cv2.INTER_LINEAR))
    face = np.asarray(cv2.warpAffine(ink.face, m, (s, s), flags=cv2.INTER_LINEAR), dtype=np.uint8)
    centre = c + sign * n * length / 2
    where = (float(centre[0]), float(centre[1]))
    if not _face_whole(face, ink.lit, p):
        return Half(None, 0.0, where)
    pip = ink.pip_px * s / w
    r = max(1, round(p.pip_core * pip))
    core = np.asarray(
        cv2.blur(contrast.astype(np.float32), (2 * r + 1, 2 * r + 1)), dtype=np.float32
    )
    t = ink.pip_threshold
    peak = float(_grid(core, 0.5 * s, 0.5 * s, p.blank_spacing * s).max())
    if peak < p.blank_share * t:
        return Half(0, float(np.clip(1 - peak / (p.blank_share * t), 0, 1)), where)
    ys, xs = _placements(s, p.grid_spacings, p.grid_shifts)
    vals = core[ys, xs]  # (placements, 9)
    on = _on_bits(max_pips)  # (layouts, 9)
    lows = np.where(on[None], vals[:, None, :], np.inf).min(axis=2)  # (placements, layouts)
    highs = np.where(~on[None], vals[:, None, :], 0.0).max(axis=2)
    k = int(np.argmax(lows - highs))
    placement, layout = divmod(k, on.shape[0])
    lo, hi = float(lows[placement, layout]), float(highs[placement, layout])
    if lo < p.pip_share * t or hi >= p.free_share * lo:
        return Half(None, 0.0, where)
    return Half(int(on[layout].sum()), float(np.clip((lo - hi) / t, 0, 1)), where)


@cache
def _on_bits(max_pips: int) -> npt.NDArray[np.bool_]:
    """``(layouts, 9)``: the grid positions of every standard layout of 1..max_pips pips."""
    return np.array([[bool(m >> k & 1) for k in range(9)] for m in _masks(max_pips)])


@cache
def _placements(
    s: int, spacings: tuple[float, ...], shifts: tuple[float, ...]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Rows and columns ``(placements, 9)`` of the 3x3 grid at every spacing and shift, in the
    bit order of ``grid_masks``."""
    cells = [(ix, iy) for ix in (-1, 0, 1) for iy in (-1, 0, 1)]
    xs, ys = [], []
    for sp in spacings:
        for dx in shifts:
            for dy in shifts:
                xs.append([(0.5 + dx) * s + ix * sp * s for ix, _ in cells])
                ys.append([(0.5 + dy) * s + iy * sp * s for _, iy in cells])
    return _clipped(ys, s), _clipped(xs, s)


def _clipped(v: list[list[float]], s: int) -> npt.NDArray[np.intp]:
    return np.asarray(np.clip(np.rint(np.array(v)), 0, s - 1), dtype=np.intp)


def _grid(core: F32, cx: float, cy: float, sp: float) -> F32:
    """Values of ``core`` at the 3x3 grid, in the bit order of ``grid_masks``."""
    s = core.shape[0]
    out = np.zeros(9, dtype=np.float32)
    for ix in (-1, 0, 1):
        for iy in (-1, 0, 1):
            x = min(s - 1, max(0, round(cx + ix * sp)))
            y = min(s - 1, max(0, round(cy + iy * sp)))
            out[3 * (ix + 1) + (iy + 1)] = core[y, x]
    return out


def _face_whole(face: npt.NDArray[np.uint8], lit: float, p: StagedParams) -> bool:
    """Whether ``face`` (a half resampled) is one lit face: at least ``lit`` (a table darker
    than the tiles or its border is no blank half) and nearly all at its own level."""
    m = round(p.face_margin * face.shape[0])
    inner = face[m:-m, m:-m].astype(np.float32)
    level = float(np.median(face))
    near = np.abs(inner - level) < max(18.0, 0.25 * level)
    return level >= lit and float(near.mean()) >= p.face_share
