"""Issue 46 item 4: a journal that was tampered with or damaged never gives a wrong score. Each
case starts the table on the damaged file (refused: one line naming the file and the first bad
row, exit 2, file unchanged) and salvages what can be salvaged with ``export-record --salvage``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from controller.cli import main
from controller.journal import Journal, JournalDamagedError, JournalError, salvage
from controller.runtime import TableRuntime
from controller.runtime.preflight import journal_problems
from controller.table import Revealed, TilesLaid, TileTaken
from tests.controller.table.helpers import Table, play_fixture_hand, truth
from tests.hostile.ledger import case

KIND = "journals edited, cut, damaged or foreign"


def _left() -> list[tuple[tuple[int, int], ...]]:
    left = truth()["record"]["hands"][0]["left"]
    return [tuple((int(t[0]), int(t[2])) for t in seat) for seat in left]


def _write_match(path: Path) -> int:
    """The fixture's hand, finished and revealed (totals [36, 0]); returns the rows written."""
    table = Table(leader=1)
    play_fixture_hand(table)
    inputs = [*table.inputs, *(Revealed(30.0 + s, s, tiles) for s, tiles in enumerate(_left()))]
    with Journal(path) as journal:
        runtime = TableRuntime(journal=journal)
        for inp in inputs:
            runtime.feed(inp, "vision" if isinstance(inp, TilesLaid | TileTaken) else "buttons")
    return len(inputs)


def _totals(path: Path) -> list[int]:
    with Journal(path) as journal:
        state = journal.restore()
    assert state.match is not None
    return list(state.match.totals)


def _sql(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path)
    with db:
        for s in statements:
            db.execute(s)
    db.close()


def _refused(path: Path, capsys: pytest.CaptureFixture[str], *words: str) -> str:
    """Opening refuses with one line naming the file; export-record exits 2 the same way."""
    with case(KIND) as c:
        message = _refused_once(path, capsys, *words)
        c.refused()
    return message


def _refused_once(path: Path, capsys: pytest.CaptureFixture[str], *words: str) -> str:
    before = path.read_bytes()
    with pytest.raises(JournalError) as info:
        Journal(path)
    message = str(info.value)
    assert str(path) in message and "\n" not in message
    for word in words:
        assert word in message
    capsys.readouterr()
    assert main(["export-record", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("domino-table: error: ") and str(path) in err
    assert journal_problems(path, option="--journal") == [f"--journal {message}"]
    assert path.read_bytes() == before  # nothing was written
    return message


@pytest.fixture
def match(tmp_path: Path) -> tuple[Path, int]:
    path = tmp_path / "j.sqlite"
    rows = _write_match(path)
    assert _totals(path) == [36, 0]
    return path, rows


def test_an_intact_journal_restores_and_exports_everything(
    match: tuple[Path, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path, rows = match
    with case(KIND) as c:
        assert main(["export-record", str(path), "--salvage"]) == 0
        out = capsys.readouterr()
        assert json.loads(out.out)["hands"][0]["moves"]
        assert out.err == f"export-record: all {rows} rows good\n"
        c.accepted()


def test_deleted_vision_rows_stop_the_start_and_salvage_keeps_the_prefix(
    match: tuple[Path, int], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path, rows = match
    ids = "SELECT id FROM inputs WHERE source='vision' ORDER BY id LIMIT 4 OFFSET 3"
    _sql(
        path,
        f"DELETE FROM events WHERE input_id IN ({ids})",
        f"DELETE FROM inputs WHERE id IN ({ids})",
    )
    message = _refused(path, capsys, "journal damaged", "is missing")
    assert "row 5 of table 'table-1'" in message  # NewMatch, 3 vision rows, then the gap
    out = tmp_path / "salvaged.json"
    assert main(["export-record", str(path), "--salvage", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"export-record: kept the first 4 of {rows - 4} rows of table")
    record = json.loads(out.read_text())
    moves = record["hands"][0]["moves"] if record["hands"] else record["pending_hand"]["moves"]
    assert len(moves) == 3


@pytest.mark.parametrize(
    ("statement", "words"),
    [
        ("UPDATE inputs SET body = replace(body, '6', '5') WHERE n = 7", ("row 7", "changed")),
        ("UPDATE inputs SET body = '{' WHERE n = 9", ("row 9", "changed")),
        ("UPDATE events SET body = '[]' WHERE id = 3", ("was changed",)),
        ("UPDATE inputs SET t = t + 1 WHERE n = 2", ("row 2", "changed")),
        ("DELETE FROM inputs WHERE n = (SELECT MAX(n) FROM inputs)", ("is missing", "head")),
        ("UPDATE inputs SET n = 99 WHERE n = 3", ("row 3", "missing")),
        ("DELETE FROM meta WHERE key LIKE 'head:%'", ("no head",)),
        (
            "INSERT INTO events (table_id, input_id, seq, kind, body) VALUES "
            "('table-1', 99999, 1, 'x', '{}')",
            ("belongs to no row",),
        ),
    ],
)
def test_edits_gaps_and_cut_tails_are_named(
    match: tuple[Path, int],
    capsys: pytest.CaptureFixture[str],
    statement: str,
    words: tuple[str, ...],
) -> None:
    path, _ = match
    _sql(path, statement)
    _refused(path, capsys, "journal damaged", *words)
    assert main(["export-record", str(path), "--salvage"]) == 0
    assert "stopped at" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("99", ("schema 99", "reads 2")),
        ("two", ("schema 'two'",)),
        ("1", ("schema 1", "--salvage")),
    ],
)
def test_an_unknown_schema_is_refused(
    match: tuple[Path, int], capsys: pytest.CaptureFixture[str], value: str, words: tuple[str, ...]
) -> None:
    path, _ = match
    _sql(path, f"UPDATE meta SET value = '{value}' WHERE key = 'schema'")
    _refused(path, capsys, *words)


def test_page_corruption_is_refused_not_an_internal_error(
    match: tuple[Path, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = match
    db = sqlite3.connect(path)
    (page,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'inputs'").fetchone()
    (size,) = db.execute("PRAGMA page_size").fetchone()
    db.close()
    data = bytearray(path.read_bytes())
    data[(page - 1) * size : (page - 1) * size + 12] = b"\xa5" * 12  # the b-tree page header
    path.write_bytes(bytes(data))
    message = _refused(path, capsys, "journal damaged")
    assert "damaged pages" in message or "cannot be read" in message
    assert main(["export-record", str(path), "--salvage"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("domino-table: error: ") and err.count("\n") == 1
    assert "no match to export in the 0 good rows; stopped at: " in err


def test_an_empty_file_is_not_turned_into_a_new_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.sqlite"
    path.touch()
    _refused(path, capsys, "empty file", "delete it")
    assert path.stat().st_size == 0
    assert not path.with_name("j.sqlite-wal").exists()


def test_another_sqlite_file_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "photos.db"
    _sql(path, "CREATE TABLE photos (name TEXT)", "INSERT INTO photos VALUES ('a')")
    _refused(path, capsys, "not a table journal")
    db = sqlite3.connect(path)
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_master")]
    db.close()
    assert names == ["photos"]


def test_a_schema_1_journal_is_refused_but_its_match_can_be_exported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Journals written before the chain: refused by the runtime, read (unverified) by salvage."""
    new = tmp_path / "new.sqlite"
    rows = _write_match(new)
    old = tmp_path / "old.sqlite"
    _sql(
        old,
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        "INSERT INTO meta VALUES ('schema', '1')",
        "CREATE TABLE inputs (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL, "
        "source TEXT NOT NULL, ordinal INTEGER NOT NULL, t REAL NOT NULL, kind TEXT NOT NULL, "
        "body TEXT NOT NULL)",
        "CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL, "
        "input_id INTEGER NOT NULL, seq INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL)",
        f"ATTACH '{new}' AS new",
        "INSERT INTO inputs SELECT id, table_id, source, ordinal, t, kind, body FROM new.inputs",
    )
    _refused(old, capsys, "schema 1", "before rows were chained")
    saved = salvage(old)
    assert saved.schema == 1 and saved.kept == rows and saved.problem is None
    assert saved.record == salvage(new).record
    assert main(["export-record", str(old), "--salvage"]) == 0
    assert "not verifiable" in capsys.readouterr().err


def test_a_damaged_journal_stops_the_demo_before_it_starts(
    match: tuple[Path, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = match
    _sql(path, "DELETE FROM inputs WHERE n = 4")
    code = main(["demo", "--no-live", "--quiet", "--journal", str(path), "--buttons", "direct"])
    assert code == 2
    err = capsys.readouterr().err
    assert "journal damaged" in err and "row 4" in err and "internal error" not in err


def test_a_damaged_row_raises_the_specific_error(match: tuple[Path, int]) -> None:
    path, _ = match
    _sql(path, "UPDATE inputs SET ordinal = ordinal + 1 WHERE n = 3")
    with pytest.raises(JournalDamagedError):
        Journal(path)


def test_damage_in_another_table_of_the_file_is_named_with_its_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "j.sqlite"
    table = Table(leader=1)
    play_fixture_hand(table)
    for name in ("a", "b"):
        with Journal(path, table=name) as journal:
            for inp in table.inputs:
                journal.append(inp, "test")
    _sql(path, "DELETE FROM inputs WHERE table_id = 'b' AND n = 2")
    message = _refused(path, capsys, "row 2 of table 'b' is missing", "--salvage --table b")
    assert "exports the 1 good rows" in message
    assert salvage(path, table="a").problem is None
    assert salvage(path, table="b").kept == 1
