"""The ledger behind the reliability table: a case that raises is written as lost, never as
refused, and the report adds the rows up."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from tests.hostile.ledger import ENV, case, record_case

ROOT = Path(__file__).resolve().parents[2]


def _report() -> object:
    spec = importlib.util.spec_from_file_location(
        "hostile_report", ROOT / "scripts/hostile_report.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_outcomes_are_written_and_a_failing_case_is_lost(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ledger = tmp_path / "ledger.jsonl"
    monkeypatch.setenv(ENV, str(ledger))
    with case("k") as c:
        c.refused()
    with case("k", 3) as c:
        c.accepted()
    with pytest.raises(AssertionError), case("k", 2) as c:
        c.refused()
        raise AssertionError("a 5xx")
    with case("k"):
        pass  # never said how it ended
    record_case("other", "refused", 0)  # nothing tried, nothing written
    rows = [json.loads(line) for line in ledger.read_text().splitlines()]
    assert rows == [
        {"kind": "k", "outcome": "refused", "n": 1},
        {"kind": "k", "outcome": "accepted", "n": 3},
        {"kind": "k", "outcome": "lost", "n": 2},
        {"kind": "k", "outcome": "lost", "n": 1},
    ]
    lines = _report().table(ledger)  # type: ignore[attr-defined]
    assert lines[2] == "| k | 7 | 1 | 3 | 3 |"
    assert lines[-1] == "| **all** | 7 | 1 | 3 | 3 |"


def test_nothing_is_written_without_the_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.chdir(tmp_path)
    with case("k") as c:
        c.refused()
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="not one of"):
        record_case("k", "ok")
