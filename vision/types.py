"""Value types shared by the vision stages: what a frame was read as.

Coordinates are ``(x, y)`` floats in the pixels of the image that was read (or in table
millimetres where a docstring says so).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]

#: A tile read with at least this confidence is reported as sure; below it the table asks the
#: players instead of taking the reading (a wrong tile costs far more than an unsure one).
SURE_CONFIDENCE = 0.5


@dataclass(frozen=True, slots=True)
class HalfReading:
    """One half of a tile: where its centre is and how many pips it shows."""

    center: Point
    pips: int
    confidence: float = 1.0


@dataclass(frozen=True, slots=True)
class TileReading:
    """One tile found in a frame.

    ``corners`` go round the tile's outline (4 points, in order); ``halves`` are its two halves.
    ``confidence`` is in [0, 1]: how sure the reader is of both the outline and both pip counts.
    """

    corners: tuple[Point, Point, Point, Point]
    halves: tuple[HalfReading, HalfReading]
    confidence: float

    @property
    def sure(self) -> bool:
        return self.confidence >= SURE_CONFIDENCE

    @property
    def pips(self) -> tuple[int, int]:
        return (self.halves[0].pips, self.halves[1].pips)

    @property
    def center(self) -> Point:
        (ax, ay), (bx, by) = self.halves[0].center, self.halves[1].center
        return ((ax + bx) / 2.0, (ay + by) / 2.0)

    @property
    def half_spacing(self) -> float:
        """The distance between the two half centres: half the tile's length."""
        (ax, ay), (bx, by) = self.halves[0].center, self.halves[1].center
        return math.hypot(ax - bx, ay - by)

    def shifted(self, dx: float, dy: float) -> TileReading:
        """The tile moved by ``(dx, dy)`` pixels (from a crop's pixels to its frame's, say)."""
        if dx == 0 and dy == 0:
            return self
        a, b, c, d = ((x + dx, y + dy) for x, y in self.corners)
        h0, h1 = (
            HalfReading((h.center[0] + dx, h.center[1] + dy), h.pips, h.confidence)
            for h in self.halves
        )
        return TileReading((a, b, c, d), (h0, h1), self.confidence)

    def to_json(self) -> dict[str, object]:
        """The tile as in DESIGN.md's ``vision identify --json`` contract."""
        return {
            "halves": [
                {"center": [round(h.center[0], 2), round(h.center[1], 2)], "pips": h.pips}
                for h in self.halves
            ],
            "corners": [[round(x, 2), round(y, 2)] for x, y in self.corners],
            "confidence": round(self.confidence, 4),
            "sure": self.sure,
        }


@dataclass(frozen=True, slots=True)
class SceneReading:
    """Everything read from one frame."""

    tiles: tuple[TileReading, ...]
    width: int
    height: int
    #: Estimated pip-to-pip scale: the long side of a tile in pixels (0 when no tile was found).
    tile_length_px: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {"tiles": [t.to_json() for t in self.tiles]}
