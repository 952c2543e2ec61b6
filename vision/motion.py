"""Cheap motion check and the stillness (settle) detector.

The motion check compares block averages of two frames: a 16x16-pixel block average wipes out
most sensor noise, while a hand or a tile moving changes whole blocks. It costs one downscale per
frame, so it runs on every frame; recognition runs only once the scene has settled.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]

#: Thumbnail size used by the motion check (width, height): 16x16 blocks of a 1280x720 frame.
THUMB_SIZE = (80, 45)


def thumbnail(
    image: Image, size: tuple[int, int] = THUMB_SIZE, *, video_range: bool = False
) -> npt.NDArray[np.int16]:
    """Block-averaged grey thumbnail of a BGR or grey ``uint8`` image (``int16``, shape (h, w)).

    ``video_range``: ``image`` is a brightness plane in the video range (16-235), as most video
    is coded; the thumbnail is stretched to the full range, as a BGR frame's grey is.
    """
    import cv2

    w, h = size
    # A bilinear 4x reduction samples 2x2 of every 4x4 pixels; the area reduction after it then
    # averages 64 samples per block: noise drops 8-fold at a fifth of a full-area resize's cost.
    small = cv2.resize(image, (w * 4, h * 4), interpolation=cv2.INTER_LINEAR)
    small = cv2.resize(small, size, interpolation=cv2.INTER_AREA)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    if video_range:
        stretched = (small.astype(np.float32) - 16.0) * np.float32(255.0 / 219.0)
        return np.asarray(np.clip(np.rint(stretched), 0, 255), dtype=np.int16)
    return np.asarray(small, dtype=np.int16)


def thumb_score(prev: npt.NDArray[np.int16], cur: npt.NDArray[np.int16]) -> float:
    """Largest block difference (grey levels, 0-255) between two thumbnails."""
    if prev.shape != cur.shape:
        return 255.0
    return float(np.max(np.abs(cur - prev)))


def motion_score(prev: Image, cur: Image) -> float:
    """How much changed between two frames: the largest 16x16-block grey difference (0-255).

    Sensor noise gives well under 2; a hand or a tile moving gives tens. Frames of different
    sizes score 255 (everything changed).
    """
    if prev.shape[:2] != cur.shape[:2]:
        return 255.0
    return thumb_score(thumbnail(prev), thumbnail(cur))


class SettleState(Enum):
    MOVING = "moving"
    STILL = "still"  # still, but not yet for long enough
    SETTLED = "settled"


@dataclass(frozen=True, slots=True)
class SettleParams:
    """``threshold``: motion score above which a frame counts as moving; ``settle_s``: seconds of
    stillness before the scene counts as settled; ``timeout_s``: motion lasting longer than this
    is reported (a hand that never leaves)."""

    threshold: float = 6.0
    settle_s: float = 0.4
    timeout_s: float = 8.0


@dataclass(frozen=True, slots=True)
class SettleUpdate:
    """What one frame changed: ``started`` motion, just ``settled``, or motion ``timed_out``."""

    state: SettleState
    started: bool = False
    settled: bool = False
    timed_out: bool = False


@dataclass(slots=True)
class SettleDetector:
    """Stillness on the frames' own timeline (no clock reads): feed ``(t, score)`` per frame.

    Starts in ``MOVING`` so the first settled scene is read once the camera has been still for
    ``settle_s``. ``started`` is reported when a settled scene starts moving (a pause too short to
    settle does not end a motion period). ``settled`` is reported once per still period;
    ``timed_out`` once per motion period longer than ``timeout_s``.
    """

    params: SettleParams = field(default_factory=SettleParams)
    state: SettleState = SettleState.MOVING
    _still_since: float | None = None
    _moving_since: float | None = None
    _timeout_reported: bool = False

    def update(self, t: float, score: float) -> SettleUpdate:
        p = self.params
        if score > p.threshold:
            started = self.state is SettleState.SETTLED
            if started or self._moving_since is None:
                self._moving_since = t
                self._timeout_reported = False
            self.state = SettleState.MOVING
            self._still_since = None
            timed_out = False
            if not self._timeout_reported and t - self._moving_since >= p.timeout_s:
                self._timeout_reported = True
                timed_out = True
            return SettleUpdate(self.state, started=started, timed_out=timed_out)
        if self.state is SettleState.SETTLED:
            return SettleUpdate(self.state)
        if self._still_since is None:
            self._still_since = t
        if t - self._still_since >= p.settle_s:
            self.state = SettleState.SETTLED
            self._moving_since = None
            return SettleUpdate(self.state, settled=True)
        self.state = SettleState.STILL
        timed_out = False
        if (
            self._moving_since is not None
            and not self._timeout_reported
            and t - self._moving_since >= p.timeout_s
        ):
            self._timeout_reported = True
            timed_out = True
        return SettleUpdate(self.state, timed_out=timed_out)
