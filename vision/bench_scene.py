"""Benchmarks of the scene side of vision: motion check, fixture tracking speed, render speed.

Rows: ``{"name", "value", "unit", "target", "note"}``. Everything runs on one core
(``cv2.setNumThreads(1)``) and reports medians where a per-frame figure is given.
"""

from __future__ import annotations

import importlib
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np


def _row(name: str, value: float, unit: str, target: str | None, note: str) -> dict[str, object]:
    return {"name": name, "value": round(value, 4), "unit": unit, "target": target, "note": note}


def _frames(n: int) -> list[Any]:
    """Realistic 1280x720 frames: a rendered still plus noise, different every frame."""
    from vision.calibration import default_geometry
    from vision.render.scene import RenderParams, SceneRenderer

    rng = np.random.default_rng(0)
    renderer = SceneRenderer(default_geometry(), RenderParams(), rng)
    still = renderer.to_camera(renderer.background)
    return [renderer.finish(still, rng) for _ in range(n)]


def bench_motion(quick: bool) -> list[dict[str, object]]:
    from vision.motion import motion_score, thumb_score, thumbnail

    frames = _frames(8)
    n = 200 if quick else 2000
    per_frame: list[float] = []
    prev = thumbnail(frames[0])
    for i in range(n):
        f = frames[i % len(frames)]
        t0 = time.perf_counter()
        cur = thumbnail(f)
        thumb_score(prev, cur)
        per_frame.append(time.perf_counter() - t0)
        prev = cur
    pair: list[float] = []
    for i in range(n // 2):
        a, b = frames[i % len(frames)], frames[(i + 1) % len(frames)]
        t0 = time.perf_counter()
        motion_score(a, b)
        pair.append(time.perf_counter() - t0)
    return [
        _row(
            "vision.motion_check_per_frame",
            statistics.median(per_frame) * 1e3,
            "ms",
            "<= 1 ms",
            f"median of {n} 1280x720 frames, streaming (one thumbnail per frame), one core",
        ),
        _row(
            "vision.motion_score_pair",
            statistics.median(pair) * 1e3,
            "ms",
            None,
            "motion_score(prev, cur) from two full frames (both downscaled), one core",
        ),
    ]


def _recogniser() -> Any | None:
    try:
        return importlib.import_module("vision.recognition").identify
    except (ImportError, AttributeError):
        return None


def bench_fixture(quick: bool) -> list[dict[str, object]]:
    from vision.fixture import render_fixture
    from vision.render.sample import sample_record
    from vision.tracking import added_tiles, track_fixture

    rows: list[dict[str, object]] = []
    seeds = [1] if quick else [1, 2, 3]
    with tempfile.TemporaryDirectory(prefix="bench-fixture-") as tmp:
        render_x: list[float] = []
        track_x: list[float] = []
        real_x: list[float] = []
        sizes: list[float] = []
        exact = 0
        for seed in seeds:
            out = Path(tmp) / f"fx{seed}"
            record = sample_record(seed)
            info = render_fixture(record, out, seed=seed)
            render_x.append(info.duration_s / info.render_s)
            sizes.append(info.video_bytes / 1e6)
            t0 = time.perf_counter()
            result = track_fixture(out)
            elapsed = time.perf_counter() - t0
            track_x.append(info.duration_s / elapsed)
            plays = [m for m in record["hands"][0]["moves"] if "play" in m]
            adds = added_tiles(result.events)
            exact += int(len(adds) == len(plays))
            identify = _recogniser()
            if identify is not None:
                t0 = time.perf_counter()
                track_fixture(out, recognize=identify)
                real_x.append(info.duration_s / (time.perf_counter() - t0))
        n = len(seeds)
        rows.append(
            _row(
                "vision.fixture_tracking_oracle",
                statistics.median(track_x),
                "x real time",
                ">= 10x",
                f"decode + motion + settle + tracking, truth oracle as recogniser; 1280x720 "
                f"12 fps, {n} one-hand latin fixture(s); {exact}/{n} with every tile found",
            )
        )
        if real_x:
            rows.append(
                _row(
                    "vision.fixture_tracking_identify",
                    statistics.median(real_x),
                    "x real time",
                    ">= 10x",
                    "as above with vision.recognition.identify reading the settled frames",
                )
            )
        rows.append(
            _row(
                "vision.fixture_render",
                statistics.median(render_x),
                "x real time",
                None,
                f"render_fixture 1280x720 12 fps mp4v; {statistics.median(sizes):.1f} MB per hand",
            )
        )
    return rows


def run_benchmarks(quick: bool) -> list[dict[str, object]]:
    import cv2

    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        return bench_motion(quick) + bench_fixture(quick)
    finally:
        cv2.setNumThreads(threads)


if __name__ == "__main__":  # pragma: no cover
    import json
    import sys

    for row in run_benchmarks("--quick" in sys.argv):
        print(json.dumps(row))
