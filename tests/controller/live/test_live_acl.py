"""The shipped Mosquitto configuration and ACL (hardware/deploy/mosquitto), on the real broker,
with passwords made for the test: each rule proved with real clients.

"Not delivered" is proved without waiting: each refused message is acknowledged by the broker
(QoS 1: routed before its PUBACK) before a marker the receiver may read is sent, so once the
marker is in, the refused message would have been in before it.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from live_support import REPO, need_mosquitto, wait_until
from paho.mqtt.enums import CallbackAPIVersion

from controller.live.broker import free_port, wait_for_port

DEPLOY = REPO / "hardware/deploy/mosquitto"
USERS = ("scoreboard", "monitor", "homeassistant", "table-1", "table-2")


class Hall:
    """The production config on a free port, with one generated password per user."""

    def __init__(self, tmp: Path) -> None:
        self.port = free_port()
        self.passwords = {u: secrets.token_urlsafe(12) for u in USERS}
        conf = (DEPLOY / "mosquitto.conf").read_text()
        conf = (
            conf.replace("/etc/mosquitto/domino.passwd", str(tmp / "passwd"))
            .replace("/etc/mosquitto/domino.acl", str(DEPLOY / "domino.acl"))
            .replace("listener 1883", f"listener {self.port} 127.0.0.1")
            .replace("persistence true", "persistence false")
        )
        if os.getuid() == 0:  # mosquitto would drop to user "mosquitto", who cannot read tmp
            conf += "\nuser root\n"
        (tmp / "domino.conf").write_text(conf)
        for i, user in enumerate(USERS):
            args = ["mosquitto_passwd", "-b", *(["-c"] if i == 0 else [])]
            args += [str(tmp / "passwd"), user, self.passwords[user]]
            subprocess.run(args, check=True, capture_output=True, timeout=30)
        self.proc = subprocess.Popen(
            ["mosquitto", "-c", str(tmp / "domino.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self.clients: list[Client] = []

    def client(self, user: str) -> Client:
        self.clients.append(Client(self.port, user, self.passwords[user]))
        return self.clients[-1]

    def close(self) -> None:
        for c in self.clients:
            c.close()
        self.proc.terminate()
        self.proc.wait(10)
        if self.proc.stderr:
            self.proc.stderr.close()


class Client:
    def __init__(self, port: int, user: str, password: str) -> None:
        self.user = user
        self.got: list[tuple[str, bytes]] = []
        self.granted: dict[str, bool] = {}
        self._connected = threading.Event()
        self._subscribed = threading.Event()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"acl-{user}-{secrets.token_hex(3)}")
        c.username_pw_set(user, password)
        c.on_connect = lambda *a: self._connected.set()
        c.on_message = lambda cl, u, m: self.got.append((m.topic, bytes(m.payload)))
        c.on_subscribe = self._on_subscribe
        c.connect("127.0.0.1", port)
        c.loop_start()
        assert self._connected.wait(20), f"{user} could not connect"
        self.mqtt = c
        self._pending: list[str] = []

    def _on_subscribe(self, c: object, u: object, mid: int, codes: list[object], p: object) -> None:
        for topic, code in zip(self._pending, codes, strict=True):
            self.granted[topic] = not code.is_failure  # type: ignore[attr-defined]
        self._subscribed.set()

    def subscribe(self, *topics: str) -> None:
        self._subscribed.clear()
        self._pending = list(topics)
        self.mqtt.subscribe([(t, 1) for t in topics])
        assert self._subscribed.wait(20)

    def publish(self, topic: str, payload: bytes) -> None:
        self.mqtt.publish(topic, payload, 1).wait_for_publish(10)

    def topics(self) -> list[str]:
        return [t for t, _ in self.got]

    def close(self) -> None:
        self.mqtt.disconnect()
        self.mqtt.loop_stop()


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Hall]:
    need_mosquitto()
    h = Hall(tmp_path)
    try:
        assert wait_for_port("127.0.0.1", h.port, 15)
        yield h
    finally:
        h.close()


def marker(sender: Client, receiver: Client, topic: str) -> None:
    """``sender`` publishes on ``topic`` (which ``receiver`` may read); wait until it is in."""
    payload = secrets.token_hex(8).encode()
    sender.publish(topic, payload)
    wait_until(lambda: (topic, payload) in receiver.got, f"marker on {topic} for {receiver.user}")


def test_tables_write_only_under_their_own_id(hall: Hall) -> None:
    board = hall.client("scoreboard")
    board.subscribe("domino/v1/+/state", "domino/v1/+/events")
    t1 = hall.client("table-1")
    t1.publish("domino/v1/table-2/state", b"forged")
    t1.publish("domino/v1/table-2/events", b"forged")
    t1.publish("domino/v1/table-1/cmd/undo", b"self-command")
    marker(t1, board, "domino/v1/table-1/state")
    assert board.topics() == ["domino/v1/table-1/state"]


def test_only_the_table_reads_its_commands_and_only_the_scoreboard_sends_them(hall: Hall) -> None:
    t1, t2 = hall.client("table-1"), hall.client("table-2")
    monitor, ha = hall.client("monitor"), hall.client("homeassistant")
    board = hall.client("scoreboard")
    t1.subscribe("domino/v1/table-1/cmd/#", "domino/v1/table-2/cmd/#")
    t2.subscribe("domino/v1/+/cmd/#")
    for reader in (monitor, ha):
        reader.subscribe("domino/v1/#", "domino/v1/+/cmd/#", "domino/v1/+/state")
    board.subscribe("domino/v1/+/cmd/#", "domino/v1/+/state")
    board.publish("domino/v1/table-2/cmd/new_match", b"for table-2")
    board.publish("domino/v1/table-1/cmd/new_match", b"for table-1")
    wait_until(lambda: t1.got, "table-1's command")
    assert t1.got == [("domino/v1/table-1/cmd/new_match", b"for table-1")]
    assert t2.topics() == ["domino/v1/table-2/cmd/new_match"]
    # the readers and the scoreboard saw no command; a state from the same sender comes later
    board.publish("domino/v1/table-1/state", b"not the scoreboard's to write")
    t1.publish("domino/v1/table-1/state", b"state")
    for reader in (monitor, ha, board):
        wait_until(lambda r=reader: ("domino/v1/table-1/state", b"state") in r.got, "state")  # type: ignore[misc]
        assert [t for t in reader.topics() if "/cmd/" in t] == []
        assert (b"not the scoreboard's to write") not in [p for _, p in reader.got]
    # a monitor, Home Assistant or a table cannot send a command
    for sender in (monitor, ha, t2):
        sender.publish("domino/v1/table-1/cmd/undo", b"forged by " + sender.user.encode())
    marker(board, t1, "domino/v1/table-1/cmd/undo")
    assert [p for _, p in t1.got if p.startswith(b"forged")] == []


def test_read_only_accounts_write_nothing_and_service_users_are_no_table(hall: Hall) -> None:
    board = hall.client("scoreboard")
    board.subscribe("domino/v1/+/state", "domino/v1/+/availability")
    monitor, ha = hall.client("monitor"), hall.client("homeassistant")
    for sender in (monitor, ha):
        sender.publish("domino/v1/table-1/state", b"forged")
        sender.publish(f"domino/v1/{sender.user}/state", b"a table of its own")
    board.publish("domino/v1/scoreboard/state", b"a table of its own")
    t1 = hall.client("table-1")
    marker(t1, board, "domino/v1/table-1/state")
    assert board.topics() == ["domino/v1/table-1/state"]
