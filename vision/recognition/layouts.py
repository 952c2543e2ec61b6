"""Standard pip layouts 0-9 (double-nine sets) and how well a set of pips fits one.

Coordinates are in half-square units: ``(0, 0)`` is the centre of the half and the half's
sides are at ±1, ``x`` along the tile's long axis and ``y`` across it. The outer pips of the
layouts sit at ±1 on a unit grid and are scaled by the fitted pip spacing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
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


@cache
def grid_masks() -> frozenset[int]:
    """The standard layouts (every count, every image under the square's symmetries) as
    masks of the half's 3x3 pip grid: bit ``3 * (x + 1) + (y + 1)`` set for a pip at
    ``(x, y)`` (unit layout coordinates, ``x`` along the tile)."""
    return frozenset(
        sum(1 << (3 * (int(x) + 1) + int(y) + 1) for x, y in pts.tolist())
        for n in _BASE
        for pts in _variants(n)
    )


def layout_rms(points: FloatArray) -> float:
    """Chamfer RMS distance of ``points`` to their standard layout (see :func:`layout_fit`)."""
    return layout_fit(points)[0]


def layout_fit(points: FloatArray) -> tuple[float, float]:
    """``(rms, spacing)``: chamfer RMS distance (half-square units) of ``points`` (``(n, 2)``)
    to layout ``n``, and the fitted spacing of its outer pips (0 for fewer than 2 pips).

    Rotations, mirror images, position and spacing of the layout are fitted. The RMS is 0 for
    ``n <= 1`` at the centre and ``inf`` when ``n`` has no standard layout.
    """
    return layout_fits([points])[0]


def layout_fits(sets: Sequence[FloatArray]) -> list[tuple[float, float]]:
    """:func:`layout_fit` of each of ``sets``. The sets of one size are fitted together: a
    fit is a few small numpy operations, whose fixed cost is most of it, and a scene has
    some fifty halves to fit. Each set's numbers are the same as fitted alone (every sum
    runs over the same axis of the same length)."""
    out: list[tuple[float, float]] = [(0.0, 0.0)] * len(sets)
    by_size: dict[int, list[int]] = {}
    for i, pts in enumerate(sets):
        by_size.setdefault(len(pts), []).append(i)
    for n, which in by_size.items():
        if n not in _BASE:
            for i in which:
                out[i] = (float("inf"), 0.0)
            continue
        if n == 0:
            continue  # (0.0, 0.0)
        points = np.stack([sets[i] for i in which])  # (S, n, 2)
        # The pips may sit off the estimated half centre: fit the position too, but count a
        # group that is far off-centre against the layout.
        off_centre = [0.0] * len(which)
        spacing = [0.0] * len(which)
        if n >= 2:
            mean = points.sum(axis=1) / n  # (S, 2)
            off_centre = [math.hypot(x, y) for x, y in mean.tolist()]
            points = points - mean[:, None, :]
            # Spacing: the outer pips of every layout sit at Chebyshev distance ``spacing``.
            for k, norms in enumerate(np.abs(points).max(axis=2).tolist()):
                top = 0.5 * max(norms)
                outer = sorted(v for v in norms if v > top)
                spacing[k] = outer[len(outer) // 2]
        fitted = _variants(n)[None] * np.array(spacing)[:, None, None, None]  # (S, V, n, 2)
        diff = points[:, None, :, None, :] - fitted[:, :, None, :, :]
        d2 = (diff**2).sum(axis=-1)  # (S, V, n, n)
        chamfer = ((d2.min(axis=3).sum(axis=2) + d2.min(axis=2).sum(axis=2)) / n).min(axis=1)
        rms = np.sqrt(chamfer / 2.0).tolist()
        for k, i in enumerate(which):
            out[i] = (rms[k] + max(0.0, off_centre[k] - 0.25), spacing[k])
    return out
