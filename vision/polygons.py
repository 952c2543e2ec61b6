"""Convex polygons: the area two of them share."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

F32 = npt.NDArray[np.float32]


def overlap_area(a: F32, b: F32) -> float:
    """The area two convex polygons (``(N, 2)`` float32 corners going round) share.
    ``cv2.intersectConvexConvex`` can miss the overlap of two that share an edge exactly (two
    outlines of one tile measured to the same end), and depends on their order there: each
    order is tried, and then one of them shrunk by a hair."""
    area = float(cv2.intersectConvexConvex(a, b)[0])
    if area > 0.0:
        return area
    area = float(cv2.intersectConvexConvex(b, a)[0])
    if area > 0.0:
        return area
    centre = b.mean(axis=0)
    shrunk = np.asarray((b - centre) * np.float32(1.0 - 1e-4) + centre, dtype=np.float32)
    return float(cv2.intersectConvexConvex(a, shrunk)[0])
