"""The hostile suite's ledger: every hostile case a test tries, and how it ended.

A test wraps each case in :func:`case` and says how the system answered (``refused`` with a
clear error, or ``accepted`` correctly); a case whose block raises (a failed assertion, a crash,
a 5xx) is written as ``lost``. Lines go to the JSON-lines file named by ``DOMINO_HOSTILE_LEDGER``
(set by ``scripts/hostile_report.py``; pytest-xdist workers inherit it and append to the same
file) and nowhere when it is unset, so the normal suite runs the same tests unchanged.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

ENV = "DOMINO_HOSTILE_LEDGER"
OUTCOMES = ("refused", "accepted", "lost")


def record_case(kind: str, outcome: str, n: int = 1) -> None:
    """Write ``n`` cases of ``kind`` that ended as ``outcome`` (one of :data:`OUTCOMES`)."""
    if outcome not in OUTCOMES:
        raise ValueError(f"outcome {outcome!r} is not one of {OUTCOMES}")
    path = os.environ.get(ENV)
    if not path or n <= 0:
        return
    line = json.dumps({"kind": kind, "outcome": outcome, "n": n}) + "\n"
    with open(path, "a", encoding="utf-8") as f:  # one short write: safe across xdist workers
        f.write(line)


@dataclass(slots=True)
class Case:
    kind: str
    outcome: str | None = None

    def refused(self) -> None:
        self.outcome = "refused"

    def accepted(self) -> None:
        self.outcome = "accepted"


@contextmanager
def case(kind: str, n: int = 1) -> Iterator[Case]:
    """``n`` hostile cases of ``kind`` that end alike (a batch checked at once): ``lost`` if the
    block raises or never says how they ended."""
    c = Case(kind)
    try:
        yield c
    except BaseException:
        record_case(kind, "lost", n)
        raise
    record_case(kind, c.outcome or "lost", n)
