"""A seam between two touching tiles is no bar: blank halves beside it are no 0-0.

The drawn line is a regression check of the whole reader (it was read right before the rule
too); the rule itself is checked on readings in the last test."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition import identify
from vision.recognition.params import RecognitionParams
from vision.recognition.reader import _suppress_overlaps
from vision.types import HalfReading, TileReading

U8 = npt.NDArray[np.uint8]

_SPOTS = {
    0: [],
    2: [(-1, -1), (1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    6: [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)],
}


def _line(pips: list[tuple[int, int]], *, s: int, seam: float, seed: int) -> U8:
    """Tiles end to end on a dark table, the seams between them drawn as dark and as thin as
    the bars (a gap between two tiles seen from above)."""
    rng = np.random.default_rng(seed)
    img = np.full((300, 120 + 2 * s * len(pips)), 45.0)
    y0, x = 150 - s // 2, 60
    for a, b in pips:
        img[y0 : y0 + s, x : x + 2 * s] = 228.0
        img[y0 + 1 : y0 + s - 1, x + s - 1 : x + s + 1] = 50.0  # the bar
        for k, n in enumerate((a, b)):
            hx = x + s / 2 + k * s
            for u, v in _SPOTS[n]:
                centre = (round(hx + u * 0.28 * s), round(150 + v * 0.28 * s))
                cv2.circle(img, centre, max(2, s // 11), 30.0, -1, cv2.LINE_AA)
        x += 2 * s
        img[y0 + 2 : y0 + s - 2, x - 1 : x + 1] = seam  # the seam, its ends on the rims
    img += rng.normal(0, 2.0, img.shape)
    grey = np.clip(cv2.GaussianBlur(img, (0, 0), 0.6), 0, 255).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)


def test_two_blank_halves_across_a_seam_are_not_a_double_blank() -> None:
    line = [(6, 4), (4, 0), (0, 2), (2, 6)]
    for s in (22, 30):
        for seed in range(3):
            reading = identify(_line(line, s=s, seam=50.0, seed=seed))
            read = sorted(
                (round(t.center[0]), tuple(sorted(h.pips for h in t.halves))) for t in reading.tiles
            )
            assert [p for _, p in read] == [tuple(sorted(p)) for p in line], (s, seed, read)


def _tile(cx: float, pips: tuple[int, int], confidence: float, w: float = 24.0) -> TileReading:
    halves = (
        HalfReading((cx - w / 2, 100.0), pips[0], confidence),
        HalfReading((cx + w / 2, 100.0), pips[1], confidence),
    )
    corners = (
        (cx - w, 100 - w / 2),
        (cx + w, 100 - w / 2),
        (cx + w, 100 + w / 2),
        (cx - w, 100 + w / 2),
    )
    return TileReading(corners, halves, confidence)


def test_a_tile_across_two_tiles_gives_way_to_them() -> None:
    """The rule itself: 4-0 and 0-2 touching, and a perfect 0-0 read from the seam between them
    (it overlaps each by half). Most confident first would keep the 0-0 alone."""
    p = RecognitionParams()
    left, right = _tile(100.0, (4, 0), 0.9), _tile(148.0, (0, 2), 0.85)
    across = _tile(124.0, (0, 0), 1.0)
    kept = _suppress_overlaps(p, [across, left, right], 24.0)
    assert sorted((t.halves[0].pips, t.halves[1].pips) for t in kept) == [(0, 2), (4, 0)]
    # a tile overlapping only one other still wins by confidence
    kept = _suppress_overlaps(p, [across, left], 24.0)
    assert [(t.halves[0].pips, t.halves[1].pips) for t in kept] == [(0, 0)]
