"""The benchmark code runs (tiny sizes); figures come from ``domino-table bench``, not tests."""

from __future__ import annotations

import os

from live_support import IN_CI

from controller.bench import live as live_bench

KEYS = {"name", "value", "unit", "target", "note"}


def test_hall_benchmark_loses_nothing_on_a_small_fleet() -> None:
    rows = live_bench._hall(tables=3, seconds=2.0)
    assert [r["name"] for r in rows] == ["live.hall_lost_updates", "live.hall_scoreboard_cpu_pct"]
    assert all(set(r) == KEYS for r in rows)
    assert rows[0]["value"] == 0


def test_browser_benchmark_measures_every_state() -> None:
    row = live_bench._state_to_browser(samples=3)
    assert set(row) == KEYS
    if os.path.exists("/usr/bin/chromium") or IN_CI:
        assert "median of 3 states" in str(row["note"])
