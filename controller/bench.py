"""``domino-table bench``: every performance figure of the project in one run.

Each package contributes a module with ``run_benchmarks(quick: bool) -> list[dict[str, object]]``;
a row is ``{"name": str, "value": float, "unit": str, "target": str | None, "note": str}``.
Modules are imported only when the benchmark runs.
"""

from __future__ import annotations

BENCH_MODULES = (
    "controller.rules_bench",
    "vision.bench",
    "firmware_bridge.bench",
    "controller.live_bench",
    "controller.runtime_bench",
)
