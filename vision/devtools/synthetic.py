"""Synthetic scenes of tiles on a table, drawn with OpenCV, deterministic from a seed.

For tests and benchmarks of recognition: white rounded tiles with a dividing bar and standard
pip layouts (0-9), a line of tiles touching end to end with doubles laid crosswise, a hand of
tiles touching side by side, a few loose tiles at any angle, on a textured table background,
seen through a mild perspective, blurred and noisy. The truth (half centres and pips, tile
corners, in image pixels) comes from the generator's inputs, not from any reader.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.layouts import variants
from vision.types import Point

U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]

#: Pip diameter and pip spacing as fractions of the tile width (typical of real sets).
PIP_DIAMETER_REL = 0.17
PIP_SPACING_REL = 0.27
BAR_THICKNESS_REL = 0.08
_SS = 4  # sub-pixel bits for OpenCV drawing
_TABLE_COLOURS = ((40, 90, 30), (30, 60, 110), (70, 70, 70), (110, 60, 20), (25, 45, 60))


@dataclass(frozen=True, slots=True)
class SyntheticTile:
    """One drawn tile: ``pips`` per half, half ``centers`` and ``corners`` in image pixels."""

    pips: tuple[int, int]
    centers: tuple[Point, Point]
    corners: tuple[Point, Point, Point, Point]


@dataclass(frozen=True, slots=True)
class SyntheticScene:
    image: U8  # (H, W, 3) BGR
    tiles: tuple[SyntheticTile, ...]
    tile_width_px: float
    pip_diameter_px: float

    def truth_json(self, image_name: str) -> dict[str, object]:
        """This scene in the generic truth format of :mod:`vision.devtools.evaluation.truth`."""
        return {
            "image": image_name,
            "pip_diameter_px": round(self.pip_diameter_px, 3),
            "tiles": [
                {
                    "halves": [
                        {"center": [round(c[0], 3), round(c[1], 3)], "pips": n}
                        for c, n in zip(t.centers, t.pips, strict=True)
                    ]
                }
                for t in self.tiles
            ],
        }


@dataclass(frozen=True, slots=True)
class _Placed:
    center: tuple[float, float]  # plane units (tile width = 1)
    angle: float  # long axis direction, radians
    pips: tuple[int, int]


def render_scene(
    seed: int,
    *,
    width: int = 1280,
    height: int = 720,
    n_tiles: int = 28,
    tile_width_px: float | None = None,
    pip_diameter_px: float | None = None,
    max_pips: int = 6,
    rotation_deg: float | None = None,
    perspective: float = 0.05,
    noise: float = 4.0,
    blur: float = 0.6,
    tiles: tuple[tuple[int, int], ...] | None = None,
) -> SyntheticScene:
    """Draw a scene. ``tiles`` forces the pip values (else random up to ``max_pips``: a
    double-six set unless told).

    The tile width is ``tile_width_px``, or ``pip_diameter_px / PIP_DIAMETER_REL``, or drawn
    at random in 26-40 px. Raises ``ValueError`` if the tiles do not fit in the image.
    """
    rng = np.random.default_rng(seed)
    values = list(tiles) if tiles is not None else _random_values(rng, n_tiles, max_pips)
    n = len(values)
    if tile_width_px is None:
        tile_width_px = (
            pip_diameter_px / PIP_DIAMETER_REL
            if pip_diameter_px is not None
            else float(rng.uniform(26, 40))
        )
    w_px = float(tile_width_px)
    placed = _arrange(rng, values, units_wide=width * 0.8 / w_px)
    angle = math.radians(rotation_deg if rotation_deg is not None else rng.uniform(-12, 12))
    homography = _camera(rng, placed, w_px, (width, height), angle=angle, perspective=perspective)
    image = _background(rng, width, height)
    # All shadows first: a tile never casts a shadow onto a neighbour of the same height.
    for t in placed:
        _fill(image, _outline(homography, t) + np.array([0.05, 0.06]) * w_px, (30, 30, 30), 0.45)
    drawn = [_draw_tile(rng, image, homography, t, w_px) for t in placed]
    if blur > 0:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), blur), dtype=np.uint8)
    if noise > 0:
        noisy = image.astype(np.float64) + rng.normal(0, noise, image.shape)
        image = np.clip(noisy, 0, 255).astype(np.uint8)
    if len(drawn) != n:  # pragma: no cover - defensive
        raise RuntimeError("tile lost while drawing")
    return SyntheticScene(image, tuple(drawn), w_px, w_px * PIP_DIAMETER_REL)


def _random_values(rng: np.random.Generator, n: int, max_pips: int) -> list[tuple[int, int]]:
    return [
        (int(rng.integers(0, max_pips + 1)), int(rng.integers(0, max_pips + 1))) for _ in range(n)
    ]


def _arrange(
    rng: np.random.Generator, values: list[tuple[int, int]], units_wide: float
) -> list[_Placed]:
    """A snake of rows (end to end, doubles crosswise), a hand side by side, loose tiles."""
    n = len(values)
    n_hand = min(7, n // 4)
    n_loose = min(4, n // 6)
    n_line = n - n_hand - n_loose
    cap = max(4.0, units_wide)
    out: list[_Placed] = []
    x, row, direction = 0.0, 0, 1.0
    gap = float(rng.uniform(0.0, 0.03))
    for a, b in values[:n_line]:
        double = a == b
        extent = 1.0 if double else 2.0
        if x + extent > cap:
            x, row, direction = 0.0, row + 1, -direction
        cx = x + extent / 2 if direction > 0 else cap - x - extent / 2
        ang = math.pi / 2 if double else (0.0 if direction > 0 else math.pi)
        out.append(_Placed((cx, row * 2.6), ang, (a, b)))
        x += extent + gap
    y0 = (row + 1) * 2.6 + 0.4
    for i, (a, b) in enumerate(values[n_line : n_line + n_hand]):
        out.append(_Placed((0.5 + i * (1.0 + gap), y0), math.pi / 2, (a, b)))
    for a, b in values[n_line + n_hand :]:
        for _ in range(200):
            c = (float(rng.uniform(1.5, cap - 1.5)), float(rng.uniform(y0 - 1.0, y0 + 5.0)))
            if c[0] < n_hand + 1.5 and c[1] < y0 + 2.2:
                continue
            if all(math.hypot(c[0] - t.center[0], c[1] - t.center[1]) > 2.4 for t in out):
                out.append(_Placed(c, float(rng.uniform(0, 2 * math.pi)), (a, b)))
                break
        else:
            raise ValueError("no room for a loose tile")
    return out


def _camera(
    rng: np.random.Generator,
    placed: list[_Placed],
    w_px: float,
    size: tuple[int, int],
    *,
    angle: float,
    perspective: float,
) -> F64:
    """Homography plane units -> image pixels: rotate, scale, centre, mild keystone."""
    width, height = size
    pts = np.array([t.center for t in placed])
    lo, hi = pts.min(axis=0) - 1.2, pts.max(axis=0) + 1.2
    mid = (lo + hi) / 2
    c, s = math.cos(angle), math.sin(angle)
    to_origin = np.array([[1, 0, -mid[0]], [0, 1, -mid[1]], [0, 0, 1]], dtype=np.float64)
    rot = np.array([[c * w_px, -s * w_px, 0], [s * w_px, c * w_px, 0], [0, 0, 1]])
    px, py = rng.uniform(-perspective, perspective, 2) / max(width, height)
    keystone = np.array([[1, 0, 0], [0, 1, 0], [px, py, 1]])
    shift = np.array([[1, 0, width / 2], [0, 1, height / 2], [0, 0, 1]])
    h: F64 = shift @ keystone @ rot @ to_origin
    corners = np.array([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]])
    mapped = _apply(h, corners)
    if (mapped < 0).any() or (mapped[:, 0] >= width).any() or (mapped[:, 1] >= height).any():
        raise ValueError(f"{len(placed)} tiles of {w_px:.1f} px do not fit in {width}x{height}")
    return h


def _apply(h: F64, pts: F64) -> F64:
    q = np.column_stack([pts, np.ones(len(pts))]) @ h.T
    out: F64 = q[:, :2] / q[:, 2:3]
    return out


def _background(rng: np.random.Generator, width: int, height: int) -> U8:
    base = np.array(_TABLE_COLOURS[int(rng.integers(len(_TABLE_COLOURS)))], dtype=np.float64)
    low = cv2.resize(rng.normal(0, 12, (6, 10)), (width, height), interpolation=cv2.INTER_CUBIC)
    ramp = np.linspace(-15, 15, width)[None, :] * float(rng.uniform(-1, 1))
    grain = rng.normal(0, 5, (height, width))
    shade = (low + ramp + grain)[:, :, None]
    return np.clip(base[None, None, :] + shade, 0, 255).astype(np.uint8)


def _draw_tile(
    rng: np.random.Generator, image: U8, h: F64, t: _Placed, w_px: float
) -> SyntheticTile:
    ux, uy = math.cos(t.angle), math.sin(t.angle)
    vx, vy = -uy, ux
    cx, cy = t.center

    def plane(a: float, b: float) -> tuple[float, float]:
        return (cx + a * ux + b * vx, cy + a * uy + b * vy)

    img_outline = _outline(h, t)
    body = int(rng.integers(228, 250))
    _fill(image, img_outline, (body - 4, body, body + 2))
    cv2.polylines(image, [_fixed(img_outline)], True, (150, 150, 150), 1, cv2.LINE_AA, _SS)
    t2 = BAR_THICKNESS_REL / 2
    bar = np.array([plane(-t2, -0.37), plane(t2, -0.37), plane(t2, 0.37), plane(-t2, 0.37)])
    _fill(image, _apply(h, bar), (40, 40, 45))
    centers: list[Point] = []
    for sign, n in zip((-1.0, 1.0), t.pips, strict=True):
        hc = plane(sign * 0.5, 0.0)
        mapped = _apply(h, np.array([hc]))[0]
        centers.append((float(mapped[0]), float(mapped[1])))
        if n == 0:
            continue
        images = variants(n)
        pts = images[int(rng.integers(len(images)))] * PIP_SPACING_REL
        plane_pts = np.array([plane(sign * 0.5 + px, py) for px, py in pts])
        for x, y in _apply(h, plane_pts):
            radius = PIP_DIAMETER_REL * w_px / 2
            cv2.circle(
                image,
                _fixed((x, y)).tolist(),
                round(radius * (1 << _SS)),
                (25, 25, 30),
                -1,
                cv2.LINE_AA,
                _SS,
            )
    corners_plane = np.array([plane(-1, -0.5), plane(1, -0.5), plane(1, 0.5), plane(-1, 0.5)])
    cs = [tuple(p) for p in _apply(h, corners_plane).tolist()]
    return SyntheticTile(
        pips=(t.pips[0], t.pips[1]),
        centers=(centers[0], centers[1]),
        corners=(
            (cs[0][0], cs[0][1]),
            (cs[1][0], cs[1][1]),
            (cs[2][0], cs[2][1]),
            (cs[3][0], cs[3][1]),
        ),
    )


def _outline(h: F64, t: _Placed) -> F64:
    """The rounded outline of a tile in image pixels."""
    ux, uy = math.cos(t.angle), math.sin(t.angle)
    cx, cy = t.center
    plane = [(cx + a * ux - b * uy, cy + a * uy + b * ux) for a, b in _rounded_rect(1.0, 0.5, 0.09)]
    return _apply(h, np.array(plane))


def _rounded_rect(half_len: float, half_wid: float, radius: float) -> list[tuple[float, float]]:
    pts: list[tuple[float, float]] = []
    for (sx, sy), start in (((1, 1), 0), ((-1, 1), 90), ((-1, -1), 180), ((1, -1), 270)):
        ox, oy = sx * (half_len - radius), sy * (half_wid - radius)
        for k in range(6):
            a = math.radians(start + 18 * k)
            pts.append((ox + radius * math.cos(a), oy + radius * math.sin(a)))
    return pts


def _fixed(pt: tuple[float, float] | F64) -> npt.NDArray[np.int32]:
    return np.rint(np.asarray(pt, dtype=np.float64) * (1 << _SS)).astype(np.int32)


def _fill(image: U8, poly: F64, colour: tuple[int, int, int], blend: float = 1.0) -> None:
    if blend >= 1.0:
        cv2.fillPoly(image, [_fixed(poly)], colour, cv2.LINE_AA, _SS)
        return
    layer = image.copy()
    x0, y0 = np.floor(poly.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(poly.max(axis=0)).astype(int) + 2
    x0, y0 = max(x0, 0), max(y0, 0)
    cv2.fillPoly(layer, [_fixed(poly)], colour, cv2.LINE_AA, _SS)
    roi = (slice(y0, y1), slice(x0, x1))
    image[roi] = cv2.addWeighted(image[roi], 1 - blend, layer[roi], blend, 0)


def face_down_pile(back: tuple[int, int, int], seed: int = 1, n_tiles: int = 30) -> U8:
    """A 1280x720 BGR pile of ``n_tiles`` face-down tiles of colour ``back`` (no pips, no
    bar), lying over each other at any angle on a green table, deterministic from ``seed``:
    what a reader must read no tile on (light backs are the hard case: their overlaps look
    like bars and faces)."""
    rng = np.random.default_rng(seed)
    image = np.full((720, 1280, 3), (40, 90, 30), np.uint8)
    outline = np.array(_rounded_rect(1.0, 0.5, 0.09))
    for _ in range(n_tiles):
        cx, cy = rng.uniform(300, 980), rng.uniform(200, 520)
        a = rng.uniform(0, math.pi)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        pts = np.rint(outline @ rot.T * 34 + (cx, cy)).astype(np.int32)
        cv2.fillPoly(image, [pts], back, cv2.LINE_AA)
        cv2.polylines(image, [pts], True, (90, 90, 90), 1, cv2.LINE_AA)
    return image


def degraded(image: U8, sigma: float, jpeg: int) -> U8:
    """``image`` blurred by ``sigma`` px (0: not), and with ``jpeg`` > 0 noisy (Gaussian,
    sigma 4, seeded) and JPEG-compressed at that quality."""
    out: U8 = cv2.GaussianBlur(image, (0, 0), sigma).astype(np.uint8) if sigma else image
    if jpeg:
        noise = np.random.default_rng(0).normal(0, 4, out.shape)
        out = np.clip(out + noise, 0, 255).astype(np.uint8)
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR) if ok else None
        if decoded is None:
            raise RuntimeError("OpenCV could not encode and decode a JPEG")
        out = decoded.astype(np.uint8)
    return out
