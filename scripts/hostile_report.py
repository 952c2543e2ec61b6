"""Run the hostile-input suite and print its reliability table (issue 46) for the README.

    .venv/bin/python scripts/hostile_report.py [PYTEST ARGS...]

Runs pytest on the hostile tests (tests/hostile and the schemathesis fuzzing of the HTTP API)
with ``DOMINO_HOSTILE_LEDGER`` pointing at a temporary file; each case the tests try is written
there with its outcome (tests/hostile/ledger.py). Prints one Markdown row per input kind: cases
tried, refused with a clear error, accepted correctly, lost or crashed. Exits with pytest's code,
so a failing hostile test is never hidden behind a table.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ["tests/hostile", "tests/controller/live/test_live_fuzz.py"]


def table(ledger: Path) -> list[str]:
    counts: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for line in ledger.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        counts[row["kind"]][row["outcome"]] += row["n"]
    lines = [
        "| input kind | cases tried | refused with a clear error | accepted correctly "
        "| lost/crashed |",
        "|---|---:|---:|---:|---:|",
    ]
    total = {"refused": 0, "accepted": 0, "lost": 0}
    for kind in sorted(counts):
        c = counts[kind]
        tried = c["refused"] + c["accepted"] + c["lost"]
        lines.append(f"| {kind} | {tried} | {c['refused']} | {c['accepted']} | {c['lost']} |")
        for key in total:
            total[key] += c[key]
    lines.append(
        f"| **all** | {sum(total.values())} | {total['refused']} | {total['accepted']} "
        f"| {total['lost']} |"
    )
    return lines


def main(argv: list[str]) -> int:
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        ledger = Path(tmp) / "ledger.jsonl"
        ledger.touch()
        env = {**os.environ, "DOMINO_HOSTILE_LEDGER": str(ledger)}
        args = argv or ["-n", "1", "-q"]
        code = subprocess.run(
            [sys.executable, "-m", "pytest", *TESTS, *args], cwd=ROOT, env=env, check=False
        ).returncode
        print()
        print("\n".join(table(ledger)))
    if code != 0:
        print(f"hostile_report: pytest exited {code}: some hostile test failed", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
