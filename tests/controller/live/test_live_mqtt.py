"""End to end over real brokers (Mosquitto started by the test, and the embedded amqtt broker):
table publisher -> broker -> scoreboard -> REST API."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from live_support import CMD_KEY, REPO, TOKEN, Board, SimProcess, need_mosquitto, wait_until
from paho.mqtt.enums import CallbackAPIVersion

from controller.live.broker import EmbeddedBroker, MosquittoBroker
from controller.live.examples import example_body
from controller.live.models import CommandPayload
from controller.live.publisher import MqttPublisher


def raw_client(
    url_host: str, port: int, user: str | None = None, pw: str | None = None
) -> mqtt.Client:
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    if user:
        client.username_pw_set(user, pw)
    client.connect(url_host, port)
    client.loop_start()
    return client


def test_published_state_reaches_the_api(
    broker: Any, board: Board, publishers: Callable[..., MqttPublisher]
) -> None:
    pub = publishers(broker.url, "t-state")
    pub.start()
    # A retained state first: once the board has it, its subscriptions are in place and the
    # (not retained) event cannot be missed by a slow broker.
    pub.publish_state(example_body(hand_no=2, scores=(0, 0)))
    board.wait_table("t-state", "first state", lambda v: v["state"] is not None)
    pub.publish_event("tile_played", {"seat": 0, "tile": "6-6"})
    sent = pub.publish_state(example_body(hand_no=3, scores=(12, 34)))
    view = board.wait_table(
        "t-state",
        "state on the API",
        lambda v: v["state"] and v["state"]["seq"] == sent.seq and v["status"] == "online",
    )
    assert view["status"] == "online" and not view["stale"]
    assert [s["score"] for s in view["state"]["match"]["sides"]] == [12, 34]
    state = board.http.get("/api/tables/t-state/state").json()
    assert state["schema"] == "domino-table/state/1" and state["session"] == sent.session
    events = board.http.get("/api/tables/t-state/events", params={"since": 0}).json()
    assert [e["type"] for e in events["events"]] == ["tile_played"] and events["complete"]
    hall = board.http.get("/api/tables").json()
    assert "t-state" in [t["table"] for t in hall["tables"]]


def test_last_will_marks_the_table_offline_and_it_recovers(
    broker: Any, board: Board, sims: Callable[..., SimProcess]
) -> None:
    sim = sims(broker.url, "t-will")
    board.wait_table("t-will", "table online", lambda v: v["status"] == "online" and v["state"])
    sim.kill()  # SIGKILL: no clean disconnect, the broker publishes the will
    view = board.wait_table("t-will", "last will", lambda v: v["status"] == "offline")
    assert view["stale"] and view["state"] is not None  # last good state still shown
    sims(broker.url, "t-will")
    board.wait_table("t-will", "back online", lambda v: v["status"] == "online" and not v["stale"])


def test_seq_gap_resyncs_from_the_retained_state(
    broker: Any, board: Board, publishers: Callable[..., MqttPublisher]
) -> None:
    pub = publishers(broker.url, "t-gap")
    pub.start()
    pub.publish_state(example_body())
    # The retained state arriving proves the board's subscription is in place: events are not
    # retained, so one published before that could be missed by a slow broker.
    board.wait_table("t-gap", "first state", lambda v: v["counters"]["states"] >= 1)
    first = pub.publish_event("pass", {"seat": 1})
    board.wait_table("t-gap", "first event", lambda v: v["counters"]["events"] == 1)
    states_before = board.table("t-gap")["counters"]["states"]  # type: ignore[index]
    # an event that says three were lost on the way
    lost = first.model_copy(update={"seq": first.seq + 4})
    client = raw_client(broker.host, broker.port)
    client.publish(
        "domino/v1/t-gap/events", lost.model_dump_json(by_alias=True), 1
    ).wait_for_publish(5)
    view = board.wait_table(
        "t-gap",
        "resync",
        lambda v: v["counters"]["gaps"] == 1 and v["counters"]["states"] > states_before,
    )
    assert not view["stale"]
    metrics = board.http.get("/metrics").text
    assert "domino_scoreboard_seq_gaps_total 1" in metrics
    client.disconnect()
    client.loop_stop()


BAD = [
    ("state", b"{not json"),
    ("state", b'{"schema": "domino-table/state/99", "seq": 1}'),
    ("state", b"{" + b" " * 300_000 + b"}"),
    ("events", b"\xff\xfe\x00"),
    ("events", b'{"schema": "domino-table/event/1", "seq": 0}'),
    ("device", b'{"schema": "domino-table/device/1", "link": "sideways"}'),
    ("availability", b"perhaps"),
]


def test_bad_payloads_on_every_topic_are_refused_logged_and_last_state_kept(
    broker: Any,
    board: Board,
    publishers: Callable[..., MqttPublisher],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="controller.live.store")
    pub = publishers(broker.url, "t-bad")
    pub.start()
    pub.publish_state(example_body(hand_no=7))
    board.wait_table("t-bad", "good state", lambda v: v["state"] and v["status"] == "online")
    client = raw_client(broker.host, broker.port)
    for i, (kind, raw) in enumerate(BAD):
        client.publish(f"domino/v1/t-bad/{kind}", raw, 1).wait_for_publish(5)
        view = board.wait_table(
            "t-bad", f"refusal {i}", lambda v, n=i + 1: v["counters"]["refused"] >= n
        )
        assert view["stale"] and view["state"]["match"]["hand_no"] == 7
    client.publish("domino/v1/t-bad/state/deeper", b"{}", 1)
    client.publish("domino/v1/t-bad/cmd/undo", b"{}", 1)
    assert len([r for r in caplog.records if "t-bad" in r.getMessage()]) >= len(BAD)
    assert "domino_scoreboard_refused_total" in board.http.get("/metrics").text
    pub.publish_state(example_body(hand_no=8))
    view = board.wait_table("t-bad", "fresh again", lambda v: v["state"]["match"]["hand_no"] == 8)
    assert not view["stale"]
    assert board.http.get("/healthz").status_code == 200
    client.disconnect()
    client.loop_stop()


def test_signed_commands_reach_the_table_and_the_token_never_leaves_the_scoreboard(
    broker: Any, board_on: Callable[..., Board], publishers: Callable[..., MqttPublisher]
) -> None:
    got: list[tuple[str, CommandPayload]] = []
    arrived = threading.Event()

    def on_command(name: str, cmd: CommandPayload) -> None:
        got.append((name, cmd))
        arrived.set()

    board = board_on(broker.url, cmd_keys={"t-cmd": CMD_KEY})
    wait_until(lambda: board.http.get("/healthz").json()["broker"] == "up", "scoreboard up")
    wire: list[bytes] = []
    spy = raw_client(broker.host, broker.port)
    spy.on_message = lambda c, u, m: wire.append(bytes(m.payload))
    subscribed = threading.Event()
    spy.on_subscribe = lambda *a: subscribed.set()
    spy.subscribe("domino/v1/+/cmd/#", 1)
    assert subscribed.wait(20)
    pub = publishers(broker.url, "t-cmd", cmd_key=CMD_KEY, on_command=on_command)
    pub.start()
    pub.publish_state(example_body())
    board.wait_table("t-cmd", "table", lambda v: v["status"] == "online")
    url = "/api/tables/t-cmd/cmd/correct"
    body = {"move": 4, "tile": "2-4"}
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert board.http.post(url, json=body).status_code == 401
    assert (
        board.http.post(url, json=body, headers={"Authorization": "Bearer no"}).status_code == 401
    )
    # a table the scoreboard holds no key for takes no commands from it
    assert board.http.post("/api/tables/t-other/cmd/undo", json={}, headers=auth).status_code == 409
    r = board.http.post(url, json=body, headers=auth)
    assert r.status_code == 202
    assert arrived.wait(20)
    name, cmd = got[0]
    assert name == "correct" and cmd.args == body and cmd.id == r.json()["id"]
    sent = wait_until(
        lambda: [w for w in wire if cmd.id.encode() in w], "the command seen on the wire"
    )[0]
    assert TOKEN.encode() not in sent and CMD_KEY.encode() not in sent
    # the captured command, sent again, is refused
    spy.publish("domino/v1/t-cmd/cmd/correct", sent, 1).wait_for_publish(5)
    board.wait_table(
        "t-cmd",
        "replay refused",
        lambda v: [e for e in v["recent_events"] if e["data"].get("reason") == "replayed"],
    )
    assert len(got) == 1
    spy.disconnect()
    spy.loop_stop()


def test_publisher_survives_the_broker_vanishing(
    board_on: Callable[..., Board], publishers: Callable[..., MqttPublisher]
) -> None:
    need_mosquitto()
    first = MosquittoBroker()
    first.start()
    port = first.port
    board = board_on(first.url)
    pub = publishers(first.url, "t-vanish", outbox_events=2)
    pub.start()
    pub.publish_state(example_body(hand_no=1))
    board.wait_table("t-vanish", "table", lambda v: v["state"] and v["status"] == "online")
    first.stop()
    wait_until(lambda: not pub.connected, "publisher notices")
    for _ in range(5):
        pub.publish_event("pass", {})
    last = pub.publish_state(example_body(hand_no=2))
    assert pub.dropped_events == 3
    wait_until(lambda: board.http.get("/healthz").json()["broker"] == "down", "scoreboard notices")
    second = MosquittoBroker(port=port)
    second.start()
    try:
        view = board.wait_table(
            "t-vanish",
            "caught up after the broker came back",
            lambda v: v["state"]["seq"] == last.seq and not v["stale"],
        )
        assert view["state"]["match"]["hand_no"] == 2
    finally:
        pub.stop()
        second.stop()


def test_mosquitto_acl_tables_write_only_their_own_topics(
    board_on: Callable[..., Board],
) -> None:
    need_mosquitto()
    acl = (REPO / "hardware/deploy/mosquitto/domino.acl").read_text()
    users = {"scoreboard": "sb-pw", "monitor": "mon-pw", "t1": "t1-pw", "t2": "t2-pw"}
    with MosquittoBroker(users=users, acl=acl) as b:
        with pytest.raises(AssertionError):
            # no credentials: refused, never connects
            anon = board_on(b.url)
            wait_until(lambda: anon.http.get("/healthz").json()["broker"] == "up", "anon", 3)
        board = board_on(b.url_for("scoreboard"))
        wait_until(lambda: board.http.get("/healthz").json()["broker"] == "up", "scoreboard in")
        state = json.loads((REPO / "controller/live/schemas/examples/state.json").read_text())
        t1 = raw_client(b.host, b.port, "t1", "t1-pw")
        monitor = raw_client(b.host, b.port, "monitor", "mon-pw")
        for client, table in ((t1, "t2"), (monitor, "t1"), (t1, "t1")):
            doc = {**state, "table": table}
            client.publish(f"domino/v1/{table}/state", json.dumps(doc), 1).wait_for_publish(5)
        board.wait_table("t1", "t1's own state", lambda v: v["state"])
        # t1 writing t2's topic and the monitor writing anything were dropped by the broker
        assert board.table("t2") is None
        assert board.http.get("/api/tables/t1").json()["counters"]["states"] == 1
        for c in (t1, monitor):
            c.disconnect()
            c.loop_stop()


def test_embedded_broker_starts_and_stops_cleanly_twice() -> None:
    for _ in range(2):
        with EmbeddedBroker() as b:
            c = raw_client(b.host, b.port)
            c.publish("x/y", b"1", 1).wait_for_publish(5)
            c.disconnect()
            c.loop_stop()


def test_home_assistant_discovery_over_the_broker(
    broker: Any, publishers: Callable[..., MqttPublisher]
) -> None:
    from controller.live.settings import MqttSettings, TableSettings

    seen: dict[str, bytes] = {}
    client = mqtt.Client(CallbackAPIVersion.VERSION2)
    client.on_message = lambda c, u, m: seen.__setitem__(m.topic, bytes(m.payload))
    client.on_connect = lambda c, u, f, r, p: c.subscribe("homeassistant/#", 1)
    client.connect(broker.host, broker.port)
    client.loop_start()
    from domino_common.clock import SystemClock

    pub = MqttPublisher(
        MqttSettings(url=broker.url),
        TableSettings(table="t-ha", ha_discovery=True),
        clock=SystemClock(),
    )
    pub.start()
    try:
        wait_until(lambda: len([t for t in seen if "domino_t-ha" in t]) >= 5, "discovery")
        seen.clear()
        client.publish("homeassistant/status", b"online", 1)  # Home Assistant restarted
        wait_until(lambda: len([t for t in seen if "domino_t-ha" in t]) >= 5, "re-discovery")
        doc = json.loads(seen["homeassistant/sensor/domino_t-ha/score_0/config"])
        assert doc["state_topic"] == "domino/v1/t-ha/state"
    finally:
        pub.stop()
        client.disconnect()
        client.loop_stop()


def test_scoreboard_starts_an_embedded_broker_when_none_is_configured(
    publishers: Callable[..., MqttPublisher],
) -> None:
    from controller.live.app import create_app
    from controller.live.server import ServerThread
    from controller.live.settings import MqttSettings, ScoreboardSettings

    settings = ScoreboardSettings(mqtt=MqttSettings(url=None), embedded_port=0)
    with ServerThread(create_app(settings)) as server:
        import httpx

        wait_until(
            lambda: httpx.get(server.url + "/healthz").json()["broker"] == "up", "embedded broker"
        )
        url = httpx.get(server.url + "/healthz").json()["broker_url"]
        pub = publishers(url, "t-zero")
        pub.start()
        pub.publish_state(example_body())
        wait_until(
            lambda: httpx.get(server.url + "/api/tables/t-zero").status_code == 200,
            "a table on the embedded broker",
        )
