"""Standard pip layouts: as points, as a tile lies (mirrored, never turned a quarter), and as
pip-grid masks."""

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


@pytest.mark.parametrize(("n", "images"), [(0, 1), (1, 1), (2, 2), (3, 2), (4, 1), (5, 1), (6, 1)])
def test_each_layout_has_its_distinct_images_as_a_tile_lies(n: int, images: int) -> None:
    found = variants(n)
    assert found.shape == (images, n, 2)
    keys = {tuple(sorted(map(tuple, v.tolist()))) for v in found}
    assert len(keys) == images
    # every image is the base layout mirrored along or across the tile
    base = layout(n)
    mirrored = {
        tuple(sorted(map(tuple, (base * np.array([sx, sy])).tolist())))
        for sx in (1.0, -1.0)
        for sy in (1.0, -1.0)
    }
    assert keys == mirrored


def test_a_six_lies_in_two_rows_along_the_tile() -> None:
    (six,) = variants(6)
    assert sorted(set(six[:, 1].tolist())) == [-1.0, 1.0]  # two rows across...
    assert sorted(set(six[:, 0].tolist())) == [-1.0, 0.0, 1.0]  # ... of three along


def test_grid_masks_are_the_layouts_on_the_three_by_three_grid() -> None:
    masks = grid_masks()
    by_count: dict[int, int] = {}
    for m in masks:
        assert 0 <= m < 1 << 9
        by_count[m.bit_count()] = by_count.get(m.bit_count(), 0) + 1
    # 2 and 3 lie on either diagonal; the rows of 6 and 7 run along the tile only
    assert by_count == {0: 1, 1: 1, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1}
    rows_across = sum(1 << (3 * (x + 1) + y + 1) for x in (-1, 1) for y in (-1, 0, 1))
    assert rows_across not in masks  # a 6 turned a quarter
    assert 1 << 4 in masks  # the centre pip: bit 3 * (0 + 1) + (0 + 1)
    assert (1 << 0) | (1 << 8) in masks  # 2 on one diagonal: (-1, -1) and (1, 1)
