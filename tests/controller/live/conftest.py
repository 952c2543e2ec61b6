"""Real components for the live tests: Mosquitto, the embedded broker, the scoreboard on uvicorn.

Nothing here skips under CI=true: scripts/test.sh installs mosquitto and chromium there.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from live_support import (
    IN_CI,
    Board,
    SimProcess,
    need_mosquitto,
    scoreboard_settings,
    wait_until,
)

from controller.live.app import create_app
from controller.live.broker import EmbeddedBroker, MosquittoBroker
from controller.live.publisher import MqttPublisher
from controller.live.server import ServerThread
from controller.live.settings import MqttSettings, TableSettings
from domino_common.clock import SystemClock


@pytest.fixture(scope="module", params=["mosquitto", "embedded"])
def broker(request: pytest.FixtureRequest) -> Iterator[MosquittoBroker | EmbeddedBroker]:
    if request.param == "mosquitto":
        need_mosquitto()
        b: MosquittoBroker | EmbeddedBroker = MosquittoBroker()
    else:
        b = EmbeddedBroker()
    with b:
        yield b


@pytest.fixture(scope="module")
def mosquitto() -> Iterator[MosquittoBroker]:
    need_mosquitto()
    with MosquittoBroker() as b:
        yield b


@pytest.fixture
def board_on() -> Iterator[Callable[..., Board]]:
    started: list[Board] = []

    def start(url: str, **kw: Any) -> Board:
        server = ServerThread(create_app(scoreboard_settings(url, **kw)))
        server.start()
        started.append(Board(server))
        return started[-1]

    yield start
    for b in started:
        b.http.close()
        b.server.stop()


@pytest.fixture
def board(broker: MosquittoBroker | EmbeddedBroker, board_on: Callable[..., Board]) -> Board:
    b = board_on(broker.url)
    wait_until(lambda: b.http.get("/healthz").json()["broker"] == "up", "scoreboard connected")
    return b


@pytest.fixture
def publishers() -> Iterator[Callable[..., MqttPublisher]]:
    made: list[MqttPublisher] = []

    def make(url: str, table: str, **kw: Any) -> MqttPublisher:
        key = kw.pop("cmd_key", None)
        on_command = kw.pop("on_command", None)
        teams = kw.pop("teams", None)
        pub = MqttPublisher(
            MqttSettings(url=url, reconnect_min_s=0.5, reconnect_max_s=2, **kw),
            TableSettings(table=table, cmd_key=key, teams=teams),
            clock=SystemClock(),
            on_command=on_command,
        )
        made.append(pub)
        return pub

    yield make
    for pub in made:
        pub.stop()


@pytest.fixture
def sims() -> Iterator[Callable[..., SimProcess]]:
    made: list[SimProcess] = []

    def make(url: str, table: str, interval: float = 0.3) -> SimProcess:
        made.append(SimProcess(url, table, interval))
        return made[-1]

    yield make
    for s in made:
        s.kill()


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (never a browser download)."""
    if not os.path.exists(CHROMIUM):
        if IN_CI:
            pytest.fail("chromium is missing under CI (scripts/test.sh installs it)")
        pytest.skip("chromium not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()
