"""Reading a settled scene by what changed since the scene last tracked.

A move changes a small part of the table: a tile laid, taken back or nudged. Reading the whole
frame again for it costs the reader's full time and reads every other tile again, each a chance
of a misread. :class:`RegionalReader` compares the frame with the frame of the reading last
tracked and reads only windows round what changed, a tile length of context on each side; the
tiles of the last reading that the change does not touch stand as they were.

The comparison is on frames reduced ``reduce`` times (the mean of each block, which also
averages the sensor's noise away): a block changed where its grey level moved by ``level`` or
more, and changes under three blocks across (noise, compression, a tile nudged by a pixel) are
dropped. Where the windows would cover more than ``most`` of the frame (the table cleared for a
new hand, the light changed, the camera moved), where nothing was tracked before, or where no
tile was read yet to take the tile size from, the whole frame is read (the first tile of a
later hand is read by a window: a set's tiles are all alike). A scene read again (see
``window_reads``), or whose windows hold no tile where it changed (a tile taken back, or one a
window missed), is read whole, what the change touched taken from it. Nothing is read where
nothing changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np
import numpy.typing as npt

from vision.polygons import overlap_area
from vision.types import SceneReading, TileReading

Image = npt.NDArray[np.uint8]
Mask = npt.NDArray[np.bool_]
Reduced = npt.NDArray[np.float32]
#: ``x0, y0, x1, y1`` in a frame's pixels, ``x1`` and ``y1`` excluded.
Box = tuple[int, int, int, int]


class WindowRecognizer(Protocol):
    """Reads the tiles of a BGR image, or of a ``window`` of it only (in the image's pixels)
    (``vision.recognition.identify`` fits)."""

    def __call__(self, image: Image, /, *, window: Box | None = None) -> SceneReading: ...


@dataclass(frozen=True, slots=True)
class RegionalParams:
    """How a settled frame is compared with the last one tracked, and its windows read."""

    #: Frames are compared reduced this many times (the mean of each block).
    reduce: int = 4
    #: A block changed where its mean grey level moved by at least this much.
    level: float = 16.0
    #: Context read round a change on each side, in tile lengths.
    margin: float = 1.0
    #: Least side of a window (pixels): the reader measures the tiles' size on what it is
    #: given, and a small window has too few pips for it.
    least_px: int = 320
    #: With windows over more than this share of the frame, the whole frame is read.
    most: float = 0.35
    #: Readings of one settled scene made by windows; those after them read the whole frame
    #: and take from it what the change touched (the scene watcher reads a scene again where
    #: a reading makes no sense to the tracker, and a window, with less round it to measure
    #: the tiles by, can miss what the whole frame shows).
    window_reads: int = 1


def reduced(frame: Image, p: RegionalParams) -> Reduced:
    """``frame`` (BGR or grey) as the mean grey level of each block ``reduce`` pixels square:
    what :func:`changed` compares (a frame's 1/16th, kept in place of the frame)."""
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape[:2]
    k = p.reduce
    small = cv2.resize(grey, (max(1, w // k), max(1, h // k)), interpolation=cv2.INTER_AREA)
    return np.asarray(small, dtype=np.float32)


def changed(before: Reduced, after: Reduced, p: RegionalParams) -> Mask:
    """The blocks (see :func:`reduced`) whose mean grey level differs by ``level`` or more
    between two frames of one shape, where three or more across."""
    moved = (cv2.absdiff(before, after) >= p.level).astype(np.uint8)
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    kept = cv2.morphologyEx(moved, cv2.MORPH_OPEN, cross)
    return np.asarray(kept > 0)


def windows(
    mask: Mask, tile_length: float, shape: tuple[int, ...], p: RegionalParams
) -> list[Box] | None:
    """The windows (frame pixels) to read for the change ``mask`` (see :func:`changed`) of a
    frame of ``shape``: round each group of changed blocks, ``margin`` tile lengths wider on
    each side, those that meet then merged. None where they would cover more than ``most`` of
    the frame (read it whole)."""
    h, w = shape[:2]
    if not mask.any():
        return []
    reach = max(1, round(p.margin * tile_length / p.reduce))
    grown = cv2.dilate(mask.astype(np.uint8), np.ones((2 * reach + 1, 2 * reach + 1), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    boxes = [
        _widened(
            (int(x) * p.reduce, int(y) * p.reduce, int(x + bw) * p.reduce, int(y + bh) * p.reduce),
            p.least_px,
            w,
            h,
        )
        for x, y, bw, bh, _ in stats[1:n]
    ]
    boxes = _merged(boxes)
    if sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes) > p.most * w * h:
        return None
    return boxes


def _widened(box: Box, least: int, w: int, h: int) -> Box:
    """``box`` at least ``least`` wide and high (or as the frame), round its centre and
    inside the frame (``w`` by ``h``)."""
    x0, y0, x1, y1 = box
    x0, x1 = _span(x0, x1, least, w)
    y0, y1 = _span(y0, y1, least, h)
    return x0, y0, x1, y1


def _span(a: int, b: int, least: int, size: int) -> tuple[int, int]:
    grow = max(0, min(least, size) - (b - a))
    a, b = a - grow // 2, b + grow - grow // 2
    shift = max(0, -a) - max(0, b - size)
    return max(0, a + shift), min(size, b + shift)


def _merged(boxes: list[Box]) -> list[Box]:
    """``boxes`` with every two that overlap replaced by the box round both, until none do."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def touched(tile: TileReading, mask: Mask, p: RegionalParams) -> bool:
    """Whether the change ``mask`` reaches into ``tile``: at its centre, either half's centre
    or a corner pulled a quarter of the way in."""
    c = np.array(tile.center)
    points = [c, *(np.array(h.center) for h in tile.halves)]
    points += [c + 0.75 * (np.array(q) - c) for q in tile.corners]
    mh, mw = mask.shape
    for x, y in points:
        i, j = int(y) // p.reduce, int(x) // p.reduce
        if 0 <= i < mh and 0 <= j < mw and mask[i, j]:
            return True
    return False


def merge(
    base: SceneReading, reads: Sequence[tuple[Box, SceneReading]], mask: Mask, p: RegionalParams
) -> SceneReading:
    """The tiles of ``base`` the change ``mask`` leaves alone, and those of each window's
    reading that it touches and that lie wholly inside their window (a tile cut by a
    window's edge is read whole in a wider one, or not at all). A tile read in a window that
    overlaps a tile kept from ``base`` by a quarter of its area is left out: the change did
    not reach that tile, so the window read it otherwise (across a seam, say)."""
    kept = [t for t in base.tiles if not touched(t, mask, p)]
    outlines = [np.array(t.corners, dtype=np.float32) for t in kept]
    new: list[TileReading] = []
    for box, reading in reads:
        for t in reading.tiles:
            if not touched(t, mask, p) or not _inside(t, box):
                continue
            mine = np.array(t.corners, dtype=np.float32)
            area = float(cv2.contourArea(mine))
            if any(overlap_area(mine, q) > 0.25 * area for q in outlines):
                continue
            new.append(t)
    tiles = sorted([*kept, *new], key=lambda t: (round(t.center[1]), t.center[0]))
    lengths = [r.tile_length_px for _, r in reads if r.tiles] or [base.tile_length_px]
    return SceneReading(tuple(tiles), base.width, base.height, float(np.median(lengths)))


def _inside(tile: TileReading, box: Box) -> bool:
    x0, y0, x1, y1 = box
    return all(x0 + 1 <= x <= x1 - 2 and y0 + 1 <= y <= y1 - 2 for x, y in tile.corners)


@dataclass(slots=True)
class RegionalReader:
    """A recogniser (see :class:`~vision.tracking.watcher.Recognizer`) that reads a frame by
    windows round what changed since the frame whose reading was last tracked (see
    :meth:`tracked`, which the scene watcher calls); the whole frame otherwise. It keeps the
    frames it read reduced (:func:`reduced`), not whole."""

    recognize: WindowRecognizer
    params: RegionalParams = field(default_factory=RegionalParams)
    #: frames read whole and by windows (for benchmarks and the run's report)
    whole: int = 0
    windowed: int = 0
    _base: tuple[Reduced, SceneReading] | None = None
    _recent: list[tuple[SceneReading, Reduced]] = field(default_factory=list)
    _length: float = 0.0  # the tile length last read (a set's tiles are all alike)

    def __call__(self, image: Image, /) -> SceneReading:
        now = reduced(image, self.params)
        reading = self._read(image, now)
        self._recent = [*self._recent[-7:], (reading, now)]  # bounded, tracked or not
        self._length = reading.tile_length_px or self._length
        return reading

    def _read(self, image: Image, now: Reduced) -> SceneReading:
        base = self._base
        length = self._length if base is None else base[1].tile_length_px or self._length
        if base is None or base[0].shape != now.shape or length <= 0:
            self.whole += 1
            return self.recognize(image)
        mask = changed(base[0], now, self.params)
        boxes = windows(mask, length, image.shape, self.params)
        if boxes is None:
            self.whole += 1
            return self.recognize(image)
        if boxes and len(self._recent) < self.params.window_reads:
            self.windowed += 1
            reads = [(b, self.recognize(image, window=b)) for b in boxes]
            if any(touched(t, mask, self.params) for _, r in reads for t in r.tiles):
                return merge(base[1], reads, mask, self.params)
        if not boxes:
            return merge(base[1], [], mask, self.params)
        # read again, or the windows read no tile where the scene changed: the whole
        # frame, what the change touched taken from it
        self.whole += 1
        h, w = image.shape[:2]
        return merge(base[1], [((0, 0, w, h), self.recognize(image))], mask, self.params)

    def tracked(self, reading: SceneReading) -> None:
        """``reading``, one this reader gave since the last one tracked, is the scene the
        tracker now holds (any other: the next frame is read whole)."""
        found = [now for r, now in self._recent if r is reading]
        self._base = (found[0], reading) if found else None
        self._recent = []
