"""The plane a photo's tiles lie on (:mod:`vision.devtools.render.photos`), and how it maps into the
image: a tile's pose on the plane (unit: the tile width), its top face's corners, whether two
faces are apart, and the frame of a photo (plane -> flat similarity, flat -> image keystone, the
canvas the scene is drawn on)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from vision.devtools.render.looks import Look
from vision.types import Point

F64 = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class PlaneTile:
    """A tile on the plane (unit: the tile width): half ``a`` at ``-axis``, ``b`` at ``+axis``."""

    center: tuple[float, float]
    angle: float  # radians, the axis from half a to half b
    pips: tuple[int, int] | None  # None: face down


def face_corners(t: PlaneTile, length: float) -> F64:
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


def tiles_apart(pa: F64, pb: F64, gap: float) -> bool:
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


def apply_homography(h: F64, pts: F64) -> F64:
    """Points ``(N, 2)`` mapped by the 3x3 homography ``h``."""
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
class PhotoFrame:
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


def photo_frame(look: Look, width: int, height: int, angle_deg: float, centre: Point) -> PhotoFrame:
    """The frame of a ``width`` x ``height`` photo whose plane is turned by ``angle_deg``,
    scaled to ``look``'s tile width, with the plane's origin at image point ``centre``; its
    canvas covers the whole image after ``look``'s keystone."""
    keystone = _keystone(look, width, height)
    img_corners = np.array([(0, 0), (width, 0), (width, height), (0, height)], dtype=np.float64)
    flat = apply_homography(np.asarray(np.linalg.inv(keystone), dtype=np.float64), img_corners)
    pad = 4.0
    lo = flat.min(axis=0) - pad
    hi = flat.max(axis=0) + pad
    origin = (-math.floor(lo[0]), -math.floor(lo[1]))
    size = (math.ceil(hi[0]) + origin[0], math.ceil(hi[1]) + origin[1])
    return PhotoFrame(
        to_flat=_similarity(look.tile_width_px, angle_deg, centre),
        keystone=keystone,
        origin=(float(origin[0]), float(origin[1])),
        size=(int(size[0]), int(size[1])),
        image_size=(width, height),
    )
