"""The scoreboard's MQTT feed on a fake paho client: subscriptions, resync, broker state."""

from __future__ import annotations

import logging
import time

from pytest import LogCaptureFixture

from controller.live.examples import example_body
from controller.live.fakes import FakeMqttClient
from controller.live.feed import ScoreboardFeed
from controller.live.models import encode
from controller.live.port import FakePublisher
from controller.live.settings import MqttSettings
from controller.live.store import Outcome, TableStore
from domino_common.clock import FakeClock

STATE_FILTER = "domino/v1/+/state"


def make(
    interval: float = 1.0,
) -> tuple[ScoreboardFeed, FakeMqttClient, TableStore, list[Outcome], FakeClock]:
    clients: list[FakeMqttClient] = []
    changes: list[Outcome] = []
    store = TableStore("domino/v1")
    clock = FakeClock()
    feed = ScoreboardFeed(
        MqttSettings(url="mqtt://h"),
        store,
        clock=clock,
        on_change=changes.append,
        client_factory=lambda i, s: clients.append(FakeMqttClient(i, s)) or clients[-1],
        resync_min_interval_s=interval,
    )
    feed.start()
    return feed, clients[0], store, changes, clock


def test_subscribes_on_every_connect_and_tracks_the_broker() -> None:
    feed, client, store, changes, _ = make()
    client.connect()
    assert sorted(client.subscriptions) == sorted(
        f"domino/v1/+/{k}" for k in ("state", "events", "availability", "device")
    )
    assert store.broker_up and changes[-1].table is None
    client.drop()
    assert not store.broker_up and not feed.publish("x", b"")
    client.connect()
    assert len(client.subscriptions) == 8


def test_the_broker_is_up_only_once_every_filter_is_granted(caplog: LogCaptureFixture) -> None:
    """Connected is not enough: until the SUBACK a table's messages can go nowhere, so the
    board does not say the broker is up before it (one SUBSCRIBE carries every filter)."""
    _, client, store, changes, _ = make()
    client.connect(suback=False)
    assert not store.broker_up and not changes
    assert len(client.unacked) == 1 and client.unacked[0][1] == 4  # one packet, four filters
    client.ack_subscriptions()
    assert store.broker_up and changes[-1].table is None
    client.drop()
    client.connect(suback=False)
    with caplog.at_level(logging.WARNING):
        client.ack_subscriptions(refused=True)
    assert "refused the scoreboard's subscription" in caplog.text and "events" in caplog.text


def test_a_gap_resubscribes_to_the_state_filter_rate_limited() -> None:
    feed, client, _, _, clock = make(interval=0.05)
    client.connect()
    pub = FakePublisher("t1", clock=clock, session="s")
    client.deliver("domino/v1/t1/state", encode(pub.publish_state(example_body())))
    pub.publish_event("pass", {})  # lost
    client.deliver("domino/v1/t1/events", encode(pub.publish_event("pass", {})))
    assert client.subscriptions.count(STATE_FILTER) == 2 and feed.resyncs == 1
    pub.publish_event("pass", {})  # lost again, inside the interval: deferred, not dropped
    client.deliver("domino/v1/t1/events", encode(pub.publish_event("pass", {})))
    assert feed.resyncs == 1
    deadline = time.monotonic() + 10
    while feed.resyncs < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert client.subscriptions.count(STATE_FILTER) == 3


def test_a_message_that_breaks_the_store_does_not_escape() -> None:
    _, client, store, _, _ = make()
    client.connect()

    def boom(*args: object) -> Outcome:
        raise RuntimeError("bug")

    store.ingest = boom  # type: ignore[method-assign]
    client.deliver("domino/v1/t1/state", b"{}")
