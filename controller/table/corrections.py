"""Corrections a person makes through the API: a tile set aside or a move read as the wrong tile
(the hand is played again with the right one and every later move re-checked), and who led."""

from __future__ import annotations

from dataclasses import replace

from controller.errors import ControllerError, IllegalMoveError
from controller.rules.moves import Play
from controller.rules.tiles import Tile
from controller.table import state as st
from controller.table.effects import CorrectVision
from controller.table.inputs import CorrectTile, Laid, SetLeader
from controller.table.laying import laid_form, lay, make_leader, reoriented
from controller.table.queries import seat_name as _name
from controller.table.state import HandState, MatchState
from controller.table.stepout import StepOut


def correct(ms: MatchState, hs: HandState, inp: CorrectTile, out: StepOut) -> MatchState:
    try:
        actual = ms.rules.tileset.parse(inp.actual)
        read_as = None if inp.read_as is None else ms.rules.tileset.parse(inp.read_as)
    except ControllerError as exc:
        out.notice(st.REJECTED, f"correction refused: {exc}")
        return ms
    if inp.move is not None:
        return _correct_move(ms, hs, inp.move, actual, out)
    # a tile set aside (illegal, misread, two at once) first
    for i, s in enumerate(reversed(hs.strays)):
        if read_as is None or s.tile == read_as:
            index = len(hs.strays) - 1 - i
            pips = reoriented(hs.engine, s.pips, s.end, actual)
            out.vision.append(CorrectVision(s.pips, pips))
            out.event("correction", read_as=str(s.tile), actual=str(actual))
            rest = hs.strays[:index] + hs.strays[index + 1 :]
            hs = replace(hs, strays=rest)
            if len(rest) == 1 and rest[0].kind == st.TWO_AT_ONCE:
                return replace(ms, hand=replace(hs, strays=(*rest, replace(s, pips=pips))))
            return replace(ms, hand=lay(ms, hs, Laid(pips, s.end), out))
    if not hs.moves or not isinstance(hs.moves[-1], Play):
        out.notice(st.REJECTED, "correction refused: the last move is not a tile")
        return ms
    last = hs.moves[-1]
    assert isinstance(last, Play)
    if read_as is not None and last.tile != read_as:
        out.notice(st.REJECTED, f"correction refused: the last tile played is {last.tile}")
        return ms
    pips, end = laid_form(hs.engine, last)
    fixed = reoriented(hs.engine, pips, end, actual)
    moves = (*hs.moves[:-1], st.play_of(last.seat, fixed, end))
    try:
        engine = st.rebuild(ms, hs, moves, hs.engine.leaders)
    except IllegalMoveError as exc:
        out.notice(st.REJECTED, f"correction refused: {exc}")
        return ms
    out.vision.append(CorrectVision(pips, fixed))
    out.event("correction", read_as=str(last.tile), actual=str(actual), move=len(moves))
    out.moved = True
    return replace(ms, hand=replace(hs, engine=engine, moves=moves))


def _correct_move(
    ms: MatchState, hs: HandState, number: int, actual: Tile, out: StepOut
) -> MatchState:
    """Move ``number`` of the hand was really ``actual``: the hand is played again from its
    start with that tile, every later move re-checked, and scored again; refused (nothing
    changes) when the hand would then be illegal."""
    if not 1 <= number <= len(hs.moves):
        out.notice(
            st.REJECTED, f"correction refused: this hand has {len(hs.moves)} move(s), no {number}"
        )
        return ms
    old = hs.moves[number - 1]
    if not isinstance(old, Play):
        out.notice(st.REJECTED, f"correction refused: move {number} is not a tile")
        return ms
    if old.tile == actual:
        out.notice(st.REJECTED, f"correction refused: move {number} already is {actual}")
        return ms
    pips, end = laid_form(hs.engine, old)
    try:
        before = st.rebuild(ms, hs, hs.moves[: number - 1], hs.engine.leaders)
        fixed = reoriented(before, pips, end, actual)
        moves = (*hs.moves[: number - 1], st.play_of(old.seat, fixed, end), *hs.moves[number:])
        engine = st.rebuild(ms, hs, moves, hs.engine.leaders)
    except IllegalMoveError as exc:
        out.notice(st.REJECTED, f"correction refused: {exc}")
        return ms
    out.vision.append(CorrectVision(pips, fixed))
    out.event("correction", read_as=str(old.tile), actual=str(actual), move=number)
    out.moved = True
    reveals = (None,) * ms.rules.seats if hs.engine.over and not engine.over else hs.reveals
    return replace(ms, hand=replace(hs, engine=engine, moves=moves, reveals=reveals))


def set_leader(ms: MatchState, hs: HandState, inp: SetLeader, out: StepOut) -> MatchState:
    if inp.seat not in hs.leaders:
        out.notice(st.REJECTED, f"{_name(ms, inp.seat)} cannot lead this hand")
        return ms
    try:
        return replace(ms, hand=make_leader(ms, hs, inp.seat, out, how="set by a person"))
    except IllegalMoveError as exc:
        out.notice(st.REJECTED, f"{_name(ms, inp.seat)} cannot have led: {exc}")
        return ms
