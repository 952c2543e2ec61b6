"""Invariants over random sessions: replaying the inputs (from memory, from JSON, from the SQLite
journal) gives the live state; no step raises; no tile is played that the camera never reported."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.journal import Journal
from controller.rules.moves import Play
from controller.rules.tiles import Tile
from controller.table import (
    Button,
    ConfirmReveal,
    CorrectTile,
    Laid,
    Link,
    NewMatch,
    Revealed,
    SetLeader,
    TableInput,
    TilesLaid,
    TileTaken,
    UndoLast,
    initial_state,
    input_from_json,
    input_to_json,
    match_record,
    replay_inputs,
    snapshot,
    step,
)
from controller.table.state import TableState

TILES = [Tile.of(a, b) for a in range(7) for b in range(a, 7)]


def _legal_play(state: TableState, data: st.DataObject, t: float) -> TableInput | None:
    ms = state.match
    if ms is None or ms.hand is None or ms.hand.engine.over:
        return None
    eng = ms.hand.engine
    if eng.line.empty:
        lead = eng.lead_tile or data.draw(st.sampled_from([t for t in TILES if t.is_double]))
        return TilesLaid(t, (Laid((lead.low, lead.high), "first"),))
    options = [
        (tile, end, n)
        for end, n in eng.line.open_ends.items()
        for tile in TILES
        if tile not in eng.on_table and tile.has(n)
    ]
    if not options:
        return None
    tile, end, n = data.draw(st.sampled_from(options))
    return TilesLaid(t, (Laid((n, tile.other(n)), end.value),))


def _noise(data: st.DataObject, t: float) -> TableInput:
    tile = data.draw(st.sampled_from(TILES))
    pips = (tile.low, tile.high)
    seat = data.draw(st.integers(0, 4))
    kind = data.draw(st.integers(0, 9))
    if kind == 0:
        end = data.draw(st.sampled_from(["left", "right"]))
        return TilesLaid(t, (Laid(pips, end),))  # type: ignore[arg-type]
    if kind == 1:
        return TileTaken(t, pips)
    if kind in (2, 3, 4):
        return Button(t, seat, data.draw(st.sampled_from(["short", "short", "long", "double"])))
    if kind == 5:
        shown = data.draw(st.lists(st.sampled_from(TILES), max_size=4, unique=True))
        return Revealed(t, seat, tuple((x.low, x.high) for x in shown))
    if kind == 6:
        return UndoLast(t)
    if kind == 7:
        return CorrectTile(t, str(tile))
    if kind == 8:
        return SetLeader(t, seat)
    return data.draw(st.sampled_from([ConfirmReveal(t), Link(t, seat % 2 == 0, "x")]))


def _session(data: st.DataObject, steps: int) -> tuple[list[TableInput], TableState, set[Tile]]:
    leader = data.draw(st.sampled_from([None, 0, 1, 2, 3]))
    inputs: list[TableInput] = [NewMatch(0.0, "latin", {"target": 60}, None, leader)]
    state, _ = step(initial_state(), inputs[0])
    reported: set[Tile] = set()
    for i in range(1, steps):
        t = float(i)
        inp = _legal_play(state, data, t) if data.draw(st.booleans()) else None
        if inp is None:
            inp = _noise(data, t)
        if isinstance(inp, TilesLaid):
            reported |= {Tile.of(*x.pips) for x in inp.tiles}
        if isinstance(inp, CorrectTile):
            reported.add(Tile.parse(inp.actual))
        inputs.append(inp)
        state, _ = step(state, inp)
        ms = state.match
        if ms is not None and ms.hand is not None:
            played = {m.tile for m in ms.hand.moves if isinstance(m, Play)}
            assert played <= reported, "a tile was played that nobody laid or named"
    return inputs, state, reported


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_replaying_the_inputs_gives_the_live_state(data: st.DataObject) -> None:
    inputs, live, _ = _session(data, data.draw(st.integers(5, 80)))
    replayed = replay_inputs(inputs)
    assert snapshot(replayed) == snapshot(live)
    assert match_record(replayed) == match_record(live)
    through_json = [input_from_json(input_to_json(i)) for i in inputs]
    assert through_json == inputs


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_journal_restores_the_live_state(data: st.DataObject) -> None:
    inputs, live, _ = _session(data, data.draw(st.integers(5, 40)))
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "j.sqlite"
        state = initial_state()
        with Journal(path) as journal:
            for inp in inputs:
                state, effects = step(state, inp)
                journal.append(inp, "test", [e.event for e in effects if hasattr(e, "event")])
        with Journal(path) as journal:
            restored = journal.restore()
            assert journal.delivered("test") == len(inputs)
            assert [e["seq"] for e in journal.events()] == list(range(1, live.seq + 1))
    assert snapshot(restored) == snapshot(live)
