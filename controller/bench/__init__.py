"""``domino-table bench``: every performance figure of the project in one run.

Each package's ``bench`` sub-package holds modules (listed in :data:`BENCH_MODULES`) with
``run_benchmarks(quick: bool) -> list[dict[str, object]]``; a row is ``{"name": str, "value":
float, "unit": str, "target": str | None, "note": str}``. Modules are imported only when the
benchmark runs; ``--only NAME`` keeps the modules whose dotted name contains NAME.
"""

from __future__ import annotations

import importlib
import json
import logging
import sys
from collections.abc import Sequence

BENCH_MODULES = (
    "controller.bench.rules",
    "vision.bench.recognition",
    "vision.bench.scene",
    "firmware_bridge.bench.link",
    "controller.bench.live",
    "controller.bench.runtime",
)

log = logging.getLogger(__name__)


def run(*, quick: bool, only: Sequence[str] | None, as_json: bool) -> int:
    """Run every benchmark module present (or those matching ``only``) and print the rows."""
    failures = 0
    for name in BENCH_MODULES:
        if only and not any(o in name for o in only):
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        print(f"== {name}", file=sys.stderr, flush=True)
        try:
            rows = module.run_benchmarks(quick)
        except Exception as exc:
            log.exception("benchmark %s failed", name)
            print(f"{name}: failed: {exc}", file=sys.stderr)
            failures += 1
            continue
        for row in rows:
            if as_json:
                print(json.dumps({"module": name, **row}), flush=True)
            else:
                target = f"  (target {row['target']})" if row.get("target") else ""
                note = f"  {row['note']}" if row.get("note") else ""
                print(f"{row['name']:<58} {_fmt(row['value'])} {row['unit']}{target}{note}")
    return 1 if failures else 0


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.3g}" if abs(value) < 100 else f"{value:,.0f}"
    return str(value)
