"""A virtual overhead camera: the homography from table millimetres to image pixels.

A pinhole camera above the table's centre, tilted by ``tilt_deg`` about the table's x axis
(perspective foreshortening) and turned by ``yaw_deg``, then scaled so the table fills ``fill`` of
the image height. The table is flat, so a homography is the exact projection; points above the
table (a tile's top face) are handled by :func:`raise_point` through the camera's centre.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from vision.calibration.geometry import TableGeometry
from vision.types import Point


def _rotation(tilt_deg: float, yaw_deg: float) -> npt.NDArray[np.float64]:
    t = math.radians(tilt_deg)
    y = math.radians(yaw_deg)
    # camera looking straight down: camera x = table x, camera y = table y, depth = height
    r0 = np.diag([1.0, 1.0, -1.0])
    rx = np.array([[1, 0, 0], [0, math.cos(t), -math.sin(t)], [0, math.sin(t), math.cos(t)]])
    rz = np.array([[math.cos(y), -math.sin(y), 0], [math.sin(y), math.cos(y), 0], [0, 0, 1]])
    return np.asarray(rz @ rx @ r0, dtype=np.float64)


def _centre(
    geometry: TableGeometry, rot: npt.NDArray[np.float64], distance_factor: float
) -> npt.NDArray[np.float64]:
    target = np.array([geometry.width / 2.0, geometry.height / 2.0, 0.0])
    dist = distance_factor * max(geometry.width, geometry.height)
    return np.asarray(target - dist * (rot.T @ np.array([0.0, 0.0, 1.0])), dtype=np.float64)


def camera_centre(
    geometry: TableGeometry,
    *,
    tilt_deg: float = 8.0,
    yaw_deg: float = 0.0,
    distance_factor: float = 1.6,
) -> tuple[float, float, float]:
    """Where the virtual camera is, in table mm (z: its height above the table)."""
    c = _centre(geometry, _rotation(tilt_deg, yaw_deg), distance_factor)
    return (float(c[0]), float(c[1]), float(c[2]))


def raise_point(p: Point, height: float, centre: tuple[float, float, float]) -> Point:
    """The table point that the camera sees in line with ``p`` lifted by ``height`` mm: drawing a
    raised surface there on the table plane gives its exact image (parallax)."""
    cx, cy, cz = centre
    k = cz / (cz - height)
    return (cx + (p[0] - cx) * k, cy + (p[1] - cy) * k)


def camera_homography(
    geometry: TableGeometry,
    width: int,
    height: int,
    *,
    tilt_deg: float = 8.0,
    yaw_deg: float = 0.0,
    distance_factor: float = 1.6,
    fill: float = 0.96,
) -> npt.NDArray[np.float64]:
    """3x3 homography table mm -> image px for the virtual camera."""
    rot = _rotation(tilt_deg, yaw_deg)
    centre = _centre(geometry, rot, distance_factor)
    h0 = np.column_stack([rot[:, 0], rot[:, 1], -rot @ centre])
    corners = np.array(
        [
            [0, 0, 1],
            [geometry.width, 0, 1],
            [geometry.width, geometry.height, 1],
            [0, geometry.height, 1],
        ],
        dtype=np.float64,
    ).T
    proj = h0 @ corners
    xy = proj[:2] / proj[2]
    span_x = float(xy[0].max() - xy[0].min())
    span_y = float(xy[1].max() - xy[1].min())
    s = min(fill * height / span_y, fill * width / span_x)
    ox = width / 2.0 - s * float(xy[0].max() + xy[0].min()) / 2.0
    oy = height / 2.0 - s * float(xy[1].max() + xy[1].min()) / 2.0
    fit = np.array([[s, 0, ox], [0, s, oy], [0, 0, 1]], dtype=np.float64)
    h = fit @ h0
    return np.asarray(h / h[2, 2], dtype=np.float64)
