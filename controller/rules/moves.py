"""Moves and the small value types a hand reports."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from controller.rules.line import End
from controller.rules.tiles import Tile

# Moves are named tuples rather than frozen dataclasses: bots create tens of thousands of them a
# second and a tuple is built about three times faster. They stay immutable values.


class Play(NamedTuple):
    """Lay ``tile`` at ``end`` (None for the opening tile, or to let the engine pick the only
    sensible end). ``first_half`` orients the opening tile: that half becomes the left end."""

    seat: int
    tile: Tile
    end: End | None = None
    first_half: int | None = None

    def __str__(self) -> str:
        where = f" at {self.end}" if self.end else ""
        return f"Seat {self.seat + 1} plays {self.tile}{where}"


class Pass(NamedTuple):
    seat: int

    def __str__(self) -> str:
        return f"Seat {self.seat + 1} passes"


class Draw(NamedTuple):
    """Take a tile from the boneyard; ``tile`` is None when it was not seen (or, in simulation,
    to take the next one)."""

    seat: int
    tile: Tile | None = None

    def __str__(self) -> str:
        return f"Seat {self.seat + 1} draws {self.tile or '?'}"


Move = Play | Pass | Draw


class HandEnd(StrEnum):
    DOMINO = "domino"
    BLOCK = "block"
    #: A side reached the match target during the hand (end-sum scoring).
    TARGET = "target"


@dataclass(frozen=True, slots=True)
class Bonus:
    kind: str  # "pase_corrido", "capicua", "going_out"
    seat: int
    side: int
    points: int
    move: int | None
    counted: bool = True

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "seat": self.seat,
            "side": self.side,
            "points": self.points,
            "move": None if self.move is None else self.move + 1,
            "counted": self.counted,
        }


@dataclass(frozen=True, slots=True)
class EndScore:
    """Points for the open ends' sum after a play (all fives, fives and threes)."""

    move: int
    seat: int
    side: int
    end_sum: int
    points: int
    #: False when an exact target made the points not count (they would overshoot).
    counted: bool

    def to_json(self) -> dict[str, object]:
        return {
            "move": self.move + 1,
            "seat": self.seat,
            "side": self.side,
            "sum": self.end_sum,
            "points": self.points,
            "counted": self.counted,
        }


@dataclass(frozen=True, slots=True)
class Renuncio:
    """A false pass: ``seat`` passed (or drew) at move index ``pass_move`` while holding ``tile``,
    which fits the end number ``number`` open then. ``play_move`` is where it showed (None when
    it showed in the tiles left at the end of the hand). Indexes are 0-based; JSON and messages
    count moves from 1."""

    seat: int
    pass_move: int
    play_move: int | None
    tile: Tile
    number: int

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "pass_move": self.pass_move + 1,
            "play_move": None if self.play_move is None else self.play_move + 1,
            "tile": str(self.tile),
            "number": self.number,
        }

    def __str__(self) -> str:
        shown = (
            f"played it at move {self.play_move + 1}" if self.play_move is not None else "kept it"
        )
        return (
            f"renuncio: Seat {self.seat + 1} passed at move {self.pass_move + 1} with no "
            f"{self.number} but held {self.tile} ({shown})"
        )


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and what each side gained in it (bonuses and end sums included)."""

    number: int
    result: HandEnd
    winner: int | None
    winning_seat: int | None
    leader: int
    points: tuple[int, ...]
    bonuses: tuple[Bonus, ...]
    end_scores: tuple[EndScore, ...]
    remaining: tuple[int, ...] | None
    renuncios: tuple[Renuncio, ...]
    #: A tied block won by the leading side: the same seat leads the next hand.
    keeps_lead: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "hand": self.number + 1,
            "result": self.result.value,
            "winner": self.winner,
            "winning_seat": self.winning_seat,
            "leader": self.leader,
            "points": list(self.points),
            "bonuses": [b.to_json() for b in self.bonuses],
            "end_scores": [e.to_json() for e in self.end_scores],
            "remaining": None if self.remaining is None else list(self.remaining),
            "renuncios": [r.to_json() for r in self.renuncios],
        }
