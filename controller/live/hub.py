"""Fan-out of live updates to SSE clients (asyncio side). Each client has a bounded queue; a
client that falls behind is dropped (its browser reconnects and gets a fresh snapshot), so a slow
screen never blocks the others or the MQTT side."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

HALL = ""


@dataclass(eq=False)
class Subscriber:
    key: str  # a table id, or HALL for the hall page
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    dropped: bool = False


class Hub:
    def __init__(self, queue_size: int) -> None:
        self._queue_size = queue_size
        self._subs: dict[str, set[Subscriber]] = {}
        self.closed = False
        self.dropped_total = 0
        self.sent_total = 0

    def subscribe(self, key: str) -> Subscriber:
        sub = Subscriber(key, asyncio.Queue(maxsize=self._queue_size))
        if self.closed:
            sub.queue.put_nowait(None)
        self._subs.setdefault(key, set()).add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        subs = self._subs.get(sub.key)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.key]

    def watched(self) -> list[str]:
        """Keys with at least one subscriber."""
        return [k for k, subs in self._subs.items() if subs]

    def wants(self, key: str) -> bool:
        return bool(self._subs.get(key))

    @property
    def clients(self) -> int:
        return sum(len(s) for s in self._subs.values())

    def publish(self, key: str, message: str) -> None:
        for sub in list(self._subs.get(key, ())):
            if sub.dropped:
                continue
            try:
                sub.queue.put_nowait(message)
                self.sent_total += 1
            except asyncio.QueueFull:
                self._drop(sub)

    def _drop(self, sub: Subscriber) -> None:
        sub.dropped = True
        self.dropped_total += 1
        log.warning("SSE client of %r too slow: dropped (it will reconnect)", sub.key or "hall")
        while not sub.queue.empty():
            sub.queue.get_nowait()
        sub.queue.put_nowait(None)

    def close(self) -> None:
        """End every stream (server shutdown)."""
        self.closed = True
        for subs in self._subs.values():
            for sub in subs:
                while not sub.queue.empty():
                    sub.queue.get_nowait()
                sub.queue.put_nowait(None)
