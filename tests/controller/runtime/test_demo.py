"""End to end: the shipped fixture through ``domino-table demo --fixture-only`` gives exactly
the result ``replay`` gives for its truth record; killed with SIGKILL at random points and
restarted on the same journal, it ends with the same result and every input taken exactly once."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from controller.journal import Journal
from controller.rules.record import parse_record, replay
from controller.table import input_to_json
from tests.controller.table.helpers import FIXTURE, truth

ROOT = Path(__file__).resolve().parents[3]


def expected() -> dict[str, Any]:
    return replay(parse_record(truth()["record"])).to_json()


def _demo_cmd(*extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "controller.cli",
        "demo",
        "--fixture-only",
        "--recogniser",
        "oracle",
        "--no-live",
        *extra,
    ]


def _game_inputs(path: Path) -> list[tuple[str, int, dict[str, Any]]]:
    with Journal(path) as journal:
        return [
            (source, ordinal, input_to_json(inp))
            for source, ordinal, inp in journal.entries()
            if source in ("vision", "buttons", "api")
        ]


def test_demo_with_direct_buttons_gives_the_replay_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "j.sqlite"
    code = main(
        [
            "demo",
            "--fixture-only",
            "--no-live",
            "--exit-when-done",
            "--speed",
            "1000",
            "--buttons",
            "direct",
            "--journal",
            str(journal),
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0
    assert json.loads(out) == expected()
    assert "Seat 2 passes" in err and "hand 1 scored: block" in err
    # the real recogniser when this build has it, else the fixture's truth: it says which
    assert "recogniser: " in err
    # the journal exports the match as a record that replay accepts, with the same scores
    with Journal(journal) as j:
        record = j.export_record()
    assert replay(parse_record(record)).to_json()["totals"] == expected()["totals"]


def test_demo_on_the_seat_device_simulator_gives_the_replay_result(tmp_path: Path) -> None:
    proc = subprocess.run(
        _demo_cmd("--exit-when-done", "--speed", "200", "--journal", str(tmp_path / "j.sqlite")),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == expected()
    assert "seat device up" in proc.stderr
    events = [i for _, _, i in _game_inputs(tmp_path / "j.sqlite") if i["input"] == "button"]
    assert [(e["seat"], e["gesture"]) for e in events] == [(1, "short"), (2, "short")]


def test_sigkill_at_random_points_then_restart_ends_the_same_with_nothing_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reference = tmp_path / "reference.sqlite"
    assert (
        main(
            [
                "demo",
                "--fixture-only",
                "--no-live",
                "--exit-when-done",
                "--quiet",
                "--speed",
                "1000",
                "--buttons",
                "direct",
                "--recogniser",
                "oracle",
                "--journal",
                str(reference),
            ]
        )
        == 0
    )
    capsys.readouterr()
    journal = tmp_path / "killed.sqlite"
    rng = random.Random(6)
    kills = 0
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    for _ in range(3):
        proc = subprocess.Popen(
            _demo_cmd("--exit-when-done", "--quiet", "--speed", "4", "--journal", str(journal)),
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        time.sleep(rng.uniform(1.0, 3.5))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            kills += 1
        proc.wait(timeout=30)
    assert kills >= 1  # at speed 4 a run lasts about 12 s: the kills land mid-match
    final = subprocess.run(
        _demo_cmd("--exit-when-done", "--speed", "50", "--journal", str(journal)),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert final.returncode == 0, final.stderr
    assert json.loads(final.stdout) == expected()
    # every game input exactly once, in the same order as an uninterrupted run
    assert _game_inputs(journal) == _game_inputs(reference)


def test_demo_help_names_the_live_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--broker" in text and "--http-port" in text and "embedded MQTT broker" in text


def test_demo_on_a_missing_fixture_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["demo", "--fixture", str(tmp_path / "nope"), "--quiet", "--no-live"]) == 2
    assert "no such fixture" in capsys.readouterr().err


def test_the_fixture_is_where_the_tests_expect_it() -> None:
    assert (FIXTURE / "video.mp4").exists()
