"""Array types and point helpers the stages share."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]
Idx = npt.NDArray[np.intp]


def pair(v: F64) -> tuple[float, float]:
    """The first two values of ``v`` as a point."""
    return float(v[0]), float(v[1])


def sample(image: U8, points: F64) -> U8:
    """``image`` at ``points`` (``(..., 2)`` x, y), each rounded to the nearest pixel inside it."""
    h, w = image.shape
    xs = np.clip(np.rint(points[..., 0]), 0, w - 1).astype(np.intp)
    ys = np.clip(np.rint(points[..., 1]), 0, h - 1).astype(np.intp)
    return np.asarray(image[ys, xs])
