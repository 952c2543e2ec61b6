"""Rendered photos of domino tiles, with their truth: single tiles and whole tables.

Two kinds of image, each deterministic from a seed (and an optional
:class:`~devtools.render.looks.Look` that fixes everything but the tiles' places):

* :func:`render_crop`: one tile filling 40-70% of the long side of a 100-400 px photo, at any
  angle, like the crops of ``domibot-crops-dev``;
* :func:`render_table`: a table seen from above: a line of tiles end to end (doubles crosswise,
  turns), tiles touching side by side, loose tiles at any angle, and some tiles face down.

How a photo is drawn: the tiles are placed on a plane whose unit is the tile width; a similarity
(the tile width in pixels, the camera's roll) maps the plane into a flat frame of the image, a
keystone homography then into the image. Table, shadows, tiles and light are drawn on a canvas in
the flat frame (a translation of it, large enough to cover the image after the keystone), which is
warped once into the image; then the camera: blur, motion, noise and JPEG.

The truth (pips per half, half centres, corners of the top face) is the plane's poses mapped by
the same homography: it never comes from reading the image. A tile's visible side strip (tiles
are thick) lies outside its top face, so the corners are those of the face a reader sees.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any, NamedTuple

import cv2
import numpy as np
import numpy.typing as npt

from devtools.render.looks import Look, sample_look
from devtools.render.textures import as_u8, smooth_noise, table_texture
from devtools.render.tiles import PIP_LAYOUTS
from vision.recognition.synthetic import SyntheticTile
from vision.types import Point

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

_SHIFT = 4  # fractional bits of OpenCV's drawing coordinates
_ONE = 1 << _SHIFT
#: Pip values of the sets drawn (double-six).
MAX_PIPS = 6
#: Long side of a crop, pixels, and the share of it the tile's length takes.
CROP_SIDE = (100, 400)
CROP_FILL = (0.4, 0.7)
#: Tile widths (pixels) of tables drawn without a given look.
TABLE_TILE_PX = (20.0, 300.0)

# Stream tags: the look and the scene of one seed come from separate streams, so a fixed look
# leaves the scene as it is.
_LOOK_STREAM = 0x100C
_SCENE_STREAM = 0x5CE7
_CROP = 1
_TABLE = 2


@dataclass(frozen=True, slots=True)
class FaceDown:
    """A tile lying face down: no pips to read. ``center`` and the 4 ``corners`` of its top
    face (going round) in image pixels."""

    center: Point
    corners: tuple[Point, Point, Point, Point]


class TablePhoto(NamedTuple):
    """What :func:`render_table` draws: ``image`` (H, W, 3) uint8 BGR, the face-up ``tiles``
    (the truth) and the ``backs`` (face-down tiles, not tiles to read)."""

    image: U8
    tiles: tuple[SyntheticTile, ...]
    backs: tuple[FaceDown, ...]


@dataclass(frozen=True, slots=True)
class _Tile:
    """A tile on the plane (unit: the tile width): half ``a`` at ``-axis``, ``b`` at ``+axis``."""

    center: tuple[float, float]
    angle: float  # radians, the axis from half a to half b
    pips: tuple[int, int] | None  # None: face down


# ---------------------------------------------------------------------------------------------
# looks of a seed


def crop_look(seed: int) -> Look:
    """The look :func:`render_crop` draws for ``seed`` when given none."""
    rng = np.random.default_rng([seed, _LOOK_STREAM, _CROP])
    # The crop's long side and the tile's share of it give the tile width.
    side = math.exp(rng.uniform(math.log(CROP_SIDE[0]), math.log(CROP_SIDE[1])))
    fill = float(rng.uniform(*CROP_FILL))
    look = sample_look(rng, tile_width_px=(1.0, 1.0))
    width = side * fill / look.tile_length
    return replace(look, tile_width_px=width)


def table_look(seed: int, width: int = 1280, height: int = 720) -> Look:
    """The look :func:`render_table` draws for ``seed`` and that image size when given none:
    tiles mostly 20-70 px wide, sometimes up to 300 px (a close view of a few tiles)."""
    rng = np.random.default_rng([seed, _LOOK_STREAM, _TABLE])
    scale = min(width, height) / 720.0
    lo, hi = TABLE_TILE_PX[0], max(TABLE_TILE_PX[0] + 1, TABLE_TILE_PX[1] * min(1.0, scale))
    mid = min(70.0, hi)
    bounds = (lo, mid) if rng.random() < 0.7 else (mid, hi)
    return sample_look(rng, tile_width_px=bounds)


# ---------------------------------------------------------------------------------------------
# geometry


def _corners(t: _Tile, length: float) -> F64:
    """The 4 corners of ``t``'s top face on the plane, ``(4, 2)``, going round as
    :class:`SyntheticTile` lists them: half a's end at ``-v``, half b's end at ``-v``, then
    at ``+v``, half a's end at ``+v`` (``v`` across the axis)."""
    ax, ay = math.cos(t.angle), math.sin(t.angle)
    vx, vy = -ay, ax
    hl = length / 2.0
    cx, cy = t.center
    return np.array(
        [
            (cx - ax * hl - vx * 0.5, cy - ay * hl - vy * 0.5),
            (cx + ax * hl - vx * 0.5, cy + ay * hl - vy * 0.5),
            (cx + ax * hl + vx * 0.5, cy + ay * hl + vy * 0.5),
            (cx - ax * hl + vx * 0.5, cy - ay * hl + vy * 0.5),
        ],
        dtype=np.float64,
    )


def _separated(pa: F64, pb: F64, gap: float) -> bool:
    """Are two rectangles (corners going round, ``(4, 2)``) at least ``gap`` apart along one
    of their sides' normals (touching counts as apart when ``gap`` is 0)?"""
    qa = pa.tolist()
    qb = pb.tolist()
    for q in (qa, qb):
        for i in (0, 1):  # a rectangle has two normals
            ex, ey = q[i + 1][0] - q[i][0], q[i + 1][1] - q[i][1]
            norm = math.hypot(ex, ey)
            nx, ny = -ey / norm, ex / norm
            a = [x * nx + y * ny for x, y in qa]
            b = [x * nx + y * ny for x, y in qb]
            if max(a) + gap <= min(b) + 1e-7 or max(b) + gap <= min(a) + 1e-7:
                return True
    return False


def _apply(h: F64, pts: F64) -> F64:
    q = np.column_stack([pts, np.ones(len(pts))]) @ h.T
    out: F64 = q[:, :2] / q[:, 2:3]
    return out


def _keystone(look: Look, width: int, height: int) -> F64:
    """Image-frame homography flat -> image: fixes the centre, scales by ``1 ± perspective``
    at the half diagonal along ``perspective_angle``."""
    cx, cy = width / 2.0, height / 2.0
    half_diag = math.hypot(cx, cy)
    k = look.perspective / half_diag
    a = math.radians(look.perspective_angle)
    kx, ky = k * math.cos(a), k * math.sin(a)
    to_c = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]], dtype=np.float64)
    back = np.array([[1, 0, cx], [0, 1, cy], [0, 0, 1]], dtype=np.float64)
    p = np.array([[1, 0, 0], [0, 1, 0], [kx, ky, 1]], dtype=np.float64)
    out: F64 = back @ p @ to_c
    return out


def _similarity(scale: float, angle_deg: float, centre: tuple[float, float]) -> F64:
    c, s = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    return np.array(
        [[scale * c, -scale * s, centre[0]], [scale * s, scale * c, centre[1]], [0, 0, 1]],
        dtype=np.float64,
    )


@dataclass(frozen=True, slots=True)
class _Frame:
    """Where things are drawn: ``plane -> flat`` (similarity), ``flat -> image`` (keystone),
    the canvas (flat + ``origin``) of ``size`` (w, h), and the image size."""

    to_flat: F64
    keystone: F64
    origin: tuple[float, float]
    size: tuple[int, int]
    image_size: tuple[int, int]

    @property
    def to_image(self) -> F64:
        out: F64 = self.keystone @ self.to_flat
        return out


def _frame(look: Look, width: int, height: int, angle_deg: float, centre: Point) -> _Frame:
    keystone = _keystone(look, width, height)
    img_corners = np.array([(0, 0), (width, 0), (width, height), (0, height)], dtype=np.float64)
    flat = _apply(np.asarray(np.linalg.inv(keystone), dtype=np.float64), img_corners)
    pad = 4.0
    lo = flat.min(axis=0) - pad
    hi = flat.max(axis=0) + pad
    origin = (-math.floor(lo[0]), -math.floor(lo[1]))
    size = (math.ceil(hi[0]) + origin[0], math.ceil(hi[1]) + origin[1])
    return _Frame(
        to_flat=_similarity(look.tile_width_px, angle_deg, centre),
        keystone=keystone,
        origin=(float(origin[0]), float(origin[1])),
        size=(int(size[0]), int(size[1])),
        image_size=(width, height),
    )


# ---------------------------------------------------------------------------------------------
# placing the tiles of a table


def _double_six(rng: np.random.Generator) -> list[tuple[int, int]]:
    tiles = [(a, b) for a in range(MAX_PIPS + 1) for b in range(a, MAX_PIPS + 1)]
    order = rng.permutation(len(tiles))
    return [tiles[int(i)] for i in order]


class _Table:
    """Places tiles on the plane: inside the image, apart from the tiles already placed."""

    def __init__(self, rng: np.random.Generator, look: Look, frame: _Frame) -> None:
        self.rng = rng
        self.length = look.tile_length
        self.frame = frame
        self.to_image = frame.to_image
        self.to_plane: F64 = np.asarray(np.linalg.inv(self.to_image), dtype=np.float64)
        self.margin = 2.0 + 0.12 * look.tile_width_px
        self.placed: list[_Tile] = []
        self.polys: list[F64] = []
        self.centres = np.zeros((0, 2), dtype=np.float64)
        # tiles whose centres are this far apart cannot touch (circumscribed circles)
        self.reach = 2.0 * math.hypot(self.length / 2, 0.5)
        self.pool: list[tuple[int, int]] = []

    def draw_values(self) -> tuple[int, int]:
        if not self.pool:
            self.pool = _double_six(self.rng)
        return self.pool.pop()

    def take_matching(self, end: int) -> tuple[int, int]:
        """A tile with ``end`` on it, as ``(end, other)``, or any tile if none is left."""
        if not self.pool:
            self.pool = _double_six(self.rng)
        for i, (a, b) in enumerate(self.pool):
            if end in (a, b):
                del self.pool[i]
                return (a, b) if a == end else (b, a)
        return self.pool.pop()

    def fits(self, t: _Tile, gap: float) -> bool:
        poly = _corners(t, self.length)
        img = _apply(self.to_image, poly)
        w, h = self.frame.image_size
        m = self.margin
        if (img < m).any() or (img[:, 0] > w - 1 - m).any() or (img[:, 1] > h - 1 - m).any():
            return False
        d = np.hypot(*(self.centres - np.asarray(t.center)).T)
        near = np.flatnonzero(d <= self.reach + gap).tolist()
        return all(_separated(poly, self.polys[i], gap) for i in near)

    def add(self, t: _Tile) -> None:
        self.placed.append(t)
        self.polys.append(_corners(t, self.length))
        self.centres = np.vstack([self.centres, np.asarray([t.center], dtype=np.float64)])

    def random_point(self, inset: float = 0.0) -> tuple[float, float]:
        """A plane point under a uniform image point ``inset`` (share of the size) in."""
        w, h = self.frame.image_size
        x = float(self.rng.uniform(w * inset, w * (1 - inset)))
        y = float(self.rng.uniform(h * inset, h * (1 - inset)))
        p = _apply(self.to_plane, np.array([[x, y]], dtype=np.float64))[0]
        return (float(p[0]), float(p[1]))

    def line(self, n: int) -> int:
        """A line of up to ``n`` tiles end to end, the pips of touching ends equal, doubles
        crosswise, turning by a right angle now and then and where the image ends. Returns the
        number placed."""
        if n <= 0:
            return 0
        rng = self.rng
        # touching, or laid a little apart (as some players do): up to a fifth of a width
        gap = 0.2 * float(rng.random()) ** 3
        for _ in range(60):
            start = self.random_point(0.2)
            heading = float(rng.choice([0.0, 0.5, 1.0, 1.5]) * math.pi)
            head = np.array(start)
            d = np.array([math.cos(heading), math.sin(heading)])
            first = self.draw_values()
            t = self._along(head, d, heading, first)
            if self.fits(t, 0.05):
                break
            self.pool.append(first)
        else:
            return 0
        self.add(t)
        end, placed, run = first[1], 1, 1
        head = head + d * (self._extent(first) + gap)
        last_double = first[0] == first[1]
        while placed < n:
            values = self.take_matching(end)
            double = values[0] == values[1]
            options: list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], float]] = []
            turn_first = run >= 3 and not last_double and rng.random() < 0.25
            straight = (head, d, heading)
            turns = []
            if not last_double and not double:
                for side in rng.permutation([-1.0, 1.0]).tolist():
                    nh = heading + side * math.pi / 2
                    nd = np.array([math.cos(nh), math.sin(nh)])
                    # The turned tile lies against the side of the last tile's outer half.
                    last_end = head - d * gap
                    nhead = last_end - d * 0.5 + nd * (0.5 + gap)
                    turns.append((nhead, nd, nh))
            options = [*turns, straight] if turn_first else [straight, *turns]
            for hd, dd, ang in options:
                t = self._along(hd, dd, ang, values)
                if self.fits(t, 0.0):
                    self.add(t)
                    run = 1 if ang != heading else run + 1
                    head, d, heading = hd + dd * (self._extent(values) + gap), dd, ang
                    break
            else:
                self.pool.append(values)
                return placed
            end = values[1]
            last_double = double
            placed += 1
        return placed

    def _extent(self, values: tuple[int, int]) -> float:
        return 1.0 if values[0] == values[1] else self.length

    def _along(
        self,
        head: npt.NDArray[np.float64],
        d: npt.NDArray[np.float64],
        heading: float,
        values: tuple[int, int],
    ) -> _Tile:
        """The tile laid from ``head`` along ``d``: a double crosswise, else half a first."""
        double = values[0] == values[1]
        c = head + d * (self._extent(values) / 2.0)
        angle = heading + math.pi / 2 if double else heading
        return _Tile((float(c[0]), float(c[1])), angle, values)

    def row(self, n: int, face_up: bool) -> int:
        """Up to ``n`` tiles side by side, touching along their long sides (a hand)."""
        rng = self.rng
        gap = float(rng.uniform(0.0, 0.03))
        while n >= 2:
            for _ in range(40):
                c = np.array(self.random_point(0.15))
                ang = float(rng.uniform(0, 2 * math.pi))
                q = np.array([-math.sin(ang), math.cos(ang)])
                tiles = [
                    _Tile(
                        (float(p[0]), float(p[1])),
                        ang + (math.pi if rng.random() < 0.5 else 0.0),
                        self.draw_values() if face_up else None,
                    )
                    for p in (c + q * (i - (n - 1) / 2) * (1.0 + gap) for i in range(n))
                ]
                if all(self.fits(t, 0.12) for t in tiles):
                    for t in tiles:
                        self.add(t)
                    return n
            n -= 1
        return 0

    def loose(self, face_up: bool) -> bool:
        rng = self.rng
        gap = float(rng.uniform(0.06, 0.5))
        for _ in range(150):
            t = _Tile(
                self.random_point(),
                float(rng.uniform(0, 2 * math.pi)),
                self.draw_values() if face_up else None,
            )
            if self.fits(t, gap):
                self.add(t)
                return True
        return False


def _default_count(rng: np.random.Generator, look: Look, width: int, height: int) -> int:
    per_tile = look.tile_width_px**2 * look.tile_length
    fill = float(rng.uniform(0.12, 0.35))
    return int(min(40, max(1, round(width * height * fill / per_tile))))


def _arrange(rng: np.random.Generator, table: _Table, n: int) -> None:
    """Up to ``n`` tiles: a line (most scenes of 3 or more), a row side by side (face down in
    some scenes of 6 or more), the rest loose, some face down; at least one face up."""
    n_line = 0
    if n >= 3 and rng.random() < 0.85:
        n_line = max(2, round(n * float(rng.uniform(0.3, 0.65))))
    rest = n - table.line(n_line)
    if rest >= 3 and rng.random() < 0.6:
        k = int(rng.integers(2, min(7, rest) + 1))
        rest -= table.row(k, face_up=n < 6 or rng.random() < 0.75)
    back_share = 0.0 if rng.random() < 0.35 else float(rng.uniform(0.15, 0.6))
    for _ in range(rest):
        some_up = any(t.pips is not None for t in table.placed)
        table.loose(face_up=not some_up or rng.random() >= back_share)


# ---------------------------------------------------------------------------------------------
# drawing


def _rounded(t: _Tile, length: float, radius: float, corner_pts: int) -> F64:
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


def _side_shift(look: Look, frame: _Frame, centre: F64) -> F64:
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


def _shadows(look: Look, frame: _Frame, footprints: list[F64]) -> U8:
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
    t: _Tile,
    c: F64,
    face: tuple[float, float, float],
) -> None:
    """Bar, spinner and pips of ``t`` (``c``: the plane -> canvas similarity)."""
    assert t.pips is not None
    w = look.tile_width_px
    # the tile's frame on the canvas: centre, and one tile width along its axis and across
    centre = _apply(c, np.array([t.center], dtype=np.float64))[0]
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


def _draw(rng: np.random.Generator, look: Look, frame: _Frame, tiles: list[_Tile]) -> tuple[U8, U8]:
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
        outline = _apply(to_canvas, _rounded(t, look.tile_length, radius, corner_pts))
        flat_c = _apply(frame.to_flat, np.array([t.center]))[0]
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


def _lit(rng: np.random.Generator, look: Look, frame: _Frame, canvas: U8, mask: U8) -> U8:
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


def _camera(rng: np.random.Generator, look: Look, frame: _Frame, canvas: U8) -> U8:
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


def _render(rng: np.random.Generator, look: Look, frame: _Frame, tiles: list[_Tile]) -> U8:
    canvas, mask = _draw(rng, look, frame, tiles)
    canvas = _lit(rng, look, frame, canvas, mask)
    return _camera(rng, look, frame, canvas)


def _truth(look: Look, frame: _Frame, t: _Tile) -> SyntheticTile:
    assert t.pips is not None
    g = frame.to_image
    ax, ay = math.cos(t.angle), math.sin(t.angle)
    q = look.tile_length / 4
    halves = np.array(
        [(t.center[0] - ax * q, t.center[1] - ay * q), (t.center[0] + ax * q, t.center[1] + ay * q)]
    )
    c = _apply(g, halves)
    k = _apply(g, _corners(t, look.tile_length))
    pts = [(float(x), float(y)) for x, y in k]
    return SyntheticTile(
        pips=t.pips,
        centers=((float(c[0, 0]), float(c[0, 1])), (float(c[1, 0]), float(c[1, 1]))),
        corners=(pts[0], pts[1], pts[2], pts[3]),
    )


def _back(look: Look, frame: _Frame, t: _Tile) -> FaceDown:
    g = frame.to_image
    c = _apply(g, np.array([t.center]))[0]
    k = _apply(g, _corners(t, look.tile_length))
    pts = [(float(x), float(y)) for x, y in k]
    return FaceDown((float(c[0]), float(c[1])), (pts[0], pts[1], pts[2], pts[3]))


# ---------------------------------------------------------------------------------------------
# the two kinds of photo


def render_crop(seed: int, look: Look | None = None) -> tuple[U8, SyntheticTile]:
    """A photo of one face-up tile: ``(image, truth)``, ``image`` (H, W, 3) uint8 BGR.

    The tile's length is 40-70% of the image's long side (100-400 px for the looks of
    :func:`crop_look`; a given look's ``tile_width_px`` sets the size), at any angle, wholly
    inside the image. Deterministic from ``seed`` and ``look`` (default ``crop_look(seed)``).
    """
    look = look if look is not None else crop_look(seed)
    rng = np.random.default_rng([seed, _SCENE_STREAM, _CROP])
    w, length = look.tile_width_px, look.tile_length
    tile_px = w * length
    lo = max(CROP_FILL[0], tile_px / CROP_SIDE[1])
    hi = min(CROP_FILL[1], tile_px / CROP_SIDE[0])
    # smaller shares are the commoner: most photos of one tile leave room around it
    fill = lo + (hi - lo) * float(rng.random()) ** 1.6 if lo < hi else min(lo, CROP_FILL[1])
    fill = min(max(fill, CROP_FILL[0]), CROP_FILL[1])
    side = max(16, round(tile_px / fill))
    angle = look.rotation
    a = math.radians(angle)
    # the tile's axis-aligned extent at that angle, with room for its side and shadow
    ext = (
        abs(math.cos(a)) * length * w + abs(math.sin(a)) * w,
        abs(math.sin(a)) * length * w + abs(math.cos(a)) * w,
    )
    room = 0.3 * w + 4
    short = side if rng.random() < 0.75 else round(side * float(rng.uniform(0.75, 1.0)))
    if rng.random() < 0.5:
        width, height = side, max(short, math.ceil(ext[1] + 2 * room))
    else:
        width, height = max(short, math.ceil(ext[0] + 2 * room)), side
    width = max(width, math.ceil(ext[0] + 2 * room))
    height = max(height, math.ceil(ext[1] + 2 * room))
    free_x = max(0.0, (width - ext[0]) / 2 - room)
    free_y = max(0.0, (height - ext[1]) / 2 - room)
    centre = (
        width / 2 + float(rng.uniform(-free_x, free_x)),
        height / 2 + float(rng.uniform(-free_y, free_y)),
    )
    frame = _frame(look, width, height, angle, centre)
    values = (int(rng.integers(0, MAX_PIPS + 1)), int(rng.integers(0, MAX_PIPS + 1)))
    tile = _Tile((0.0, 0.0), 0.0, values)
    image = _render(rng, look, frame, [tile])
    return image, _truth(look, frame, tile)


def render_table(
    seed: int,
    look: Look | None = None,
    width: int = 1280,
    height: int = 720,
    n_tiles: int | None = None,
) -> TablePhoto:
    """A photo of a table: ``TablePhoto(image, tiles, backs)``, ``image`` (height, width, 3)
    uint8 BGR.

    Up to ``n_tiles`` tiles (default: as many as cover 12-35% of the image, at most 40) that do
    not overlap and lie wholly inside the image: a line end to end (touching ends equal,
    doubles crosswise, right-angle turns), a row touching side by side, loose tiles at any
    angle; some face down (``backs``, not in ``tiles``). Tiles that find no room are left out.
    Deterministic from the arguments (``look`` default ``table_look(seed, width, height)``).
    """
    if width < 32 or height < 32:
        raise ValueError(f"image too small: {width}x{height}")
    if n_tiles is not None and n_tiles < 0:
        raise ValueError(f"n_tiles must be 0 or more, got {n_tiles}")
    look = look if look is not None else table_look(seed, width, height)
    rng = np.random.default_rng([seed, _SCENE_STREAM, _TABLE])
    frame = _frame(look, width, height, look.rotation, (width / 2, height / 2))
    table = _Table(rng, look, frame)
    n = n_tiles if n_tiles is not None else _default_count(rng, look, width, height)
    _arrange(rng, table, n)
    image = _render(rng, look, frame, table.placed)
    tiles = tuple(_truth(look, frame, t) for t in table.placed if t.pips is not None)
    backs = tuple(_back(look, frame, t) for t in table.placed if t.pips is None)
    return TablePhoto(image, tiles, backs)


def look_json(look: Look) -> dict[str, Any]:
    """``look`` as JSON-ready values (floats rounded to 4 places)."""

    def clean(v: Any) -> Any:
        if isinstance(v, float):
            return round(v, 4)
        if isinstance(v, tuple | list):
            return [clean(x) for x in v]
        return v

    return {k: clean(v) for k, v in asdict(look).items()}


def _tile_json(t: SyntheticTile) -> dict[str, Any]:
    r = 3
    return {
        "halves": [
            {"center": [round(c[0], r), round(c[1], r)], "pips": n}
            for c, n in zip(t.centers, t.pips, strict=True)
        ],
        "corners": [[round(x, r), round(y, r)] for x, y in t.corners],
    }


def tile_truth_json(tile: SyntheticTile, look: Look) -> dict[str, Any]:
    """A crop's truth, as one image of the generic truth format (:mod:`devtools.evaluation.truth`)
    less its ``"image"`` key: the tile (half centres, pips, corners) and the look."""
    return {
        "pip_diameter_px": round(look.pip_diameter * look.tile_width_px, 3),
        "tiles": [_tile_json(tile)],
        "look": look_json(look),
    }


def table_truth_json(image_name: str, photo: TablePhoto, look: Look) -> dict[str, Any]:
    """One image of the generic truth format (:mod:`devtools.evaluation.truth`): the face-up
    tiles with half centres, pips and corners; the face-down ones under ``"backs"`` (not
    tiles), and the look."""
    r = 3
    return {
        "image": image_name,
        "pip_diameter_px": round(look.pip_diameter * look.tile_width_px, r),
        "tiles": [_tile_json(t) for t in photo.tiles],
        "backs": [
            {
                "center": [round(b.center[0], r), round(b.center[1], r)],
                "corners": [[round(x, r), round(y, r)] for x, y in b.corners],
            }
            for b in photo.backs
        ],
        "look": look_json(look),
    }
