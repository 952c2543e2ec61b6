"""The checks made before anything starts: the journal and the live link's status lines."""

from __future__ import annotations

import queue
import random
import shutil
import socket
import sqlite3
import time
from pathlib import Path

import pytest

from controller.journal import Journal
from controller.live.broker import EmbeddedBroker
from controller.live.errors import BrokerError
from controller.live.settings import station_settings
from controller.runtime.live_hooks import start_live
from controller.runtime.preflight import journal_problems


def test_a_journal_must_be_a_journal_we_can_write(tmp_path: Path) -> None:
    assert journal_problems(tmp_path / "new.sqlite", option="--journal") == []
    assert journal_problems(tmp_path, option="--journal") == [
        f"--journal {tmp_path}: is a directory, not a journal file"
    ]
    not_a_journal = tmp_path / "notes.txt"
    not_a_journal.write_text("hello, this is not SQLite\n" * 100)
    assert journal_problems(not_a_journal, option="--journal") == [
        f"--journal {not_a_journal}: not a table journal (file is not a database); left as it is"
    ]
    other_db = tmp_path / "other.sqlite"
    with sqlite3.connect(other_db) as db:
        db.execute("CREATE TABLE x (y)")
    db.close()
    assert journal_problems(other_db, option="--journal") == [
        f"--journal {other_db}: not a table journal (an SQLite file without a journal schema); "
        "left as it is"
    ]
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    assert journal_problems(empty, option="--journal") == [
        f"--journal {empty}: empty file, not a journal; left as it is (delete it to start a new "
        "journal)"
    ]
    with Journal(tmp_path / "j.sqlite"):
        pass
    assert journal_problems(tmp_path / "j.sqlite", option="--journal") == []


def test_live_says_when_its_broker_goes_and_comes_back_not_when_all_is_well() -> None:
    lines: queue.Queue[str] = queue.Queue()
    broker = EmbeddedBroker(port=_port_below_ephemeral())
    broker.start()
    port = broker.port
    live = start_live(station_settings(table="t1", broker=broker.url), on_broker=lines.put)
    try:
        assert live.station is not None
        url = f"mqtt://127.0.0.1:{port}"
        publisher = live.station.publisher
        deadline = time.monotonic() + 20
        while not publisher.connected and time.monotonic() < deadline:
            time.sleep(0.05)
        assert publisher.connected and lines.empty()  # connected at once: nothing to say
        broker.stop()
        lost = lines.get(timeout=20)
        assert lost.startswith(f"broker {url}: no connection (lost: ")
        again = _restarted(port)
        try:
            assert lines.get(timeout=30) == f"broker {url}: connected"
            live.stop()
        finally:
            again.stop()
    finally:
        live.stop()
    assert lines.empty()


def _port_below_ephemeral() -> int:
    """A free port under the kernel's ephemeral range (from 32768): a client that keeps
    reconnecting to a port in that range while nothing listens can be given that very number
    as its source port and connect to itself (a TCP self-connect), holding it from the broker
    started again there."""
    start = random.randrange(20_000, 32_000)
    for port in range(start, start + 700):
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port in {start}-{start + 699}")


def _restarted(port: int) -> EmbeddedBroker:
    """A broker started again on ``port``. While none listens there, the client's own retries
    (or another test's connections) may hold the number for a moment as a source port, so the
    bind is tried again for a while."""
    deadline = time.monotonic() + 20
    while True:
        again = EmbeddedBroker(port=port)
        try:
            again.start()
            return again
        except BrokerError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_a_fixture_is_read_through_before_the_demo_starts(tmp_path: Path) -> None:
    from controller.runtime.preflight import fixture_problems
    from tests.controller.table.helpers import FIXTURE

    assert fixture_problems(FIXTURE, recogniser="oracle") == []
    assert fixture_problems(FIXTURE, preset="chess")[0].startswith(
        "--rules: unknown rules preset 'chess'"
    )
    fixture = tmp_path / "fx"
    shutil.copytree(FIXTURE, fixture)
    with (fixture / "buttons.jsonl").open("a") as f:
        f.write('{"t": 1}\n')
    (fixture / "truth.json").unlink()
    problems = fixture_problems(fixture, recogniser="oracle")
    assert len(problems) == 2
    assert problems[0].startswith(f"--fixture: {fixture / 'buttons.jsonl'}:")
    assert problems[1].startswith(f"--fixture {fixture}: no truth.json")


def test_the_demos_live_settings_are_built_by_its_checks_and_a_bad_one_is_one_more_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from controller.runtime.preflight import PreflightError, check_demo
    from tests.controller.table.helpers import FIXTURE

    monkeypatch.delenv("DOMINO_TABLE_CMD_KEY", raising=False)
    demo = {
        "fixture": FIXTURE,
        "speed": 1.0,
        "journal": None,
        "recogniser": "oracle",
        "preset": None,
        "broker": None,
        "probe": None,
    }
    settings = check_demo(**demo, table="t9", live=True, http_port=0)
    assert settings is not None and settings.table.table == "t9" and settings.mqtt.url is None
    assert settings.http_port == 0 and settings.table.cmd_key is not None  # its own scoreboard
    assert check_demo(**demo, table="t9", live=False, http_port=0) is None
    monkeypatch.setenv("DOMINO_TABLE_TEAMS", '["alone"]')
    with pytest.raises(PreflightError) as caught:
        check_demo(**demo, table="t9", live=True, http_port=0)
    assert caught.value.problems == (
        "bad live settings: teams: List should have at least 2 items after validation, not 1",
    )
    # a wrong table id is said once, by the check that names the option
    with pytest.raises(PreflightError) as caught:
        check_demo(**demo, table="a b", live=True, http_port=0)
    assert len(caught.value.problems) == 1
    assert caught.value.problems[0].startswith("--table 'a b': a table id is")
