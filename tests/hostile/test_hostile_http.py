"""Issue 46 item 5, the scoreboard: bodies bounded before they are read and before the token is
checked, non-finite numbers and deep JSON refused with a 4xx (never a 5xx), live streams bounded
per client and in total. Against a real uvicorn server in a thread (no broker: a fake client)."""

from __future__ import annotations

import http.client
import socket
from collections.abc import Iterator

import httpx
import pytest

from controller.live.app import create_app
from controller.live.fakes import FakeMqttClient
from controller.live.limits import json_problem
from controller.live.server import ServerThread
from controller.live.settings import MqttSettings, ScoreboardSettings
from tests.hostile.ledger import case, record_case

TOKEN = "hostile-test-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
CMD = "/api/tables/t1/cmd/new_match"
KIND = "HTTP bodies and streams (oversized, NaN, deep, wrong types, too many streams)"


def _fake(client_id: str, settings: MqttSettings) -> FakeMqttClient:
    return FakeMqttClient(client_id, settings)


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    settings = ScoreboardSettings(
        mqtt=MqttSettings(url="mqtt://127.0.0.1:9"),
        token=TOKEN,
        cmd_keys={"t1": "hostile-test-command-key"},
        keepalive_s=0.5,
        max_body_bytes=4096,
        max_streams=5,
        max_streams_per_client=3,
    )
    with ServerThread(create_app(settings, mqtt_factory=_fake)) as s:
        yield s


@pytest.fixture
def web(server: ServerThread) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=10.0) as client:
        yield client


def test_a_huge_declared_body_is_refused_before_it_is_sent(server: ServerThread) -> None:
    """300 MB announced, none sent: the answer comes at once, 413, before the 401."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    conn.putrequest("POST", CMD)
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(300 * 2**20))
    conn.endheaders()
    conn.send(b"{" * 1000)
    with case(KIND) as c:
        response = conn.getresponse()
        assert response.status == 413
        assert b"larger than 4096 bytes" in response.read()
        c.refused()
    conn.close()


def test_a_streamed_body_is_cut_at_the_limit(server: ServerThread) -> None:
    """Chunked (no Content-Length): refused once the bytes pass the limit; the rest is not read."""
    sent = 0

    def chunks() -> Iterator[bytes]:
        nonlocal sent
        for _ in range(10_000):  # 10 MB if the server kept reading
            sent += 1024
            yield b" " * 1024

    with (
        case(KIND) as c,
        httpx.Client(base_url=server.url, timeout=10.0) as client,
    ):
        try:
            r = client.post(CMD, content=chunks(), headers={"Content-Type": "application/json"})
        except httpx.TransportError:
            pass  # the server may close while the client still writes; then check it read little
        else:
            assert r.status_code == 413
        assert sent < 10_000 * 1024
        c.refused()


@pytest.mark.parametrize(
    ("body", "with_token", "without_token"),
    [
        (b'{"target": NaN}', 422, 422),  # refused before the token: JSON cannot carry it
        (b'{"target": Infinity}', 422, 422),
        (b'{"target": -Infinity}', 422, 422),
        (b'{"target": 1e999}', 422, 422),
        (b'{"target": "ten"}', 422, 401),
        (b'{"target": 1.5}', 422, 401),
        (b'{"seats": [1, 2]}', 422, 401),
        (b'{"rules": 3}', 422, 401),
        (b"[" * 1500 + b"]" * 1500, 400, 400),
        (b'{"a":' * 100 + b"1" + b"}" * 100, 400, 400),
        (b"{", 422, 422),
        (b"\xff\xfe", 422, 422),
    ],
)
@pytest.mark.parametrize("token", [True, False])
def test_bad_write_bodies_get_a_4xx_never_a_5xx(
    web: httpx.Client, body: bytes, with_token: int, without_token: int, token: bool
) -> None:
    headers = {"Content-Type": "application/json", **(AUTH if token else {})}
    with case(KIND) as c:
        r = web.post(CMD, content=body, headers=headers)
        assert r.status_code == (with_token if token else without_token), r.text
        assert r.json()["detail"]
        c.refused()


def test_non_finite_numbers_are_refused_with_422_before_the_token(web: httpx.Client) -> None:
    r = web.post(CMD, content=b'{"target": NaN}', headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "finite" in r.json()["detail"]


def test_a_good_body_still_reaches_the_route(web: httpx.Client) -> None:
    r = web.post(CMD, json={"target": 100}, headers=AUTH)
    assert r.status_code == 503  # the fake broker is not connected: the command was not sent
    assert web.post(CMD, json={"target": 100}).status_code == 401


def test_json_problem_counts_nesting_outside_strings_only() -> None:
    assert json_problem(b'{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', 4) is None
    assert json_problem(b"[[[[[]]]]]", 4) == (400, "JSON nested deeper than 4 levels")
    assert json_problem(b'{"x": "\\"[[[[[["}', 2) is None


def _open_stream(server: ServerThread, path: str) -> tuple[socket.socket, int]:
    sock = socket.create_connection((server.host, server.port), timeout=10)
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
    head = b""
    while b"\r\n" not in head:
        chunk = sock.recv(1024)
        assert chunk, "server closed the stream"
        head += chunk
    return sock, int(head.split(b" ", 2)[1])


def test_live_streams_are_bounded_per_client_and_in_total(
    server: ServerThread, web: httpx.Client
) -> None:
    opened: list[socket.socket] = []
    try:
        statuses: list[int] = []
        for i in range(4):
            sock, status = _open_stream(server, f"/api/tables/t{i}/stream")
            opened.append(sock)
            statuses.append(status)
        assert statuses == [200, 200, 200, 429]  # 3 per client address
        r = web.get("/api/stream")
        assert r.status_code == 429 and r.headers["retry-after"]
        record_case(
            KIND,
            "accepted",
            3,
        )
        record_case(
            KIND,
            "refused",
            2,
        )
        assert web.get("/healthz").status_code == 200  # other routes are not counted
    finally:
        for sock in opened:
            sock.close()


def test_the_total_of_streams_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = ScoreboardSettings(
        mqtt=MqttSettings(url="mqtt://127.0.0.1:9"), max_streams=2, max_streams_per_client=10
    )
    with ServerThread(create_app(settings, mqtt_factory=_fake)) as s:
        opened: list[socket.socket] = []
        try:
            statuses = []
            for _ in range(3):
                sock, status = _open_stream(s, "/api/stream")
                opened.append(sock)
                statuses.append(status)
            assert statuses == [200, 200, 503]
            record_case(
                KIND,
                "accepted",
                2,
            )
            record_case(
                KIND,
                "refused",
                1,
            )
        finally:
            for sock in opened:
                sock.close()


def test_a_validation_error_echoing_a_non_finite_number_is_still_a_422() -> None:
    """Behind the middleware, in case a non-finite number reaches a route another way."""
    import asyncio
    import json

    from fastapi.exceptions import RequestValidationError

    from controller.live.limits import json_safe_validation_errors

    error = {"loc": ("body", "target"), "msg": "finite", "type": "finite", "input": float("nan")}
    response = asyncio.run(json_safe_validation_errors(None, RequestValidationError([error])))  # type: ignore[arg-type]
    assert response.status_code == 422
    assert json.loads(response.body)["detail"][0]["input"] == "nan"
