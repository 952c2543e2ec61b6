"""The seat buttons in the table session (docs/runtime.md has the gesture table): a short press
passes, draws, claims the lead or accepts the tiles shown; a long press says the last tile was
misread; a double press undoes the seat's last move (the API's undo is the same)."""

from __future__ import annotations

from dataclasses import replace

from controller.errors import IllegalMoveError
from controller.rules.moves import Draw, Move, Pass, Play
from controller.rules.record import move_to_json
from controller.table import state as st
from controller.table.hand_end import score
from controller.table.inputs import Button
from controller.table.laying import applied, laid_form, make_leader
from controller.table.queries import seat_name as _name
from controller.table.state import HandState, MatchState, Stray
from controller.table.stepout import StepOut


def button(ms: MatchState, hs: HandState, inp: Button, out: StepOut) -> MatchState:
    n = ms.rules.seats
    seat = inp.seat
    if not 0 <= seat < n:
        out.notice(st.WRONG_SEAT, f"a button of Seat {seat + 1} pressed, but only {n} seats play")
        return ms
    if hs.engine.over:
        if inp.gesture == "short":
            unread = [
                s
                for s in range(n)
                if hs.reveals[s] is None and hs.engine.counts[s] > 0 and hs.leader_known
            ]
            if unread or (not hs.leader_known and not any(hs.reveals)):
                who = ", ".join(_name(ms, s) for s in unread) or "every seat"
                out.notice(st.REJECTED, f"show the tiles left first ({who})", seat)
                return ms
            return score(ms, hs, out, force=True, by=_name(ms, seat))
        if hs.reveals[seat] is None:
            out.notice(st.REJECTED, f"{_name(ms, seat)}: no reading of your tiles to reject", seat)
            return ms
        reveals = list(hs.reveals)
        reveals[seat] = None
        out.event("reveal_rejected", seat=seat)
        return replace(ms, hand=replace(hs, reveals=tuple(reveals)))
    if inp.gesture == "long":
        return _misread(ms, hs, seat, out)
    if inp.gesture == "double":
        return undo(ms, hs, seat, out)
    if hs.blocked:
        out.notice(
            st.WRONG_SEAT,
            f"{_name(ms, seat)} pressed, but the table waits for {hs.waiting_for()}",
            seat,
        )
        return ms
    eng = hs.engine
    if eng.line.empty:
        if hs.leader_known:
            if seat == eng.leader:
                out.notice(st.REJECTED, f"{_name(ms, seat)} leads: lay the opening tile", seat)
            else:
                out.notice(
                    st.WRONG_SEAT,
                    f"{_name(ms, seat)} pressed, but {_name(ms, eng.leader)} leads",
                    seat,
                )
            return ms
        if seat not in hs.leaders:
            out.notice(st.WRONG_SEAT, f"{_name(ms, seat)} cannot lead this hand", seat)
            return ms
        return replace(ms, hand=make_leader(ms, hs, seat, out, how=f"claimed by {_name(ms, seat)}"))
    if not hs.leader_known:
        # the first pass tells who is who: the presser is the seat whose turn it is
        assert eng.turn is not None
        leader = (st.provisional_leader(hs) or 0) + seat - eng.turn
        if leader % n not in hs.leaders:
            out.notice(
                st.WRONG_SEAT, f"{_name(ms, seat)} cannot be on turn here (bad leader)", seat
            )
            return ms
        hs = make_leader(ms, hs, leader % n, out, how=f"{_name(ms, seat)} pressed on its turn")
        eng = hs.engine
    if seat != eng.turn:
        out.notice(
            st.WRONG_SEAT,
            f"{_name(ms, seat)} pressed, but it is {_name(ms, eng.turn)}'s turn: nothing recorded",
            seat,
        )
        return replace(ms, hand=hs)
    candidates: list[Move] = [Pass(seat)]
    if st.must_draw(ms.rules):
        candidates.insert(0, Draw(seat, None))
    reasons = []
    for move in candidates:
        try:
            new_eng, recorded = st.try_push(eng, move)
        except IllegalMoveError as exc:
            reasons.append(str(exc))
            continue
        return replace(ms, hand=applied(ms, hs, new_eng, recorded, out))
    out.notice(st.REJECTED, f"{_name(ms, seat)}: {'; '.join(reasons)}", seat)
    return replace(ms, hand=hs)


def _misread(ms: MatchState, hs: HandState, seat: int, out: StepOut) -> MatchState:
    """Long press: 'that is not what I played'. The last tile read is set aside (a stray) until it
    is taken back and laid again, or a person corrects it through the API."""
    if not hs.moves or not isinstance(hs.moves[-1], Play) or hs.blocked:
        out.notice(st.REJECTED, f"{_name(ms, seat)}: no tile to read again just now", seat)
        return ms
    last = hs.moves[-1]
    assert isinstance(last, Play)
    moves = hs.moves[:-1]
    engine = st.rebuild(ms, hs, moves, hs.engine.leaders)
    pips, end = laid_form(hs.engine, last)
    stray = Stray(
        pips,
        end,
        st.MISREAD,
        f"{_name(ms, seat)} says this is not what was played: take it back and lay it again, "
        "or correct it",
        last.seat if hs.leader_known else None,
    )
    out.event("misread", seat=seat, tile=str(last.tile), move=len(hs.moves))
    return replace(ms, hand=replace(hs, engine=engine, moves=moves, strays=(*hs.strays, stray)))


def undo(ms: MatchState, hs: HandState, seat: int | None, out: StepOut) -> MatchState:
    """Undo the last move (double press by the seat that made it, or the API)."""
    if not hs.moves:
        out.notice(st.REJECTED, "nothing to undo in this hand")
        return ms
    last = hs.moves[-1]
    if seat is not None and hs.leader_known and last.seat != seat:
        out.notice(
            st.WRONG_SEAT,
            f"{_name(ms, seat)} cannot undo {_name(ms, last.seat)}'s move ({last})",
            seat,
        )
        return ms
    moves = hs.moves[:-1]
    leaders = hs.engine.leaders if moves else (hs.engine.leaders if hs.leader_known else hs.leaders)
    engine = st.rebuild(ms, hs, moves, leaders)
    take_back = hs.take_back
    missing = hs.missing
    if isinstance(last, Play):
        if last.tile in missing:
            rest = list(missing)
            rest.remove(last.tile)
            missing = tuple(rest)
        else:
            take_back = (*take_back, last.tile)
    out.event("undo", move=len(hs.moves), undone=move_to_json(last), by=seat)
    out.moved = True
    return replace(
        ms,
        hand=replace(
            hs,
            engine=engine,
            moves=moves,
            take_back=take_back,
            missing=missing,
            reveals=(None,) * ms.rules.seats if hs.engine.over else hs.reveals,
        ),
    )
