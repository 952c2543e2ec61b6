"""No password, token or command key in what the demo and the scoreboard print or log, at
start-up and on their error paths; broker URLs are shown as ``mqtt://user:***@host``."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import threading
from collections.abc import Iterator

import pytest
from live_support import REPO, need_mosquitto, wait_until

from controller.cli import main
from controller.live.broker import MosquittoBroker, free_port

PASSWORD = "pw-Sekr3t-broker-9183"
TOKEN = "tok-Sekr3t-http-5521"
KEY = "key-Sekr3t-table-7730"
SECRETS = (PASSWORD, TOKEN, KEY)


@pytest.fixture
def secret_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINO_SCOREBOARD_TOKEN", TOKEN)
    monkeypatch.setenv("DOMINO_TABLE_CMD_KEY", KEY)


@pytest.fixture(scope="module")
def broker() -> Iterator[MosquittoBroker]:
    need_mosquitto()
    with MosquittoBroker(users={"scoreboard": PASSWORD, "demo-secret": PASSWORD}) as b:
        yield b


def assert_clean(text: str) -> None:
    for secret in SECRETS:
        assert secret not in text, (
            f"a secret leaked: ...{text[max(0, text.find(secret) - 80) :][:200]}"
        )


def run_cli(
    args: list[str], capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> tuple[int, str]:
    caplog.set_level(logging.DEBUG)
    code = main(["-vv", *args])
    out, err = capsys.readouterr()
    text = out + err + "\n".join(r.getMessage() for r in caplog.records)
    assert_clean(text)
    return code, text


@pytest.mark.usefixtures("secret_env")
def test_demo_start_up_shows_the_broker_redacted(
    broker: MosquittoBroker, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    url = broker.url_for("demo-secret")
    code, text = run_cli(
        [
            *("demo", "--exit-when-done", "--speed", "1000", "--buttons", "direct"),
            *("--recogniser", "oracle", "--broker", url, "--http-port", "0"),
            *("--table", "demo-secret"),
        ],
        capsys,
        caplog,
    )
    assert code == 0
    assert f"mqtt://demo-secret:***@127.0.0.1:{broker.port}" in text


@pytest.mark.usefixtures("secret_env")
@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (
            f"mqtt://demo-secret:{PASSWORD}@127.0.0.1:notaport",
            "mqtt://demo-secret:***@127.0.0.1:notaport",
        ),
        (f"http://demo-secret:{PASSWORD}@127.0.0.1", "http://demo-secret:***@127.0.0.1"),
        (
            f"demo-secret:{PASSWORD}@127.0.0.1:{{closed}}",
            "mqtt://127.0.0.1:{closed}: no connection",
        ),
    ],
)
def test_demo_errors_never_show_the_password(
    url: str, shown: str, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    closed = free_port()
    code, text = run_cli(
        ["demo", "--exit-when-done", "--broker", url.format(closed=closed), "--http-port", "0"],
        capsys,
        caplog,
    )
    assert code == 2 and shown.format(closed=closed) in text


def test_demo_refused_by_the_broker_never_shows_the_password(
    broker: MosquittoBroker, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    url = f"mqtt://demo-secret:{PASSWORD}x@127.0.0.1:{broker.port}"
    SECRETS_X = f"{PASSWORD}x"
    code, text = run_cli(
        ["demo", "--exit-when-done", "--broker", url, "--http-port", "0"], capsys, caplog
    )
    assert code == 2 and "refused by the broker" in text and SECRETS_X not in text


class Scoreboard:
    """``domino-table -vv scoreboard`` in its own process, its stderr collected line by line."""

    def __init__(self, url: str, env: dict[str, str]) -> None:
        self.lines: list[str] = []
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "controller.cli", "-vv", "scoreboard", "--broker", url),
                *("--http-port", "0", "--http-host", "127.0.0.1"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
            env={**os.environ, **env},
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)

    def wait_for(self, text: str) -> None:
        wait_until(lambda: any(text in line for line in self.lines), f"{text!r} on stderr")

    def stop(self) -> str:
        if self.proc.poll() is None:
            self.proc.terminate()
        self.proc.wait(20)
        self._reader.join(10)
        return "".join(self.lines)


ENV = {
    "DOMINO_SCOREBOARD_TOKEN": TOKEN,
    "DOMINO_SCOREBOARD_CMD_KEYS": f'{{"t1": "{KEY}"}}',
}


def test_scoreboard_start_up_and_a_refused_login_never_show_a_secret(
    broker: MosquittoBroker,
) -> None:
    good = Scoreboard(broker.url_for("scoreboard"), ENV)
    try:
        good.wait_for("scoreboard connected to")
    finally:
        text = good.stop()
    assert_clean(text)
    assert f"(broker mqtt://scoreboard:***@127.0.0.1:{broker.port};" in text
    bad = Scoreboard(f"mqtt://scoreboard:{PASSWORD}-wrong@127.0.0.1:{broker.port}", ENV)
    try:
        bad.wait_for("broker refused the scoreboard")
    finally:
        text = bad.stop()
    assert_clean(text)


@pytest.mark.parametrize(
    "keys",
    [
        f'{{"t1": "{KEY}"',  # not JSON
        f'{{"t1": "{KEY[:10]}"}}',  # too short a key
        f'{{"not a table!": "{KEY}"}}',
    ],
)
def test_scoreboard_refuses_bad_keys_in_one_line_without_showing_them(keys: str) -> None:
    env = {**os.environ, "DOMINO_SCOREBOARD_TOKEN": TOKEN, "DOMINO_SCOREBOARD_CMD_KEYS": keys}
    done = subprocess.run(
        [sys.executable, "-m", "controller.cli", "scoreboard", "--http-port", "0"],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("domino-table: error:"), done.stderr
    assert KEY[:10] not in done.stderr and TOKEN not in done.stderr
