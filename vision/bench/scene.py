"""Benchmarks of the scene side of vision: motion check, fixture tracking speed, render speed.

Rows: ``{"name", "value", "unit", "target", "note"}``. Everything runs on one core
(``cv2.setNumThreads(1)``) and reports medians where a per-frame figure is given.
"""

from __future__ import annotations

import importlib
import json
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
    from vision.calibration.geometry import default_geometry
    from vision.devtools.render.scene import RenderParams, SceneRenderer

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


def bench_calibration(quick: bool) -> list[dict[str, object]]:
    """Calibration error over sweep views of the standard table (light, blur, noise, JPEG,
    tilt up to 18 degrees): worst table-mm error over the play area, against the true camera."""
    import cv2

    from vision.calibration.geometry import default_geometry
    from vision.calibration.markers import calibrate
    from vision.devtools.render.camera import camera_homography
    from vision.devtools.render.scene import RenderParams, SceneRenderer, sweep_params
    from vision.errors import CalibrationError

    g = default_geometry()
    n = 6 if quick else 30
    worst = 0.0
    failed = 0
    pa = g.play_area
    grid = np.array(
        [[x, y] for x in np.linspace(pa.x0, pa.x1, 5) for y in np.linspace(pa.y0, pa.y1, 5)]
    )
    for i in range(n):
        p = sweep_params(i, 17, RenderParams())
        rng = np.random.default_rng(i)
        renderer = SceneRenderer(g, p, rng, noise_frames=1)
        view = renderer.finish(renderer.to_camera(renderer.background), rng)
        try:
            result = calibrate(view, g)
        except CalibrationError:
            failed += 1
            continue
        h_true = camera_homography(g, p.width, p.height, tilt_deg=p.tilt_deg, yaw_deg=p.yaw_deg)
        img = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), h_true)
        back = cv2.perspectiveTransform(img, np.asarray(result.geometry.homography))
        worst = max(worst, float(np.abs(back.reshape(-1, 2) - grid).max()))
    return [
        _row(
            "vision.calibration_error",
            worst,
            "mm",
            None,
            f"worst play-area error over {n} sweep views at 1280x720 (light, blur, noise, JPEG, "
            f"tilt 0-18 deg); {failed} without enough markers",
        )
    ]


SHIPPED_FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "latin-hand"


def _bench_identify_tracking() -> list[dict[str, object]]:
    """Tracking as the table's run reads (by windows round each change)
    over the shipped fixture (1920x1080): speed, and whether the added tiles, order and ends
    equal its truth."""
    import functools

    from vision.tracking.regional import RegionalParams
    from vision.tracking.replay import track_fixture
    from vision.tracking.truth import compare_with_truth

    try:
        recognition = importlib.import_module("vision.recognition")
    except ImportError:
        return []
    if not (SHIPPED_FIXTURE / "truth.json").is_file():
        return []
    truth = json.loads((SHIPPED_FIXTURE / "truth.json").read_text(encoding="utf-8"))
    t0 = time.perf_counter()
    cpu0 = time.process_time()
    result = track_fixture(
        SHIPPED_FIXTURE,
        recognize=functools.partial(recognition.identify, max_pips=6),
        regional=RegionalParams(),
    )
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    exact = compare_with_truth(truth, result.events).equal
    unsure = sum(1 for e in result.events if type(e).__name__ == "Unsure")
    return [
        _row(
            "vision.fixture_tracking_identify",
            result.duration_s / wall,
            "x real time",
            ">= 10x",
            f"shipped fixture {truth['width']}x{truth['height']} read by windows round each "
            f"change, {result.windowed} of {result.recognitions} readings "
            f"({result.duration_s / cpu:.1f}x in CPU time); "
            f"{'exactly' if exact else 'NOT'} truth's tiles, order and ends; "
            f"{unsure} unsure",
        )
    ]


def _recogniser() -> Any | None:
    try:
        return importlib.import_module("vision.recognition").identify
    except (ImportError, AttributeError):
        return None


def bench_fixture(quick: bool) -> list[dict[str, object]]:
    from vision.devtools.fixture_writer import render_fixture
    from vision.devtools.render.sample import sample_record
    from vision.tracking.replay import track_fixture
    from vision.tracking.truth import compare_with_truth

    rows: list[dict[str, object]] = []
    seeds = [1] if quick else [1, 2, 3]
    with tempfile.TemporaryDirectory(prefix="bench-fixture-") as tmp:
        render_x: list[float] = []
        track_x: list[float] = []
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
            truth = json.loads((out / "truth.json").read_text(encoding="utf-8"))
            exact += int(compare_with_truth(truth, result.events).equal)
        n = len(seeds)
        rows.append(
            _row(
                "vision.fixture_tracking_oracle",
                statistics.median(track_x),
                "x real time",
                ">= 10x",
                f"decode + motion + settle + tracking, truth oracle as recogniser; 1280x720 "
                f"12 fps, {n} one-hand latin fixture(s); {exact}/{n} with exactly truth's tiles, "
                "order and ends",
            )
        )
        rows.extend(_bench_identify_tracking())
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


def default_ddd_dir() -> Path:
    """Where the shared real-photo set lives next to a checkout (never copied into it)."""
    return Path(__file__).resolve().parents[3] / "shared" / "datasets" / "ddd-dev"


def ddd_sequence_check(dataset: Path, recognize: Any | None = None) -> tuple[int, int]:
    """Track every ddd-dev game photo by photo (one settled scene per photo, uncalibrated
    pixels) and count the new tiles reported at the right place with the right pips, with
    nothing else reported: ``(found, total)`` (a tile added with a request to check it counts).

    These boards play "Double Double Dominoes", where a tile may branch off any tile, so a new
    tile is either a :class:`TileAdded` (it joined an open end) or an :class:`Unsure` naming it
    (it branched off the line). Without ``recognize`` the photos' labels are the readings.
    """
    import cv2

    from vision.events import TileAdded, Unsure
    from vision.tracking.tracker import SceneTracker
    from vision.types import HalfReading, SceneReading, TileReading

    found = total = 0
    games = sorted({p.name.split("_")[0] for p in dataset.glob("*_*.json")})
    for game in games:
        tracker = SceneTracker(None)
        for k, truth_path in enumerate(sorted(dataset.glob(f"{game}_*.json")), start=1):
            truth = json.loads(truth_path.read_text(encoding="utf-8"))
            if recognize is not None:
                image = np.asarray(
                    cv2.imread(str(truth_path.with_suffix(".jpg")), cv2.IMREAD_COLOR),
                    dtype=np.uint8,
                )
                # the board's grid plays the part of the play area (the printed dominoes on
                # its border are decoration): as calibration would give it
                grid = [tuple(p) for p in truth["grid_corners_px"]]
                try:
                    reading = recognize(image, region=grid)
                except TypeError:
                    reading = recognize(image)
            else:
                tiles = []
                for t in truth["tiles"]:
                    h = t["halves"]
                    quads = np.asarray(h[0]["quad_px"] + h[1]["quad_px"], dtype=np.float32)
                    box = cv2.boxPoints(cv2.minAreaRect(quads))
                    halves = tuple(HalfReading(tuple(x["center_px"]), int(x["pips"])) for x in h)
                    corners = tuple((float(x), float(y)) for x, y in box)
                    tiles.append(TileReading(corners, halves, 1.0))  # type: ignore[arg-type]
                reading = SceneReading(tuple(tiles), truth["width"], truth["height"])
            events = tracker.settled(float(k), reading)
            new = [t for t in truth["tiles"] if t["move"] == k]
            total += len(new)
            if len(new) != 1:
                continue
            pips = sorted(int(x["pips"]) for x in new[0]["halves"])
            centre = np.mean([x["center_px"] for x in new[0]["halves"]], axis=0)
            near = 0.5 * float(truth["cell_px"])
            hits = 0
            others = 0
            for e in events:
                if isinstance(e, TileAdded):
                    c = np.mean(np.asarray(e.corners), axis=0)
                    hits += int(sorted(e.pips) == pips and np.hypot(*(c - centre)) < near)
                elif isinstance(e, Unsure) and e.pips is not None and e.center is not None:
                    ok = (
                        sorted(e.pips) == pips and np.hypot(*(np.asarray(e.center) - centre)) < near
                    )
                    hits += int(ok)
                    others += int(not ok)
                elif type(e).__name__ != "SceneSettled":
                    others += 1
            found += int(hits >= 1 and others == 0)
    return found, total


def bench_ddd(quick: bool) -> list[dict[str, object]]:
    dataset = default_ddd_dir()
    if not dataset.is_dir():
        return []
    rows = []
    found, total = ddd_sequence_check(dataset)
    rows.append(
        _row(
            "vision.tracking_ddd_labels",
            100.0 * found / max(total, 1),
            "% new tiles",
            "100%",
            f"ddd-dev sequences, labels as readings: {found}/{total} new tiles reported at their "
            "place, nothing else (TileAdded, or Unsure when branching off the line)",
        )
    )
    identify = _recogniser()
    if identify is not None and not quick:
        found, total = ddd_sequence_check(dataset, identify)
        rows.append(
            _row(
                "vision.tracking_ddd_identify",
                100.0 * found / max(total, 1),
                "% new tiles",
                "100%",
                f"as above with vision.recognition.identify: {found}/{total}",
            )
        )
    return rows


def run_benchmarks(quick: bool) -> list[dict[str, object]]:
    import cv2

    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        return (
            bench_motion(quick) + bench_calibration(quick) + bench_fixture(quick) + bench_ddd(quick)
        )
    finally:
        cv2.setNumThreads(threads)


if __name__ == "__main__":  # pragma: no cover
    import sys

    for row in run_benchmarks("--quick" in sys.argv):
        print(json.dumps(row))
