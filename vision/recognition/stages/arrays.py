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


def unique_rows(rows: F64) -> tuple[Idx, Idx]:
    """For ``(N, K)`` ``rows``, the index of each distinct row's first occurrence (in the order
    of the rows' bytes) and, for each row, which of those it is: ``np.unique(rows, axis=0,
    return_index=True, return_inverse=True)[1:]`` up to order, several times faster."""
    flat = np.ascontiguousarray(rows + 0.0, dtype=np.float64)  # -0.0 is 0.0
    keys = flat.view(np.dtype((np.void, 8 * flat.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return np.asarray(first, dtype=np.intp), np.asarray(inverse, dtype=np.intp).reshape(-1)
