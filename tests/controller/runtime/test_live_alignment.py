"""The table's snapshot fits the live MQTT schema (``controller.live.models.StateBody``) once
mapped, for every state a match goes through; the live publisher adapter forwards what it gets."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.live.models import EventPayload, StateBody
from controller.runtime import MemoryPublisher, TableRuntime
from controller.runtime.fixture import run_fixture
from controller.runtime.live_hooks import LiveStationPublisher
from controller.table import replay_inputs, snapshot
from controller.table.snapshot import live_state_body
from domino_common.clock import SystemClock
from tests.controller.table.helpers import FIXTURE
from tests.controller.table.test_replay_property import _session


def test_every_state_of_the_fixture_fits_the_live_schema() -> None:
    publisher = MemoryPublisher()
    runtime = TableRuntime(publisher=publisher)
    run_fixture(
        FIXTURE, runtime, clock=SystemClock(), speed=1000, buttons="direct", recogniser="oracle"
    )
    assert len(publisher.states) > 20
    for state in publisher.states:
        StateBody.model_validate(live_state_body(dict(state)))
    for event in publisher.events:
        EventPayload.model_validate(
            {
                "seq": event["seq"],
                "session": "s",
                "table": "table-1",
                "ts": 0.0,
                "type": event["kind"],
                "data": {k: v for k, v in event.items() if k not in ("seq", "t", "kind")},
            }
        )
    last = StateBody.model_validate(live_state_body(dict(publisher.states[-1])))
    assert last.match is not None and last.match.score_history == [[36, 0]]
    assert [s.name for s in last.match.sides] == ["Seats 1 & 3", "Seats 2 & 4"]
    # how the hand was scored, with the tiles each seat showed: their pips add up
    (scored,) = last.match.hands
    assert (scored.hand, scored.result, scored.winner, scored.points) == (1, "block", 0, [36, 0])
    assert scored.pips is not None and len(scored.revealed) == 4
    for seat, tiles in enumerate(scored.revealed):
        assert sum(int(n) for t in tiles for n in t.split("-")) == scored.pips[seat]
    assert scored.pips[1] + scored.pips[3] == 36  # latin: the losers' pips
    # while the tiles were being shown, the state said so, seat by seat
    reveals = [
        b.hand.reveal
        for b in (StateBody.model_validate(live_state_body(dict(s))) for s in publisher.states)
        if b.hand is not None and b.hand.reveal is not None
    ]
    assert reveals and reveals[0].status == "incomplete"
    for seat, tiles in enumerate(reveals[-1].tiles):
        assert tiles is None or sorted(tiles) == sorted(scored.revealed[seat])
    assert any(t is not None for t in reveals[-1].tiles)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_sessions_fit_the_live_schema(data: st.DataObject) -> None:
    inputs, _, _ = _session(data, data.draw(st.integers(5, 60)))
    for n in range(1, len(inputs) + 1, 7):
        StateBody.model_validate(live_state_body(snapshot(replay_inputs(inputs[:n]))))


class _Station:
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def publish_state(self, body: Any) -> None:
        self.calls.append(("state", body))

    def publish_event(self, type_: str, data: Any) -> None:
        self.calls.append((type_, data))

    def publish_device(self, link: str, detail: str | None = None) -> None:
        self.calls.append(("device-topic", (link, detail)))


def test_the_live_station_adapter_forwards_state_events_and_device() -> None:
    station = _Station()
    adapter = LiveStationPublisher(station)
    adapter.publish_event({"seq": 4, "t": 1.0, "kind": "device", "link": "up", "detail": "fw"})
    adapter.publish_state(
        {"schema": "x", "match": None, "hand": None, "alerts": [], "device": None}
    )
    assert station.calls[0] == ("device", {"link": "up", "detail": "fw"})
    assert station.calls[1] == ("device-topic", ("up", "fw"))
    assert station.calls[2][0] == "state"
