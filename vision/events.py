"""What scene tracking tells the rest of the system: small, frozen, typed events.

Coordinates are table millimetres when the tracker has a calibrated table, else image pixels
(``coords`` says which). ``t`` is seconds on the frame source's timeline.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Literal

from vision.types import Point

End = Literal["left", "right", "first"]
Coords = Literal["mm", "px"]
Corners = tuple[Point, Point, Point, Point]


def _rounded(value: object) -> object:
    if isinstance(value, float):
        return round(value, 2)
    if isinstance(value, tuple | list):
        return [_rounded(v) for v in value]
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    return value


@dataclass(frozen=True, slots=True)
class _Event:
    t: float

    @property
    def kind(self) -> str:
        return type(self).__name__

    def to_json(self) -> dict[str, object]:
        data = {k: _rounded(v) for k, v in asdict(self).items()}
        return {"event": self.kind, **data}


@dataclass(frozen=True, slots=True)
class MotionStarted(_Event):
    """Something moves over the table (a hand): readings are suspended until it settles."""


@dataclass(frozen=True, slots=True)
class SceneSettled(_Event):
    """The table has been still long enough to be read; ``tile_count`` tiles were read."""

    tile_count: int


@dataclass(frozen=True, slots=True)
class TileAdded(_Event):
    """A new tile joined the line.

    ``pips`` is ``(joined, open)``: the half laid against the line's end first, the half that is now
    the open end second (for the first tile: ``(left, right)`` as the line reads).
    ``orientation`` is the angle in degrees of the tile's axis from its joined half to its open
    half (image convention: x right, y down, clockwise positive); ``crosswise`` marks a double
    laid across the line.
    """

    pips: tuple[int, int]
    end: End
    corners: Corners
    orientation: float
    crosswise: bool
    coords: Coords


@dataclass(frozen=True, slots=True)
class TileRemoved(_Event):
    """A tile of the line is gone (seen missing in two settled scenes in a row)."""

    pips: tuple[int, int]
    corners: Corners
    coords: Coords


@dataclass(frozen=True, slots=True)
class TileMoved(_Event):
    """A tile of the line was nudged: same tile, new place. Not a move of the game."""

    pips: tuple[int, int]
    old_center: Point
    new_center: Point
    corners: Corners
    coords: Coords


@dataclass(frozen=True, slots=True)
class TilesRevealed(_Event):
    """The tiles now lying face up in a seat's reveal zone (all of them, not just the new ones)."""

    seat: int
    tiles: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Unsure(_Event):
    """The tracker cannot tell what happened (occlusion, ambiguity): a person should look.

    When it is about one tile, ``pips`` and ``center`` say which and where (else ``None``).
    """

    reason: str
    pips: tuple[int, int] | None = None
    center: Point | None = None


SceneEvent = (
    MotionStarted | SceneSettled | TileAdded | TileRemoved | TileMoved | TilesRevealed | Unsure
)
