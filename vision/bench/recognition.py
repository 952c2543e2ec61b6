"""Performance and accuracy figures of vision (``domino-table bench``).

Rows: ``{"name", "value", "unit", "target", "note"}``. Timings run OpenCV on one thread.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

#: The unlicensed real photos live beside the repository, never inside it.
DDD_DEV = Path("shared") / "datasets" / "ddd-dev"


def find_ddd_dev() -> Path | None:
    """``../shared/datasets/ddd-dev`` relative to the repository root or the working directory."""
    for base in (Path(__file__).resolve().parents[3], Path.cwd().resolve().parent):
        candidate = base / DDD_DEV
        if (candidate / "index.json").is_file():
            return candidate
    return None


def run_benchmarks(quick: bool) -> list[dict[str, object]]:
    import cv2

    from vision.devtools.evaluation import evaluate_dir, evaluate_synthetic
    from vision.recognition import identify

    rows: list[dict[str, object]] = []
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        rows.append(_rendered_scene_row(identify, quick))
        rows += _scene_rows(quick)
        count = 20 if quick else 500
        for pip in (4.0, None):
            report = evaluate_synthetic(count, seed=1000, pip_diameter_px=pip)
            s = report.summary()
            size = f"pip diameter {pip:g} px" if pip else "tile width 26-40 px"
            rows.append(
                {
                    "name": "vision.recognition.synthetic_tile_identity"
                    + ("_pip4px" if pip else ""),
                    "value": round(100 * float(s["tile_accuracy"]), 3),  # type: ignore[arg-type]
                    "unit": "%",
                    "target": "100",
                    "note": f"{count} scenes, {s['truth_tiles']} tiles, {size}; "
                    f"false tiles {s['false_tiles']}",
                }
            )
        ddd = find_ddd_dev()
        if ddd is not None:
            report = evaluate_dir(ddd)
            s = report.summary()
            note = f"{s['images']} photos 1536x2040, {s['truth_tiles']} tiles"
            rows.extend(
                [
                    {
                        "name": "vision.recognition.ddd_dev_half_pip_accuracy",
                        "value": round(100 * float(s["half_pip_accuracy"]), 3),  # type: ignore[arg-type]
                        "unit": "%",
                        "target": ">= 99.5",
                        "note": note,
                    },
                    {
                        "name": "vision.recognition.ddd_dev_tile_identity",
                        "value": round(100 * float(s["tile_accuracy"]), 3),  # type: ignore[arg-type]
                        "unit": "%",
                        "target": ">= 99",
                        "note": note,
                    },
                    {
                        "name": "vision.recognition.ddd_dev_false_tiles_on_grid",
                        "value": s["false_tiles"],
                        "unit": "tiles",
                        "target": "0",
                        "note": note,
                    },
                    {
                        "name": "vision.recognition.ddd_dev_photo_time",
                        "value": round(1000 * float(s["median_seconds_per_image"]), 1),  # type: ignore[arg-type]
                        "unit": "ms (median, 1 core)",
                        "target": None,
                        "note": "full-resolution photo, no downscaling",
                    },
                ]
            )
        else:
            rows.append(
                {
                    "name": "vision.recognition.ddd_dev",
                    "value": None,
                    "unit": "",
                    "target": None,
                    "note": "../shared/datasets/ddd-dev not found: skipped",
                }
            )
    finally:
        cv2.setNumThreads(threads)
    return rows


def _scene_rows(quick: bool) -> list[dict[str, object]]:
    """The reader's CPU time on 28-tile 1280x720 scenes of a double-six set: the whole
    frame, and a 320x320 window round one tile (what the table's run reads for a move, see
    :class:`vision.tracking.regional.RegionalReader`)."""
    from vision.devtools.synthetic import render_scene
    from vision.recognition import identify

    scenes = [render_scene(seed, n_tiles=28) for seed in range(3 if quick else 10)]
    whole, window, right, total = [], [], 0, 0
    for scene in scenes:
        c0 = time.process_time()
        reading = identify(scene.image)
        whole.append(time.process_time() - c0)
        want = sorted(tuple(sorted(t.pips)) for t in scene.tiles)
        got = sorted(tuple(sorted(t.pips)) for t in reading.tiles)
        right += sum(min(want.count(k), got.count(k)) for k in set(want))
        total += len(want)
        (ax, ay), (bx, by) = scene.tiles[0].centers
        x, y = round((ax + bx) / 2), round((ay + by) / 2)
        box = (max(0, x - 160), max(0, y - 160), min(1280, x + 160), min(720, y + 160))
        c0 = time.process_time()
        identify(scene.image, max_pips=6, window=box)
        window.append(time.process_time() - c0)
    return [
        {
            "name": "vision.recognition.scene_28_tiles_1280x720_cpu",
            "value": round(1000 * statistics.median(whole), 1),
            "unit": "ms (median CPU time, 1 core)",
            "target": "<= 10",
            "note": f"{len(scenes)} synthetic double-six scenes read whole; "
            f"{right} of {total} tiles read right",
        },
        {
            "name": "vision.recognition.window_320_cpu",
            "value": round(1000 * statistics.median(window), 1),
            "unit": "ms (median CPU time, 1 core)",
            "target": None,
            "note": "the same scenes, a 320x320 window round one tile (a move, as the table reads)",
        },
    ]


def _rendered_scene_row(identify: Callable[..., object], quick: bool) -> dict[str, object]:
    """Recognition time on the fixture renderer's default camera (1280x720, standard table:
    tiles about 45 x 22 px, read enlarged)."""
    import tempfile

    import cv2

    from vision.devtools.render.stills import render_stills

    with tempfile.TemporaryDirectory() as tmp:
        paths = render_stills(Path(tmp), 6, seed=3, sweep=False)
        images = [cv2.imread(str(path)) for path in paths]
    identify(images[0])  # warm-up
    cpu = []
    for _ in range(3 if quick else 10):
        for image in images:
            c0 = time.process_time()
            identify(image)
            cpu.append(time.process_time() - c0)
    return {
        "name": "vision.recognition.rendered_scene_1280x720_cpu",
        "value": round(1000 * statistics.median(cpu), 2),
        "unit": "ms (median CPU time, 1 core)",
        "target": None,
        "note": f"{len(images)} rendered stills (default look, 1-21 tiles of about 22 px wide)",
    }
