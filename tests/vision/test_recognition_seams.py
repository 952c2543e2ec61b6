"""A seam between two touching tiles is no bar: blank halves beside it are no 0-0.

The drawn line is a regression check of the whole reader (it was read right before the rule
too); the rule itself is checked on readings. A tile read across a seam leaves a lone square of
face beyond both its ends, and is read again half a tile either way."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition import identify
from vision.recognition.params import RecognitionParams
from vision.recognition.reader import (
    _darkest_channel,
    _lone_ends,
    _suppress_overlaps,
    _unstraddled,
    _white_threshold,
)
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


def _tile(
    cx: float, pips: tuple[int, int], confidence: float, w: float = 24.0, cy: float = 100.0
) -> TileReading:
    halves = (
        HalfReading((cx - w / 2, cy), pips[0], confidence),
        HalfReading((cx + w / 2, cy), pips[1], confidence),
    )
    corners = (
        (cx - w, cy - w / 2),
        (cx + w, cy - w / 2),
        (cx + w, cy + w / 2),
        (cx - w, cy + w / 2),
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


_S = 30  # tile width of the drawn lines below, px


def _drawn_line(
    line: list[tuple[int, int]], *, seed: int
) -> tuple[RecognitionParams, U8, int, list[TileReading]]:
    """A drawn line (see :func:`_line`, seams as dark as the bars): the parameters, the
    frame's darkest channel and face threshold, and the line's tiles as read right."""
    p = RecognitionParams()
    grey = _darkest_channel(p, _line(line, s=_S, seam=50.0, seed=seed))
    right = [_tile(60 + _S * (2 * k + 1), ab, 0.9, float(_S), 150.0) for k, ab in enumerate(line)]
    return p, grey, _white_threshold(p, grey), right


def _assert_read_as(again: list[TileReading], want: list[TileReading], s: int) -> None:
    """``again`` holds the tiles of ``want`` (same pips, in the same order along the line,
    each within 0.15 of a tile width of its place)."""
    read = sorted((round(t.center[0]), tuple(sorted(t.pips))) for t in again)
    expected = sorted((round(t.center[0]), tuple(sorted(t.pips))) for t in want)
    assert [pips for _, pips in read] == [pips for _, pips in expected]
    assert all(abs(a - b) <= 0.15 * s for (a, _), (b, _) in zip(read, expected, strict=True))


def test_a_tile_read_across_a_seam_leaves_a_lone_square_beyond_both_ends() -> None:
    p, grey, threshold, right = _drawn_line([(6, 4), (4, 0), (0, 2), (2, 6)], seed=1)
    s = _S
    lone, free, _ = _lone_ends(grey, threshold, right, float(s))
    assert not lone.any() and not free.any()
    # tiles 1 and 2 missed: no end of 0 and 3 is lone (a whole tile's face lies beyond each)
    lone, free, _ = _lone_ends(grey, threshold, [right[0], right[3]], float(s))
    assert not lone.any()
    assert free.tolist() == [[False, True], [True, False]]
    # the 0-0 across the seam between 1 and 2 (4-0 | 0-2): lone squares beyond both its ends,
    # and beyond the one end of each neighbour that faces it
    across = _tile(60 + 4 * s, (0, 0), 0.9, float(s), 150.0)
    lone, _, _ = _lone_ends(grey, threshold, [right[0], across, right[3]], float(s))
    assert lone.tolist() == [[False, True], [True, True], [True, False]]
    # read again half a tile either way: the two tiles it was read from
    again = _unstraddled(p, grey, threshold, [right[0], across, right[3]], float(s))
    _assert_read_as(again, right, s)


def test_a_tile_read_across_a_seam_with_the_line_unread_beyond_it_is_read_again() -> None:
    # the same with the tiles beyond the one read across unread: a lone square at one end,
    # free face at the other
    p, grey, threshold, right = _drawn_line([(6, 4), (4, 0), (0, 2), (2, 6), (6, 2)], seed=2)
    s = _S
    across = _tile(60 + 4 * s, (0, 0), 0.9, float(s), 150.0)
    lone, free, _ = _lone_ends(grey, threshold, [right[0], across], float(s))
    assert lone.tolist() == [[False, True], [True, False]]
    assert free.tolist() == [[False, True], [True, True]]
    again = _unstraddled(p, grey, threshold, [right[0], across], float(s))
    _assert_read_as(again, right[:3], s)


def test_a_chain_of_tiles_read_across_successive_seams_is_read_again() -> None:
    # two tiles read across the seams 1|2 and 2|3 (a 0-0 from 4-0 | 0-2, a 2-2 from 0-2 | 2-6):
    # each is beyond the other's end, so neither has a lone square at one end and free face at
    # the other. The chain has: the halves either side of a seam match, so it is made of
    # doubles end to end, from a lone square to free face
    p, grey, threshold, right = _drawn_line(
        [(6, 4), (4, 0), (0, 2), (2, 6), (6, 2), (2, 4)], seed=3
    )
    s = _S
    chain = [_tile(60 + 4 * s, (0, 0), 0.9, float(s), 150.0)]
    chain.append(_tile(60 + 6 * s, (2, 2), 0.9, float(s), 150.0))
    lone, free, _ = _lone_ends(grey, threshold, [right[0], *chain], float(s))
    assert lone.tolist() == [[False, True], [True, False], [False, False]]
    assert free.tolist() == [[False, True], [True, False], [False, True]]
    again = _unstraddled(p, grey, threshold, [right[0], *chain], float(s))
    _assert_read_as(again, right[:4], s)
    # the same two tiles with a 1-2 between them are no chain (a line's seams match), so
    # only the 0-0 is marked: a double with a lone square beyond one end and a tile read
    # beyond the other. It is read again, the 4-0 reads there; then beyond the 1-2 lies a
    # lone square (the 0-2's 0, the 4-0 beyond it), and it is read again too: all four read
    one_two = _tile(60 + 6 * s, (1, 2), 0.9, float(s), 150.0)
    again = _unstraddled(p, grey, threshold, [right[0], chain[0], one_two], float(s))
    _assert_read_as(again, right[:4], s)


def test_two_doubles_end_to_end_with_free_face_beyond_both_are_read_again() -> None:
    # the chain above with nothing else read: beyond each of its ends a half of a tile
    # missed and then more face, so no lone square anywhere. No line holds two doubles end
    # to end, lengthwise: the chain is read again all the same
    p, grey, threshold, right = _drawn_line([(6, 4), (4, 0), (0, 2), (2, 6), (6, 2)], seed=4)
    s = _S
    chain = [_tile(60 + 4 * s, (0, 0), 0.9, float(s), 150.0)]
    chain.append(_tile(60 + 6 * s, (2, 2), 0.9, float(s), 150.0))
    lone, free, _ = _lone_ends(grey, threshold, chain, float(s))
    assert not lone.any()
    assert free.tolist() == [[True, False], [False, True]]
    again = _unstraddled(p, grey, threshold, chain, float(s))
    _assert_read_as(again, right[1:4], s)
