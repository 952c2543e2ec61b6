"""Tiles as placed on the table (millimetres) and how to draw them top-down.

A :class:`PlacedTile` is a pose: the centre, the angle of its axis (from half ``a`` to half ``b``),
the size. Drawing happens on a top-down canvas (``px_per_mm`` pixels per millimetre, canvas pixel
``(0, 0)`` at table point ``(-margin, -margin)``) that the camera model then warps into the view.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.types import Point

Image = npt.NDArray[np.uint8]

#: Pip positions of one half, ``(u, v)`` in [-1, 1]: ``u`` along the tile's axis, ``v`` across.
PIP_LAYOUTS: dict[int, tuple[tuple[int, int], ...]] = {
    0: (),
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    6: ((-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)),
    7: ((-1, -1), (0, -1), (1, -1), (0, 0), (-1, 1), (0, 1), (1, 1)),
    8: ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)),
    9: tuple((u, v) for u in (-1, 0, 1) for v in (-1, 0, 1)),
}


class RenderError(VisionError, ValueError):
    """A record or parameter the renderer cannot draw (unknown pip count, line does not fit...)."""


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile lying on the table: half ``a`` of ``pips = (a, b)`` lies at ``-axis``, ``b`` at
    ``+axis``."""

    pips: tuple[int, int]
    center: Point
    angle: float  # degrees, axis direction from half a to half b (x right, y down)
    length: float = 50.0
    width: float = 25.0
    face_up: bool = True

    @property
    def axis(self) -> Point:
        r = math.radians(self.angle)
        return (math.cos(r), math.sin(r))

    @property
    def half_centers(self) -> tuple[Point, Point]:
        ax, ay = self.axis
        q = self.length / 4.0
        cx, cy = self.center
        return ((cx - ax * q, cy - ay * q), (cx + ax * q, cy + ay * q))

    @property
    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Outline, going round: half a's two corners, then half b's."""
        ax, ay = self.axis
        px, py = -ay, ax
        hl, hw = self.length / 2.0, self.width / 2.0
        cx, cy = self.center
        return (
            (cx - ax * hl - px * hw, cy - ay * hl - py * hw),
            (cx - ax * hl + px * hw, cy - ay * hl + py * hw),
            (cx + ax * hl + px * hw, cy + ay * hl + py * hw),
            (cx + ax * hl - px * hw, cy + ay * hl - py * hw),
        )

    @property
    def name(self) -> str:
        return f"{self.pips[0]}-{self.pips[1]}"


def check_pips(n: int) -> None:
    if n not in PIP_LAYOUTS:
        raise RenderError(f"cannot draw {n} pips: layouts exist for 0-9")


@dataclass(frozen=True, slots=True)
class TileStyle:
    """Colours are BGR. Sizes are millimetres."""

    body: tuple[int, int, int] = (228, 236, 240)
    edge: tuple[int, int, int] = (150, 158, 165)
    pip: tuple[int, int, int] = (28, 28, 32)
    divider: tuple[int, int, int] = (45, 45, 50)
    divider_mm: float = 1.3  # real sets: a painted groove of about a millimetre
    back: tuple[int, int, int] = (38, 42, 48)
    pip_diameter: float = 5.0
    pip_spacing: float = 0.28  # offset of the outer pips from the half's centre, x tile width
    corner_radius: float = 2.5
    drop_shadow: tuple[float, float] = (1.2, 1.8)


class Canvas:
    """Maps table millimetres to canvas pixels (``x_px = (x_mm + margin) * px_per_mm``)."""

    def __init__(self, px_per_mm: float, margin: float, width_mm: float, height_mm: float) -> None:
        self.s = px_per_mm
        self.margin = margin
        self.size = (
            round((width_mm + 2 * margin) * px_per_mm),
            round((height_mm + 2 * margin) * px_per_mm),
        )

    def px(self, points: npt.ArrayLike) -> npt.NDArray[np.float64]:
        return (np.asarray(points, dtype=np.float64) + self.margin) * self.s

    def ipx(self, points: npt.ArrayLike) -> npt.NDArray[np.int32]:
        """Fixed-point (4 fractional bits) pixel coordinates for OpenCV's ``shift=4`` drawing."""
        return np.round(self.px(points) * 16.0).astype(np.int32)

    def to_table_matrix(self) -> npt.NDArray[np.float64]:
        """3x3 homogeneous map canvas pixels -> table mm."""
        inv = 1.0 / self.s
        return np.array(
            [[inv, 0, -self.margin], [0, inv, -self.margin], [0, 0, 1]], dtype=np.float64
        )


def _rounded_outline(tile: PlacedTile, radius: float) -> npt.NDArray[np.float64]:
    """The tile's outline with rounded corners, as a polygon in mm."""
    ax, ay = tile.axis
    px, py = -ay, ax
    hl, hw = tile.length / 2.0 - radius, tile.width / 2.0 - radius
    pts: list[tuple[float, float]] = []
    for su, sv, start in ((1, 1, 0), (-1, 1, 90), (-1, -1, 180), (1, -1, 270)):
        cu, cv = su * hl, sv * hw
        for k in range(4):
            a = math.radians(start + k * 30)
            u = cu + radius * math.cos(a)
            v = cv + radius * math.sin(a)
            pts.append((tile.center[0] + ax * u + px * v, tile.center[1] + ay * u + py * v))
    return np.asarray(pts, dtype=np.float64)


def draw_tile_base(canvas_img: Image, canvas: Canvas, tile: PlacedTile, style: TileStyle) -> None:
    """The tile's drop shadow and its footprint in the colour of its sides (seen where the raised
    top face, drawn next, does not cover it)."""
    import cv2

    outline = _rounded_outline(tile, style.corner_radius)
    shadow = outline + np.asarray(style.drop_shadow)
    cv2.fillPoly(canvas_img, [canvas.ipx(shadow)], (0, 0, 0), cv2.LINE_AA, shift=4)
    side = tuple(int(c * 0.72) for c in (style.body if tile.face_up else style.back))
    cv2.fillPoly(canvas_img, [canvas.ipx(outline)], side, cv2.LINE_AA, shift=4)


def draw_tile(
    canvas_img: Image, canvas: Canvas, tile: PlacedTile, style: TileStyle, *, shadow: bool = True
) -> None:
    """Draw ``tile`` onto ``canvas_img`` in place: drop shadow, body, bevel, divider and pips."""
    import cv2

    outline = _rounded_outline(tile, style.corner_radius)
    if shadow:
        drop = outline + np.asarray(style.drop_shadow)
        cv2.fillPoly(canvas_img, [canvas.ipx(drop)], (0, 0, 0), cv2.LINE_AA, shift=4)
    poly = canvas.ipx(outline)
    if not tile.face_up:
        cv2.fillPoly(canvas_img, [poly], style.back, cv2.LINE_AA, shift=4)
        cv2.polylines(canvas_img, [poly], True, (20, 20, 24), 1, cv2.LINE_AA, shift=4)
        return
    cv2.fillPoly(canvas_img, [poly], style.body, cv2.LINE_AA, shift=4)
    # bevel: a darker rim, lighter towards the light (top-left)
    rim = max(1, round(0.9 * canvas.s))
    cv2.polylines(canvas_img, [poly], True, style.edge, rim, cv2.LINE_AA, shift=4)
    ax, ay = tile.axis
    px, py = -ay, ax
    cx, cy = tile.center
    hw = tile.width / 2.0 * 0.84
    divider = [(cx - px * hw, cy - py * hw), (cx + px * hw, cy + py * hw)]
    d = canvas.ipx(divider)
    thick = max(1, round(style.divider_mm * canvas.s))
    cv2.line(canvas_img, tuple(d[0]), tuple(d[1]), style.divider, thick, cv2.LINE_AA, shift=4)
    radius = round(style.pip_diameter / 2.0 * canvas.s * 16.0)
    g = style.pip_spacing * tile.width
    for pips, (hx, hy) in zip(tile.pips, tile.half_centers, strict=True):
        check_pips(pips)
        for u, v in PIP_LAYOUTS[pips]:
            p = canvas.ipx([(hx + (ax * u + px * v) * g, hy + (ay * u + py * v) * g)])[0]
            cv2.circle(
                canvas_img, (int(p[0]), int(p[1])), radius, style.pip, -1, cv2.LINE_AA, shift=4
            )


def rects_overlap(a: PlacedTile, b: PlacedTile, gap: float = 0.0) -> bool:
    """Do two tiles' outlines overlap (separating-axis test), allowing ``gap`` mm of touching?"""
    pa = np.asarray(a.corners)
    pb = np.asarray(b.corners)
    for poly in (pa, pb):
        for i in range(4):
            edge = poly[(i + 1) % 4] - poly[i]
            normal = np.array([-edge[1], edge[0]])
            n = float(np.hypot(*normal))
            if n == 0:
                continue
            normal /= n
            proj_a = pa @ normal
            proj_b = pb @ normal
            if proj_a.max() <= proj_b.min() + gap or proj_b.max() <= proj_a.min() + gap:
                return False
    return True
