"""The table session's tiles: a tile laid (a move when everything is in order, else a stray
that blocks play), a tile taken back, a move the rules engine accepted announced, and who led
fixed once known (provisional seats rotated). Also the forms a laid tile takes
(``laid_form``, ``reoriented``) that the buttons and corrections rooms use."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from controller.errors import IllegalMoveError
from controller.rules.hand import Hand
from controller.rules.line import End
from controller.rules.moves import Move, Pass, Play
from controller.rules.record import move_to_json
from controller.rules.tiles import Tile
from controller.table import state as st
from controller.table.inputs import Laid, Pips
from controller.table.state import HandState, MatchState, Stray
from controller.table.stepout import StepOut


def unclear(ms: MatchState, tile: Tile) -> MatchState:
    rest = list(ms.clearing)
    rest.remove(tile)
    return replace(ms, clearing=tuple(rest))


def _turn_seat(hs: HandState) -> int:
    """The seat a tile laid now is attributed to (provisional while the leader is unknown)."""
    eng = hs.engine
    if eng.turn is not None:
        return eng.turn
    return min(eng.leaders)


def tiles_laid(ms: MatchState, hs: HandState, tiles: Sequence[Laid], out: StepOut) -> MatchState:
    pending: list[Laid] = []
    for laid in tiles:
        tile = Tile.of(*laid.pips)
        if tile in hs.missing:
            rest = list(hs.missing)
            rest.remove(tile)
            hs = replace(hs, missing=tuple(rest))
            out.event("tile_restored", tile=str(tile))
        else:
            pending.append(laid)
    if any(laid.end == "first" for laid in pending) and ms.clearing:
        ms = replace(ms, clearing=())  # the camera started a new line: the old one is gone
    if len(pending) > 1:
        strays = tuple(
            Stray(
                laid.pips,
                laid.end,
                st.TWO_AT_ONCE,
                f"{len(pending)} tiles laid at once: take back the one laid out of turn",
            )
            for laid in pending
        )
        return replace(ms, hand=replace(hs, strays=hs.strays + strays))
    if not pending:
        return replace(ms, hand=hs)
    laid = pending[0]
    return replace(ms, hand=lay(ms, hs, laid, out))


def lay(ms: MatchState, hs: HandState, laid: Laid, out: StepOut) -> HandState:
    """One tile laid: a move when everything is in order, otherwise a stray that blocks play."""
    eng = hs.engine

    def stray(kind: str, reason: str, seat: int | None = None) -> HandState:
        return replace(hs, strays=(*hs.strays, Stray(laid.pips, laid.end, kind, reason, seat)))

    if hs.blocked:
        return stray(
            st.WHILE_WAITING, "laid while the table waits for another tile to be put right"
        )
    if eng.over:
        return stray(st.OUT_OF_TURN, "the hand is over: reveal the tiles left instead")
    if eng.line.empty and laid.end != "first":
        return stray(st.OUT_OF_TURN, "joined to a line that is not in play: clear the table")
    if not eng.line.empty and laid.end == "first":
        return stray(st.OUT_OF_TURN, "the camera saw a new line start: clear the table")
    seat = _turn_seat(hs)
    move = st.play_of(seat, laid.pips, laid.end)
    try:
        new_eng, recorded = st.try_push(eng, move)
    except IllegalMoveError as exc:
        # the seat is known only once the leader is: otherwise every seat blinks
        return stray(st.ILLEGAL_TILE, f"illegal: {exc}", seat if hs.leader_known else None)
    return applied(ms, hs, new_eng, recorded, out)


def applied(
    ms: MatchState, hs: HandState, new_eng: Hand, recorded: Move, out: StepOut
) -> HandState:
    """Announce a move the engine accepted and what it revealed."""
    old = hs.engine
    moves = (*hs.moves, recorded)
    hs = replace(hs, engine=new_eng, moves=moves)
    out.moved = True
    _announce_move(hs, recorded, len(moves), out)
    for r in new_eng.renuncios[len(old.renuncios) :]:
        out.event("renuncio", **r.to_json(), message=str(r))
        out.notice(st.RENUNCIO, str(r), r.seat)
    for b in new_eng.bonuses[len(old.bonuses) :]:
        out.event(b.kind, **b.to_json())
    for e in new_eng.end_scores[len(old.end_scores) :]:
        out.event("end_score", **e.to_json())
    if new_eng.over and not old.over:
        out.event(
            "hand_over",
            hand=hs.number + 1,
            outcome=str(new_eng.outcome),
            seat=new_eng.outcome_seat,
            counts=list(new_eng.counts),
        )
    return hs


def _announce_move(hs: HandState, move: Move, number: int, out: StepOut) -> None:
    data: dict[str, Any] = {
        "hand": hs.number + 1,
        "move": number,
        "seat": move.seat,
        "seat_known": hs.leader_known,
        **{k: v for k, v in move_to_json(move).items() if k != "seat"},
    }
    if isinstance(move, Play):
        out.event("tile_played", **data)
    elif isinstance(move, Pass):
        out.event("pass", **data)
    else:
        out.event("draw", **data)


def tile_taken(ms: MatchState, hs: HandState, tile: Tile, out: StepOut) -> MatchState:
    for i, s in enumerate(hs.strays):
        if s.tile == tile:
            hs = replace(hs, strays=hs.strays[:i] + hs.strays[i + 1 :])
            out.event("tile_taken_back", tile=str(tile))
            return replace(ms, hand=_retry(ms, hs, out))
    if tile in hs.take_back:
        rest_t = list(hs.take_back)
        rest_t.remove(tile)
        out.event("tile_taken_back", tile=str(tile))
        return replace(ms, hand=_retry(ms, replace(hs, take_back=tuple(rest_t)), out))
    if tile in ms.clearing:
        return unclear(ms, tile)
    if hs.engine.over and tile in hs.engine.on_table and tile not in hs.gone:
        # the line is finished: clearing it before the score is in is no problem
        return replace(ms, hand=replace(hs, gone=(*hs.gone, tile)))
    if tile in hs.engine.on_table and tile not in hs.missing:
        out.event("tile_removed", tile=str(tile))
        return replace(ms, hand=replace(hs, missing=(*hs.missing, tile)))
    out.notice(st.UNSURE, f"the camera saw {tile} leave the line, but it was not in play")
    return ms


_RETRYABLE = (st.TWO_AT_ONCE, st.WHILE_WAITING)


def _retry(ms: MatchState, hs: HandState, out: StepOut) -> HandState:
    """Once the only tile left set aside is one that was merely laid at a bad moment (one of
    two laid at once, or laid while another problem waited), it is the turn's move after all."""
    if len(hs.strays) != 1 or hs.missing or hs.take_back or hs.strays[0].kind not in _RETRYABLE:
        return hs
    left = hs.strays[0]
    return lay(ms, replace(hs, strays=()), Laid(left.pips, left.end), out)


def make_leader(ms: MatchState, hs: HandState, leader: int, out: StepOut, *, how: str) -> HandState:
    """Fix who led: rotate the provisional seats so the hand was led by ``leader``."""
    n = ms.rules.seats
    prov = st.provisional_leader(hs)
    delta = 0 if prov is None else (leader - prov) % n
    moves = st.rotate_moves(hs.moves, delta, n)
    strays = tuple(
        replace(s, seat=None if s.seat is None else (s.seat + delta) % n) for s in hs.strays
    )
    engine = st.rebuild(ms, hs, moves, frozenset({leader}))
    out.event("leader_known", hand=hs.number + 1, leader=leader, how=how)
    return replace(hs, engine=engine, moves=moves, leader_known=True, strays=strays)


def laid_form(engine: Hand, play: Play) -> tuple[Pips, Any]:
    """How the camera reported a play: (joined, open) and the end."""
    if play.end is None:
        first = play.first_half if play.first_half is not None else play.tile.low
        return (first, play.tile.other(first)), "first"
    placement = next(p for p in engine.line.placements if p.tile == play.tile)
    return (play.tile.other(placement.outer), placement.outer), play.end.value


def reoriented(engine: Hand, pips: Pips, end: str, actual: Tile) -> Pips:
    """``actual`` in the (joined, open) form of a tile laid at ``end``."""
    if end == "first":
        first = pips[0] if actual.has(pips[0]) else actual.low
        return (first, actual.other(first))
    number = engine.line.open_ends.get(End(end))
    for joined in (number, pips[0], actual.low):
        if joined is not None and actual.has(joined):
            return (joined, actual.other(joined))
    return (actual.low, actual.high)
