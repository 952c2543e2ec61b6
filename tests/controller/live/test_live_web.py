"""The scoreboard over real HTTP (uvicorn in a thread): auth, errors, SSE, metrics, shutdown."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import httpx
from live_support import TOKEN, Board, scoreboard_settings, wait_until

from controller.live.app import create_app
from controller.live.broker import EmbeddedBroker
from controller.live.examples import example_body
from controller.live.publisher import MqttPublisher
from controller.live.server import ServerThread

WRITES = [
    ("new_match", {"rules": "latin", "target": 100}),
    ("correct", {"move": 3, "tile": "5-3"}),
    ("undo", {}),
]


def test_writes_without_a_token_get_401(board: Board) -> None:
    for name, body in WRITES:
        r = board.http.post(f"/api/tables/t1/cmd/{name}", json=body)
        assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
        r = board.http.post(
            f"/api/tables/t1/cmd/{name}", json=body, headers={"Authorization": "Basic eDp5"}
        )
        assert r.status_code == 401


def test_read_only_scoreboard_refuses_writes(broker: Any, board_on: Callable[..., Board]) -> None:
    ro = board_on(broker.url, token=None)
    r = ro.http.post(
        "/api/tables/t1/cmd/undo", json={}, headers={"Authorization": f"Bearer {TOKEN}"}
    )
    assert r.status_code == 403


def test_hostile_input_is_a_4xx(board: Board) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert board.http.get("/api/tables/..%2F..%2Fetc").status_code in (404, 422)
    assert board.http.get("/api/tables/" + "x" * 200).status_code == 422
    assert board.http.get("/api/tables/nobody").status_code == 404
    assert board.http.get("/api/tables/nobody/events", params={"since": -1}).status_code == 422
    assert (
        board.http.post("/api/tables/t1/cmd/correct", headers=auth, content=b"{nope").status_code
        == 422
    )
    assert (
        board.http.post(
            "/api/tables/t1/cmd/correct", headers=auth, json={"move": 1, "tile": "<script>"}
        ).status_code
        == 422
    )
    assert board.http.post("/api/tables/t1/cmd/reboot", headers=auth, json={}).status_code in (
        404,
        405,
    )


def test_health_metrics_and_pages(board: Board) -> None:
    health = board.http.get("/healthz").json()
    assert health["status"] == "ok" and health["broker"] == "up"
    metrics = board.http.get("/metrics")
    assert metrics.headers["content-type"].startswith("text/plain")
    lines = metrics.text.splitlines()
    assert "domino_scoreboard_broker_up 1.0" in lines
    for line in lines:
        assert line.startswith("#") or len(line.rsplit(" ", 1)) == 2
    for path in (
        "/",
        "/table/t1",
        "/tv/t1",
        "/static/live.js",
        "/static/live.css",
        "/static/table.js",
        "/static/hall.js",
    ):
        r = board.http.get(path)
        assert r.status_code == 200, path
    page = board.http.get("/table/t1").text
    assert "http://" not in page and "https://" not in page  # nothing from outside


def read_events(
    board: Board,
    path: str,
    want: int,
    out: list[tuple[str, str]],
    skip: tuple[str, ...] = (),
    until: str | None = None,
) -> None:
    """Collect SSE events (name, data), leaving out the names in ``skip``, until there are
    ``want`` of them or one whose data contains ``until``."""
    with httpx.stream("GET", board.url + path, timeout=30) as r:
        event = ""
        for line in r.iter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event not in skip:
                out.append((event, line[6:]))
                if len(out) >= want or (until is not None and until in line):
                    return


def test_sse_snapshot_on_connect_then_updates(
    broker: Any, board: Board, publishers: Callable[..., MqttPublisher]
) -> None:
    pub = publishers(broker.url, "t-sse")
    pub.start()
    pub.publish_state(example_body(hand_no=1))
    board.wait_table("t-sse", "state", lambda v: v["state"])
    got: list[tuple[str, str]] = []
    reader = threading.Thread(
        target=read_events,
        args=(board, "/api/tables/t-sse/stream", 50, got, ("ping",), '"hand_no":2'),
    )
    reader.start()
    wait_until(lambda: got, "snapshot")
    assert got[0][0] == "table" and '"hand_no":1' in got[0][1]
    pub.publish_state(example_body(hand_no=2))
    reader.join(30)
    assert not reader.is_alive() and '"hand_no":2' in got[-1][1]
    assert all(name == "table" for name, _ in got)
    hall: list[tuple[str, str]] = []
    read_events(board, "/api/stream", 1, hall, ("ping",))
    assert hall[0][0] == "hall" and "t-sse" in hall[0][1]


def test_keepalive_is_sent_when_idle(board: Board) -> None:
    got: list[tuple[str, str]] = []
    read_events(board, "/api/tables/idle/stream", 2, got)
    assert got[0][0] == "table" and got[1][0] == "ping"


def test_shutdown_with_sse_clients_connected() -> None:
    with EmbeddedBroker() as b:
        server = ServerThread(create_app(scoreboard_settings(b.url)))
        server.start()
        board = Board(server)
        readers = []
        for path in ("/api/stream", "/api/tables/x/stream", "/api/tables/y/stream"):
            t = threading.Thread(target=read_events, args=(board, path, 10_000, []), daemon=True)
            t.start()
            readers.append(t)
        wait_until(
            lambda: "domino_scoreboard_sse_clients 3" in board.http.get("/metrics").text,
            "three SSE clients",
        )
        server.stop()  # raises if uvicorn does not stop
        for t in readers:
            t.join(20)
            assert not t.is_alive()
        board.http.close()
