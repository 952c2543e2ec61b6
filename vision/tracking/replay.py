"""Scene tracking over a recorded fixture directory (video + ``table.json``): the file shell used
by ``domino-table vision track``, the track sweep and the benchmarks."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from domino_common.clock import FakeClock
from vision.calibration.tablefile import load_table
from vision.errors import VisionError
from vision.events import SceneEvent
from vision.motion import SettleDetector, SettleParams
from vision.sources import VideoFileSource
from vision.tracking.occlusion import SkinOcclusion
from vision.tracking.regional import RegionalParams, RegionalReader, WindowRecognizer
from vision.tracking.tracker import SceneTracker, TrackerParams
from vision.tracking.truth import TruthOracle
from vision.tracking.watcher import Recognizer, SceneWatcher


@dataclass(frozen=True, slots=True)
class TrackResult:
    events: tuple[SceneEvent, ...]
    frames: int
    duration_s: float
    recognitions: int
    #: readings made by windows round what changed (see ``regional``)
    windowed: int = 0


def track_fixture(
    fixture_dir: str | Path,
    *,
    recognize: Recognizer | None = None,
    params: TrackerParams | None = None,
    settle: SettleParams | None = None,
    progress: Callable[[int, int], None] | None = None,
    max_frames: int | None = None,
    skin_check: bool = True,
    regional: RegionalParams | None = None,
) -> TrackResult:
    """Run scene tracking over a recorded fixture (video + ``table.json``).

    With no ``recognize``, the truth oracle (``truth.json``) reads the settled frames.
    ``skin_check`` skips settled frames with a hand over the table (:class:`SkinOcclusion`).
    ``regional``: ``recognize`` reads windows of a frame too (a
    :class:`~vision.tracking.regional.WindowRecognizer`), and each settled frame is read
    by what changed since the scene last tracked (:class:`RegionalReader`).
    """
    d = Path(fixture_dir)
    geometry = load_table(d / "table.json")
    clock = FakeClock()
    if recognize is None:
        truth = json.loads((d / "truth.json").read_text(encoding="utf-8"))
        recognize = TruthOracle(truth, clock)
    videos = sorted(p for p in d.iterdir() if p.name.startswith("video."))
    if not videos:
        raise VisionError(f"{d}: no video.* file in the fixture")
    reader = None
    if regional is not None:
        reader = RegionalReader(cast(WindowRecognizer, recognize), regional)
        recognize = reader
    watcher = SceneWatcher(
        recognize,
        SceneTracker(geometry, params or TrackerParams()),
        SettleDetector(settle or SettleParams()),
        SkinOcclusion(geometry) if skin_check and geometry.calibrated else None,
        on_tracked=None if reader is None else reader.tracked,
    )
    events: list[SceneEvent] = []
    frames = 0
    last_t = 0.0
    with VideoFileSource(videos[0]) as source:
        total = source.frame_count
        for frame in source:
            clock.advance_to(frame.t_seconds)
            events.extend(watcher.feed(frame))
            frames += 1
            last_t = frame.t_seconds
            if progress is not None and frames % 25 == 0:
                progress(frames, total)
            if max_frames is not None and frames >= max_frames:
                break
    events.extend(watcher.flush())
    windowed = 0 if reader is None else reader.windowed
    return TrackResult(tuple(events), frames, last_t, watcher.recognitions, windowed)
