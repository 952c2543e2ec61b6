"""What the scoreboard knows about every table: the pure consumer side of the MQTT contract.

:meth:`TableStore.ingest` takes one MQTT message (topic, bytes) and the time, validates it and
updates the table's record. Refused payloads (oversized, malformed, unknown schema, invalid, wrong
table) are logged and counted, and the last good state stays, marked stale. An event whose
``seq`` jumps asks for a resync from the retained state. Thread-safe: paho delivers on its own
thread while the web app reads.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from controller.live.errors import PayloadError
from controller.live.models import DevicePayload, EventPayload, StatePayload, decode
from controller.live.topics import parse_topic

log = logging.getLogger(__name__)

Json = dict[str, Any]


@dataclass(slots=True)
class _Table:
    table: str
    ring: int
    state: Json | None = None
    state_seq: int = -1
    session: str | None = None
    availability: str = "unknown"
    device: Json | None = None
    last_seen: float | None = None
    last_live: float | None = None  # the last message sent while we listened (not a retained one)
    state_at: float | None = None
    last_event_seq: int = 0
    events: deque[Json] = field(default_factory=deque)
    problem: str | None = None
    resync_pending: bool = False
    events_received: int = 0
    states_received: int = 0
    gaps: int = 0
    refused: int = 0

    def __post_init__(self) -> None:
        self.events = deque(maxlen=self.ring)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one message changed: which table, whether views must be re-sent, whether to resync."""

    table: str | None
    changed: bool = False
    resync: bool = False
    event: Json | None = None


class TableStore:
    def __init__(
        self,
        root: str,
        *,
        ring_size: int = 500,
        max_tables: int = 500,
        max_payload: int = 262144,
        tracked: frozenset[str] = frozenset(),
        live_window_s: float = 120.0,
    ) -> None:
        self.root = root
        self._tracked = tracked
        self._live_window = live_window_s
        self.evicted = 0
        self._ring = ring_size
        self._max_tables = max_tables
        self._max_payload = max_payload
        self._tables: dict[str, _Table] = {}
        self._lock = threading.Lock()
        self.broker_up = False
        self.messages: Counter[str] = Counter()
        self.refused: Counter[tuple[str, str]] = Counter()
        self.gaps_total = 0
        self.duplicates_total = 0

    # -- input --------------------------------------------------------------------------------
    def set_broker(self, up: bool) -> None:
        with self._lock:
            self.broker_up = up

    def ingest(self, topic: str, payload: bytes, now: float, *, retained: bool = False) -> Outcome:
        """One MQTT message. ``retained``: the broker replayed it from its store (a table that
        is gone can still have retained topics), so it does not make the table live."""
        parsed = parse_topic(self.root, topic)
        if parsed is None or parsed.kind == "cmd":
            self.refused["unknown", "topic"] += 1
            n = self.refused["unknown", "topic"]
            if n <= 10 or n % 1000 == 0:
                log.warning("ignored message on unexpected topic %r (%d so far)", topic[:200], n)
            return Outcome(None)
        with self._lock:
            rec = self._tables.get(parsed.table)
            if rec is None:
                if not payload:
                    return Outcome(None)  # clearing a topic of a table we never saw
                if len(self._tables) >= self._max_tables and not self._make_room(parsed.table, now):
                    self.refused[parsed.kind, "too_many_tables"] += 1
                    n = self.refused[parsed.kind, "too_many_tables"]
                    if n <= 10 or n % 1000 == 0:
                        log.warning(
                            "table %s refused: already %d tables (%d refused so far)",
                            parsed.table,
                            len(self._tables),
                            n,
                        )
                    return Outcome(None)
                rec = self._tables[parsed.table] = _Table(parsed.table, self._ring)
            self.messages[parsed.kind] += 1
            try:
                outcome = self._apply(rec, parsed.kind, payload, now)
            except PayloadError as exc:
                key = (parsed.kind, exc.reason)
                self.refused[key] += 1
                rec.refused += 1
                rec.problem = f"refused {parsed.kind} payload ({exc.reason})"
                n = self.refused[key]
                if n <= 10 or n % 1000 == 0:  # a flood of junk must not flood the log too
                    log.warning(
                        "table %s: %s payload refused (%d so far): %s",
                        rec.table,
                        parsed.kind,
                        n,
                        exc,
                    )
                return Outcome(rec.table, changed=True)
            if not retained:  # junk above does not make a table live
                rec.last_live = now
            if (
                rec.state is None
                and rec.device is None
                and rec.availability == "unknown"
                and not rec.events
            ):
                del self._tables[rec.table]
            return outcome

    def _make_room(self, table: str, now: float) -> bool:
        """Evict the stalest table nobody configured, never one heard live in the last
        ``live_window_s``; a configured table gets in even when none can go."""
        victims = [
            rec
            for rec in self._tables.values()
            if rec.table not in self._tracked
            and (rec.last_live is None or now - rec.last_live > self._live_window)
        ]
        if victims:
            # never live (retained leftovers) first, then the longest silent
            victim = min(
                victims,
                key=lambda r: (r.last_live is not None, r.last_live or 0.0, r.last_seen or 0.0),
            )
            del self._tables[victim.table]
            self.evicted += 1
            log.info("table %s evicted to make room for %s", victim.table, table)
            return True
        return table in self._tracked

    def _apply(self, rec: _Table, kind: str, payload: bytes, now: float) -> Outcome:
        if kind == "availability":
            return self._availability(rec, payload, now)
        if not payload:  # an empty retained message clears the topic
            if kind == "state":
                rec.state, rec.state_seq, rec.session = None, -1, None
            elif kind == "device":
                rec.device = None
            return Outcome(rec.table, changed=True)
        if kind == "state":
            return self._state(rec, decode(StatePayload, payload, max_bytes=self._max_payload), now)
        if kind == "events":
            return self._event(rec, decode(EventPayload, payload, max_bytes=self._max_payload), now)
        device = decode(DevicePayload, payload, max_bytes=self._max_payload)
        self._same_table(rec, device.table)
        rec.device = device.model_dump(mode="json", by_alias=True)
        rec.last_seen = now
        return Outcome(rec.table, changed=True)

    @staticmethod
    def _same_table(rec: _Table, table: str) -> None:
        if table != rec.table:
            raise PayloadError("wrong_table", f"payload for {table!r} on {rec.table!r}'s topic")

    def _availability(self, rec: _Table, payload: bytes, now: float) -> Outcome:
        if payload == b"":
            rec.availability = "unknown"
        elif payload in (b"online", b"offline"):
            rec.availability = payload.decode()
            rec.last_seen = now
        else:
            raise PayloadError("invalid", "availability must be 'online' or 'offline'")
        return Outcome(rec.table, changed=True)

    def _state(self, rec: _Table, state: StatePayload, now: float) -> Outcome:
        self._same_table(rec, state.table)
        if state.session == rec.session and state.seq < rec.state_seq:
            log.info("table %s: old state seq %d < %d ignored", rec.table, state.seq, rec.state_seq)
            return Outcome(rec.table)
        if state.session != rec.session:
            rec.events.clear()
            rec.last_event_seq = state.seq
        rec.session = state.session
        rec.state = state.model_dump(mode="json", by_alias=True)
        rec.state_seq = state.seq
        rec.state_at = now
        rec.last_seen = now
        rec.states_received += 1
        rec.problem = None
        rec.resync_pending = False
        return Outcome(rec.table, changed=True)

    def _event(self, rec: _Table, event: EventPayload, now: float) -> Outcome:
        self._same_table(rec, event.table)
        rec.last_seen = now
        resync = False
        if rec.session is not None and event.session != rec.session:
            # the table restarted its numbering: the retained state will tell us where it is
            rec.events.clear()
            rec.last_event_seq = 0
            rec.session = event.session
            rec.state_seq = -1
            resync = True
        elif rec.session is None:
            rec.session = event.session
        if event.seq <= rec.last_event_seq and rec.events:
            self.duplicates_total += 1
            return Outcome(rec.table)
        known = max(rec.last_event_seq if rec.events else -1, rec.state_seq)
        if known >= 0 and event.seq > known + 1:
            rec.gaps += 1
            self.gaps_total += 1
            log.warning(
                "table %s: events %d..%d missing, resyncing", rec.table, known + 1, event.seq - 1
            )
            rec.problem = f"events {known + 1}..{event.seq - 1} missed; resyncing"
            resync = True
        if resync:
            rec.resync_pending = True
        data = event.model_dump(mode="json", by_alias=True)
        rec.events.append(data)
        rec.last_event_seq = max(rec.last_event_seq, event.seq)
        rec.events_received += 1
        return Outcome(rec.table, changed=True, resync=resync, event=data)

    def mark_resync(self, table: str) -> None:
        with self._lock:
            rec = self._tables.get(table)
            if rec is not None:
                rec.resync_pending = True

    # -- views (JSON-ready copies) ----------------------------------------------------------
    def tables(self) -> list[str]:
        with self._lock:
            return sorted(self._tables)

    def _status(self, rec: _Table) -> tuple[bool, str | None]:
        if not self.broker_up:
            return True, "scoreboard lost the broker"
        if rec.availability == "offline":
            return True, "table offline"
        if rec.problem:
            return True, rec.problem
        if rec.state is None:
            return True, "no state yet"
        return False, None

    def view(self, table: str) -> Json | None:
        """Everything the big-screen page shows for one table."""
        with self._lock:
            rec = self._tables.get(table)
            if rec is None:
                return None
            stale, reason = self._status(rec)
            return {
                "table": rec.table,
                "status": rec.availability,
                "stale": stale,
                "stale_reason": reason,
                "broker": "up" if self.broker_up else "down",
                "last_seen": rec.last_seen,
                "state": rec.state,
                "device": rec.device,
                "recent_events": list(rec.events)[-20:],
                "counters": self._counters(rec),
            }

    @staticmethod
    def _counters(rec: _Table) -> Json:
        return {
            "states": rec.states_received,
            "events": rec.events_received,
            "gaps": rec.gaps,
            "refused": rec.refused,
            "last_event_seq": rec.last_event_seq,
            "state_seq": rec.state_seq,
        }

    def summary(self, table: str) -> Json | None:
        """One row of the hall page."""
        with self._lock:
            rec = self._tables.get(table)
            return None if rec is None else self._summary(rec)

    def _summary(self, rec: _Table) -> Json:
        stale, reason = self._status(rec)
        state = rec.state or {}
        match = state.get("match") or {}
        hand = state.get("hand") or {}
        device = rec.device or state.get("device") or {}
        return {
            "table": rec.table,
            "status": rec.availability,
            "stale": stale,
            "stale_reason": reason,
            "last_seen": rec.last_seen,
            "seq": rec.state_seq if rec.state is not None else None,
            "rules": match.get("rules"),
            "target": match.get("target"),
            "hand_no": match.get("hand_no"),
            "winner": match.get("winner"),
            "sides": [{"name": s["name"], "score": s["score"]} for s in match.get("sides", [])],
            "phase": hand.get("phase"),
            "turn": hand.get("turn"),
            "alerts": len(state.get("alerts") or []),
            "device": device.get("link"),
            "counters": self._counters(rec),
        }

    def hall(self) -> list[Json]:
        with self._lock:
            return [self._summary(self._tables[t]) for t in sorted(self._tables)]

    def events_since(self, table: str, since: int, limit: int) -> tuple[list[Json], int] | None:
        """Events with ``seq > since`` still in the ring, and the oldest seq the ring holds."""
        with self._lock:
            rec = self._tables.get(table)
            if rec is None:
                return None
            oldest = rec.events[0]["seq"] if rec.events else rec.last_event_seq + 1
            out = [e for e in rec.events if e["seq"] > since][:limit]
            return out, oldest

    def record(self, table: str) -> Json | None:
        """What the scoreboard holds for a match record: the state and every event it kept."""
        with self._lock:
            rec = self._tables.get(table)
            if rec is None:
                return None
            return {
                "format": "domino-table/live-record/1",
                "table": rec.table,
                "session": rec.session,
                "state": rec.state,
                "events": list(rec.events),
                "complete": bool(rec.events) and rec.events[0]["seq"] == 1 and rec.gaps == 0,
            }

    def dumps(self, obj: object) -> str:
        return json.dumps(obj, separators=(",", ":"))
