"""Where the table's state and events go: a small Protocol. The MQTT publisher (``controller.live``)
implements it; :class:`MemoryPublisher` is the fake that ships with the package."""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class Publisher(Protocol):
    def publish_state(self, snapshot: Mapping[str, Any]) -> None:
        """The full snapshot (MQTT ``{root}/{table}/state``, retained)."""

    def publish_event(self, event: Mapping[str, Any]) -> None:
        """One domain event with its ``seq`` (MQTT ``{root}/{table}/events``)."""

    def set_availability(self, online: bool) -> None:
        """``online`` / ``offline`` (MQTT ``{root}/{table}/availability``, the last will)."""


class MemoryPublisher:
    """Keeps everything published, for tests and for the demo's own summary."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.states: list[Mapping[str, Any]] = []
        self.events: list[Mapping[str, Any]] = []
        self.availability: list[bool] = []

    def publish_state(self, snapshot: Mapping[str, Any]) -> None:
        with self._lock:
            self.states.append(snapshot)

    def publish_event(self, event: Mapping[str, Any]) -> None:
        with self._lock:
            self.events.append(event)

    def set_availability(self, online: bool) -> None:
        with self._lock:
            self.availability.append(online)

    @property
    def last_state(self) -> Mapping[str, Any] | None:
        with self._lock:
            return self.states[-1] if self.states else None


class FanoutPublisher:
    """Publishes to several publishers (the in-memory record and MQTT, say)."""

    def __init__(self, publishers: Sequence[Publisher]) -> None:
        self.publishers = list(publishers)

    def publish_state(self, snapshot: Mapping[str, Any]) -> None:
        for p in self.publishers:
            p.publish_state(snapshot)

    def publish_event(self, event: Mapping[str, Any]) -> None:
        for p in self.publishers:
            p.publish_event(event)

    def set_availability(self, online: bool) -> None:
        for p in self.publishers:
            p.set_availability(online)
