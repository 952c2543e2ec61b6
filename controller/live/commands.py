"""Signed commands: what the scoreboard sends a table and how the table decides to obey.

Pure and clock-injected. The scoreboard builds a command with :func:`signed_command` (an
HMAC-SHA256 over :func:`canonical`, with the table's own command key); the table checks it with
:class:`CommandGate`: a known command name, the right table, a valid MAC, a time inside the window
and an id never seen before (a bounded replay cache). :class:`RefusalLimiter` bounds how many
refusals the table tells the world about per minute; the rest are only counted.

The key is a shared secret (``DOMINO_TABLE_CMD_KEY`` on the table, ``DOMINO_SCOREBOARD_CMD_KEYS``
on the scoreboard); it is never logged and never leaves either process.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import uuid
from collections import Counter, OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.live.errors import PayloadError
from controller.live.models import CMD_SCHEMA, COMMANDS, CommandPayload, Scalar, decode

#: a command older or further in the future than this is refused (clocks of the Pi and the
#: scoreboard host are NTP-synced; 30 s also covers a broker that held the message a moment)
WINDOW_S = 30.0
#: ids remembered; a flood of valid commands beyond this is refused rather than let replays in
REPLAY_CACHE = 4096
#: refusal events published per minute; the rest are counted only
REFUSAL_EVENTS_PER_MINUTE = 10

Args = Mapping[str, Scalar | list[Scalar]]


def canonical(fields: Mapping[str, Any]) -> bytes:
    """The bytes the MAC covers: every field but ``mac``, as sorted compact ASCII JSON."""
    body = {k: v for k, v in fields.items() if k != "mac"}
    return json.dumps(
        body, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False
    ).encode()


def mac_of(key: bytes, fields: Mapping[str, Any]) -> str:
    return hmac.new(key, canonical(fields), hashlib.sha256).hexdigest()


def signed_command(
    key: bytes, *, table: str, name: str, ts: float, args: Args, cmd_id: str | None = None
) -> CommandPayload:
    """A command for ``table``, signed with ``key`` (the table's command key)."""
    fields: dict[str, Any] = {
        "schema": CMD_SCHEMA,
        "id": cmd_id or f"c-{uuid.uuid4().hex}",
        "table": table,
        "name": name,
        "ts": float(ts),
        "args": dict(args),
    }
    return CommandPayload.model_validate({**fields, "mac": mac_of(key, fields)})


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the gate made of one message: the command, or why it was refused."""

    command: CommandPayload | None
    reason: str | None = None
    cmd_id: str | None = None


class CommandGate:
    """The table's check of incoming commands. Not thread-safe: call it from one thread (paho's).

    Refusal reasons: ``malformed``, ``oversized``, ``unknown_schema``, ``invalid`` (the payload),
    ``unknown_command``, ``wrong_table``, ``no_key`` (this table takes no commands),
    ``bad_signature``, ``stale`` (outside the window), ``replayed``, ``busy`` (replay cache full
    of live ids).
    """

    def __init__(
        self,
        table: str,
        key: bytes | None,
        *,
        window_s: float = WINDOW_S,
        cache_size: int = REPLAY_CACHE,
        max_bytes: int = 64 * 1024,
    ) -> None:
        self.table = table
        self._key = key
        self.window_s = window_s
        self._cache_size = cache_size
        self._max_bytes = max_bytes
        self._seen: OrderedDict[str, float] = OrderedDict()  # id -> its ts, oldest first
        self.accepted = 0
        self.refused: Counter[str] = Counter()

    def __repr__(self) -> str:  # never show the key
        return f"CommandGate(table={self.table!r}, key={'set' if self._key else 'none'})"

    def check(self, name: str, raw: bytes, now: float) -> Verdict:
        verdict = self._check(name, raw, now)
        if verdict.reason is None:
            self.accepted += 1
        else:
            self.refused[verdict.reason] += 1
        return verdict

    def _check(self, name: str, raw: bytes, now: float) -> Verdict:
        try:
            cmd = decode(CommandPayload, raw, max_bytes=self._max_bytes)
        except PayloadError as exc:
            return Verdict(None, exc.reason)
        if name not in COMMANDS or cmd.name != name:
            return Verdict(None, "unknown_command", cmd.id)
        if cmd.table != self.table:
            return Verdict(None, "wrong_table", cmd.id)
        if self._key is None:
            return Verdict(None, "no_key", cmd.id)
        fields = cmd.model_dump(mode="json", by_alias=True)
        if not hmac.compare_digest(mac_of(self._key, fields), cmd.mac):
            return Verdict(None, "bad_signature", cmd.id)
        if abs(now - cmd.ts) > self.window_s:
            return Verdict(None, "stale", cmd.id)
        self._forget_before(now - self.window_s)
        if cmd.id in self._seen:
            return Verdict(None, "replayed", cmd.id)
        if len(self._seen) >= self._cache_size:
            return Verdict(None, "busy", cmd.id)
        self._seen[cmd.id] = cmd.ts
        return Verdict(cmd, None, cmd.id)

    def _forget_before(self, oldest: float) -> None:
        """Drop ids whose time is out of the window: they are refused as ``stale`` anyway.
        (Ids are kept in arrival order; a command with an older ts than one before it stays
        until those before it go, which only keeps it longer.)"""
        while self._seen:
            cmd_id, ts = next(iter(self._seen.items()))
            if ts >= oldest:
                break
            del self._seen[cmd_id]


class RefusalLimiter:
    """At most ``per_minute`` refusal events per minute (a fixed one-minute window on a
    monotonic clock); :meth:`allow` returns how many were held back since the last one let
    through, or None when this one is held back too."""

    def __init__(self, per_minute: int = REFUSAL_EVENTS_PER_MINUTE) -> None:
        self.per_minute = per_minute
        self._window_start: float | None = None
        self._in_window = 0
        self._held = 0
        self.held_total = 0

    def allow(self, monotonic: float) -> int | None:
        if self._window_start is None or monotonic - self._window_start >= 60.0:
            self._window_start = monotonic
            self._in_window = 0
        if self._in_window >= self.per_minute:
            self._held += 1
            self.held_total += 1
            return None
        self._in_window += 1
        held, self._held = self._held, 0
        return held
