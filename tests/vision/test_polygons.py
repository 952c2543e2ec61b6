"""The area two convex outlines share, where OpenCV's own misses it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.polygons import overlap_area

# Two outlines of one tile read round the same bar, measured to the same end (two corners and
# an edge shared exactly) and to ends 6 px apart: OpenCV's intersection of the first with the
# second is empty.
SHARED = [[868.56097, 210.51643], [872.25708, 172.52280]]
LONGER = np.array([[943.49756, 179.45320], [939.80145, 217.44684], *SHARED], dtype=np.float32)
SHORTER = np.array([[937.52576, 178.87225], [933.82965, 216.86589], *SHARED], dtype=np.float32)


def test_outlines_sharing_an_edge_overlap_by_the_smaller() -> None:
    smaller = cv2.contourArea(SHORTER)
    assert overlap_area(LONGER, SHORTER) == pytest.approx(smaller, rel=1e-3)
    assert overlap_area(SHORTER, LONGER) == pytest.approx(smaller, rel=1e-3)


def test_squares_side_by_side_share_nothing_and_overlapping_ones_their_common_part() -> None:
    a = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], dtype=np.float32)
    beside = a + np.float32([10, 0])
    apart = a + np.float32([30, 0])
    half = a + np.float32([5, 0])
    assert overlap_area(a, beside) == pytest.approx(0.0, abs=0.05)
    assert overlap_area(a, apart) == 0.0
    assert overlap_area(a, half) == pytest.approx(50.0, rel=1e-3)
