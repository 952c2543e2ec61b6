"""Tracking with the real recogniser over a sweep of rendered fixtures, compared with truth.

Fixture ``i`` of a sweep with seed ``S`` is the one-hand sample record of seed ``S + i``
rendered with seed ``S + i`` at point ``i`` of the render sweep (light, shadow, blur, noise,
JPEG, tilt, surface, tile look and thickness), at the ``i``-th of :data:`SWEEP_RESOLUTIONS` in
turn unless a resolution is given. The same fixture comes out of::

    domino-table fixture sample-record --seed S+i --out r.json
    domino-table fixture render-record r.json --seed S+i --sweep i --width W --height H

Each fixture is tracked with the recogniser given (by default ``vision.recognition.identify``
on whole frames; the CLI reads by windows, as the table's run reads, unless told otherwise) and
compared with its ``truth.json`` by :func:`vision.tracking.truth.compare_with_truth` (added
tiles, their order and their ends). Where they differ, the truth oracle tracks the same video
too, to tell a recognition failure from a tracking one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from vision.devtools.render.scene import RenderParams, sweep_params
from vision.errors import VisionError
from vision.events import Unsure
from vision.tracking.regional import RegionalParams
from vision.tracking.truth import TruthComparison
from vision.tracking.watcher import Recognizer

#: resolutions taken in turn: the two common camera modes first, then the one between
SWEEP_RESOLUTIONS = ((1280, 720), (1920, 1080), (1600, 900))

#: ``(index, count, stage)`` with stage ``"rendering"`` or ``"tracking"``, then the stage's
#: own ``(done, total)`` frame progress
StageCallback = Callable[[int, int, str], Callable[[int, int], None] | None]


@dataclass(frozen=True, slots=True)
class SweepPoint:
    """What one fixture of the sweep was rendered from."""

    index: int
    seed: int
    params: RenderParams

    def command(self, record: str = "r.json") -> str:
        """The two commands that render the same fixture."""
        p = self.params
        return (
            f"domino-table fixture sample-record --seed {self.seed} --out {record} && "
            f"domino-table fixture render-record {record} --seed {self.seed} --sweep {self.index} "
            f"--width {p.width} --height {p.height}"
        )


@dataclass(frozen=True, slots=True)
class SweepResult:
    """One fixture's outcome: ``comparison`` with the recogniser; ``oracle_equal`` is the
    truth oracle's verdict on the same video, run only when the recogniser's differs."""

    point: SweepPoint
    fixture: Path
    comparison: TruthComparison
    unsure: int
    oracle_equal: bool | None

    @property
    def equal(self) -> bool:
        return self.comparison.equal

    def to_json(self) -> dict[str, object]:
        p = self.point.params
        return {
            "index": self.point.index,
            "seed": self.point.seed,
            "fixture": str(self.fixture),
            "width": p.width,
            "height": p.height,
            "blur": p.blur,
            "noise": round(p.noise, 2),
            "jpeg_quality": p.jpeg_quality,
            "light": round(p.light, 3),
            "tilt_deg": round(p.tilt_deg, 2),
            "tile_look": p.tile_look,
            "tile_height_mm": p.tile_height_mm,
            "surface": p.surface,
            "equal": self.equal,
            "adds_truth": len(self.comparison.expected),
            "adds_tracked": len(self.comparison.got),
            "unsure": self.unsure,
            "first_difference": self.comparison.first_difference(),
            "oracle_equal": self.oracle_equal,
            "command": self.point.command(),
        }


def sweep_points(count: int, seed: int, size: tuple[int, int] | None = None) -> list[SweepPoint]:
    """The first ``count`` points of the sweep (see the module's docstring)."""
    if count < 1:
        raise VisionError(f"--count must be 1 or more, got {count}")
    if seed < 0:
        raise VisionError(f"--seed must be 0 or more, got {seed}")
    points = []
    for i in range(count):
        w, h = size or SWEEP_RESOLUTIONS[i % len(SWEEP_RESOLUTIONS)]
        base = RenderParams(width=w, height=h)  # checks the resolution (RenderError)
        points.append(SweepPoint(i, seed + i, sweep_params(i, seed + i, base)))
    return points


def _recogniser() -> Recognizer:
    import importlib

    try:
        identify: Recognizer = importlib.import_module("vision.recognition").identify
    except (ImportError, AttributeError) as exc:
        raise VisionError("the recogniser (vision.recognition.identify) is not available") from exc
    return identify


def track_sweep(
    out_dir: Path,
    points: list[SweepPoint],
    *,
    recognize: Recognizer | None = None,
    stage: StageCallback | None = None,
    regional: RegionalParams | None = None,
) -> Iterator[SweepResult]:
    """Render, track and compare each point's fixture into ``out_dir/NN``; yields as it goes.
    ``regional``: ``recognize`` reads windows too, and each settled frame is read by what
    changed since the scene last tracked (see :func:`~vision.tracking.replay.track_fixture`)."""
    from vision.devtools.fixture_writer import render_fixture
    from vision.devtools.render.sample import sample_record
    from vision.tracking.replay import track_fixture
    from vision.tracking.truth import compare_with_truth

    out_dir = Path(out_dir)
    if out_dir.exists() and not out_dir.is_dir():
        raise VisionError(f"{out_dir}: exists and is not a directory")
    out_dir.mkdir(parents=True, exist_ok=True)
    identify = recognize or _recogniser()
    n = len(points)
    for k, point in enumerate(points):
        fixture = out_dir / f"{point.index:02d}"
        progress = stage(k, n, "rendering") if stage else None
        render_fixture(
            sample_record(point.seed),
            fixture,
            seed=point.seed,
            params=point.params,
            progress=progress,
        )
        truth = json.loads((fixture / "truth.json").read_text(encoding="utf-8"))
        progress = stage(k, n, "tracking") if stage else None
        result = track_fixture(fixture, recognize=identify, progress=progress, regional=regional)
        if progress is not None:
            progress(result.frames, result.frames)
        comparison = compare_with_truth(truth, result.events)
        oracle_equal = None
        if not comparison.equal:
            oracle = track_fixture(fixture)
            oracle_equal = compare_with_truth(truth, oracle.events).equal
        unsure = sum(1 for e in result.events if isinstance(e, Unsure))
        yield SweepResult(point, fixture, comparison, unsure, oracle_equal)
