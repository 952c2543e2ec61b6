"""An in-memory stand-in for a paho client, to test the publisher and the feed without a broker.

It never talks to a network: a test drives it (``connect()``, ``drop()``, ``deliver()``) and reads
what was published. Messages published while "disconnected" are refused like paho's NO_CONN.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.live.publisher import MQTT_ERR_NO_CONN, MQTT_ERR_SUCCESS
from controller.live.settings import MqttSettings


@dataclass(frozen=True, slots=True)
class _Reason:
    is_failure: bool
    name: str = "Success"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class _Info:
    rc: int

    def wait_for_publish(self, timeout: float | None = None) -> None:
        return None


@dataclass(frozen=True, slots=True)
class FakeMessage:
    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = False


class FakeMqttClient:
    def __init__(self, client_id: str = "fake", settings: MqttSettings | None = None) -> None:
        self.client_id = client_id
        self.on_connect: Any = None
        self.on_connect_fail: Any = None
        self.on_disconnect: Any = None
        self.on_message: Any = None
        self.on_subscribe: Any = None
        self.will: FakeMessage | None = None
        self.connected = False
        self.started = False
        self.published: list[FakeMessage] = []
        self.subscriptions: list[str] = []
        self.unacked: list[tuple[int, int]] = []  # (mid, how many filters) not yet SUBACKed

    # paho's surface
    def will_set(self, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        self.will = FakeMessage(topic, payload, qos, retain)

    def connect_async(self, host: str, port: int, keepalive: int) -> None:
        self.address = (host, port, keepalive)

    def loop_start(self) -> None:
        self.started = True

    def loop_stop(self) -> None:
        self.started = False

    def disconnect(self) -> None:
        self.connected = False

    def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> _Info:
        if not self.connected:
            return _Info(MQTT_ERR_NO_CONN)
        self.published.append(FakeMessage(topic, payload, qos, retain))
        return _Info(MQTT_ERR_SUCCESS)

    def subscribe(self, topic: str | list[tuple[str, int]], qos: int = 0) -> tuple[int, int]:
        topics = [topic] if isinstance(topic, str) else [t for t, _ in topic]
        self.subscriptions += topics
        mid = len(self.subscriptions)
        self.unacked.append((mid, len(topics)))
        return (MQTT_ERR_SUCCESS, mid)

    # driving it
    def connect(self, *, refused: bool = False, suback: bool = True) -> None:
        """The broker answers CONNACK (accepted, or refused), then (``suback``) the SUBACK of
        every subscription made on connecting, all granted."""
        self.connected = not refused
        self.on_connect(
            self, None, {}, _Reason(refused, "Not authorized" if refused else "Success"), None
        )
        if suback:
            self.ack_subscriptions()

    def ack_subscriptions(self, *, refused: bool = False) -> None:
        """The broker answers SUBACK to every SUBSCRIBE not yet answered (each filter granted,
        or each refused)."""
        pending, self.unacked = self.unacked, []
        for mid, n in pending:
            if self.on_subscribe is not None:
                reason = _Reason(refused, "Not authorized" if refused else "Granted QoS 1")
                self.on_subscribe(self, None, mid, [reason] * n, None)

    def fail_connect(self, error: OSError) -> None:
        """A connection attempt fails before any answer; like paho, the callback runs while the
        error is being handled."""
        try:
            raise error
        except OSError:
            self.on_connect_fail(self, None)

    def drop(self) -> None:
        """The connection is lost."""
        self.connected = False
        self.on_disconnect(self, None, {}, _Reason(True, "Unspecified error"), None)

    def deliver(self, topic: str, payload: bytes) -> None:
        self.on_message(self, None, FakeMessage(topic, payload))

    def topics(self) -> list[str]:
        return [m.topic for m in self.published]
