"""pytest-benchmark figures for the rules engine (run separately:
``pytest tests/controller/rules/bench_rules.py``); never part of the test run."""

from __future__ import annotations

from typing import Any

from controller.rules.options import build_rules
from controller.rules.record import parse_record, replay
from controller.rules.simulate import simulate


def _hands(preset: str, fast: str, hands: int = 200) -> int:
    return sum(len(m.hands) for m in simulate(build_rules(preset), hands=hands, seed=1, fast=fast))


def test_bench_latin_kernel(benchmark: Any) -> None:
    assert benchmark(_hands, "latin", "auto") == 200


def test_bench_latin_checked_engine(benchmark: Any) -> None:
    assert benchmark(_hands, "latin", "full") == 200


def test_bench_draw_checked_engine(benchmark: Any) -> None:
    assert benchmark(_hands, "draw", "full") == 200


def test_bench_replay_latin_match(benchmark: Any) -> None:
    match = next(simulate(build_rules("latin"), hands=50, seed=2))
    record = match.to_record()
    result = benchmark(lambda: replay(parse_record(record)))
    assert result.totals == match.totals
