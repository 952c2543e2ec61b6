"""The table's snapshot fits the live MQTT schema (``controller.live.models.StateBody``) once
mapped, for every state a match goes through; the runtime publishes typed bodies through the one
publishing port (``controller.live.port``), the seat device's link on its own topic too."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.live.models import StateBody, encode
from controller.runtime import FakePublisher, TableRuntime
from controller.runtime.fixture_player import run_fixture
from controller.table import Link, replay_inputs, snapshot
from controller.table.snapshot import live_state_body
from domino_common.clock import FakeClock, SystemClock
from tests.controller.table.helpers import FIXTURE
from tests.controller.table.test_replay_property import _session


def test_every_state_of_the_fixture_fits_the_live_schema() -> None:
    publisher = FakePublisher(clock=FakeClock())
    runtime = TableRuntime(publisher=publisher)
    run_fixture(
        FIXTURE, runtime, clock=SystemClock(), speed=1000, buttons="direct", recogniser="oracle"
    )
    assert len(publisher.states) > 20
    # each state carries the seq of the last event published before it
    assert [e.seq for e in publisher.events] == list(range(1, len(publisher.events) + 1))
    assert publisher.states[-1].seq == len(publisher.events)
    assert publisher.states[-1].model_dump(
        exclude={"schema_", "seq", "session", "table", "ts"}
    ) == (
        StateBody.model_validate(live_state_body(snapshot(runtime.state))).model_dump()
        | {"commands": None}
    )
    last = publisher.states[-1]
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
        b.hand.reveal for b in publisher.states if b.hand is not None and b.hand.reveal is not None
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


def test_the_runtime_publishes_the_device_link_as_an_event_and_on_its_topic() -> None:
    publisher = FakePublisher("t3", clock=FakeClock(), session="s")
    runtime = TableRuntime(table="t3", publisher=publisher)
    runtime.feed(Link(1.0, True, "firmware 1.1.0, 4 seats"), "device")
    runtime.feed(Link(2.0, False, "unplugged " * 30), "device")
    devices = [e for e in publisher.events if e.type == "device"]
    assert [e.data["link"] for e in devices] == ["up", "down"]
    assert "kind" not in devices[0].data and "seq" not in devices[0].data
    assert [(d.link, d.detail) for d in publisher.devices] == [
        ("up", "firmware 1.1.0, 4 seats"),
        ("down", ("unplugged " * 30)[:200]),  # the topic carries 200 characters
    ]
    # the bytes on the wire: the device topic's payload as the scoreboard decodes it
    assert encode(publisher.devices[0]) == (
        b'{"link":"up","detail":"firmware 1.1.0, 4 seats","firmware":null,"last_heartbeat":null,'
        b'"schema":"domino-table/device/1","table":"t3","ts":1700000000.0}'
    )


def test_without_a_publisher_the_runtime_publishes_nothing_and_runs() -> None:
    runtime = TableRuntime(table="t4")
    runtime.start()
    runtime.feed(Link(1.0, True, "firmware 1.1.0, 4 seats"), "device")
    assert runtime.publisher is None and runtime.state.link_up
