"""The live sub-commands: registered, lazy, and the scoreboard serves from the command line."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import httpx
import pytest
from live_support import REPO, wait_until

from controller.cli import main
from controller.live.broker import EmbeddedBroker, free_port


def test_commands_are_registered(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["scoreboard", "--help"])
    out = capsys.readouterr().out
    assert "--broker" in out and "--http-port" in out


def test_registering_does_not_import_heavy_libraries() -> None:
    code = (
        "import sys, argparse; from controller.cli import live as live_cli;"
        "p = argparse.ArgumentParser(); live_cli.register(p.add_subparsers());"
        "print([m for m in ('fastapi', 'paho', 'amqtt', 'uvicorn') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_schema_files_check_passes() -> None:
    assert main(["live", "schemas", "--check"]) == 0


def test_bad_broker_url_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scoreboard", "--broker", "ftp://nowhere"]) == 2
    assert "error" in capsys.readouterr().err


def test_scoreboard_command_serves_and_stops_on_sigterm() -> None:
    port = free_port()
    with EmbeddedBroker() as b:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "controller.cli",
                "scoreboard",
                "--broker",
                b.url,
                "--http-port",
                str(port),
                "--http-host",
                "127.0.0.1",
            ],
            cwd=REPO,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, "DOMINO_SCOREBOARD_TOKEN": "t"},
        )
        try:
            url = f"http://127.0.0.1:{port}"
            wait_until(lambda: httpx.get(url + "/healthz").json()["broker"] == "up", "scoreboard")
            # an SSE client stays connected while we ask the service to stop
            with httpx.stream("GET", url + "/api/stream", timeout=30) as stream:
                next(stream.iter_lines())
                proc.send_signal(signal.SIGTERM)
                # uvicorn re-raises the signal once it has shut down gracefully
                assert proc.wait(30) in (0, -signal.SIGTERM)
        finally:
            if proc.poll() is None:
                proc.kill()
            assert proc.stderr is not None
            err = proc.stderr.read().decode()
            proc.stderr.close()
        assert "Traceback" not in err and "scoreboard on http://127.0.0.1" in err
