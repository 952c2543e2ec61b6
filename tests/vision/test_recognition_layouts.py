"""Standard pip layouts and the layout fit used for confidence."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.recognition.layouts import MAX_LAYOUT, _variants, layout, layout_rms


def test_layouts_have_their_pip_count_and_are_distinct() -> None:
    assert MAX_LAYOUT == 9
    for n in range(10):
        pts = layout(n)
        assert pts.shape == (n, 2)
        assert len({tuple(p) for p in pts.tolist()}) == n
        assert np.all(np.abs(pts) <= 1)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(0, 9),
    spacing=st.floats(0.35, 0.75),
    variant=st.integers(0, 7),
    shift=st.tuples(st.floats(-0.1, 0.1), st.floats(-0.1, 0.1)),
)
def test_a_drawn_layout_fits_itself(
    n: int, spacing: float, variant: int, shift: tuple[float, float]
) -> None:
    variants = _variants(n)
    pts = variants[variant % len(variants)] * spacing + np.array(shift)
    if n == 1:
        pts = pts - np.array(shift)
    assert layout_rms(pts) < 0.02


def test_scattered_pips_fit_badly() -> None:
    rng = np.random.default_rng(0)
    bad = [layout_rms(rng.uniform(-0.8, 0.8, (n, 2))) for n in range(3, 10) for _ in range(20)]
    assert np.median(bad) > 0.12


def test_unknown_count_has_no_layout() -> None:
    assert math.isinf(layout_rms(np.zeros((12, 2))))


@pytest.mark.parametrize("n", [2, 3, 6])
def test_rotated_layouts_are_variants(n: int) -> None:
    rot = layout(n)[:, ::-1] * 0.5
    assert layout_rms(rot) < 1e-9
