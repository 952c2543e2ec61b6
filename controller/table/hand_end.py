"""The end of a hand in the table session: the tiles left shown at each seat, confirmed by a
person when the camera cannot vouch for them, the hand scored, and the next hand started (or the
match ended)."""

from __future__ import annotations

from dataclasses import replace

from controller.errors import ControllerError, IllegalMoveError
from controller.rules.moves import HandEnd
from controller.rules.record import hand_to_json
from controller.rules.tiles import Tile
from controller.table import state as st
from controller.table.inputs import ConfirmReveal, Revealed
from controller.table.laying import make_leader
from controller.table.queries import reveal_status
from controller.table.state import HandState, MatchState
from controller.table.stepout import StepOut


def hand_started(hs: HandState, out: StepOut) -> None:
    out.event(
        "hand_started",
        hand=hs.number + 1,
        leaders=sorted(hs.engine.leaders),
        leader_known=hs.leader_known,
        lead_tile=None if hs.engine.lead_tile is None else str(hs.engine.lead_tile),
    )


def revealed(ms: MatchState, hs: HandState, inp: Revealed, out: StepOut) -> MatchState:
    n = ms.rules.seats
    if not 0 <= inp.seat < n:
        out.notice(st.UNSURE, f"tiles shown at Seat {inp.seat + 1}, but only {n} seats play")
        return ms
    tiles = tuple(sorted(Tile.of(*p) for p in inp.tiles))
    reveals = list(hs.reveals)
    reveals[inp.seat] = tiles or None
    hs = replace(hs, reveals=tuple(reveals))
    out.event("reveal", seat=inp.seat, tiles=[str(t) for t in tiles])
    if not hs.engine.over:
        return replace(ms, hand=hs)
    return score(ms, hs, out, force=False, by=None)


def confirm(ms: MatchState, hs: HandState, inp: ConfirmReveal, out: StepOut) -> MatchState:
    if not hs.engine.over:
        out.notice(st.REJECTED, "nothing to confirm: the hand is not over")
        return ms
    if inp.left is not None:
        if len(inp.left) != ms.rules.seats:
            out.notice(st.REJECTED, f"confirm refused: {len(inp.left)} seats given")
            return ms
        try:
            reveals = tuple(
                tuple(sorted(ms.rules.tileset.parse(x) for x in seat)) or None for seat in inp.left
            )
        except ControllerError as exc:
            out.notice(st.REJECTED, f"confirm refused: {exc}")
            return ms
        hs = replace(hs, reveals=reveals)
    return score(ms, hs, out, force=True, by="the API")


def score(
    ms: MatchState, hs: HandState, out: StepOut, *, force: bool, by: str | None
) -> MatchState:
    eng = hs.engine
    if not eng.over:
        return replace(ms, hand=hs)
    if hs.blocked:
        if force:
            out.notice(st.REJECTED, f"put the table right first: {hs.waiting_for()}")
        return replace(ms, hand=hs)
    status = reveal_status(ms, hs)
    target_hit = eng.outcome is HandEnd.TARGET
    if not (status.status == "passed" or force or target_hit):
        return replace(ms, hand=hs)
    if not hs.leader_known and status.delta is not None:
        prov = st.provisional_leader(hs) or 0
        hs = make_leader(ms, hs, (prov + status.delta) % ms.rules.seats, out, how="reveal")
        eng = hs.engine
    shown = [list(r) if r is not None else [] for r in hs.reveals]
    scoring = eng.copy()
    if force and status.status != "passed":
        scoring.counts = [len(s) for s in shown]  # a person vouched for the reading
    try:
        result = scoring.finish(None if target_hit and not any(shown) else shown)
    except (IllegalMoveError, ControllerError) as exc:
        if force:
            out.notice(st.REJECTED, f"cannot score the hand: {exc}")
        return replace(ms, hand=hs)
    record = hand_to_json(None, hs.moves, shown)
    if force and status.status != "passed":
        record["confirmed_by"] = by
    results = (*ms.results, result)
    clearing = ms.clearing + tuple(sorted(eng.on_table - set(hs.gone)))
    done = replace(ms, results=results, records=(*ms.records, record), hand=None, clearing=clearing)
    totals = done.totals
    out.moved = True
    out.event(
        "hand_end",
        **result.to_json(),
        totals=list(totals),
        check=status.status,
        confirmed_by=by if force and status.status != "passed" else None,
    )
    winner = done.winner
    if winner is not None:
        out.event("match_end", winner=winner, totals=list(totals), hands=len(results))
        return done
    hs_new = st.new_hand_state(done)
    hand_started(hs_new, out)
    return replace(done, hand=hs_new)
