"""The table session's state: frozen values (the engine's ``Hand`` inside is never mutated once
it is part of a state; the session copies it before a move)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from controller.errors import IllegalMoveError
from controller.rules.hand import Hand
from controller.rules.line import End
from controller.rules.match import Match
from controller.rules.moves import HandResult, Move, Play
from controller.rules.options import Boneyard, Rules
from controller.rules.tiles import Tile
from controller.table.inputs import Pips, VisionEnd
from controller.table.lights import Light

#: Problem kinds that stop play until they are put right.
ILLEGAL_TILE = "illegal_tile"
TWO_AT_ONCE = "two_at_once"
OUT_OF_TURN = "out_of_turn"
#: a tile laid while another problem waited: maybe the right tile laid before the wrong one
#: was lifted, so it becomes the move once it is the only one left
WHILE_WAITING = "laid_while_waiting"
MISREAD = "misread"
REMOVED = "removed_from_line"
TAKE_BACK = "take_back"
REVEAL_CHECK = "reveal_check"
LEADER_UNKNOWN = "leader_unknown"
#: Notices: shown, never blocking.
WRONG_SEAT = "wrong_seat"
UNSURE = "unsure"
REJECTED = "command_rejected"
DEVICE = "device"
RENUNCIO = "renuncio"


@dataclass(frozen=True, slots=True)
class Alert:
    kind: str
    message: str
    seat: int | None = None
    blocking: bool = False
    t: float = 0.0

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.seat}:{self.message}"


@dataclass(frozen=True, slots=True)
class Stray:
    """A tile on the line that the session did not take as a move (yet)."""

    pips: Pips
    end: VisionEnd
    kind: str
    reason: str
    seat: int | None = None

    @property
    def tile(self) -> Tile:
        return Tile.of(*self.pips)


@dataclass(frozen=True, slots=True)
class HandState:
    number: int
    engine: Hand
    moves: tuple[Move, ...]
    #: who may lead this hand under the rules
    leaders: frozenset[int]
    #: False while the camera has not been told who led (moves carry provisional seats)
    leader_known: bool
    reveals: tuple[tuple[Tile, ...] | None, ...]
    strays: tuple[Stray, ...] = ()
    missing: tuple[Tile, ...] = ()
    take_back: tuple[Tile, ...] = ()
    #: line tiles cleared away after the hand ended (before it was scored)
    gone: tuple[Tile, ...] = ()

    @property
    def blocked(self) -> bool:
        return bool(self.strays or self.missing or self.take_back)

    def waiting_for(self) -> str:
        parts = [f"{s.tile} to be taken back" for s in self.strays]
        parts += [f"{t} to be put back on the line" for t in self.missing]
        parts += [f"{t} to be taken back (undone)" for t in self.take_back]
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class MatchState:
    rules: Rules
    seat_names: tuple[str, ...]
    results: tuple[HandResult, ...] = ()
    #: finished hands as game-record JSON (RULES.md section 6)
    records: tuple[dict[str, Any], ...] = ()
    hand: HandState | None = None
    #: tiles of the previous hand still lying on the table (their removal is expected)
    clearing: tuple[Tile, ...] = ()
    leader_hint: int | None = None

    def match(self) -> Match:
        m = Match(self.rules, self.seat_names)
        for r in self.results:
            m.record(r)
        return m

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(self.match().totals)

    @property
    def winner(self) -> int | None:
        return self.match().winner


@dataclass(frozen=True, slots=True)
class TableState:
    table: str = "table-1"
    seq: int = 0
    t: float = 0.0
    match: MatchState | None = None
    link_up: bool = False
    link_detail: str = "not connected yet"
    #: recent non-blocking notices (wrong seat, unsure readings, rejected commands)
    notices: tuple[Alert, ...] = ()
    leds: tuple[Light, ...] = field(default_factory=tuple)
    inputs: int = 0


# --- building hands -------------------------------------------------------------------------


def fresh_engine(
    ms: MatchState, leaders: Iterable[int] | None = None
) -> tuple[Hand, frozenset[int]]:
    """A new observed hand for the match's next hand number; returns it and who may lead."""
    m = ms.match()
    lead = m.lead_for_next_hand(None)
    allowed = lead.seats
    chosen = allowed if leaders is None else frozenset(leaders)
    hand = Hand(
        ms.rules,
        leaders=chosen,
        lead_tile=lead.tile,
        lead_double_only=lead.double_only,
        scores_before=m.totals,
        number=len(ms.results),
    )
    return hand, allowed


def rebuild(ms: MatchState, hs: HandState, moves: Sequence[Move], leaders: frozenset[int]) -> Hand:
    """The hand after ``moves`` from its start; raises :class:`IllegalMoveError`."""
    hand, _ = fresh_engine(ms, leaders)
    for move in moves:
        hand.push(move)
    return hand


def rotate_moves(moves: Sequence[Move], delta: int, seats: int) -> tuple[Move, ...]:
    return tuple(m._replace(seat=(m.seat + delta) % seats) for m in moves)


def provisional_leader(hs: HandState) -> int | None:
    if hs.moves:
        return hs.moves[0].seat
    return hs.engine.leader


def new_hand_state(ms: MatchState, leader: int | None = None) -> HandState:
    hand, allowed = fresh_engine(ms, None if leader is None else {leader})
    known = len(hand.leaders) == 1
    return HandState(
        number=len(ms.results),
        engine=hand,
        moves=(),
        leaders=allowed,
        leader_known=known,
        reveals=(None,) * ms.rules.seats,
    )


def must_draw(rules: Rules) -> bool:
    return rules.boneyard is not Boneyard.NONE


def play_of(seat: int, pips: Pips, end: VisionEnd) -> Play:
    tile = Tile.of(*pips)
    if end == "first":
        return Play(seat, tile, None, pips[0])
    return Play(seat, tile, End(end))


def try_push(hand: Hand, move: Move) -> tuple[Hand, Move]:
    """Apply ``move`` to a copy; raises :class:`IllegalMoveError` (the hand is untouched)."""
    new = hand.copy()
    recorded = new.push(move)
    return new, recorded


__all__ = ["IllegalMoveError"]
