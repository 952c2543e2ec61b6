"""The journal: an append-only SQLite log (WAL) of every input a table received and every event it
emitted. It is the source of truth: the state after a restart is the replay of its inputs through
the pure session (:func:`controller.table.replay_inputs`), mid-hand included.

Each input is stored with its ``source`` (``vision``, ``buttons``, ``device``, ``api``) and its
ordinal in that source, so a source that can be replayed (a recorded fixture) resumes after the
last input it delivered: nothing is taken twice, nothing is lost. An input and the events it caused
are written in one transaction, with ``synchronous=FULL`` (a power cut under the table loses at
most the input being written).

Integrity (schema 2): every input row of a table carries its row number ``n`` (1, 2, ... with no
gap) and ``hash`` = SHA-256 of the previous row's hash and the row's content, the events it caused
included; ``meta`` holds each table's head (last ``n`` and hash), written in the same transaction.
Opening a journal checks SQLite's pages (``PRAGMA quick_check``) and the whole chain: a deleted,
edited or inserted row, a cut tail, a damaged page or an unknown schema refuses the start with one
line naming the file and the first bad row (:class:`JournalDamagedError`, exit 2). Nothing is
written to a file that is not a journal (an empty file included). :func:`salvage` reads the good
prefix of a damaged journal (``domino-table export-record --salvage``). Journals of schema 1
(before the chain) are refused; ``salvage`` still reads them, unverified.

The chain is not keyed: it catches damage and edits made without this code, not a forger who
recomputes every hash after an edit.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
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

SCHEMA_VERSION = 2
_CHAINLESS_SCHEMA = 1

_DDL = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE inputs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    source TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    t REAL NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    hash TEXT NOT NULL,
    UNIQUE (table_id, n)
);
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    table_id TEXT NOT NULL,
    input_id INTEGER NOT NULL REFERENCES inputs (id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX events_input ON events (input_id, id);
"""


class JournalError(ControllerError, OSError):
    """The journal file cannot be opened or is not a table journal."""


class JournalDamagedError(JournalError):
    """A journal whose pages or rows fail the integrity check; names the first bad row."""


Entry = tuple[str, int, TableInput]


def genesis(table: str) -> str:
    """The hash a table's chain starts from."""
    return hashlib.sha256(f"domino-table journal {table}".encode()).hexdigest()


def row_hash(prev: str, row: tuple[object, ...], events: Iterable[tuple[int, str, str]]) -> str:
    """SHA-256 over the previous hash, an input row as stored ``(table, n, source, ordinal, t,
    kind, body)`` and the ``(seq, kind, body)`` of every event it caused."""
    content = json.dumps([*row, [list(e) for e in events]], separators=(",", ":"))
    return hashlib.sha256(f"{prev}\n{content}".encode()).hexdigest()


@dataclass
class Scan:
    """What a check of one table's rows found: the good prefix and the first problem."""

    table: str
    entries: list[Entry] = field(default_factory=list)
    n: int = 0
    head: str = ""
    total: int = 0  # rows stored for the table, good or not
    problem: str | None = None


def _connect(path: Path, *, readonly: bool) -> sqlite3.Connection:
    mode = "ro" if readonly else "rw"
    return sqlite3.connect(
        f"file:{path}?mode={mode}", uri=True, isolation_level=None, check_same_thread=False
    )


def _schema(db: sqlite3.Connection, path: Path) -> int:
    """The file's journal schema; :class:`JournalError` when it is not a table journal."""
    try:
        has_meta = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'"
        ).fetchone()
        row = (
            db.execute("SELECT value FROM meta WHERE key='schema'").fetchone() if has_meta else None
        )
    except sqlite3.DatabaseError as exc:
        raise JournalError(f"{path}: not a table journal ({exc}); left as it is") from None
    if row is None:
        raise JournalError(
            f"{path}: not a table journal (an SQLite file without a journal schema); left as it is"
        )
    try:
        return int(row[0])
    except (TypeError, ValueError):
        raise JournalDamagedError(f"{path}: journal schema {row[0]!r} is not a number") from None


def _page_problem(db: sqlite3.Connection) -> str | None:
    try:
        rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as exc:
        return f"damaged pages (sqlite: {exc})"
    lines = [str(r[0]) for r in rows]
    if lines == ["ok"]:
        return None
    return f"damaged pages (sqlite quick_check: {lines[0]}{' ...' if len(lines) > 1 else ''})"


def _tables(db: sqlite3.Connection) -> list[str]:
    names = {str(r[0]) for r in db.execute("SELECT DISTINCT table_id FROM inputs")}
    names |= {str(r[0])[5:] for r in db.execute("SELECT key FROM meta WHERE key LIKE 'head:%'")}
    return sorted(names)


def _scan(db: sqlite3.Connection, table: str, *, chained: bool = True) -> Scan:
    """Every row of ``table`` in order, checked, until the first bad one."""
    scan = Scan(table, head=genesis(table))
    try:
        scan.total = int(
            db.execute("SELECT COUNT(*) FROM inputs WHERE table_id=?", (table,)).fetchone()[0]
        )
        events: dict[int, list[tuple[int, str, str]]] = {}
        for input_id, seq, kind, body in db.execute(
            "SELECT input_id, seq, kind, body FROM events WHERE table_id=? ORDER BY input_id, id",
            (table,),
        ):
            events.setdefault(int(input_id), []).append((seq, kind, body))
        cols = (
            "id, n, source, ordinal, t, kind, body, hash"
            if chained
            else ("id, 0, source, ordinal, t, kind, body, ''")
        )
        rows = db.execute(f"SELECT {cols} FROM inputs WHERE table_id=? ORDER BY id", (table,))
        for input_id, n, source, ordinal, t, kind, body, stored in rows:
            where = f"row {scan.n + 1} of table {table!r}"
            if chained:
                if n != scan.n + 1:
                    scan.problem = (
                        f"{where} is missing (the next row stored is {n})"
                        if isinstance(n, int) and n > scan.n + 1
                        else f"{where} is numbered {n!r}"
                    )
                    return scan
                expected = row_hash(
                    scan.head, (table, n, source, ordinal, t, kind, body), events.pop(input_id, [])
                )
                if stored != expected:
                    scan.problem = (
                        f"{where} ({source} #{ordinal}) was changed: its hash does not match"
                    )
                    return scan
            try:
                inp = input_from_json(json.loads(body))
            except (ValueError, TypeError, AttributeError, RecursionError) as exc:
                scan.problem = f"{where} ({source} #{ordinal}) cannot be read: {exc}"
                return scan
            scan.entries.append((str(source), int(ordinal), inp))
            scan.n += 1
            if chained:
                scan.head = expected
        if not chained:
            return scan
        head = db.execute("SELECT value FROM meta WHERE key=?", (f"head:{table}",)).fetchone()
        if scan.n and head is None:
            scan.problem = f"table {table!r} has rows but no head record"
        elif head is not None and str(head[0]) != f"{scan.n} {scan.head}":
            n_text = str(head[0]).split(" ", 1)[0]
            scan.problem = (
                f"row {scan.n + 1} of table {table!r} is missing (the journal's head says "
                f"{n_text} rows, {scan.n} are there)"
                if n_text.isdigit() and int(n_text) > scan.n
                else f"the head record of table {table!r} does not match its last row"
            )
        elif events:
            scan.problem = f"an event row of table {table!r} belongs to no row of the chain"
    except sqlite3.DatabaseError as exc:
        scan.problem = f"row {scan.n + 1} of table {table!r} cannot be read (sqlite: {exc})"
    return scan


def _damaged(path: Path, problem: str, kept: int, table: str) -> JournalDamagedError:
    option = "" if table == "table-1" else f" --table {table}"
    return JournalDamagedError(
        f"{path}: journal damaged: {problem}; nothing was changed ('domino-table export-record "
        f"--salvage{option} {path}' exports the {kept} good rows before it)"
    )


def check_file(path: Path) -> str | None:
    """Why the existing file ``path`` cannot be opened as a journal (one line), or None.
    Reads only."""
    try:
        _refuse_empty(path)
        db = _connect(path, readonly=True)
        try:
            _verify(db, path)
        finally:
            db.close()
    except JournalError as exc:
        return str(exc)
    except sqlite3.DatabaseError as exc:
        return f"{path}: not a table journal ({exc}); left as it is"
    return None


def _refuse_empty(path: Path) -> None:
    wal = path.with_name(path.name + "-wal")
    if path.is_file() and path.stat().st_size == 0 and not (wal.is_file() and wal.stat().st_size):
        raise JournalError(
            f"{path}: empty file, not a journal; left as it is (delete it to start a new journal)"
        )


def _verify(db: sqlite3.Connection, path: Path) -> dict[str, Scan]:
    schema = _schema(db, path)
    if schema == _CHAINLESS_SCHEMA:
        raise JournalError(
            f"{path}: journal schema 1 (written before rows were chained and checked): this "
            f"version refuses to resume it; 'domino-table export-record --salvage {path}' "
            "exports its match (unverified)"
        )
    if schema != SCHEMA_VERSION:
        raise JournalError(f"{path}: journal schema {schema}, this version reads {SCHEMA_VERSION}")
    pages = _page_problem(db)
    scans = {table: _scan(db, table) for table in _tables(db)}
    for scan in scans.values():
        if scan.problem is not None:
            raise _damaged(path, scan.problem, scan.n, scan.table)
    if pages is not None:
        first = next(iter(scans.values()), Scan("table-1"))
        raise _damaged(path, pages, first.n, first.table)
    return scans


@dataclass(frozen=True, slots=True)
class Salvage:
    """The good prefix of a journal: the match it gives, how many rows, where it stopped."""

    record: dict[str, Any]
    kept: int
    total: int
    problem: str | None
    schema: int


def salvage(path: Path, *, table: str = "table-1") -> Salvage:
    """The match in ``path`` as far as its rows are good (read only, nothing is changed)."""
    if not path.exists():
        raise JournalError(f"{path}: no such journal")
    _refuse_empty(path)
    try:
        db = _connect(path, readonly=True)
    except sqlite3.DatabaseError as exc:
        raise JournalError(f"{path}: not a table journal ({exc})") from None
    try:
        schema = _schema(db, path)
        if schema not in (SCHEMA_VERSION, _CHAINLESS_SCHEMA):
            raise JournalError(
                f"{path}: journal schema {schema}, this version reads {SCHEMA_VERSION}"
            )
        pages = _page_problem(db)
        scan = _scan(db, table, chained=schema == SCHEMA_VERSION)
    finally:
        db.close()
    state = initial_state(table)
    for _, _, inp in scan.entries:
        state, _ = step(state, inp)
    problem = scan.problem or pages
    try:
        record = match_record(state)
    except ControllerError as exc:
        stop = f"; stopped at: {problem}" if problem else ""
        raise JournalError(f"{path}: {exc} in the {scan.n} good rows{stop}") from None
    return Salvage(record, scan.n, max(scan.total, scan.n), problem, schema)


class Journal:
    """``with Journal(path, table="t1") as j: state = j.restore(); j.append(inp, "vision", ev)``

    An existing file is checked whole before anything is written (see the module docstring); a
    missing one is created.
    """

    def __init__(self, path: str | Path, *, table: str = "table-1") -> None:
        self.path = Path(path)
        self.table = table
        creating = not self.path.exists()
        try:
            if not creating:
                if self.path.is_dir():
                    raise JournalError(f"{self.path}: is a directory, not a journal file")
                _refuse_empty(self.path)
                self._db = _connect(self.path, readonly=False)
                try:
                    scans = _verify(self._db, self.path)
                except BaseException:
                    self._db.close()
                    raise
                self._db.execute("PRAGMA journal_mode=WAL")
            else:
                self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.executescript(
                    f"BEGIN; {_DDL} INSERT INTO meta (key, value) "
                    f"VALUES ('schema', '{SCHEMA_VERSION}'); COMMIT;"
                )
                scans = {}
            self._db.execute("PRAGMA synchronous=FULL")
        except sqlite3.DatabaseError as exc:
            if creating:
                raise JournalError(f"{self.path}: cannot create a journal there ({exc})") from None
            raise JournalError(f"{self.path}: not a table journal ({exc})") from None
        scan = scans.get(table) or Scan(table, head=genesis(table))
        self._entries: list[Entry] = scan.entries
        self._n = scan.n
        self._head = scan.head
        self._ordinals: dict[str, int] = {}
        for source, ordinal, _ in self._entries:
            self._ordinals[source] = max(ordinal, self._ordinals.get(source, 0))

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
        n = self._n + 1
        data = input_to_json(inp)
        body, kind = json.dumps(data), str(data["input"])
        rows = [(e.seq, e.kind, json.dumps(e.to_json())) for e in events]
        t = float(inp.t)  # stored as REAL: hash what is read back
        digest = row_hash(self._head, (self.table, n, source, ordinal, t, kind, body), rows)
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            cur = db.execute(
                "INSERT INTO inputs (table_id, n, source, ordinal, t, kind, body, hash) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (self.table, n, source, ordinal, t, kind, body, digest),
            )
            input_id = cur.lastrowid
            db.executemany(
                "INSERT INTO events (table_id, input_id, seq, kind, body) VALUES (?, ?, ?, ?, ?)",
                [(self.table, input_id, *row) for row in rows],
            )
            db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                (f"head:{self.table}", f"{n} {digest}"),
            )
            db.execute("COMMIT")
        except BaseException:
            # a Ctrl-C can land once SQLite has ended the transaction (after COMMIT, or a
            # failed statement's own rollback): rolling back again would mask it
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        self._n, self._head = n, digest
        self._entries.append((source, ordinal, inp))
        self._ordinals[source] = ordinal
        return ordinal

    # --- reading ----------------------------------------------------------------------------

    def delivered(self, source: str) -> int:
        """How many inputs ``source`` has delivered (a replayable source skips that many)."""
        return int(self._ordinals.get(source, 0))

    def entries(self) -> Iterator[Entry]:
        """``(source, ordinal, input)`` in the order they were taken (checked when opened)."""
        yield from list(self._entries)

    def inputs(self) -> list[TableInput]:
        return [inp for _, _, inp in self._entries]

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
