"""The stream shell of scene tracking: frames in, events out.

:class:`SceneWatcher` runs, per frame, a cheap motion check and a stillness detector on the
frames' own timeline, and recognition only of settled frames, whose readings it hands to the pure
:class:`~vision.tracking.tracker.SceneTracker`. :func:`watch` runs it over any frame source.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from vision.calibration.geometry import TableGeometry
from vision.errors import VisionError
from vision.events import SceneEvent, TileAdded, TileMoved, TileRemoved, TilesRevealed, Unsure
from vision.motion import SettleDetector, SettleState, thumb_score, thumbnail
from vision.sources import Frame, FrameSource
from vision.tracking.tracker import SceneTracker
from vision.types import Point, SceneReading, TileReading

Image = npt.NDArray[np.uint8]


class Recognizer(Protocol):
    """Reads every tile in a BGR image (``vision.recognition.identify`` fits)."""

    def __call__(self, image: Image, /) -> SceneReading: ...


@dataclass(slots=True)
class SceneWatcher:
    """Per frame: motion check; once still for ``settle.settle_s``: recognise and track.

    Stillness is checked against the previous frame *and* against the first frame of the still
    period, so a hand creeping slowly cannot pass for a still scene.

    A settled scene's frames differ only by sensor noise, and so can its readings. When the
    first reading does not make sense to the tracker as it stands (see :func:`reads_cleanly`:
    nothing laid after motion, a tile removed, or something it is unsure of), the next still
    frames are read too, up to ``max_reads`` readings, and the first that does make sense is
    tracked (else the one that leaves it least in doubt, :func:`reading_doubts`). The tracker
    never sees the readings it was not given. Each extra reading costs a recognition: on a clean
    fixture one or two per hand, on one the recogniser often misreads up to ``max_reads`` times
    as many.

    What is read is the mean of the last ``average`` still frames, not the last frame alone:
    a still scene's frames differ by sensor and compression noise only, which the mean of
    ``n`` shrinks by the root of ``n``, so a small blurred tile that one frame shows and the
    next does not reads alike from one settled scene to the next.
    """

    recognize: Recognizer
    tracker: SceneTracker = field(default_factory=SceneTracker)
    settle: SettleDetector = field(default_factory=SettleDetector)
    #: optional check that a hand rests (still) over the table: the frame is then not read
    occluded: Callable[[Image], bool] | None = None
    #: readings of one settled scene at most (1: the settle frame's only)
    max_reads: int = 3
    _prev: npt.NDArray[np.int16] | None = None
    _anchor: npt.NDArray[np.int16] | None = None
    #: readings of the settled scene not yet tracked, and when it settled
    _pending: list[SceneReading] = field(default_factory=list)
    _pending_t: float = 0.0
    _reads: int = 0  # frames of the settled scene read so far (a failed read counts)
    recognitions: int = 0
    #: still frames averaged into the one read (1 or less: the frame alone)
    average: int = 2
    _still: list[Image] = field(default_factory=list)  # the last ``average`` still frames
    #: told each reading the tracker takes (a
    #: :class:`~vision.tracking.regional.RegionalReader` reads what changed since)
    on_tracked: Callable[[SceneReading], None] | None = None

    def feed(self, frame: Frame) -> list[SceneEvent]:
        if frame.luma is not None:  # the brightness alone, the frame not converted to BGR
            thumb = thumbnail(frame.luma, video_range=not frame.luma_full_range)
        else:
            thumb = thumbnail(frame.image)
        if self._prev is None:
            score = 0.0
        else:
            score = thumb_score(self._prev, thumb)
            if self._anchor is not None:
                score = max(score, thumb_score(self._anchor, thumb))
        self._prev = thumb
        update = self.settle.update(frame.t_seconds, score)
        if score > self.settle.params.threshold:
            self._anchor = None
            self._still = []
        else:
            if self._anchor is None:
                self._anchor = thumb
            same = [f for f in self._still if f.shape == frame.image.shape]
            self._still = [*same, frame.image][-max(1, self.average) :]
        events: list[SceneEvent] = []
        t = frame.t_seconds
        if self._reads and update.state is not SettleState.SETTLED:
            events.extend(self.flush())  # it moves again: track the best reading so far
        if update.started:
            events.extend(self.tracker.motion_started(t))
        if update.timed_out:
            events.extend(self.tracker.motion_timeout(t, self.settle.params.timeout_s))
        if update.settled and self.occluded is not None and self.occluded(frame.image):
            events.append(
                Unsure(t, "a hand rests over the table: the scene is read once it has left")
            )
        elif update.settled or 0 < self._reads < self.max_reads:
            if update.settled:
                self._pending_t = t
            self._reads += 1
            try:
                reading = self.recognize(mean_frame(self._still or [frame.image]))
            except VisionError as exc:
                if update.settled:
                    events.append(Unsure(t, f"settled frame could not be read: {exc}"))
            else:
                self.recognitions += 1
                self._pending.append(reading)
                trial = copy.deepcopy(self.tracker)
                if reads_cleanly(trial.settled(self._pending_t, reading)):
                    self._pending = [reading]
                    events.extend(self.flush())
            if self._reads >= self.max_reads:
                events.extend(self.flush())
        return events

    def flush(self) -> list[SceneEvent]:
        """Track the best of the settled scene's readings not yet tracked (the stream ends, or
        the scene moves again before ``max_reads`` frames were read)."""
        readings, self._pending, self._reads = self._pending, [], 0
        if not readings:
            return []
        best = readings[0]
        if len(readings) > 1:
            most = read_by_most(readings)
            best = min(readings, key=lambda r: reading_doubts(self.tracker, r, most))
        if self.on_tracked is not None:
            self.on_tracked(best)
        return self.tracker.settled(self._pending_t, best)


def mean_frame(frames: Sequence[Image]) -> Image:
    """The mean of ``frames`` (same shape, uint8), rounded; one frame is returned as it is."""
    if len(frames) == 1:
        return frames[0]
    total = cv2.add(frames[0], frames[1], dtype=cv2.CV_16U)
    for f in frames[2:]:
        cv2.add(total, f, dst=total, dtype=cv2.CV_16U)
    return np.asarray(cv2.convertScaleAbs(total, alpha=1.0 / len(frames)), dtype=np.uint8)


def reading_doubts(
    tracker: SceneTracker, reading: SceneReading, most: Sequence[TileReading] = ()
) -> tuple[int, int, int, int]:
    """How much a settled reading would leave ``tracker`` in doubt (less is better; the tracker
    itself is not changed): tiles of its line not seen in it (a tile is far more often missed
    than taken back), then tiles of ``most`` (those most of the scene's readings read, see
    :func:`read_by_most`) it does not read (a tile read unsure in two frames of three is
    there, not made up), then tiles read that it cannot place or trust, then fewer changes."""
    trial = copy.deepcopy(tracker)
    events = trial.settled(0.0, reading)
    unseen = sum(1 for lt in trial.line if lt.missing > 0)
    removed = sum(1 for e in events if isinstance(e, TileRemoved))
    missed = sum(1 for t in most if not _holds(reading, t))
    doubted = sum(1 for e in events if isinstance(e, Unsure) and e.pips is not None)
    changes = sum(1 for e in events if isinstance(e, TileAdded | TileMoved | TilesRevealed))
    return (unseen + removed, missed, doubted, -changes)


def read_by_most(readings: Sequence[SceneReading]) -> list[TileReading]:
    """One of each tile that more than half of ``readings`` read (see :func:`_holds`)."""
    out: list[TileReading] = []
    for r in readings:
        for t in r.tiles:
            seen = sum(_holds(o, t) for o in readings)
            if 2 * seen > len(readings) and not any(_alike(t, u) for u in out):
                out.append(t)
    return out


def _holds(reading: SceneReading, tile: TileReading) -> bool:
    """Whether ``reading`` holds a tile alike ``tile``."""
    return any(_alike(tile, t) for t in reading.tiles)


def _alike(a: TileReading, b: TileReading) -> bool:
    """The same pips, their centres nearer than half a tile length."""
    return sorted(a.pips) == sorted(b.pips) and math.dist(a.center, b.center) < a.half_spacing


def reads_cleanly(events: Sequence[SceneEvent]) -> bool:
    """Does a settled reading make sense to the tracker? It laid, moved or revealed something (a
    scene settles after motion), removed nothing (a tile is far more often missed than taken
    back) and left the tracker sure of everything."""
    return not any(isinstance(e, Unsure | TileRemoved) for e in events) and any(
        isinstance(e, TileAdded | TileMoved | TilesRevealed) for e in events
    )


def watch(source: FrameSource, watcher: SceneWatcher) -> Iterator[SceneEvent]:
    """Every event of a frame source, as it happens (the live loop of the table, or a replay)."""
    for frame in source:
        yield from watcher.feed(frame)
    yield from watcher.flush()


def table_region(geometry: TableGeometry, inset: float = 5.0) -> list[Point]:
    """The table top (``inset`` mm inside its edge) in image pixels: a recogniser's ``region``,
    so nothing off the table (the floor, a phone, a printed picture beside it) is read."""
    x0, y0 = inset, inset
    x1, y1 = geometry.width - inset, geometry.height - inset
    return geometry.table_to_image([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
