"""The publisher's pure parts, on a fake paho client: outbox, connect sequence, commands."""

import json

import pytest

from controller.live.commands import signed_command
from controller.live.examples import example_body
from controller.live.fakes import FakeMqttClient
from controller.live.homeassistant import discovery_messages
from controller.live.models import DeviceView, encode
from controller.live.outbox import Message, Outbox
from controller.live.port import FakePublisher
from controller.live.publisher import BrokerStatus, MqttPublisher
from controller.live.settings import MqttSettings, TableSettings
from controller.live.topics import TableTopics
from domino_common.clock import FakeClock

KEY = "table-key-0123456789"
CLOCK = FakeClock()


def make(
    *, outbox: int = 10, key: str | None = KEY, ha: bool = False, handler: object = None
) -> tuple[MqttPublisher, FakeMqttClient, list[tuple[str, object]]]:
    clients: list[FakeMqttClient] = []
    calls: list[tuple[str, object]] = []

    def factory(client_id: str, settings: MqttSettings) -> FakeMqttClient:
        clients.append(FakeMqttClient(client_id, settings))
        return clients[-1]

    pub = MqttPublisher(
        MqttSettings(url="mqtt://h", outbox_events=outbox),
        TableSettings(table="t1", cmd_key=key, ha_discovery=ha),
        clock=CLOCK,
        client_factory=factory,
        on_command=(lambda name, cmd: calls.append((name, cmd))) if handler is None else None,
        session="s1",
    )
    pub.start()
    return pub, clients[0], calls


def test_outbox_newest_retained_wins_and_events_are_bounded() -> None:
    box = Outbox(2)
    for i in range(5):
        box.put(Message("s", str(i).encode(), 1, True))
        box.put(Message("e", str(i).encode(), 1, False))
    assert box.dropped_events == 3
    out = box.drain()
    assert [(m.topic, m.payload) for m in out] == [("e", b"3"), ("e", b"4"), ("s", b"4")]
    assert len(box) == 0


def test_last_will_is_offline_retained_and_nothing_sent_before_connect() -> None:
    pub, client, _ = make()
    assert client.will is not None
    assert (client.will.topic, client.will.payload, client.will.retain) == (
        "domino/v1/t1/availability",
        b"offline",
        True,
    )
    pub.publish_state(example_body())
    assert client.published == []
    assert pub.queued == 1


def test_connect_subscribes_says_online_then_flushes_events_before_state() -> None:
    pub, client, _ = make(outbox=3)
    pub.publish_state(example_body(hand_no=1))
    for i in range(5):
        pub.publish_event("pass", {"i": i})
    pub.publish_state(example_body(hand_no=2))
    client.connect()
    assert client.subscriptions == ["domino/v1/t1/cmd/+"]
    topics = client.topics()
    assert topics[0] == "domino/v1/t1/availability" and client.published[0].payload == b"online"
    events = [json.loads(m.payload) for m in client.published if m.topic.endswith("/events")]
    assert [e["seq"] for e in events] == [3, 4, 5]  # bounded: 1 and 2 dropped, gap visible
    assert pub.dropped_events == 2
    states = [json.loads(m.payload) for m in client.published if m.topic.endswith("/state")]
    assert len(states) == 1 and states[0]["match"]["hand_no"] == 2 and states[0]["seq"] == 5
    assert topics[-1] == "domino/v1/t1/state"


def test_reconnect_resubscribes_and_republishes_the_latest_state() -> None:
    pub, client, _ = make()
    client.connect()
    pub.publish_state(example_body())
    client.drop()
    pub.publish_event("pass", {})
    client.published.clear()
    client.connect()
    assert client.subscriptions.count("domino/v1/t1/cmd/+") == 2
    assert [t.rsplit("/", 1)[1] for t in client.topics()] == ["availability", "events", "state"]
    assert pub.connects == 2


def test_refused_connection_keeps_everything_queued() -> None:
    pub, client, _ = make()
    pub.publish_event("pass", {})
    client.connect(refused=True)
    assert client.published == [] and pub.queued == 1


def test_seq_is_contiguous_and_state_carries_the_last_event_seq() -> None:
    pub, client, _ = make()
    client.connect()
    assert pub.publish_state(example_body()).seq == 0
    assert [pub.publish_event("pass", {}).seq for _ in range(3)] == [1, 2, 3]
    assert pub.publish_state(example_body()).seq == 3


def command(key: str = KEY, cmd_id: str = "c-00000001", name: str = "undo", **kw: object) -> bytes:
    fields: dict[str, object] = {"table": "t1", "name": name, "ts": CLOCK.time(), "args": {}}
    fields.update(kw)
    return encode(signed_command(key.encode(), cmd_id=cmd_id, **fields))  # type: ignore[arg-type]


def refusals(client: FakeMqttClient) -> list[dict[str, object]]:
    return [
        json.loads(m.payload)["data"]
        for m in client.published
        if m.topic.endswith("/events") and json.loads(m.payload)["type"] == "command_refused"
    ]


def test_only_signed_fresh_unseen_commands_for_this_table_reach_the_handler() -> None:
    _, client, calls = make()
    client.connect()
    client.deliver("domino/v1/t1/cmd/undo", command("another-key-0123456789"))
    client.deliver("domino/v1/t1/cmd/undo", b"{garbage")
    client.deliver("domino/v1/t1/cmd/format_disk", command(name="format_disk"))
    client.deliver("domino/v1/t1/cmd/undo", command(table="t2"))
    client.deliver("domino/v1/t1/cmd/new_match", command())  # signed as undo, sent as new_match
    client.deliver("domino/v1/t1/cmd/undo", command(ts=CLOCK.time() - 31))
    assert calls == []
    client.deliver("domino/v1/t1/cmd/undo", command(cmd_id="c-00000009"))
    client.deliver("domino/v1/t1/cmd/undo", command(cmd_id="c-00000009"))  # captured, replayed
    assert [name for name, _ in calls] == ["undo"]
    reasons = [e["reason"] for e in refusals(client)]
    assert reasons == [
        "bad_signature",
        "malformed",
        "unknown_command",
        "wrong_table",
        "unknown_command",
        "stale",
        "replayed",
    ]


def test_a_tampered_argument_breaks_the_signature() -> None:
    _, client, calls = make()
    client.connect()
    doc = json.loads(command(name="correct", args={"move": 4, "tile": "2-4"}))
    doc["args"]["tile"] = "6-6"
    client.deliver("domino/v1/t1/cmd/correct", json.dumps(doc).encode())
    assert calls == [] and refusals(client)[0]["reason"] == "bad_signature"


@pytest.mark.parametrize("number", ["NaN", "Infinity", "1e999"])
def test_a_command_carrying_a_non_finite_number_is_refused_and_counted(number: str) -> None:
    """It could not be signed (canonical JSON has no NaN): it once escaped the count."""
    pub, client, calls = make()
    client.connect()
    raw = command(name="new_match", args={"target": 1.5}).replace(b"1.5", number.encode())
    client.deliver("domino/v1/t1/cmd/new_match", raw)
    assert calls == [] and refusals(client)[0]["reason"] == "malformed"
    assert pub.command_counts() == {"accepted": 0, "malformed": 1}


def test_no_key_configured_refuses_every_command() -> None:
    _, client, calls = make(key=None)
    client.connect()
    client.deliver("domino/v1/t1/cmd/undo", command())
    assert calls == [] and refusals(client)[0]["reason"] == "no_key"


def test_junk_is_counted_but_reported_at_most_ten_times_a_minute() -> None:
    pub, client, _ = make()
    client.connect()
    for i in range(1060):
        client.deliver("domino/v1/t1/cmd/undo", b"junk %d" % i)
    reported = refusals(client)
    assert len(reported) == 10
    assert pub.command_counts() == {"accepted": 0, "malformed": 1060}
    CLOCK.advance(60)
    client.deliver("domino/v1/t1/cmd/undo", b"junk")
    later = refusals(client)[-1]
    assert later["refused_total"] == 1061 and later["not_reported"] == 1050
    state = json.loads(encode(pub.publish_state(example_body())))
    assert state["commands"] == {"accepted": 0, "refused": 1061}


def test_a_handler_refusing_the_arguments_is_a_refusal_and_other_bugs_do_not_escape() -> None:
    clients: list[FakeMqttClient] = []

    def handler(name: str, cmd: object) -> None:
        if name == "undo":
            raise ValueError("undo: 'moves' must be 1 to 10")
        raise RuntimeError("bug")

    pub = MqttPublisher(
        MqttSettings(url="mqtt://h"),
        TableSettings(table="t1", cmd_key=KEY),
        clock=CLOCK,
        on_command=handler,
        client_factory=lambda i, s: clients.append(FakeMqttClient()) or clients[-1],
    )
    pub.start()
    clients[0].connect()
    clients[0].deliver("domino/v1/t1/cmd/undo", command(cmd_id="c-0000000a"))
    clients[0].deliver("domino/v1/t1/cmd/new_match", command(cmd_id="c-0000000b", name="new_match"))
    assert [(e["reason"], e.get("detail")) for e in refusals(clients[0])] == [
        ("bad_arguments", "undo: 'moves' must be 1 to 10")
    ]
    assert pub.command_counts()["accepted"] == 1


def test_home_assistant_discovery_on_connect_and_on_ha_restart() -> None:
    _, client, _ = make(ha=True)
    client.connect()
    assert "homeassistant/status" in client.subscriptions
    configs = [m for m in client.published if m.topic.startswith("homeassistant/")]
    assert configs and all(m.retain for m in configs)
    assert all(
        m.topic.startswith("homeassistant/sensor/domino_t1/") and m.topic.endswith("/config")
        for m in configs
    )
    client.published.clear()
    client.deliver("homeassistant/status", b"offline")
    assert client.published == []
    client.deliver("homeassistant/status", b"online")
    assert len(client.published) == len(configs)


def test_discovery_payloads_describe_one_device() -> None:
    msgs = discovery_messages(TableTopics("domino/v1", "t7"), name="Mesa 7")
    docs = [json.loads(p) for _, p in msgs]
    assert {d["device"]["name"] for d in docs} == {"Mesa 7"}
    assert len({d["unique_id"] for d in docs}) == len(docs)
    assert all(d["state_topic"] == "domino/v1/t7/state" for d in docs)
    assert all(d["availability_topic"] == "domino/v1/t7/availability" for d in docs)


def test_fake_publisher_numbers_like_the_real_one() -> None:
    clock = FakeClock()
    fake = FakePublisher("t2", clock=clock, session="s")
    fake.publish_event("pass", {"seat": 1})
    clock.advance(2)
    state = fake.publish_state(example_body())
    device = fake.publish_device(DeviceView(link="down"))
    assert state.seq == 1 and state.table == "t2" and state.ts == fake.events[0].ts + 2
    assert device.link == "down" and fake.devices == [device]


def test_broker_status_is_told_once_per_change_not_per_retry() -> None:
    seen: list[BrokerStatus] = []
    client = FakeMqttClient()
    pub = MqttPublisher(
        MqttSettings(url="mqtt://user:secret@h:1884"),
        TableSettings(table="t1"),
        clock=FakeClock(),
        client_factory=lambda _i, _s: client,
        on_status=seen.append,
    )
    pub.start()
    client.fail_connect(ConnectionRefusedError())
    client.fail_connect(ConnectionRefusedError())  # paho retrying: nothing new to say
    client.connect()
    client.drop()
    client.fail_connect(TimeoutError())  # still down after the loss
    client.connect(refused=True)  # still down
    client.connect()
    assert [(s.connected, s.detail) for s in seen] == [
        (False, "connection refused"),
        (True, ""),
        (False, "lost: Unspecified error"),
        (True, ""),
    ]
    assert seen[0].describe() == (
        "broker mqtt://h:1884: no connection (connection refused); retrying in the background"
    )
    assert (
        "secret" not in seen[0].describe()
        and seen[1].describe() == "broker mqtt://h:1884: connected"
    )
    assert pub.status == seen[-1]


def test_a_refused_connect_is_a_status_with_the_brokers_reason() -> None:
    seen: list[BrokerStatus] = []
    client = FakeMqttClient()
    pub = MqttPublisher(
        MqttSettings(url="mqtt://h"),
        TableSettings(table="t1"),
        clock=FakeClock(),
        client_factory=lambda _i, _s: client,
        on_status=seen.append,
    )
    pub.start()
    client.connect(refused=True)
    assert [(s.connected, s.detail) for s in seen] == [
        (False, "refused by the broker: Not authorized")
    ]
    pub.stop()
    client.fail_connect(ConnectionRefusedError())  # stopping: nothing more is said
    assert len(seen) == 1


def test_team_names_of_the_settings_name_the_partnerships() -> None:
    clients: list[FakeMqttClient] = []
    pub = MqttPublisher(
        MqttSettings(url="mqtt://h"),
        TableSettings(table="t1", teams=["Los Gallos", "Las Palmas"]),
        clock=FakeClock(),
        client_factory=lambda i, s: clients.append(FakeMqttClient(i, s)) or clients[-1],
    )
    pub.start()
    clients[0].connect()
    sent = pub.publish_state(example_body())
    assert sent.match is not None
    assert [s.name for s in sent.match.sides] == ["Los Gallos", "Las Palmas"]
    wire = json.loads(clients[0].published[-1].payload)
    assert [s["name"] for s in wire["match"]["sides"]] == ["Los Gallos", "Las Palmas"]
    # without team names the body's own names go out
    plain = FakePublisher(clock=FakeClock()).publish_state(example_body())
    assert plain.match is not None
    assert [s.name for s in plain.match.sides] == ["Ana & Carla", "Beto & Dani"]


def test_team_names_leave_a_side_of_one_player_alone() -> None:
    body = example_body()
    assert body.match is not None
    solo = body.model_copy(
        update={
            "match": body.match.model_copy(
                update={
                    "sides": [
                        s.model_copy(update={"seats": [s.seats[0]]}) for s in body.match.sides
                    ]
                }
            )
        }
    )
    sent = FakePublisher(clock=FakeClock(), teams=["A", "B"]).publish_state(solo)
    assert sent.match is not None and [s.name for s in sent.match.sides] == [
        "Ana & Carla",
        "Beto & Dani",
    ]
