"""Drawing a photo (:mod:`vision.devtools.render.photos`): the table, the tiles' shadows, sides,
faces,
bevels, bars and pips on a canvas in the flat frame; then the light (gradient, vignette, colour
cast, shine) and the camera (keystone warp, blur, motion, noise, JPEG)."""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from vision.devtools.render.looks import Look
from vision.devtools.render.photo_plane import F64, PhotoFrame, PlaneTile, apply_homography
from vision.devtools.render.textures import as_u8, smooth_noise, table_texture
from vision.devtools.render.tiles import PIP_LAYOUTS

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]

_SHIFT = 4  # fractional bits of OpenCV's drawing coordinates
_ONE = 1 << _SHIFT


def _rounded(t: PlaneTile, length: float, radius: float, corner_pts: int) -> F64:
    """The rounded outline of ``t``'s face on the plane, ``(4 * corner_pts, 2)``."""
    ax, ay = math.cos(t.angle), math.sin(t.angle)
    vx, vy = -ay, ax
    hl, hw = length / 2.0 - radius, 0.5 - radius
    k = np.arange(corner_pts, dtype=np.float64) / max(corner_pts - 1, 1) * (math.pi / 2)
    pts = []
    for su, sv, start in (
        (1, 1, 0.0),
        (-1, 1, math.pi / 2),
        (-1, -1, math.pi),
        (1, -1, 1.5 * math.pi),
    ):
        u = su * hl + radius * np.cos(start + k)
        v = sv * hw + radius * np.sin(start + k)
        pts.append(np.column_stack([u, v]))
    uv = np.vstack(pts)
    x = t.center[0] + uv[:, 0] * ax + uv[:, 1] * vx
    y = t.center[1] + uv[:, 0] * ay + uv[:, 1] * vy
    return np.column_stack([x, y])


def _fx(pts: F64) -> npt.NDArray[np.int32]:
    return np.rint(pts * _ONE).astype(np.int32)


def _bgr(c: tuple[float, float, float] | F64, gain: float = 1.0) -> tuple[float, float, float]:
    return (
        float(min(255.0, max(0.0, c[0] * gain))),
        float(min(255.0, max(0.0, c[1] * gain))),
        float(min(255.0, max(0.0, c[2] * gain))),
    )


def _light_vec(look: Look) -> tuple[float, float]:
    a = math.radians(look.light_angle)
    return (math.cos(a), math.sin(a))


def _side_shift(look: Look, frame: PhotoFrame, centre: F64) -> F64:
    """How far (canvas px, (2,)) the top face at flat point ``centre`` sits from its footprint."""
    w = look.tile_width_px
    a = math.radians(look.side_angle)
    iw, ih = frame.image_size
    half_diag = math.hypot(iw / 2, ih / 2)
    radial = (centre - np.array([iw / 2, ih / 2])) / half_diag
    out: F64 = w * (
        look.side_size * np.array([math.cos(a), math.sin(a)]) + look.side_radial * radial
    )
    return out


def _shadows(look: Look, frame: PhotoFrame, footprints: list[F64]) -> U8:
    """How much light reaches each canvas pixel of the table, ``(H, W)`` uint8 (255: all):
    the tiles' cast shadows (offset towards the light's direction, blurred) and the dark
    contact line at their base."""
    cw, ch = frame.size
    w = look.tile_width_px
    lx, ly = _light_vec(look)
    off = np.array([lx, ly]) * look.shadow_offset * w
    sigma = max(0.5, look.shadow_blur * w)
    k = min(1.0, 2.5 / sigma)  # draw blurry shadows small
    sw, sh = max(8, round(cw * k)), max(8, round(ch * k))
    mask = np.zeros((sh, sw), np.uint8)
    for poly in footprints:
        grown = poly + (poly - poly.mean(axis=0)) * 0.02
        cv2.fillPoly(mask, [_fx((grown + off) * k)], 255, cv2.LINE_AA, _SHIFT)
    soft = cv2.GaussianBlur(mask, (0, 0), sigma * k)
    if (sw, sh) != (cw, ch):
        soft = cv2.resize(soft, (cw, ch), interpolation=cv2.INTER_LINEAR)
    contact = np.zeros((ch, cw), np.uint8)
    for poly in footprints:
        grown = poly + (poly - poly.mean(axis=0)) * 0.03
        cv2.fillPoly(contact, [_fx(grown)], 255, cv2.LINE_AA, _SHIFT)
    contact = as_u8(cv2.GaussianBlur(contact, (0, 0), max(0.7, 0.02 * w)))
    # light = 255 - strength * soft - 0.35 * contact, at least 15%
    dark = cv2.addWeighted(soft, look.shadow_strength, contact, 0.35, 0.0)
    light = as_u8(cv2.subtract(np.full_like(dark, 255), np.minimum(dark, 217)))
    return light


def _draw_face_up(
    canvas: U8,
    mask: U8,
    rng: np.random.Generator,
    look: Look,
    *,
    t: PlaneTile,
    c: F64,
    face: tuple[float, float, float],
) -> None:
    """Bar, spinner and pips of ``t`` (``c``: the plane -> canvas similarity)."""
    assert t.pips is not None
    w = look.tile_width_px
    # the tile's frame on the canvas: centre, and one tile width along its axis and across
    centre = apply_homography(c, np.array([t.center], dtype=np.float64))[0]
    ox, oy = float(centre[0]), float(centre[1])
    ca, sa = math.cos(t.angle), math.sin(t.angle)
    ux, uy = c[0, 0] * ca + c[0, 1] * sa, c[1, 0] * ca + c[1, 1] * sa
    vx, vy = -uy, ux

    def at(u: float, v: float) -> tuple[float, float]:
        return (ox + u * ux + v * vx, oy + u * uy + v * vy)

    def fx(p: tuple[float, float]) -> tuple[int, int]:
        return (round(p[0] * _ONE), round(p[1] * _ONE))

    def disc(img: U8, p: tuple[float, float], r: float, colour: tuple[float, ...] | int) -> None:
        cv2.circle(img, fx(p), round(r * _ONE), colour, -1, cv2.LINE_AA, _SHIFT)

    lx, ly = _light_vec(look)
    # bar: a groove painted like the pips
    bt, bl = look.bar_thickness / 2, look.bar_length / 2
    bar = np.array([at(-bt, -bl), at(bt, -bl), at(bt, bl), at(-bt, bl)], dtype=np.float64)
    cv2.fillPoly(canvas, [_fx(bar)], _bgr(look.bar_bgr), cv2.LINE_AA, _SHIFT)
    cv2.fillPoly(mask, [_fx(bar)], 90, cv2.LINE_AA, _SHIFT)
    if look.spinner:
        r = max(look.bar_thickness * 1.3, 0.065) * w
        p = at(0.0, 0.0)
        disc(canvas, p, r, (45.0, 140.0, 190.0))  # brass
        disc(canvas, (p[0] - lx * r * 0.35, p[1] - ly * r * 0.35), r * 0.4, (120.0, 215.0, 245.0))
    rad = look.pip_diameter * w / 2
    s = look.pip_spacing
    quarter = look.tile_length / 4
    for sign, n in zip((-1.0, 1.0), t.pips, strict=True):
        if n == 0:
            continue
        flip = -1.0 if rng.random() < 0.5 else 1.0  # which diagonal the 2 and 3 take
        colour = _bgr(look.pip_bgr[n])
        # a pip is a painted hollow: its far wall catches a little light
        wall = tuple(pc + 0.1 * (fc - pc) for pc, fc in zip(colour, face, strict=True))
        glint = tuple(
            pc + look.pip_gloss * 0.75 * (fc - pc) for pc, fc in zip(colour, face, strict=True)
        )
        for u, v in PIP_LAYOUTS[n]:
            p = at(sign * quarter + u * s, flip * v * s)
            disc(canvas, p, rad, colour)
            disc(mask, p, rad, 90)
            if rad >= 2.5:
                disc(canvas, (p[0] + lx * rad * 0.18, p[1] + ly * rad * 0.18), rad * 0.8, wall)
                disc(canvas, p, rad * 0.62, colour)
            if look.pip_gloss > 0:
                disc(canvas, (p[0] + lx * rad * 0.2, p[1] + ly * rad * 0.2), rad * 0.45, glint)


def _bevel(
    canvas: U8, look: Look, outline: F64, face: tuple[float, float, float], corner_pts: int
) -> None:
    """The face's rounded rim: lighter on the edges facing the light, darker away from it.
    ``outline`` is :func:`_rounded`'s: 4 arcs of ``corner_pts`` points."""
    b = look.bevel * look.tile_width_px
    if b < 0.6:
        return
    centre = outline.mean(axis=0)
    lx, ly = _light_vec(look)
    n = len(outline)
    # the rounded edge falls away from the flat face: darker towards the outline, least so
    # where it faces the light
    passes = [(b, 0.5, 0.07, 0.06), (max(1.0, b * 0.4), 0.2, 0.1, 0.16)]
    for width, inset, gain, depth in passes if b >= 2.0 else passes[1:]:
        pts = _inset(outline, centre, inset * width)
        thick = max(1, round(width))
        # each arc, then the straight side after it, in one colour
        for k in range(4):
            i0 = k * corner_pts
            arc = pts[i0 : i0 + corner_pts]
            side = np.vstack([pts[i0 + corner_pts - 1], pts[(i0 + corner_pts) % n]])
            for part in (arc, side):
                mid = part.mean(axis=0) - centre
                norm = math.hypot(mid[0], mid[1])
                if norm == 0:
                    continue
                facing = -(mid[0] * lx + mid[1] * ly) / norm  # towards where the light comes from
                col = _bgr(face, 1.0 - depth + gain * facing)
                cv2.polylines(canvas, [_fx(part)], False, col, thick, cv2.LINE_AA, _SHIFT)


def _inset(outline: F64, centre: F64, d: float) -> F64:
    """``outline`` moved ``d`` pixels towards ``centre`` along the directions to it (a rounded
    rectangle's rim stays parallel enough)."""
    v = centre - outline
    n = np.hypot(v[:, 0], v[:, 1])[:, None]
    out: F64 = outline + v / np.maximum(n, 1e-9) * np.minimum(d, n * 0.5)
    return out


def _draw(
    rng: np.random.Generator, look: Look, frame: PhotoFrame, tiles: list[PlaneTile]
) -> tuple[U8, U8]:
    """The canvas (H, W, 3) uint8 with table, shadows and tiles, and its mask of faces
    (255 face, 90 pips and bar, 0 elsewhere)."""
    cw, ch = frame.size
    w = look.tile_width_px
    to_canvas = (
        np.array([[1, 0, frame.origin[0]], [0, 1, frame.origin[1]], [0, 0, 1]], dtype=np.float64)
        @ frame.to_flat
    )
    radius = min(0.45, look.corner_radius)
    corner_pts = int(min(10, max(3, radius * w / 1.5)))
    outlines: list[F64] = []
    shifts: list[F64] = []
    for t in tiles:
        outline = apply_homography(to_canvas, _rounded(t, look.tile_length, radius, corner_pts))
        flat_c = apply_homography(frame.to_flat, np.array([t.center]))[0]
        outlines.append(outline)
        shifts.append(_side_shift(look, frame, flat_c))
    footprints = [o - s for o, s in zip(outlines, shifts, strict=True)]
    table = table_texture(rng, look, (ch, cw), w)
    light = _shadows(look, frame, footprints)
    canvas = as_u8(cv2.multiply(table, cv2.merge([light, light, light]), scale=1.0 / 255.0))
    mask = np.zeros((ch, cw), np.uint8)
    lx, ly = _light_vec(look)
    faces: list[tuple[float, float, float]] = []
    for t, outline, footprint, shift in zip(tiles, outlines, footprints, shifts, strict=True):
        base = look.tile_bgr if t.pips is not None else look.back_bgr
        face = _bgr(base, float(rng.uniform(0.97, 1.02)))
        faces.append(face)
        norm = math.hypot(shift[0], shift[1])
        if norm >= 0.3:
            hull = cv2.convexHull(np.vstack([outline, footprint]).astype(np.float32))
            facing = (shift[0] * lx + shift[1] * ly) / norm  # the visible sides face -shift
            side = _bgr(face, look.side_shade * (1.0 + 0.2 * facing))
            cv2.fillPoly(
                canvas, [_fx(hull.reshape(-1, 2).astype(np.float64))], side, cv2.LINE_AA, _SHIFT
            )
            edge = _bgr(face, look.side_shade * 0.75)
            cv2.polylines(canvas, [_fx(footprint)], True, edge, 1, cv2.LINE_AA, _SHIFT)
    for t, outline, face in zip(tiles, outlines, faces, strict=True):
        cv2.fillPoly(canvas, [_fx(outline)], face, cv2.LINE_AA, _SHIFT)
        cv2.fillPoly(mask, [_fx(outline)], 255, cv2.LINE_AA, _SHIFT)
        _bevel(canvas, look, outline, face, corner_pts)
        if t.pips is not None:
            _draw_face_up(canvas, mask, rng, look, t=t, c=to_canvas, face=face)
    return canvas, mask


def _lit(rng: np.random.Generator, look: Look, frame: PhotoFrame, canvas: U8, mask: U8) -> U8:
    """Light on the canvas: a gradient towards the light, vignette, colour cast, and the shine
    of glossy faces (a soft band, where ``mask`` says faces are)."""
    cw, ch = frame.size
    iw, ih = frame.image_size
    half_diag = math.hypot(iw / 2, ih / 2)
    sw, sh = max(4, cw // 16), max(4, ch // 16)
    ys = (np.arange(sh, dtype=np.float32) + 0.5) * np.float32(ch / sh)
    xs = (np.arange(sw, dtype=np.float32) + 0.5) * np.float32(cw / sw)
    x = (xs[None, :] - np.float32(frame.origin[0] + iw / 2)) / np.float32(half_diag)
    y = (ys[:, None] - np.float32(frame.origin[1] + ih / 2)) / np.float32(half_diag)
    lx, ly = _light_vec(look)
    gain = np.float32(look.exposure) * (
        np.float32(1.0) - np.float32(look.light_gradient) * (x * lx + y * ly)
    )
    gain *= np.float32(1.0) - np.float32(look.vignette) * (x * x + y * y)
    # gains in steps of 1/128 (0..2), per channel with the white balance
    gain_full = cv2.resize(gain, (cw, ch), interpolation=cv2.INTER_LINEAR)
    gain_u8 = [cv2.convertScaleAbs(gain_full, alpha=128.0 * g) for g in look.white_balance]
    out = as_u8(cv2.multiply(canvas, cv2.merge(gain_u8), scale=1.0 / 128.0))
    if look.shine > 0:
        a = math.radians(look.shine_angle)
        d = (x * math.cos(a) + y * math.sin(a)) - np.float32(look.shine_offset)
        band = np.exp(-((d / np.float32(look.shine_width)) ** 2)).astype(np.float32)
        band *= np.float32(look.shine) * (
            np.float32(1.0) + np.float32(0.15) * smooth_noise(rng, (sh, sw), (sh / 2, sw / 2))
        )
        band_u8 = cv2.convertScaleAbs(
            cv2.resize(band, (cw, ch), interpolation=cv2.INTER_LINEAR), alpha=255.0
        )
        s = cv2.multiply(band_u8, mask, scale=1.0 / 255.0)  # share of white, 0..255
        s3 = cv2.merge([s, s, s])
        whiter = cv2.multiply(cv2.subtract(np.full_like(out, 255), out), s3, scale=1.0 / 255.0)
        out = as_u8(cv2.add(out, whiter))
    return out


def _motion_kernel(length: float, angle_deg: float) -> F32:
    """A normalised ``(k, k)`` float32 kernel: a segment ``length`` px long at ``angle_deg``,
    splatted bilinearly from 4 samples per pixel."""
    half = length / 2
    size = 2 * math.ceil(half) + 3
    c = size // 2
    a = math.radians(angle_deg)
    t = np.linspace(-half, half, max(2, math.ceil(length * 4)))
    xs, ys = c + t * math.cos(a), c + t * math.sin(a)
    x0, y0 = np.floor(xs).astype(np.int64), np.floor(ys).astype(np.int64)
    fx, fy = xs - x0, ys - y0
    kernel = np.zeros((size, size), np.float64)
    for dx, dy, wgt in ((0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)),
                        (0, 1, (1 - fx) * fy), (1, 1, fx * fy)):  # fmt: skip
        np.add.at(kernel, (y0 + dy, x0 + dx), wgt)
    out: F32 = (kernel / kernel.sum()).astype(np.float32)
    return out


def _camera(rng: np.random.Generator, look: Look, frame: PhotoFrame, canvas: U8) -> U8:
    """The canvas as the camera sees it: keystone warp, blur, motion, noise and JPEG."""
    iw, ih = frame.image_size
    to_image = frame.keystone @ np.array(
        [[1, 0, -frame.origin[0]], [0, 1, -frame.origin[1]], [0, 0, 1]], dtype=np.float64
    )
    image = cv2.warpPerspective(
        canvas, to_image, (iw, ih), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT
    )
    w = look.tile_width_px
    sigma = math.hypot(look.blur_px, look.defocus * w)
    if sigma >= 0.2:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    length = look.motion * w
    if length >= 1.0:
        kernel = _motion_kernel(length, look.motion_angle)
        image = cv2.filter2D(image, -1, kernel, borderType=cv2.BORDER_REFLECT)
    if look.noise > 0:
        # uniform noise (deviation ``noise``) in one saturating OpenCV sum: grey grain, and a
        # coarser colour grain of half its deviation
        k = look.noise / 73.9
        lum = rng.integers(0, 256, (ih, iw), dtype=np.uint8)
        image = as_u8(cv2.addWeighted(image, 1.0, cv2.merge([lum, lum, lum]), k, -127.5 * k))
        small = rng.integers(0, 256, (max(2, ih // 2), max(2, iw // 2), 3), dtype=np.uint8)
        chroma = cv2.resize(small, (iw, ih), interpolation=cv2.INTER_LINEAR)
        image = as_u8(cv2.addWeighted(image, 1.0, chroma, k * 0.7, -127.5 * k * 0.7))
    if look.jpeg_quality is not None:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(look.jpeg_quality)])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is None:  # pragma: no cover - OpenCV without a JPEG codec
            raise RuntimeError("OpenCV could not encode and decode a JPEG")
        image = decoded
    out: U8 = np.ascontiguousarray(image, dtype=np.uint8)
    return out


def render_photo(
    rng: np.random.Generator, look: Look, frame: PhotoFrame, tiles: list[PlaneTile]
) -> U8:
    """``tiles`` on the plane as the camera of ``look`` sees them through ``frame``: an image
    (H, W, 3) uint8 BGR of ``frame``'s image size. Draws from ``rng`` in a fixed order."""
    canvas, mask = _draw(rng, look, frame, tiles)
    canvas = _lit(rng, look, frame, canvas, mask)
    return _camera(rng, look, frame, canvas)
