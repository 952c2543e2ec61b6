"""Standard pip layouts: as points, under the square's symmetries, and as pip-grid masks."""

from __future__ import annotations

import numpy as np
import pytest

from vision.recognition.layouts import MAX_LAYOUT, grid_masks, layout, variants


def test_layouts_have_their_pip_count_and_are_distinct() -> None:
    assert MAX_LAYOUT == 9
    for n in range(10):
        pts = layout(n)
        assert pts.shape == (n, 2)
        assert len({tuple(p) for p in pts.tolist()}) == n
        assert np.all(np.abs(pts) <= 1)


@pytest.mark.parametrize(("n", "images"), [(0, 1), (1, 1), (2, 2), (3, 2), (4, 1), (5, 1), (6, 2)])
def test_each_layout_has_its_distinct_images_under_the_squares_symmetries(
    n: int, images: int
) -> None:
    found = variants(n)
    assert found.shape == (images, n, 2)
    keys = {tuple(sorted(map(tuple, v.tolist()))) for v in found}
    assert len(keys) == images
    # every image is one of the 8 symmetries of the base layout
    base = layout(n)
    symmetries = {
        tuple(sorted(map(tuple, (pts * np.array([sx, sy])).tolist())))
        for pts in (base, base[:, ::-1])
        for sx in (1.0, -1.0)
        for sy in (1.0, -1.0)
    }
    assert keys == symmetries


def test_grid_masks_are_the_layouts_on_the_three_by_three_grid() -> None:
    masks = grid_masks()
    by_count: dict[int, int] = {}
    for m in masks:
        assert 0 <= m < 1 << 9
        by_count[m.bit_count()] = by_count.get(m.bit_count(), 0) + 1
    # 0, 1, 4, 5, 8 and 9 are symmetric; 2, 3, 6 and 7 lie two ways (a diagonal, a row)
    assert by_count == {0: 1, 1: 1, 2: 2, 3: 2, 4: 1, 5: 1, 6: 2, 7: 2, 8: 1, 9: 1}
    assert 1 << 4 in masks  # the centre pip: bit 3 * (0 + 1) + (0 + 1)
    assert (1 << 0) | (1 << 8) in masks  # 2 on one diagonal: (-1, -1) and (1, 1)
