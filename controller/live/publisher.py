"""The table side of the MQTT contract: publish state, events, device link; receive commands.

:class:`MqttPublisher` wraps a paho-mqtt 2.x client (callback API 2): QoS 1, retained state,
``offline`` last will on the availability topic, ``online`` on connect, paho's reconnect with
back-off, subscriptions made in ``on_connect`` (so they survive reconnects), a bounded
:class:`~controller.live.outbox.Outbox` while the broker is away, and a :class:`BrokerStatus`
handed to ``on_status`` each time the link changes (not at every retry).
It implements :class:`controller.live.port.Publisher`, whose fake
(:class:`~controller.live.port.FakePublisher`) records what would be published.
"""

from __future__ import annotations

import logging
import sys
import threading
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from controller.live.commands import CommandGate, RefusalLimiter
from controller.live.connect import describe_connect_error, paho_client
from controller.live.homeassistant import discovery_messages
from controller.live.models import (
    CommandCounts,
    CommandPayload,
    DevicePayload,
    DeviceView,
    EventPayload,
    StateBody,
    StatePayload,
    encode,
)
from controller.live.outbox import Message, Outbox
from controller.live.port import Stamper
from controller.live.settings import MqttSettings, TableSettings
from controller.live.topics import TableTopics
from domino_common.clock import Clock

log = logging.getLogger(__name__)

CommandHandler = Callable[[str, CommandPayload], None]
QOS = 1
MQTT_ERR_SUCCESS = 0  # paho's codes, without importing paho
MQTT_ERR_NO_CONN = 4


class MqttClient(Protocol):
    """The part of ``paho.mqtt.client.Client`` used here (the fake implements the same)."""

    on_connect: Any
    on_connect_fail: Any
    on_disconnect: Any
    on_message: Any
    on_subscribe: Any

    def will_set(self, topic: str, payload: bytes, qos: int, retain: bool) -> Any: ...

    def connect_async(self, host: str, port: int, keepalive: int) -> Any: ...

    def loop_start(self) -> Any: ...

    def loop_stop(self) -> Any: ...

    def disconnect(self) -> Any: ...

    def publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> Any: ...

    def subscribe(self, topic: str | list[tuple[str, int]], qos: int = 0) -> Any: ...


ClientFactory = Callable[[str, MqttSettings], MqttClient]


@dataclass(frozen=True, slots=True)
class BrokerStatus:
    """The table's link to the broker: ``connected``, or not and why (``detail``)."""

    url: str  # without credentials
    connected: bool
    detail: str = ""

    def describe(self) -> str:
        """One line for a person."""
        if self.connected:
            return f"broker {self.url}: connected"
        return f"broker {self.url}: no connection ({self.detail}); retrying in the background"


StatusHandler = Callable[[BrokerStatus], None]


class MqttPublisher:
    """A table's connection to the broker, the MQTT :class:`~controller.live.port.Publisher`.
    Thread-safe; paho runs its own network thread."""

    def __init__(
        self,
        mqtt_settings: MqttSettings,
        table_settings: TableSettings,
        *,
        clock: Clock,
        client_factory: ClientFactory = paho_client,
        session: str | None = None,
        on_command: CommandHandler | None = None,
        on_status: StatusHandler | None = None,
    ) -> None:
        self._settings = mqtt_settings
        self._table = table_settings
        self.topics = TableTopics(mqtt_settings.root, table_settings.table)
        self._stamp = Stamper(table_settings.table, clock, session, table_settings.teams)
        self._clock = clock
        key = table_settings.cmd_key
        self._gate = CommandGate(
            table_settings.table,
            None if key is None else key.get_secret_value().encode(),
            window_s=table_settings.cmd_window_s,
            max_bytes=min(mqtt_settings.max_payload, 64 * 1024),
        )
        self._refusals = RefusalLimiter()
        self._on_command = on_command
        self._lock = threading.RLock()
        self._outbox = Outbox(mqtt_settings.outbox_events)
        self._connected = False
        self._last_state: Message | None = None
        self._last_device: Message | None = None
        self.connects = 0
        self._stopping = False
        self._on_status = on_status
        self.status: BrokerStatus | None = None  # None until the first attempt ends
        client_id = (
            mqtt_settings.client_id or f"domino-{table_settings.table}-{uuid.uuid4().hex[:6]}"
        )
        self._client = client_factory(client_id, mqtt_settings)
        self._client.will_set(self.topics.availability, b"offline", qos=QOS, retain=True)
        self._client.on_connect = self._handle_connect
        self._client.on_connect_fail = self._handle_connect_fail
        self._client.on_disconnect = self._handle_disconnect
        self._client.on_message = self._handle_message

    # -- life cycle -------------------------------------------------------------------------
    def start(self) -> None:
        """Connect in the background; paho retries with back-off until the broker answers."""
        addr = self._settings.address()
        self._client.connect_async(addr.host, addr.port, keepalive=self._settings.keepalive_s)
        self._client.loop_start()

    def stop(self) -> None:
        """Clean shutdown: say ``offline`` (retained) ourselves, then disconnect."""
        info = None
        self._stopping = True
        with self._lock:
            if self._connected:
                info = self._client.publish(self.topics.availability, b"offline", QOS, True)
        if info is not None:  # wait outside the lock: paho's thread may need it meanwhile
            try:
                info.wait_for_publish(timeout=2.0)
            except (RuntimeError, ValueError):
                log.warning("could not say offline before disconnecting")
        self._client.disconnect()
        self._client.loop_stop()

    @property
    def connected(self) -> bool:
        return self._connected

    @property
    def dropped_events(self) -> int:
        return self._outbox.dropped_events

    @property
    def queued(self) -> int:
        return len(self._outbox)

    @property
    def seq(self) -> int:
        return self._stamp.seq

    # -- publishing ---------------------------------------------------------------------------
    def publish_state(self, body: StateBody) -> StatePayload:
        with self._lock:
            counts = CommandCounts(
                accepted=self._gate.accepted - self._after_gate(),
                refused=sum(self._gate.refused.values()),
            )
            payload = self._stamp.state(body).model_copy(update={"commands": counts})
            msg = Message(self.topics.state, encode(payload), QOS, True)
            self._last_state = msg
            self._send(msg)
            return payload

    def publish_event(self, type_: str, data: Mapping[str, Any]) -> EventPayload:
        with self._lock:
            payload = self._stamp.event(type_, data)
            self._send(Message(self.topics.events, encode(payload), QOS, False))
            return payload

    def publish_device(self, view: DeviceView) -> DevicePayload:
        with self._lock:
            payload = self._stamp.device(view)
            msg = Message(self.topics.device, encode(payload), QOS, True)
            self._last_device = msg
            self._send(msg)
            return payload

    def _send(self, msg: Message) -> None:
        if not self._connected:
            self._outbox.put(msg)
            return
        info = self._client.publish(msg.topic, msg.payload, msg.qos, msg.retain)
        if info.rc not in (MQTT_ERR_SUCCESS, MQTT_ERR_NO_CONN):
            # NO_CONN: paho keeps the message and resends it; anything else is ours to keep.
            self._outbox.put(msg)

    # -- paho callbacks (network thread) ------------------------------------------------------
    def _handle_connect(
        self, client: MqttClient, userdata: object, flags: object, reason: Any, props: object
    ) -> None:
        if reason.is_failure:
            self._set_status(False, f"refused by the broker: {reason}")
            return
        self._set_status(True)
        with self._lock:
            self._connected = True
            self.connects += 1
            log.info("table %s connected to the broker", self.topics.table)
            client.subscribe(self.topics.cmd_filter, qos=QOS)
            client.publish(self.topics.availability, b"online", QOS, True)
            if self._table.ha_discovery:
                client.subscribe(f"{self._table.ha_prefix}/status", qos=QOS)
                self._publish_discovery()
            pending = self._outbox.drain()
            latest = [m for m in (self._last_device, self._last_state) if m is not None]
            for msg in [m for m in pending if not m.retain] + latest:
                info = client.publish(msg.topic, msg.payload, msg.qos, msg.retain)
                if info.rc != MQTT_ERR_SUCCESS:
                    log.warning("flush of %s failed (rc %s)", msg.topic, info.rc)

    def _handle_disconnect(
        self, client: MqttClient, userdata: object, flags: object, reason: Any, props: object
    ) -> None:
        with self._lock:
            self._connected = False
        if self._stopping:
            log.info("table %s disconnected from the broker", self.topics.table)
        else:
            log.debug("table %s lost the broker (%s); reconnecting", self.topics.table, reason)
            self._set_status(False, f"lost: {reason}")

    def _handle_connect_fail(self, client: MqttClient, userdata: object) -> None:
        # paho calls this from inside its ``except OSError``: the error is the one being handled
        if not self._stopping:
            self._set_status(False, describe_connect_error(sys.exc_info()[1]))

    def _set_status(self, connected: bool, detail: str = "") -> None:
        """Record the link and tell ``on_status`` when it changed (a retry that fails like the
        one before says nothing new)."""
        with self._lock:
            previous = self.status
            if previous is not None and previous.connected == connected:
                return
            url = self._settings.address().url()
            self.status = BrokerStatus(url, connected, detail)
            status = self.status
        if self._on_status is None:
            log.warning("%s", status.describe())
        else:
            self._on_status(status)

    def _publish_discovery(self) -> None:
        for topic, payload in discovery_messages(
            self.topics, prefix=self._table.ha_prefix, name=self._table.name
        ):
            self._client.publish(topic, payload, QOS, True)

    def _handle_message(self, client: MqttClient, userdata: object, msg: Any) -> None:
        topic: str = msg.topic
        if topic == f"{self._table.ha_prefix}/status":
            if bytes(msg.payload) == b"online" and self._table.ha_discovery:
                with self._lock:
                    self._publish_discovery()
            return
        prefix = self.topics.cmd("")
        name = topic[len(prefix) :]
        if not topic.startswith(prefix) or not name or "/" in name:
            # not ours (the embedded broker has been seen delivering other tables' retained
            # messages to a fresh subscriber): ignore quietly, answer nothing
            log.debug("ignored message on %r", topic[:200])
            return
        try:
            self._command(name, bytes(msg.payload))
        except Exception:  # a handler bug must not kill paho's network thread
            log.exception("command %s failed", name)

    def _command(self, name: str, raw: bytes) -> None:
        """Check a command (signature, table, window, replay) and hand it to ``on_command``;
        a refusal is counted and told in a rate-limited ``command_refused`` event (never one
        event per junk message). A handler that raises ``ValueError`` refuses the command's
        arguments (``bad_arguments``)."""
        with self._lock:
            verdict = self._gate.check(name, raw, self._clock.time())
            handler = self._on_command
        cmd = verdict.command
        if cmd is None:
            self._refuse(name, verdict.cmd_id, verdict.reason or "invalid")
            return
        if handler is None:
            self._refuse(name, cmd.id, "not_ready")
            return
        log.info("command %s (%s) accepted", name, cmd.id)
        try:
            handler(name, cmd)
        except ValueError as exc:
            self._refuse(name, cmd.id, "bad_arguments", str(exc))

    def _refuse(self, name: str, cmd_id: str | None, reason: str, detail: str = "") -> None:
        with self._lock:
            if reason in ("not_ready", "bad_arguments"):
                self._gate.refused[reason] += 1
            total = sum(self._gate.refused.values())
            held = self._refusals.allow(self._clock.monotonic())
            if held is None:
                return
            log.warning(
                "command %s refused: %s%s (%d refused so far, %d not reported)",
                name[:32],
                reason,
                f" ({detail[:200]})" if detail else "",
                total,
                held,
            )
            data: dict[str, Any] = {
                "name": name[:32],
                "id": cmd_id,
                "reason": reason,
                "refused_total": total,
                "not_reported": held,
            }
            if detail:
                data["detail"] = detail[:200]
            self.publish_event("command_refused", data)

    def set_command_handler(self, handler: CommandHandler | None) -> None:
        """Who runs accepted commands (the table runtime, once it exists)."""
        with self._lock:
            self._on_command = handler

    def command_counts(self) -> dict[str, int]:
        """Commands accepted and refused since start, by reason (for the status and metrics)."""
        with self._lock:
            return {"accepted": self._gate.accepted - self._after_gate(), **self._gate.refused}

    def _after_gate(self) -> int:
        """Commands the gate passed but the table refused after all."""
        return self._gate.refused["not_ready"] + self._gate.refused["bad_arguments"]
