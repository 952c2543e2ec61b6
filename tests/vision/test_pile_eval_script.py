"""scripts/pile_eval.py, the measure of tiles invented on face-down piles, runs and counts."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "pile_eval.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_dark_backed_pile_reads_no_tile_in_any_of_its_eight_degradations() -> None:
    run = _run("--seeds", "1", "2", "--back", "dark")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "0 tiles invented (0 sure) in 0 of 8 images"


def test_an_empty_seed_range_is_a_usage_error() -> None:
    run = _run("--seeds", "3", "1")
    assert run.returncode == 2
    assert "--seeds needs 0 <= LO < HI" in run.stderr
    assert "Traceback" not in run.stderr
