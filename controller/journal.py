"""The journal: an append-only SQLite log (WAL) of every input a table received and every event it
emitted. It is the source of truth: the state after a restart is the replay of its inputs through
the pure session (:func:`controller.table.replay_inputs`), mid-hand included.

Each input is stored with its ``source`` (``vision``, ``buttons``, ``device``, ``api``) and its
ordinal in that source, so a source that can be replayed (a recorded fixture) resumes after the
last input it delivered: nothing is taken twice, nothing is lost. An input and the events it caused
are written in one transaction, with ``synchronous=FULL`` (a power cut under the table loses at
most the input being written).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from controller.errors import ControllerError
from controller.table import (
    DomainEvent,
    TableInput,
    TableState,
    initial_state,
    input_from_json,
    input_to_json,
    match_record,
    step,
)

SCHEMA_VERSION = 1

_DDL = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS inputs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    source TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    t REAL NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS inputs_table ON inputs (table_id, id);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    input_id INTEGER NOT NULL REFERENCES inputs (id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_table ON events (table_id, seq);
"""


class JournalError(ControllerError, OSError):
    """The journal file cannot be opened or is not a table journal."""


class Journal:
    """``with Journal(path, table="t1") as j: state = j.restore(); j.append(inp, "vision", ev)``"""

    def __init__(self, path: str | Path, *, table: str = "table-1") -> None:
        self.path = Path(path)
        self.table = table
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(_DDL)
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._db.execute(
                    "INSERT INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                )
            elif int(row[0]) != SCHEMA_VERSION:
                raise JournalError(
                    f"{self.path}: journal schema {row[0]}, expected {SCHEMA_VERSION}"
                )
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"{self.path}: not a usable journal ({exc})") from None
        rows = self._db.execute(
            "SELECT source, MAX(ordinal) FROM inputs WHERE table_id=? GROUP BY source", (table,)
        ).fetchall()
        self._ordinals: dict[str, int] = {str(s): int(o) for s, o in rows}

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing ----------------------------------------------------------------------------

    def append(self, inp: TableInput, source: str, events: Iterable[DomainEvent] = ()) -> int:
        """Log one input (and the events it caused) atomically; returns its ordinal in
        ``source`` (1, 2, ...)."""
        ordinal = self._ordinals.get(source, 0) + 1
        body = input_to_json(inp)
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            cur = db.execute(
                "INSERT INTO inputs (table_id, source, ordinal, t, kind, body) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (self.table, source, ordinal, inp.t, body["input"], json.dumps(body)),
            )
            input_id = cur.lastrowid
            db.executemany(
                "INSERT INTO events (table_id, input_id, seq, kind, body) VALUES (?, ?, ?, ?, ?)",
                [(self.table, input_id, e.seq, e.kind, json.dumps(e.to_json())) for e in events],
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        self._ordinals[source] = ordinal
        return ordinal

    # --- reading ----------------------------------------------------------------------------

    def delivered(self, source: str) -> int:
        """How many inputs ``source`` has delivered (a replayable source skips that many)."""
        return int(self._ordinals.get(source, 0))

    def entries(self) -> Iterator[tuple[str, int, TableInput]]:
        """``(source, ordinal, input)`` in the order they were taken."""
        rows = self._db.execute(
            "SELECT source, ordinal, body FROM inputs WHERE table_id=? ORDER BY id", (self.table,)
        )
        for source, ordinal, body in rows:
            yield source, ordinal, input_from_json(json.loads(body))

    def inputs(self) -> list[TableInput]:
        return [inp for _, _, inp in self.entries()]

    def events(self) -> list[dict[str, Any]]:
        rows = self._db.execute(
            "SELECT body FROM events WHERE table_id=? ORDER BY id", (self.table,)
        )
        return [json.loads(body) for (body,) in rows]

    def restore(self, state: TableState | None = None) -> TableState:
        """The table's state: every logged input replayed through the session."""
        current = state or initial_state(self.table)
        for inp in self.inputs():
            current, _ = step(current, inp)
        return current

    def export_record(self) -> dict[str, Any]:
        """The match as a game record (RULES.md section 6) for ``domino-table replay``."""
        return match_record(self.restore())
