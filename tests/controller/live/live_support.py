"""Helpers of the live tests (imported by conftest.py and the test modules)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from controller.live.broker import MosquittoBroker
from controller.live.server import ServerThread
from controller.live.settings import MqttSettings, ScoreboardSettings

REPO = Path(__file__).resolve().parents[3]
TOKEN = "test-token-1234"
CMD_KEY = "table-cmd-key-0123456789"
IN_CI = os.environ.get("CI") == "true"


def wait_until(predicate: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    """Poll until ``predicate()`` is truthy; a bound against hanging, not a timing assertion."""
    deadline = time.monotonic() + timeout
    last: Any = None
    while time.monotonic() < deadline:
        try:
            last = predicate()
        except (httpx.HTTPError, KeyError, TypeError):
            last = None
        if last:
            return last
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what} (last: {last!r})")


def need_mosquitto() -> None:
    if MosquittoBroker.find_executable() is None:
        if IN_CI:
            pytest.fail("mosquitto is missing under CI (scripts/test.sh installs it)")
        pytest.skip("mosquitto not installed (apt-get install mosquitto)")


def scoreboard_settings(url: str, **kw: Any) -> ScoreboardSettings:
    """Test settings; ``mqtt_<field>`` keywords go to the MQTT settings."""
    options: dict[str, Any] = {"token": TOKEN, "keepalive_s": 1.0, "resync_min_interval_s": 0.2}
    mqtt: dict[str, Any] = {"url": url, "reconnect_min_s": 0.5, "reconnect_max_s": 2}
    for key, value in kw.items():
        if key.startswith("mqtt_"):
            mqtt[key[5:]] = value
        else:
            options[key] = value
    return ScoreboardSettings(mqtt=MqttSettings(**mqtt), **options)


class Board:
    """A running scoreboard and an HTTP client for it."""

    def __init__(self, server: ServerThread) -> None:
        self.server = server
        self.url = server.url
        self.http = httpx.Client(base_url=server.url, timeout=10.0)

    def table(self, table: str) -> dict[str, Any] | None:
        r = self.http.get(f"/api/tables/{table}")
        return r.json() if r.status_code == 200 else None  # type: ignore[no-any-return]

    def wait_table(self, table: str, what: str, check: Callable[[dict[str, Any]], Any]) -> Any:
        return wait_until(lambda: (v := self.table(table)) is not None and check(v) and v, what)


class SimProcess:
    """A simulated table in its own process, so that killing it makes the broker fire its will."""

    def __init__(self, url: str, table: str, interval: float = 0.3) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "controller.live.sim",
                "--broker",
                url,
                "--table",
                table,
                "--interval",
                str(interval),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=REPO,
        )

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
