"""Commands end to end: HTTP POST to the scoreboard -> real Mosquitto (the shipped ACL, each side
with its own account) -> the table runtime (journaled like any input) -> the new state on the
scoreboard's state endpoint. The table takes its key from the environment, as deployed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_support import (
    CMD_KEY,
    REPO,
    TOKEN,
    Board,
    need_mosquitto,
    scoreboard_settings,
    wait_until,
)

from controller.journal import Journal
from controller.live.app import create_app
from controller.live.broker import MosquittoBroker
from controller.live.server import ServerThread
from controller.live.settings import station_settings
from controller.runtime import TableRuntime
from controller.runtime.live_hooks import LiveServices, start_live
from controller.table import Laid, TilesLaid, snapshot

TABLE = "t-e2e"


@pytest.fixture
def hall(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Board, TableRuntime]]:
    need_mosquitto()
    acl = (REPO / "hardware/deploy/mosquitto/domino.acl").read_text()
    users = {"scoreboard": "sb-pw-e2e", TABLE: "table-pw-e2e"}
    monkeypatch.setenv("DOMINO_TABLE_CMD_KEY", CMD_KEY)
    with MosquittoBroker(users=users, acl=acl) as broker:
        settings = scoreboard_settings(broker.url_for("scoreboard"), cmd_keys={TABLE: CMD_KEY})
        server = ServerThread(create_app(settings))
        server.start()
        board = Board(server)
        live: LiveServices | None = None
        try:
            live = start_live(station_settings(table=TABLE, broker=broker.url_for(TABLE)))
            assert live.publisher is not None, live.note
            with Journal(tmp_path / "journal.sqlite", table=TABLE) as journal:
                runtime = TableRuntime(table=TABLE, journal=journal, publisher=live.publisher)
                live.take_commands(runtime)
                runtime.start()
                board.wait_table(TABLE, "the table online", lambda v: v["status"] == "online")
                yield board, runtime
                runtime.stop()
        finally:
            if live is not None:
                live.stop()
            board.http.close()
            server.stop()


def post(board: Board, name: str, body: dict[str, Any]) -> None:
    r = board.http.post(
        f"/api/tables/{TABLE}/cmd/{name}", json=body, headers={"Authorization": f"Bearer {TOKEN}"}
    )
    assert r.status_code == 202, r.text


def state(board: Board) -> dict[str, Any] | None:
    r = board.http.get(f"/api/tables/{TABLE}/state")
    return r.json() if r.status_code == 200 else None  # type: ignore[no-any-return]


def line(s: dict[str, Any] | None) -> list[str] | None:
    if not s or not s.get("hand"):
        return None
    return [p["tile"] for p in s["hand"]["line"]]


def test_new_match_correct_and_undo_change_the_table(hall: tuple[Board, TableRuntime]) -> None:
    board, runtime = hall
    assert runtime.state.match is None
    post(board, "new_match", {"rules": "latin", "target": 150})
    s = wait_until(
        lambda: (s := state(board)) and s["match"] and s["match"]["target"] == 150 and s,
        "the new match on the scoreboard",
    )
    assert s["match"]["rules"] == "latin" and s["match"]["hand_no"] == 1
    # the camera reads two tiles; the second was misread
    runtime.feed(TilesLaid(runtime.state.t + 1, (Laid((6, 6), "first"),)), "vision")
    runtime.feed(TilesLaid(runtime.state.t + 1, (Laid((6, 4), "left"),)), "vision")
    wait_until(lambda: line(state(board)) == ["4-6", "6-6"], "two tiles on the line")
    post(board, "correct", {"move": 2, "tile": "6-3"})
    wait_until(lambda: line(state(board)) == ["3-6", "6-6"], "move 2 corrected")
    post(board, "undo", {})
    s = wait_until(lambda: (s := state(board)) and line(s) == ["6-6"] and s, "move 2 undone")
    assert s["hand"]["ends"] == [6, 6] and s["commands"]["accepted"] == 3
    metrics = board.http.get("/metrics").text
    assert f'domino_scoreboard_table_commands{{outcome="accepted",table="{TABLE}"}} 3.0' in metrics
    events = board.http.get(f"/api/tables/{TABLE}/events", params={"limit": 1000}).json()
    kinds = [e["type"] for e in events["events"]]
    assert {"match_started", "correction", "undo"} <= set(kinds)
    # journaled like any input: a restart lands on the same table
    journal = runtime.journal
    assert journal is not None and journal.delivered("api") == 3
    assert [type(i).__name__ for i in journal.inputs()] == [
        "NewMatch",
        "TilesLaid",
        "TilesLaid",
        "CorrectTile",
        "UndoLast",
    ]
    assert snapshot(journal.restore()) == snapshot(runtime.state)


def test_a_command_with_bad_arguments_is_refused_and_changes_nothing(
    hall: tuple[Board, TableRuntime],
) -> None:
    board, runtime = hall
    post(board, "new_match", {"rules": "no_such_rules"})
    view = board.wait_table(
        TABLE, "the refusal", lambda v: [e for e in v["recent_events"] if e["type"] == "alert"]
    )
    alerts = [e["data"]["message"] for e in view["recent_events"] if e["type"] == "alert"]
    assert [m for m in alerts if m.startswith("new match refused")], alerts
    assert runtime.state.match is None and state(board)["match"] is None  # type: ignore[index]


def test_the_demo_s_own_scoreboard_commands_its_table_with_no_key_configured(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Zero setup (embedded broker, scoreboard in the same process): both ends share a key made
    at start, so the write API works with only the bearer token set."""
    monkeypatch.delenv("DOMINO_TABLE_CMD_KEY", raising=False)
    monkeypatch.setenv("DOMINO_SCOREBOARD_TOKEN", TOKEN)
    live = start_live(station_settings(table="t-demo", http_port=0))
    try:
        assert live.station is not None and live.publisher is not None, live.note
        runtime = TableRuntime(table="t-demo", publisher=live.publisher)
        live.take_commands(runtime)
        runtime.start()
        base = live.station.scoreboard_url.rsplit("/table/", 1)[0]
        board = Board.__new__(Board)
        board.http = httpx.Client(base_url=base, timeout=10.0)
        board.wait_table("t-demo", "the table online", lambda v: v["status"] == "online")
        r = board.http.post(
            "/api/tables/t-demo/cmd/new_match",
            json={"rules": "latin", "target": 75},
            headers={"Authorization": f"Bearer {TOKEN}"},
        )
        assert r.status_code == 202, r.text
        wait_until(
            lambda: (v := board.table("t-demo")) and (v["state"] or {}).get("match"),
            "the match started by command",
        )
        assert runtime.state.match is not None and runtime.state.match.rules.target == 75
        board.http.close()
        runtime.stop()
    finally:
        live.stop()
