"""Failures of ``demo`` and ``run`` as a user meets them, through the real ``domino-table``
process: a non-zero exit, one clear line per problem on stderr, no traceback, no pydantic dump,
no OpenCV log line, and nothing started (no broker, no scoreboard URL) for inputs that cannot
work. A broker that does not answer: ``demo --broker`` refuses at once, ``run`` plays on and says
so once, ``run --check`` lists it with every other problem."""

from __future__ import annotations

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from controller.live.broker import EmbeddedBroker
from firmware_bridge.sim import PtyDevice
from tests.controller.table.helpers import FIXTURE

ROOT = Path(__file__).resolve().parents[3]
_SCRIPT = Path(sys.executable).parent / "domino-table"
CLI = [str(_SCRIPT)] if _SCRIPT.exists() else [sys.executable, "-m", "controller.cli"]
NOISE = ("Traceback", "[ WARN", "[ERROR", "validation error", "errors.pydantic.dev")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DOMINO_")}
    env.pop("OPENCV_LOG_LEVEL", None)  # the CLI itself must keep OpenCV quiet
    return env


def cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        stdin=subprocess.DEVNULL,
    )


def error_lines(stderr: str) -> list[str]:
    for noise in NOISE:
        assert noise not in stderr, stderr
    lines = stderr.splitlines()
    assert all(line.startswith("domino-table: error: ") for line in lines), stderr
    return [line.removeprefix("domino-table: error: ") for line in lines]


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A port bound but not listening: connections are refused, and nobody else gets it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        yield int(s.getsockname()[1])


def test_demo_with_a_missing_fixture_starts_nothing() -> None:
    proc = cli("demo", "--fixture", "/nope", "--http-port", "0")
    assert proc.returncode == 2
    assert error_lines(proc.stderr) == ["--fixture /nope: no such fixture directory"]
    assert proc.stdout == ""
    assert "http://" not in proc.stderr and "MQTT" not in proc.stderr


def test_demo_with_a_bad_broker_url_says_which_option_in_one_line() -> None:
    proc = cli("demo", "--broker", "foo://x", "--exit-when-done")
    assert proc.returncode == 2
    assert error_lines(proc.stderr) == [
        "--broker: broker URL 'foo://x': scheme must be mqtt:// or mqtts://"
    ]


def test_demo_with_an_unreachable_broker_refuses_before_starting(refused_port: int) -> None:
    url = f"mqtt://127.0.0.1:{refused_port}"
    proc = cli("demo", "--broker", url, "--http-port", "0", "--exit-when-done", "--speed", "1000")
    assert proc.returncode == 2
    assert error_lines(proc.stderr) == [
        f"--broker {url}: no connection (connection refused); start it, or leave out --broker "
        "to use an embedded one"
    ]
    assert proc.stdout == ""


def test_demo_lists_every_bad_input_at_once(tmp_path: Path) -> None:
    proc = cli(
        "demo",
        "--fixture",
        str(tmp_path),
        "--speed",
        "0",
        "--table",
        "a b",
        "--journal",
        str(tmp_path / "none" / "j.sqlite"),
    )
    assert proc.returncode == 2
    lines = error_lines(proc.stderr)
    assert len(lines) == 5, lines
    for start in (
        f"--fixture {tmp_path}: no video",
        f"--fixture {tmp_path}: no table.json",
        "--speed 0:",
        "--table 'a b':",
        f"--journal {tmp_path / 'none' / 'j.sqlite'}: directory",
    ):
        assert any(line.startswith(start) for line in lines), (start, lines)


def _config(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "table.toml"
    path.write_text(body, encoding="utf-8")
    return path


def _broken_table(tmp_path: Path, port: int) -> Path:
    """No calibration, a camera index that does not exist (OpenCV would log about it), no seat
    device, a broker nobody runs, a journal in a missing directory."""
    return _config(
        tmp_path,
        f"""
[camera]
source = "97"
[serial]
port = "{tmp_path / "no-tty"}"
[broker]
url = "mqtt://127.0.0.1:{port}"
[journal]
path = "{tmp_path / "missing" / "j.sqlite"}"
""",
    )


def _parts(lines: list[str]) -> list[str]:
    return [line.split(" ", 1)[0].rstrip(":") for line in lines]


def test_run_check_lists_every_problem_of_a_table(tmp_path: Path, refused_port: int) -> None:
    proc = cli("run", "--config", str(_broken_table(tmp_path, refused_port)), "--check")
    assert proc.returncode == 2
    lines = error_lines(proc.stderr)
    assert _parts(lines) == ["calibration", "camera", "seat", "[broker]", "[journal]"], lines
    assert lines[1] == (
        "camera 97: cannot be opened (is it plugged in? set [camera] source or DOMINO_CAMERA)"
    )
    assert "no connection (connection refused)" in lines[3]
    assert "config ok" not in proc.stdout


def test_run_refuses_on_the_same_problems_but_not_on_the_broker(
    tmp_path: Path, refused_port: int
) -> None:
    proc = cli("run", "--config", str(_broken_table(tmp_path, refused_port)))
    assert proc.returncode == 2
    assert _parts(error_lines(proc.stderr)) == ["calibration", "camera", "seat", "[journal]"]


def _good_table(tmp_path: Path, port: str, broker: str) -> Path:
    return _config(
        tmp_path,
        f"""
table = "t1"
[camera]
source = "{FIXTURE / "video.mp4"}"
table_file = "{FIXTURE / "table.json"}"
[serial]
port = "{port}"
[broker]
url = "{broker}"
[journal]
path = "{tmp_path / "j.sqlite"}"
""",
    )


def test_run_check_passes_a_table_that_can_run(tmp_path: Path) -> None:
    tty = tmp_path / "tty"
    tty.write_text("")
    with EmbeddedBroker() as broker:
        proc = cli("run", "--config", str(_good_table(tmp_path, str(tty), broker.url)), "--check")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    out = proc.stdout.splitlines()
    assert out[-1].startswith("config ok")
    for part in ("calibration", "camera", "seat device", "broker", "journal"):
        assert any(line.startswith(f"ok: {part}") for line in out), (part, out)
    assert not (tmp_path / "j.sqlite").exists()  # a check creates nothing


def test_run_plays_on_without_its_broker_and_says_so_once(
    tmp_path: Path, refused_port: int
) -> None:
    url = f"mqtt://127.0.0.1:{refused_port}"
    with PtyDevice() as device:
        config = _good_table(tmp_path, device.path, url)
        proc = subprocess.Popen(
            [*CLI, "run", "--config", str(config)],
            cwd=ROOT,
            env=_env(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stderr is not None
        lines: queue.Queue[str] = queue.Queue()
        reader = threading.Thread(target=lambda: [lines.put(x) for x in proc.stderr or ()])
        reader.start()
        try:
            first = lines.get(timeout=60)
            # the table is not stopped by the broker: stop it as an operator would
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
            code = proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
            reader.join(timeout=10)
    rest = []
    while not lines.empty():
        rest.append(lines.get())
    err = first + "".join(rest)
    assert first.rstrip("\n") == (
        f"run: broker {url}: no connection (connection refused); retrying in the background"
    )
    assert code in (0, 130), err  # ended by the video or by Ctrl-C, never by the broker
    assert err.count("broker") == 1, err  # paho's retries are not repeated
    assert "Traceback" not in err
