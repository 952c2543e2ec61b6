"""Every command in README.md's code blocks is accounted for here: the cheap ones are run as
written (in a scratch directory, with this venv's ``bin`` on PATH and ``.venv`` pointing at this
venv) and must succeed; the others say why they are not run here and what covers them. A command
the README gains without an entry here fails, and so does an entry the README no longer has."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(sys.prefix)  # the venv running the tests

Check = Callable[[subprocess.CompletedProcess[str], Path], None]


def _finished_match(proc: subprocess.CompletedProcess[str], _: Path) -> None:
    result = json.loads(proc.stdout)
    assert result["finished"] and result["winner"] is not None, proc.stderr


def _replayed(proc: subprocess.CompletedProcess[str], _: Path) -> None:
    assert proc.stdout.startswith("latin, target 50: Seats 1 & 3 vs Seats 2 & 4"), proc.stdout
    assert "match: Seats" in proc.stdout


def _matches_on_lines(proc: subprocess.CompletedProcess[str], _: Path) -> None:
    assert "match on line 2:" in proc.stdout, proc.stdout


def _markers(_: subprocess.CompletedProcess[str], home: Path) -> None:
    assert (home / "markers.pdf").read_bytes().startswith(b"%PDF")


#: a fast demo with a journal, for the README's export-record example
_JOURNAL = (
    "domino-table demo --no-live --exit-when-done --speed 1000 --recogniser oracle "
    "--buttons direct --journal j.sqlite > /dev/null"
)

#: command -> ("run", set-up command or "", check) or ("skip", why not here and what covers it)
COMMANDS: dict[str, tuple[str, str, Check | None]] = {
    "./scripts/demo.sh": (
        "skip",
        "makes or updates .venv (its size is measured by hand), then runs the demo until Ctrl-C:"
        " the demo is tests/controller/runtime/test_demo_match.py",
        None,
    ),
    "./scripts/test.sh": ("skip", "this suite", None),
    "domino-table demo --speed 20 --exit-when-done": ("run", "", _finished_match),
    "domino-table demo --broker mqtt://host:1883": (
        "skip",
        "host is a placeholder; --broker to Mosquitto: test_demo_live.py, test_demo_match.py",
        None,
    ),
    "domino-table demo --no-live": (
        "skip",
        "real time (minutes); the same at --speed: test_demo_match.py",
        None,
    ),
    "domino-table demo --journal j.sqlite": (
        "skip",
        "real time, then waits for Ctrl-C; resuming: test_demo.py, test_demo_match.py",
        None,
    ),
    "domino-table demo --fixture DIR": (
        "skip",
        "DIR is a placeholder; other fixtures: test_rendered_presets.py",
        None,
    ),
    "domino-table export-record j.sqlite --out match.json && domino-table replay match.json": (
        "run",
        _JOURNAL,
        _replayed,
    ),
    "domino-table simulate --rules latin --hands 20 --seed 1 --json | domino-table replay -": (
        "run",
        "",
        _matches_on_lines,
    ),
    ".venv/bin/domino-table vision markers --out ~/markers.pdf": ("run", "", _markers),
    (
        ".venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy"
        " && .venv/bin/lint-imports"
    ): (
        "skip",
        "scripts/test.sh runs exactly these before pytest",
        None,
    ),
    ".venv/bin/pytest tests/controller/rules -q": ("skip", "part of this suite", None),
    "domino-table bench --quick": ("skip", "minutes of benchmarks, no pass or fail", None),
    ".venv/bin/pytest tests/controller/rules/bench_rules.py tests/vision/bench_recognition.py": (
        "skip",
        "benchmarks, no pass or fail",
        None,
    ),
}

#: whole blocks of commands for a Raspberry Pi, run as root: none can run here
_PI_PREFIXES = ("sudo ",)


def readme_commands(text: str) -> list[str]:
    """Each command line of the ``bash`` code blocks, without its trailing comment."""
    commands = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.DOTALL):
        for raw in block.splitlines():
            line = re.sub(r"\s+#\s.*$", "", raw).strip()
            if line and not line.startswith("#"):
                commands.append(" ".join(line.split()))
    return commands


def _commands() -> list[str]:
    return readme_commands((ROOT / "README.md").read_text(encoding="utf-8"))


def test_every_readme_command_is_run_or_says_why_not() -> None:
    found = [c for c in _commands() if not c.startswith(_PI_PREFIXES)]
    missing = [c for c in found if c not in COMMANDS]
    assert not missing, f"README commands with no entry in tests/test_readme.py: {missing}"
    gone = [c for c in COMMANDS if c not in found]
    assert not gone, f"entries in tests/test_readme.py the README no longer has: {gone}"
    assert sum(kind == "run" for kind, _, _ in COMMANDS.values()) >= 4


def test_the_pi_commands_are_the_deploy_steps() -> None:
    """The root-only lines are the Raspberry Pi install (hardware/DEPLOY.md): not run here, but
    the files they name must exist."""
    pi = [c for c in _commands() if c.startswith(_PI_PREFIXES)]
    assert pi
    for command in pi:
        for name in re.findall(r"\b(hardware/[\w./-]+)", command):
            assert (ROOT / name).exists(), f"{command}: {name} is not in the repository"


def test_the_extraction_drops_comments_and_keeps_pipes() -> None:
    text = "x\n```bash\na | b   # one\n# only a comment\n\nc && d\n```\n```text\nno\n```\n"
    assert readme_commands(text) == ["a | b", "c && d"]


@pytest.mark.parametrize("command", [c for c, (kind, _, _) in COMMANDS.items() if kind == "run"])
def test_readme_command_runs(command: str, tmp_path: Path) -> None:
    _, setup, check = COMMANDS[command]
    (tmp_path / ".venv").symlink_to(VENV)
    env = {
        **os.environ,
        "PATH": f"{VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(tmp_path),
    }
    for line in (setup, command):
        if not line:
            continue
        proc = subprocess.run(
            ["bash", "-o", "pipefail", "-c", line],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert proc.returncode == 0, f"{line}\n{proc.stderr[-2000:]}"
    assert check is not None
    check(proc, tmp_path)
