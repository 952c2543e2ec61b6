"""The demo tells the whole story: the shipped fixture films one hand, bots play the rest of the
match, the result is printed and published, the scoreboard stays up showing the final state
until Ctrl-C, and a clean stop says the seat device is gone (no stale retained "device up")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from controller.journal import Journal
from controller.live.broker import MosquittoBroker
from controller.rules.record import parse_record, replay
from controller.table import input_to_json
from tests.controller.runtime.mqtt_helpers import retained
from tests.controller.table.helpers import truth

ROOT = Path(__file__).resolve().parents[3]


def _mosquitto() -> None:
    if MosquittoBroker.find_executable() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("mosquitto is missing under CI (scripts/test.sh installs it)")
        pytest.skip("mosquitto not installed")


def test_the_demo_plays_the_match_to_its_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "j.sqlite"
    argv = ["demo", "--exit-when-done", "--speed", "1000", "--no-live", "--buttons", "direct"]
    code = main([*argv, "--recogniser", "oracle", "--journal", str(journal)])
    out, err = capsys.readouterr()
    assert code == 0, err
    result = json.loads(out)
    assert result["finished"] and result["winner"] is not None
    assert max(result["totals"]) >= 50 == result["options"]["target"]
    assert len(result["hands"]) >= 2
    # hand 1 is the fixture's, scored as replay scores its record
    filmed = replay(parse_record(truth()["record"])).to_json()["hands"][0]
    assert result["hands"][0] == filmed
    # the journal holds the whole match: replay of its export gives the same result
    with Journal(journal) as j:
        record = j.export_record()
    assert replay(parse_record(record)).to_json()["totals"] == result["totals"]
    winners = "Seats 1 & 3" if result["winner"] == 0 else "Seats 2 & 4"
    assert f"match over: {winners} win" in err
    assert "bots play from hand 2 on" in err


@pytest.mark.parametrize("target", ["0", "-5", "ten"])
def test_a_bad_target_is_one_usage_error(target: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["demo", "--no-live", "--target", target])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--target" in err and "Traceback" not in err


def test_a_restarted_demo_finishes_the_bots_hand_it_was_in(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Stopped mid-hand of the bots, the demo resumes from its journal and ends exactly as an
    uninterrupted run: the bots' hands come from the seed and the match, not from chance."""
    argv = ["demo", "--exit-when-done", "--quiet", "--speed", "1000", "--no-live"]
    argv += ["--buttons", "direct", "--recogniser", "oracle"]
    whole = tmp_path / "whole.sqlite"
    assert main([*argv, "--journal", str(whole)]) == 0
    expected = json.loads(capsys.readouterr().out)
    with Journal(whole) as j:
        entries = list(j.entries())
    bots = [i for i, (source, _, _) in enumerate(entries) if source == "bots"]
    cut = bots[len(bots) // 2]  # in the middle of the bots' play
    part = tmp_path / "part.sqlite"
    with Journal(part) as j:
        for source, _, inp in entries[:cut]:
            j.append(inp, source, [])
    assert main([*argv, "--journal", str(part)]) == 0
    assert json.loads(capsys.readouterr().out) == expected
    with Journal(part) as j:
        again = [(s, input_to_json(i)) for s, _, i in j.entries() if s != "device"]
    assert again == [(s, input_to_json(i)) for s, _, i in entries if s != "device"]


def _view_with_winner(api: str, attempts: int = 100) -> Any:
    """The table's view from the scoreboard API once it holds the match's winner (or the
    last view read, after ``attempts`` reads a fifth of a second apart)."""
    view: Any = None
    for _ in range(attempts):
        with urllib.request.urlopen(api, timeout=20) as response:
            view = json.loads(response.read())
        match = (view.get("state") or {}).get("match") or {}
        if match.get("winner") is not None:
            break
        time.sleep(0.2)
    return view


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_the_scoreboard_stays_up_with_the_result_until_ctrl_c_then_the_device_is_gone(
    stop: signal.Signals,
) -> None:
    """Ctrl-C, or SIGTERM (``kill``, ``timeout``, systemd), is a clean stop, even sent twice."""
    _mosquitto()
    with MosquittoBroker() as broker:
        proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "controller.cli", "demo", "--speed", "1000"),
                *("--recogniser", "oracle", "--broker", broker.url, "--http-port", "0"),
                *("--table", f"demo-end-{stop.value}"),
            ],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            assert proc.stderr is not None
            lines = []
            for line in proc.stderr:
                lines.append(line)
                if "Ctrl-C to quit" in line:
                    break
            text = "".join(lines)
            assert "Ctrl-C to quit" in text, text
            url = text.split("scoreboard at ")[-1].split()[0]
            assert "demo: match over, Seats" in text
            # the match is over and the page's API still answers with it (the last state
            # crosses the broker after the demo says so: it is waited for, not raced)
            api = url.replace("/table/", "/api/tables/")
            view = _view_with_winner(api)
            assert view["status"] == "online"
            match = view["state"]["match"]
            assert match["winner"] is not None
            assert max(side["score"] for side in match["sides"]) >= 50
            assert view["state"]["device"]["link"] == "up"
            assert proc.poll() is None  # still up: nothing ends it but Ctrl-C
            proc.send_signal(stop)
            proc.send_signal(stop)  # twice, as an impatient person or timeout(1) does
            _, rest = proc.communicate(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert proc.returncode == 0, rest
        assert "Traceback" not in rest
        root = f"domino/v1/demo-end-{stop.value}"
        msgs = retained(broker.port, [f"{root}/device", f"{root}/availability"])
    device = json.loads(msgs[f"{root}/device"])
    assert device["link"] == "down"
    assert msgs[f"{root}/availability"] == b"offline"
