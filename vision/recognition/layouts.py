"""Standard pip layouts 0-9 (double-nine sets) and how well a set of pips fits one.

Coordinates are in half-square units: ``(0, 0)`` is the centre of the half and the half's
sides are at ±1, ``x`` along the tile's long axis and ``y`` across it. The outer pips of the
layouts sit at ±1 on a unit grid and are scaled by the fitted pip spacing.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

_CORNERS = [(-1, -1), (1, 1), (-1, 1), (1, -1)]
_BASE: dict[int, list[tuple[int, int]]] = {
    0: [],
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: _CORNERS,
    5: [*_CORNERS, (0, 0)],
    6: [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)],
    7: [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1), (0, 0)],
    8: [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1) if (x, y) != (0, 0)],
    9: [(x, y) for x in (-1, 0, 1) for y in (-1, 0, 1)],
}

#: Spacing of the outer pips of a common set (0.28 of the tile width from the half's centre),
#: in half-square units; used only where no half read gives a measured one.
STANDARD_SPACING = 0.56

#: The pip counts the reader knows.
MAX_LAYOUT = max(_BASE)


def layout(n: int) -> FloatArray:
    """The unit layout of ``n`` pips, shape ``(n, 2)``."""
    return np.array(_BASE[n], dtype=np.float64).reshape(-1, 2)


@cache
def _variants(n: int) -> FloatArray:
    """Distinct images of layout ``n`` under the 8 symmetries of the square, ``(V, n, 2)``."""
    base = layout(n)
    seen: dict[tuple[tuple[float, float], ...], FloatArray] = {}
    for swap in (False, True):
        for sx in (1.0, -1.0):
            for sy in (1.0, -1.0):
                pts = base[:, ::-1] if swap else base
                pts = pts * np.array([sx, sy])
                key = tuple(sorted((float(x), float(y)) for x, y in pts))
                seen.setdefault(key, pts)
    return np.stack(list(seen.values()))


def layout_rms(points: FloatArray) -> float:
    """Chamfer RMS distance of ``points`` to their standard layout (see :func:`layout_fit`)."""
    return layout_fit(points)[0]


def layout_fit(points: FloatArray) -> tuple[float, float]:
    """``(rms, spacing)``: chamfer RMS distance (half-square units) of ``points`` (``(n, 2)``)
    to layout ``n``, and the fitted spacing of its outer pips (0 for fewer than 2 pips).

    Rotations, mirror images, position and spacing of the layout are fitted. The RMS is 0 for
    ``n <= 1`` at the centre and ``inf`` when ``n`` has no standard layout.
    """
    n = len(points)
    if n not in _BASE:
        return float("inf"), 0.0
    if n == 0:
        return 0.0, 0.0
    # The pips may sit off the estimated half centre: fit the position too, but count a
    # group that is far off-centre against the layout.
    off_centre = 0.0
    spacing = 0.0
    if n >= 2:
        mean = points.sum(axis=0) / n
        off_centre = math.hypot(float(mean[0]), float(mean[1]))
        points = points - mean
        # Spacing: the outer pips of every layout sit at Chebyshev distance ``spacing``.
        norms = np.abs(points).max(axis=1)
        outer = sorted(norms[norms > 0.5 * norms.max()].tolist())
        spacing = outer[len(outer) // 2]
    fitted = _variants(n) * spacing  # (V, n, 2)
    d2 = ((points[None, :, None, :] - fitted[:, None, :, :]) ** 2).sum(axis=-1)  # (V, n, n)
    chamfer = float(((d2.min(axis=2).sum(axis=1) + d2.min(axis=1).sum(axis=1)) / n).min())
    return float(np.sqrt(chamfer / 2.0)) + max(0.0, off_centre - 0.25), float(spacing)
