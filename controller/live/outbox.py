"""The bounded outbox a publisher keeps while the broker is away (pure, not thread-safe).

Retained topics keep only their newest payload (the newest state always wins); events queue up to
a bound, the oldest dropped first. A dropped event leaves a hole in ``seq`` that consumers see and
answer by resyncing from the retained state.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Message:
    topic: str
    payload: bytes
    qos: int
    retain: bool


class Outbox:
    def __init__(self, max_events: int) -> None:
        if max_events < 1:
            raise ValueError("the outbox holds at least one event")
        self._events: deque[Message] = deque()
        self._max_events = max_events
        self._retained: dict[str, Message] = {}
        self.dropped_events = 0

    def put(self, message: Message) -> None:
        if message.retain:
            self._retained.pop(message.topic, None)  # re-insert: keeps the newest order
            self._retained[message.topic] = message
            return
        if len(self._events) >= self._max_events:
            self._events.popleft()
            self.dropped_events += 1
        self._events.append(message)

    def drain(self) -> list[Message]:
        """Everything queued: events first (in order), then the newest retained payloads, so a
        consumer never sees events older than a state it already has."""
        out = [*self._events, *self._retained.values()]
        self._events.clear()
        self._retained.clear()
        return out

    def __len__(self) -> int:
        return len(self._events) + len(self._retained)
