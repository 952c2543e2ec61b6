"""Where a table's live state goes: the one publishing port, typed with the MQTT payload models.

:class:`Publisher` is what the table runtime publishes through: the state body
(``{root}/{table}/state``), each domain event (``.../events``) and the seat device's link
(``.../device``); each call returns the payload as published, envelope included.
:class:`~controller.live.publisher.MqttPublisher` implements it on a broker; :class:`FakePublisher`
is the in-memory fake that ships with the package: it records the payloads instead of sending
them, with the same numbering and envelopes. Availability (``online``/``offline``) is no call of
the port: the MQTT publisher says ``online`` on each connection and ``offline`` on stop or as its
last will.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from controller.live.models import (
    DevicePayload,
    DeviceView,
    EventPayload,
    StateBody,
    StatePayload,
)
from domino_common.clock import Clock


class Publisher(Protocol):
    """Where the table runtime publishes; each call returns the payload as published."""

    def publish_state(self, body: StateBody) -> StatePayload:
        """The full state (``{root}/{table}/state``, retained), numbered with the last event's
        ``seq``."""
        ...

    def publish_event(self, type_: str, data: Mapping[str, Any]) -> EventPayload:
        """One domain event with the next ``seq`` (``{root}/{table}/events``)."""
        ...

    def publish_device(self, view: DeviceView) -> DevicePayload:
        """The seat device's link (``{root}/{table}/device``, retained)."""
        ...


def with_team_names(body: StateBody, teams: Sequence[str] | None) -> StateBody:
    """The body with each partnership (a side of two or more seats) named from ``teams``, in
    side order; sides of one player and sides past the list keep their names."""
    if not teams or body.match is None:
        return body
    sides = [
        side.model_copy(update={"name": teams[i]})
        if i < len(teams) and len(side.seats) > 1
        else side
        for i, side in enumerate(body.match.sides)
    ]
    return body.model_copy(update={"match": body.match.model_copy(update={"sides": sides})})


class Stamper:
    """Numbering and envelopes, shared by the MQTT publisher and the fake (not thread-safe: each
    holds its own lock around it)."""

    def __init__(
        self, table: str, clock: Clock, session: str | None, teams: Sequence[str] | None = None
    ) -> None:
        self.table = table
        self.clock = clock
        self.session = session or f"s-{uuid.uuid4().hex[:12]}"
        self.seq = 0
        self.teams = list(teams) if teams else None

    def state(self, body: StateBody) -> StatePayload:
        return StatePayload(
            seq=self.seq,
            session=self.session,
            table=self.table,
            ts=self.clock.time(),
            **with_team_names(body, self.teams).model_dump(),
        )

    def event(self, type_: str, data: Mapping[str, Any]) -> EventPayload:
        payload = EventPayload(
            seq=self.seq + 1,
            session=self.session,
            table=self.table,
            ts=self.clock.time(),
            type=type_,
            data=dict(data),
        )
        self.seq += 1
        return payload

    def device(self, view: DeviceView) -> DevicePayload:
        return DevicePayload(table=self.table, ts=self.clock.time(), **view.model_dump())


class FakePublisher:
    """Records payloads instead of sending them; same numbering as the MQTT publisher.
    Thread-safe (the runtime publishes from the camera's and the seat device's threads)."""

    def __init__(
        self,
        table: str = "table-1",
        *,
        clock: Clock,
        session: str | None = None,
        teams: Sequence[str] | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._stamp = Stamper(table, clock, session, teams)
        self.states: list[StatePayload] = []
        self.events: list[EventPayload] = []
        self.devices: list[DevicePayload] = []

    def publish_state(self, body: StateBody) -> StatePayload:
        with self._lock:
            payload = self._stamp.state(body)
            self.states.append(payload)
            return payload

    def publish_event(self, type_: str, data: Mapping[str, Any]) -> EventPayload:
        with self._lock:
            payload = self._stamp.event(type_, data)
            self.events.append(payload)
            return payload

    def publish_device(self, view: DeviceView) -> DevicePayload:
        with self._lock:
            payload = self._stamp.device(view)
            self.devices.append(payload)
            return payload

    @property
    def last_state(self) -> StatePayload | None:
        with self._lock:
            return self.states[-1] if self.states else None
