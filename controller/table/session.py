"""The table session: ``step(state, input) -> (new_state, effects)``.

Pure: no I/O, no clock (time comes in the inputs), no randomness. A restart replays the journal's
inputs through :func:`step` and lands on the same state.

What the camera cannot know, the session never guesses: a tile is attributed to the seat whose
turn it is; when the rules let several seats lead and nobody said who did, moves carry provisional
seats until a button press, the reveal or an API command settles it (then every seat is rotated
at once). Anything that does not fit (an illegal tile, two tiles at once, a tile taken from the
line, a button pressed by the wrong seat) raises an alert and the table waits until it is put
right; no move is invented or dropped. See docs/runtime.md for the gesture table.

This module is the step itself and its dispatch (and a new match); the rooms it dispatches to:
:mod:`~controller.table.laying` (tiles laid and taken), :mod:`~controller.table.buttons`,
:mod:`~controller.table.corrections` (API fixes), :mod:`~controller.table.hand_end` (reveal and
scoring), all writing into one :class:`~controller.table.stepout.StepOut`;
:mod:`~controller.table.export` gives the match as a record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from controller.errors import ControllerError
from controller.rules.options import build_rules
from controller.rules.tiles import Tile
from controller.table import state as st
from controller.table.buttons import button, undo
from controller.table.corrections import correct, set_leader
from controller.table.effects import DomainEvent, Effect, Emit, PublishState, SetLeds
from controller.table.hand_end import confirm, hand_started, revealed, score
from controller.table.inputs import (
    Button,
    ConfirmReveal,
    CorrectTile,
    Link,
    NewMatch,
    Revealed,
    TableInput,
    TileNudged,
    TilesLaid,
    TileTaken,
    UndoLast,
    VisionUnsure,
)
from controller.table.laying import tile_taken, tiles_laid, unclear
from controller.table.leds import leds_of
from controller.table.queries import derived_alerts
from controller.table.snapshot import snapshot
from controller.table.state import Alert, MatchState, TableState
from controller.table.stepout import StepOut

MAX_NOTICES = 5


def initial_state(table: str = "table-1") -> TableState:
    return TableState(table=table)


def step(state: TableState, inp: TableInput) -> tuple[TableState, list[Effect]]:
    """Apply one input. Never raises for bad input: it becomes an alert."""
    out = StepOut(inp.t)
    before = {a.key: a for a in derived_alerts(state)}
    new = _dispatch(state, inp, out)
    notices = () if out.moved else new.notices
    notices = (*notices, *out.notices)[-MAX_NOTICES:]
    new = replace(new, t=max(state.t, inp.t), inputs=state.inputs + 1, notices=notices)
    after = {a.key: a for a in derived_alerts(new)}
    for key, alert in after.items():
        if key not in before:
            out.event("alert", **_alert_event(alert))
    for notice in out.notices:
        out.event("alert", **_alert_event(notice))
    for key, alert in before.items():
        if key not in after:
            out.event("alert_cleared", **_alert_event(alert))
    effects: list[Effect] = []
    seq = state.seq
    for kind, data in out.events:
        seq += 1
        effects.append(Emit(DomainEvent(seq, inp.t, kind, data)))
    leds = leds_of(new)
    new = replace(new, seq=seq, leds=leds)
    if leds != state.leds:
        effects.insert(0, SetLeds(leds))
    effects.extend(out.vision)
    if seq != state.seq:
        effects.append(PublishState(snapshot(new)))
    return new, effects


def replay_inputs(inputs: Sequence[TableInput], state: TableState | None = None) -> TableState:
    """The state after ``inputs`` (what a restart does with the journal)."""
    current = state or initial_state()
    for inp in inputs:
        current, _ = step(current, inp)
    return current


def _alert_event(alert: Alert) -> dict[str, Any]:
    """An alert in an event (``kind`` there names the event, so the alert's kind is ``alert``)."""
    return {
        "alert": alert.kind,
        "message": alert.message,
        "seat": alert.seat,
        "blocking": alert.blocking,
    }


def _dispatch(state: TableState, inp: TableInput, out: StepOut) -> TableState:
    if isinstance(inp, Link):
        if inp.up == state.link_up and inp.detail == state.link_detail:
            return state
        out.event("device", link="up" if inp.up else "down", detail=inp.detail)
        return replace(state, link_up=inp.up, link_detail=inp.detail)
    if isinstance(inp, NewMatch):
        return _new_match(state, inp, out)
    if isinstance(inp, VisionUnsure):
        out.notice(st.UNSURE, f"camera unsure: {inp.reason}")
        return state
    if isinstance(inp, TileNudged):
        return state
    ms = state.match
    if ms is None:
        out.notice(st.REJECTED, f"no match has started: {type(inp).__name__} ignored")
        return state
    if ms.hand is None:
        # the match is over: nothing more is a move
        if isinstance(inp, TileTaken) and Tile.of(*inp.pips) in ms.clearing:
            return replace(state, match=unclear(ms, Tile.of(*inp.pips)))
        if isinstance(inp, TilesLaid | Button):
            out.notice(st.REJECTED, "the match is over: start a new one")
        return state
    if isinstance(inp, TilesLaid):
        new_ms = tiles_laid(ms, ms.hand, inp.tiles, out)
    elif isinstance(inp, TileTaken):
        new_ms = tile_taken(ms, ms.hand, Tile.of(*inp.pips), out)
    elif isinstance(inp, Revealed):
        new_ms = revealed(ms, ms.hand, inp, out)
    elif isinstance(inp, Button):
        new_ms = button(ms, ms.hand, inp, out)
    elif isinstance(inp, CorrectTile):
        new_ms = correct(ms, ms.hand, inp, out)
    elif isinstance(inp, UndoLast):
        new_ms = undo(ms, ms.hand, None, out)
    elif isinstance(inp, ConfirmReveal):
        new_ms = confirm(ms, ms.hand, inp, out)
    else:
        new_ms = set_leader(ms, ms.hand, inp, out)
    if new_ms.hand is not None and new_ms.hand.engine.over:
        # the hand may have ended with every tile already shown, or on the target
        new_ms = score(new_ms, new_ms.hand, out, force=False, by=None)
    return replace(state, match=new_ms)


def _new_match(state: TableState, inp: NewMatch, out: StepOut) -> TableState:
    try:
        rules = build_rules(inp.preset, inp.options)
    except ControllerError as exc:
        out.notice(st.REJECTED, f"new match refused: {exc}")
        return state
    names = inp.seats or tuple(f"Seat {i + 1}" for i in range(rules.seats))
    if len(names) != rules.seats:
        out.notice(st.REJECTED, f"new match refused: {len(names)} names for {rules.seats} seats")
        return state
    clearing: tuple[Tile, ...] = ()
    old = state.match
    if old is not None:
        clearing = old.clearing
        if old.hand is not None:
            clearing += tuple(sorted(old.hand.engine.on_table))
    ms = MatchState(rules, tuple(names), clearing=clearing, leader_hint=inp.leader)
    leader = inp.leader
    probe = st.new_hand_state(ms)
    if leader is not None and leader not in probe.leaders:
        out.notice(
            st.REJECTED,
            f"Seat {leader + 1} cannot lead under these rules: ignored",
        )
        leader = None
    hs = st.new_hand_state(ms, leader)
    out.event(
        "match_started",
        rules=rules.preset,
        options=rules.overrides(),
        seats=list(names),
        target=rules.target,
    )
    hand_started(hs, out)
    out.moved = True
    return replace(state, match=replace(ms, hand=hs))


__all__ = [
    "initial_state",
    "replay_inputs",
    "step",
]
