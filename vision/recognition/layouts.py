"""Standard pip layouts 0-9 (double-nine sets), as points and as masks of the pip grid.

Coordinates are in half-square units: ``(0, 0)`` is the centre of the half and the half's
sides are at ±1, ``x`` along the tile's long axis and ``y`` across it. The outer pips of the
layouts sit at ±1 on a unit grid.
"""

from __future__ import annotations

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

#: The pip counts the reader knows.
MAX_LAYOUT = max(_BASE)


def layout(n: int) -> FloatArray:
    """The unit layout of ``n`` pips, shape ``(n, 2)``."""
    return np.array(_BASE[n], dtype=np.float64).reshape(-1, 2)


@cache
def variants(n: int) -> FloatArray:
    """Distinct images of layout ``n`` as a tile lies, mirrored along or across it, ``(V, n, 2)``:
    never turned a quarter (a 6's rows run along the tile; a half read across the seam of two
    tiles side by side is turned so)."""
    base = layout(n)
    seen: dict[tuple[tuple[float, float], ...], FloatArray] = {}
    for sx in (1.0, -1.0):
        for sy in (1.0, -1.0):
            pts = base * np.array([sx, sy])
            key = tuple(sorted((float(x), float(y)) for x, y in pts))
            seen.setdefault(key, pts)
    return np.stack(list(seen.values()))


@cache
def grid_masks() -> frozenset[int]:
    """The standard layouts (every count, every image of :func:`variants`) as
    masks of the half's 3x3 pip grid: bit ``3 * (x + 1) + (y + 1)`` set for a pip at
    ``(x, y)`` (unit layout coordinates, ``x`` along the tile)."""
    return frozenset(
        sum(1 << (3 * (int(x) + 1) + int(y) + 1) for x, y in pts.tolist())
        for n in _BASE
        for pts in variants(n)
    )
