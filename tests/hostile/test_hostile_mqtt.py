"""Issue 46's hostile-input suite, MQTT: generated hostile payloads through a real Mosquitto (the
shipped ACL, each side with its own account) to a real table runtime's command topics and to the
topics the scoreboard reads.

Commands are sent with the scoreboard's account (the only one the ACL lets write commands: a
stolen password, or a scoreboard gone wrong); state, events, device and availability junk with the
table's own account. Every bad command must be refused *and counted* (the table's refusal count
rises by exactly the number sent, nothing is accepted, the table's state and journal do not
move); every bad payload to the scoreboard must be counted as refused while the scoreboard keeps
showing the last good state and answers no 5xx. The table must still obey a good command at the
end. Peak Python heap during the fuzzing (table and scoreboard both live in this process) stays
under 200 MB above where it started (tracemalloc; Mosquitto's own memory is not counted).
"""

from __future__ import annotations

import json
import os
import time
import tracemalloc
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from controller.journal import Journal
from controller.live.app import create_app
from controller.live.broker import MosquittoBroker
from controller.live.commands import signed_command
from controller.live.models import COMMANDS
from controller.live.publisher import paho_client
from controller.live.server import ServerThread
from controller.live.settings import MqttSettings, ScoreboardSettings, station_settings
from controller.runtime import TableRuntime
from controller.runtime.live_hooks import LiveServices, start_live
from controller.table import snapshot
from controller.table.state import REJECTED
from tests.hostile.ledger import case

ROOT = Path(__file__).resolve().parents[2]
TABLE = "t-hostile"
KEY = "hostile-mqtt-command-key-0123"
TOKEN = "hostile-mqtt-token"
USERS = {"scoreboard": "sb-pw-hostile", TABLE: "table-pw-hostile"}
HEAP_HEADROOM = 200 * 2**20
COMMAND_CASES = "MQTT commands to the table (generated; bad MACs, replays, bad arguments...)"
READ_CASES = "MQTT state, events, device, availability to the scoreboard (generated)"
FUZZ = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
    derandomize=True,  # the same cases every run: CI must not flake
    phases=[Phase.explicit, Phase.generate],  # no shrinking: each example is a broker round trip
)


def _wait(
    predicate: Callable[[], Any], what: str | Callable[[], str], timeout: float = 20.0
) -> Any:
    """Poll until truthy; a bound against hanging, not a timing assertion. ``what`` (or what it
    returns, when the wait fails) says what was awaited."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(0.02)
    raise AssertionError(
        f"timed out waiting for {what if isinstance(what, str) else what()} (last: {last!r})"
    )


class Sender:
    """A plain MQTT client of one account, publishing at QoS 1 and waiting for each PUBACK."""

    def __init__(self, url: str, client_id: str) -> None:
        mqtt_settings = MqttSettings(url=url)
        self.client: Any = paho_client(client_id, mqtt_settings)
        addr = mqtt_settings.address()
        self.client.connect(addr.host, addr.port, keepalive=30)
        self.client.loop_start()

    def send(self, topic: str, payload: bytes, retain: bool = False) -> None:
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        info.wait_for_publish(timeout=10)
        assert info.is_published(), f"publish to {topic} not acknowledged"

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


@dataclass
class Hall:
    board: httpx.Client
    runtime: TableRuntime
    live: LiveServices
    commands: Sender  # logged in as the scoreboard
    table_account: Sender  # logged in as the table

    def counts(self) -> dict[str, int]:
        pub = self.live.station.publisher
        return pub.command_counts()  # type: ignore[no-any-return]

    def view(self) -> dict[str, Any]:
        r = self.board.get(f"/api/tables/{TABLE}")
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hall]:
    if MosquittoBroker.find_executable() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("mosquitto is missing under CI (scripts/test.sh installs it)")
        pytest.skip("mosquitto not installed (apt-get install mosquitto)")
    acl = (ROOT / "hardware/deploy/mosquitto/domino.acl").read_text()
    journal_path = tmp_path_factory.mktemp("hostile-mqtt") / "journal.sqlite"
    with (
        pytest.MonkeyPatch.context() as mp,
        MosquittoBroker(users=USERS, acl=acl) as broker,
    ):
        mp.setenv("DOMINO_TABLE_CMD_KEY", KEY)
        scoreboard = ScoreboardSettings(
            mqtt=MqttSettings(url=broker.url_for("scoreboard"), reconnect_min_s=0.5),
            token=TOKEN,
            cmd_keys={TABLE: KEY},
        )
        server = ServerThread(create_app(scoreboard))
        server.start()
        board = httpx.Client(base_url=server.url, timeout=10.0)
        live = start_live(station_settings(table=TABLE, broker=broker.url_for(TABLE)))
        assert live.station is not None and live.publisher is not None, live.note
        senders: list[Sender] = []
        try:
            with Journal(journal_path, table=TABLE) as journal:
                runtime = TableRuntime(table=TABLE, journal=journal, publisher=live.publisher)
                live.take_commands(runtime)
                runtime.start()
                _wait(
                    lambda: (
                        (r := board.get(f"/api/tables/{TABLE}")).status_code == 200
                        and r.json()["state"]
                    ),
                    "the table's state on the scoreboard",
                )
                senders = [
                    Sender(broker.url_for("scoreboard"), "hostile-commands"),
                    Sender(broker.url_for(TABLE), "hostile-table-account"),
                ]
                yield Hall(board, runtime, live, *senders)
                runtime.stop()
        finally:
            for s in senders:
                s.close()
            live.stop()
            board.close()
            server.stop()


# -- hostile commands ------------------------------------------------------------------------
_JUNK_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=80),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)
_OTHER_TABLE = st.from_regex(r"\A[A-Za-z0-9_-]{1,64}\Z").filter(lambda t: t != TABLE)
_OTHER_NAME = st.from_regex(r"\A[a-z][a-z_]{0,31}\Z").filter(lambda n: n not in COMMANDS)


def _signed(now: float, **kw: Any) -> dict[str, Any]:
    """A command signed with the table's key (or ``key=``); whole seconds, so that its length,
    and so what hypothesis draws from it, does not change from one run to the next."""
    fields: dict[str, Any] = {"table": TABLE, "name": "undo", "ts": float(int(now)), "args": {}}
    fields.update(kw)
    key = fields.pop("key", KEY.encode())
    cmd = signed_command(key, **fields)
    return cmd.model_dump(mode="json", by_alias=True)


def _raw(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, allow_nan=True).encode()


#: Payload faults every topic's reader must refuse, whatever the topic.
_MALFORMED = ("random bytes", "truncated", "huge", "deep nesting", "wrong type", "non-finite")


@st.composite
def hostile_command(draw: st.DrawFn, now: float, replayable: bytes) -> tuple[str, str, bytes]:
    """``(what, command name for the topic, payload)``: never a command the table may obey."""
    name = draw(st.sampled_from(COMMANDS))
    what = draw(
        st.sampled_from(
            [
                *_MALFORMED,
                "bad mac",
                "wrong key",
                "out of window",
                "other table",
                "unknown name",
                "name not the topic's",
                "replayed",
            ]
        )
    )
    good = _signed(now, name=name)
    if what == "random bytes":
        return what, name, draw(st.binary(max_size=600))
    if what == "truncated":
        raw = _raw(good)
        return what, name, raw[: draw(st.integers(0, len(raw) - 1))]
    if what == "huge":  # over the table's 64 kB bound for a command
        pad = draw(st.integers(64 * 1024, 1024 * 1024))
        return what, name, _raw({**good, "args": {"pad": "x" * pad}})
    if what == "deep nesting":
        depth = draw(st.integers(1000, 30000))
        if draw(st.booleans()):
            return what, name, b"[" * depth + b"]" * depth
        return what, name, _raw(good)[:-1] + b',"args":{"a":' + b"[" * depth + b"]" * depth + b"}}"
    if what == "wrong type":
        field = draw(st.sampled_from(sorted(good)))
        value = draw(_JUNK_VALUES.filter(lambda v: v != good[field]))
        return what, name, _raw({**good, field: value})
    if what == "non-finite":
        number = draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", "-1e400"]))
        doc = _signed(now, name=name, args={"target": 1.5})
        return what, name, _raw(doc).replace(b"1.5", number.encode())
    if what == "bad mac":
        mac = draw(st.text("0123456789abcdef", min_size=64, max_size=64).filter(good["mac"].__ne__))
        return what, name, _raw({**good, "mac": mac})
    if what == "wrong key":
        key = draw(st.binary(min_size=1, max_size=64).filter(lambda k: k != KEY.encode()))
        return what, name, _raw(_signed(now, name=name, key=key))
    if what == "out of window":  # the table's window is 30 s
        offset = draw(st.floats(60, 10 * 365 * 86400)) * draw(st.sampled_from([-1, 1]))
        return what, name, _raw(_signed(max(0.0, now + offset), name=name))
    if what == "other table":
        return what, name, _raw(_signed(now, name=name, table=draw(_OTHER_TABLE)))
    if what == "unknown name":
        other = draw(_OTHER_NAME)
        return what, other, _raw(_signed(now, name=other))
    if what == "name not the topic's":
        topic_name = draw(st.sampled_from([n for n in COMMANDS if n != name]))
        return what, topic_name, _raw(good)
    return "replayed", "new_match", replayable


@st.composite
def bad_arguments(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A command the gate passes but whose arguments the table must refuse (in a hand with no
    move yet: nothing to correct or undo; no such rule set; unknown arguments)."""
    name = draw(st.sampled_from(COMMANDS))
    if name == "new_match":
        args: dict[str, Any] = draw(
            st.one_of(
                st.builds(lambda s: {"rules": "no-such-" + s}, st.text(max_size=20)),
                st.builds(lambda n: {"seats": ["a"] * n}, st.integers(5, 30)),
                st.dictionaries(st.text(max_size=8).map(lambda k: "x-" + k), _SCALARS, min_size=1),
            )
        )
    elif name == "correct":
        args = {"move": draw(st.integers(-3, 50)), "tile": draw(st.sampled_from(["1-2", "6-6"]))}
    else:  # 1 to 10 undo that many moves; {} undoes one (there is none)
        args = draw(
            st.one_of(
                st.just({}),
                st.builds(lambda m: {"moves": m}, st.integers(-5, 0) | st.integers(11, 99)),
            )
        )
    return name, args


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=10))


def test_hostile_commands_are_all_refused_and_counted(hall: Hall) -> None:
    # one good command, captured: the fuzzer replays its exact bytes
    first = _raw(_signed(time.time(), name="new_match", args={"rules": "latin", "target": 100}))
    before = hall.counts()
    hall.commands.send(f"domino/v1/{TABLE}/cmd/new_match", first)
    _wait(lambda: hall.runtime.state.match is not None, "the good command carried out")
    assert hall.counts()["accepted"] == before["accepted"] + 1
    assert hall.runtime.state.match is not None and hall.runtime.state.match.rules.target == 100
    journal = hall.runtime.journal
    assert journal is not None
    rows, state = len(list(journal.inputs())), snapshot(hall.runtime.state)
    tracemalloc.start()
    start_heap = tracemalloc.get_traced_memory()[0]
    sent: list[str] = []

    @FUZZ
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        batch = data.draw(st.integers(1, 8))
        # the whole batch is drawn before any is sent: hypothesis may give up on an example
        # halfway through its draws, and what was already sent would then be counted in the
        # next one's (the same in the scoreboard's fuzzing below)
        drawn = [data.draw(hostile_command(time.time(), first)) for _ in range(batch)]
        counts_before = hall.counts()
        refused_before = sum(v for k, v in counts_before.items() if k != "accepted")
        for what, name, raw in drawn:
            hall.commands.send(f"domino/v1/{TABLE}/cmd/{name}", raw)
            sent.append(what)
        kinds = [f"{what} ({len(raw)} B)" for what, _, raw in drawn]
        with case(COMMAND_CASES, batch) as c:
            _wait(
                lambda: (
                    sum(v for k, v in hall.counts().items() if k != "accepted")
                    == refused_before + batch
                ),
                lambda: (
                    f"{batch} refusals of {kinds}; counts {counts_before} -> {hall.counts()}, "
                    f"the table connected {hall.live.station.publisher.connects} time(s)"
                ),
            )
            c.refused()

    try:
        fuzz()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    counts = hall.counts()
    assert counts["accepted"] == before["accepted"] + 1  # only the good one, ever
    assert sum(v for k, v in counts.items() if k != "accepted") - sum(
        v for k, v in before.items() if k != "accepted"
    ) == len(sent)
    assert len(sent) > 50 and len(set(sent)) == 13  # every kind was tried
    for reason in ("malformed", "oversized", "invalid", "bad_signature", "stale"):
        assert counts.get(reason), (reason, counts)
    for reason in ("wrong_table", "unknown_command", "replayed"):
        assert counts.get(reason), (reason, counts)
    assert len(list(journal.inputs())) == rows and snapshot(hall.runtime.state) == state
    assert peak - start_heap < HEAP_HEADROOM, f"heap peak {peak - start_heap} bytes over start"
    # the table still obeys a good command, and the scoreboard shows it
    hall.commands.send(
        f"domino/v1/{TABLE}/cmd/new_match",
        _raw(_signed(time.time(), name="new_match", args={"rules": "latin", "target": 150})),
    )
    _wait(
        lambda: ((hall.view()["state"] or {}).get("match") or {}).get("target") == 150,
        "the table's new match on the scoreboard",
    )
    with case(COMMAND_CASES) as c:
        assert hall.runtime.state.match is not None
        c.accepted()


def test_signed_commands_with_bad_arguments_are_refused_and_change_nothing(hall: Hall) -> None:
    """Past the gate, the table refuses them: ``bad_arguments`` (counted) before anything is
    journaled, or a journaled input the state machine answers with a 'refused' alert. Either
    way the match (rules, seats, scores, the hand) stays as it was."""
    journal = hall.runtime.journal
    assert journal is not None
    _wait(lambda: hall.runtime.state.match is not None, "a match (from the test before)")
    match = snapshot(hall.runtime.state)["match"]
    tried = 0

    @FUZZ
    @given(command=bad_arguments())
    def fuzz(command: tuple[str, dict[str, Any]]) -> None:
        nonlocal tried
        name, args = command
        refused, journaled = hall.counts().get("bad_arguments", 0), journal.delivered("api")
        with case(COMMAND_CASES) as c:
            hall.commands.send(
                f"domino/v1/{TABLE}/cmd/{name}", _raw(_signed(time.time(), name=name, args=args))
            )
            _wait(
                lambda: (
                    hall.counts().get("bad_arguments", 0) + journal.delivered("api")
                    == refused + journaled + 1
                ),
                "the table's answer",
            )
            assert snapshot(hall.runtime.state)["match"] == match, (name, args)
            if journal.delivered("api") > journaled:  # journaled: the table answered with a notice
                assert hall.runtime.state.notices[-1].kind == REJECTED, hall.runtime.state.notices
            c.refused()
        tried += 1

    fuzz()
    assert tried >= 20 and hall.counts().get("bad_arguments", 0) > 0


# -- hostile payloads to the scoreboard --------------------------------------------------------
_READ_TOPICS = ("state", "events", "device", "availability")


@st.composite
def hostile_table_payload(draw: st.DrawFn, good: dict[str, Any]) -> tuple[str, str, bytes]:
    """``(what, topic kind, payload)`` the scoreboard must refuse; ``good`` is a real state."""
    kind = draw(st.sampled_from(_READ_TOPICS))
    what = draw(
        st.sampled_from(
            [
                *_MALFORMED,
                "other table",
                "unknown schema",
            ]
        )
    )
    raw = _raw(good)
    if kind == "availability" or what == "random bytes":
        payload = draw(
            st.binary(min_size=1, max_size=600).filter(lambda b: b not in (b"online", b"offline"))
        )
        return "random bytes", kind, payload
    if what == "truncated":
        return what, kind, raw[: draw(st.integers(1, len(raw) - 1))]
    if what == "huge":  # over the scoreboard's 256 kB bound
        return what, kind, raw[:-1] + b',"pad":"' + b"x" * draw(st.integers(2**18, 2**21)) + b'"}'
    if what == "deep nesting":
        depth = draw(st.integers(1000, 60000))
        return what, kind, raw[:-1] + b',"deep":' + b"[" * depth + b"]" * depth + b"}"
    if what == "wrong type":  # a field given a value no field of these payloads can hold
        field = draw(st.sampled_from(["schema", "seq", "session", "table", "ts"]))
        junk = st.one_of(
            st.lists(st.integers(), min_size=1, max_size=3),
            st.dictionaries(st.text(max_size=5).map(lambda k: "~" + k), st.integers(), min_size=1),
        )
        return what, kind, _raw({**good, field: draw(junk)})
    if what == "non-finite":
        field = draw(st.sampled_from(["seq", "ts"]))
        number = draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999"]))
        return what, kind, _raw({**good, field: 7.25}).replace(b"7.25", number.encode())
    if what == "other table":
        return what, kind, _raw({**good, "table": draw(_OTHER_TABLE)})
    schema = draw(st.text(max_size=40).filter(lambda s: not s.startswith("domino-table/")))
    return what, kind, _raw({**good, "schema": schema})


def test_hostile_payloads_never_reach_the_scoreboard(hall: Hall) -> None:
    # a good command first: its state is the last thing the table publishes, so nothing good is
    # still on its way when the fuzzing starts
    hall.commands.send(
        f"domino/v1/{TABLE}/cmd/new_match",
        _raw(_signed(time.time(), name="new_match", args={"rules": "latin", "target": 130})),
    )
    good = _wait(
        lambda: (((s := hall.view()["state"]) or {}).get("match") or {}).get("target") == 130 and s,
        "the table's state on the scoreboard",
    )
    paths = [
        "/api/tables",
        f"/api/tables/{TABLE}",
        f"/api/tables/{TABLE}/state",
        f"/api/tables/{TABLE}/events",
        f"/api/tables/{TABLE}/record",
        "/healthz",
        "/metrics",
        f"/table/{TABLE}",
        "/",
    ]
    tracemalloc.start()
    start_heap = tracemalloc.get_traced_memory()[0]
    sent: list[tuple[str, str]] = []

    @FUZZ
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        batch = data.draw(st.integers(1, 8))
        drawn = [data.draw(hostile_table_payload(good)) for _ in range(batch)]  # then sent
        refused_before = hall.view()["counters"]["refused"]
        for what, kind, raw in drawn:
            # not retained: the scoreboard reads retained state again at each resync and would
            # (rightly) refuse and count it again, which would blur the count of what was sent
            hall.table_account.send(f"domino/v1/{TABLE}/{kind}", raw)
            sent.append((what, kind))
        with case(READ_CASES, batch) as c:
            view = _wait(
                lambda: (v := hall.view())["counters"]["refused"] == refused_before + batch and v,
                f"{batch} refusals",
            )
            assert view["state"] == good  # the last good state stays
            assert view["stale"] and view["stale_reason"].startswith("refused ")
            for path in paths:
                assert hall.board.get(path).status_code < 500, path
            c.refused()

    try:
        fuzz()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(sent) > 50
    assert {what for what, _ in sent} >= {"random bytes", "huge", "deep nesting", "other table"}
    assert {kind for _, kind in sent} == set(_READ_TOPICS)
    assert peak - start_heap < HEAP_HEADROOM, f"heap peak {peak - start_heap} bytes over start"
    metrics = hall.board.get("/metrics").text
    assert "domino_scoreboard_refused_total" in metrics
    # the table's next real state is shown and clears the alarm
    hall.commands.send(
        f"domino/v1/{TABLE}/cmd/new_match",
        _raw(_signed(time.time(), name="new_match", args={"rules": "latin", "target": 120})),
    )
    view = _wait(
        lambda: (((v := hall.view())["state"] or {}).get("match") or {}).get("target") == 120 and v,
        "the table's next state on the scoreboard",
    )
    with case(READ_CASES) as c:
        assert not view["stale"], view["stale_reason"]
        c.accepted()
