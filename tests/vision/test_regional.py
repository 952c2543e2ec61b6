"""Reading a settled scene by what changed since the last one tracked
(vision.tracking.regional): the change, the windows, the merge, the reader and the watcher."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.devtools.fixture_writer import render_fixture
from vision.devtools.render.sample import sample_record
from vision.devtools.render.scene import RenderParams
from vision.devtools.synthetic import render_scene
from vision.errors import InvalidImageError
from vision.motion import SettleDetector, SettleParams
from vision.recognition import stages
from vision.sources import Frame
from vision.tracking.regional import (
    Box,
    RegionalParams,
    RegionalReader,
    changed,
    merge,
    reduced,
    touched,
    windows,
)
from vision.tracking.replay import track_fixture
from vision.tracking.tracker import SceneTracker
from vision.tracking.truth import compare_with_truth
from vision.tracking.watcher import SceneWatcher
from vision.types import HalfReading, SceneReading, TileReading

P = RegionalParams()
W, H = 1280, 720
LENGTH = 60.0  # a tile's length in the frames below (pixels)


def _tile(x: float, y: float, pips: tuple[int, int] = (1, 2)) -> TileReading:
    """A tile lying along x, centred on (x, y), LENGTH long and half as wide."""
    a, b = LENGTH / 2, LENGTH / 4
    corners = ((x - a, y - b), (x + a, y - b), (x + a, y + b), (x - a, y + b))
    halves = (HalfReading((x - b, y), pips[0]), HalfReading((x + b, y), pips[1]))
    return TileReading(corners, halves, 1.0)  # type: ignore[arg-type]


def _frame(*tiles: TileReading, level: int = 60) -> np.ndarray:
    """A table of ``level`` with each tile drawn as a light face, and a little noise."""
    image = np.full((H, W, 3), level, np.uint8)
    for t in tiles:
        cv2.fillConvexPoly(image, np.array(t.corners, np.int32), (230, 230, 230))
    noise = np.random.default_rng(len(tiles) + level).normal(0, 2.5, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def _reading(*tiles: TileReading) -> SceneReading:
    return SceneReading(tuple(tiles), W, H, LENGTH)


A, B, C = _tile(200, 150), _tile(700, 150), _tile(700, 500, (3, 4))
D = _tile(1100, 400, (5, 6))


def _changed(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    return changed(reduced(before, P), reduced(after, P), P)


def test_a_change_is_where_the_frames_differ_and_not_their_noise() -> None:
    mask = _changed(_frame(A), _frame(A, C))
    assert mask.shape == (H // P.reduce, W // P.reduce)
    assert touched(C, mask, P) and not touched(A, mask, P)
    ys, xs = np.nonzero(mask)
    x0, y0, x1, y1 = (v for t in (C.corners[0], C.corners[2]) for v in t)
    assert x0 - P.reduce <= xs.min() * P.reduce and (xs.max() + 1) * P.reduce <= x1 + P.reduce
    assert y0 - P.reduce <= ys.min() * P.reduce and (ys.max() + 1) * P.reduce <= y1 + P.reduce
    assert not _changed(_frame(A), _frame(A)).any()  # the same scene, new noise


def test_windows_hold_each_change_with_context_and_large_changes_are_read_whole() -> None:
    mask = _changed(_frame(), _frame(A, C))
    found = windows(mask, LENGTH, (H, W), P)
    assert found is not None and len(found) == 2
    for t in (A, C):
        (box,) = [b for b in found if _holds(b, t)]
        x0, y0, x1, y1 = box
        assert x1 - x0 >= P.least_px and y1 - y0 >= min(H, P.least_px)
        cx = t.center[0]
        assert x0 <= cx - LENGTH / 2 - LENGTH and cx + LENGTH / 2 + LENGTH <= x1  # context
    assert windows(_changed(_frame(A), _frame(A)), LENGTH, (H, W), P) == []
    # the light changed: every block moved
    assert windows(_changed(_frame(A), _frame(A, level=120)), LENGTH, (H, W), P) is None


def _holds(box: Box, tile: TileReading) -> bool:
    x0, y0, x1, y1 = box
    return all(x0 <= x <= x1 and y0 <= y <= y1 for x, y in tile.corners)


def test_merge_keeps_what_the_change_left_alone_and_takes_what_it_touched() -> None:
    cut = _tile(465, 600)  # laid across the window's edge at x 450
    mask = _changed(_frame(A, B), _frame(A, C, cut))  # B taken back, C and the cut tile laid
    assert touched(cut, mask, P)
    box = (450, 0, W, H)
    window_read = _reading(_tile(200, 150, (6, 6)), C, cut)  # A read otherwise: not touched
    assert merge(_reading(A, B), [(box, window_read)], mask, P).tiles == (A, C)
    # a tile laid against A, and read in its window across the seam with A as well: the
    # reading that overlaps A, which the change did not reach, is not taken
    d = _tile(260, 150, (3, 4))
    mask = _changed(_frame(A), _frame(A, d))
    across = _tile(230, 150, (2, 3))
    assert touched(across, mask, P)
    box = (0, 0, 640, 400)
    assert merge(_reading(A), [(box, _reading(A, across, d))], mask, P).tiles == (A, d)


class _World:
    """A fake window recogniser: reads the tiles of a list wholly inside the window asked."""

    def __init__(self) -> None:
        self.tiles: list[TileReading] = []
        self.asked: list[Box | None] = []

    def __call__(self, image: np.ndarray, /, *, window: Box | None = None) -> SceneReading:
        self.asked.append(window)
        inside = [t for t in self.tiles if window is None or _holds(window, t)]
        return SceneReading(tuple(inside), W, H, LENGTH if inside else 0.0)  # as identify


def test_the_reader_reads_windows_round_what_changed_since_the_scene_tracked() -> None:
    world = _World()
    reader = RegionalReader(world)
    world.tiles = [A, B]
    first = reader(_frame(A, B))
    assert first.tiles == (A, B) and world.asked == [None]  # nothing tracked yet
    reader.tracked(first)
    world.tiles = [A, B, C]
    got = reader(_frame(A, B, C))
    assert got.tiles == (A, B, C)
    (window,) = world.asked[1:]
    assert window is not None and _holds(window, C) and not _holds(window, A)
    assert (reader.whole, reader.windowed) == (1, 1)
    # the same scene read again before the tracker took a reading of it: the whole frame
    again = reader(_frame(A, B, C))
    assert again.tiles == (A, B, C)
    assert world.asked[-1] is None and (reader.whole, reader.windowed) == (2, 1)
    reader.tracked(got)
    # the light changed all over: the whole frame is read
    lit = reader(_frame(A, B, C, level=140))
    assert lit.tiles == (A, B, C)
    assert world.asked[-1] is None and (reader.whole, reader.windowed) == (3, 1)
    # a reading it did not give since the last one tracked: the next frame is read whole
    reader.tracked(got)
    whole = reader(_frame(A, B, C))
    assert whole.tiles == (A, B, C) and world.asked[-1] is None
    # C taken back: its window holds no tile where the scene changed, so the whole frame is
    # read, and what the change touched taken from it
    reader.tracked(whole)
    world.tiles = [A, B]
    taken = reader(_frame(A, B))
    assert taken.tiles == (A, B)
    assert world.asked[-2] is not None and world.asked[-1] is None
    # nothing changed: nothing is read
    reader.tracked(taken)
    asked = len(world.asked)
    assert reader(_frame(A, B)).tiles == (A, B) and len(world.asked) == asked


def test_the_first_tile_of_a_later_hand_is_read_by_a_window() -> None:
    world = _World()
    reader = RegionalReader(world)
    world.tiles = [A, B, C, D]
    reader.tracked(reader(_frame(A, B, C, D)))
    # the table cleared for a new hand: the windows would cover most of it, so it is read
    # whole, and no tile is left to give the tiles' size
    world.tiles = []
    cleared = reader(_frame())
    assert cleared.tiles == () and cleared.tile_length_px == 0 and world.asked[-1] is None
    reader.tracked(cleared)
    # the next hand's first tile: a set's tiles are all alike, so the last hand's size holds
    world.tiles = [C]
    assert reader(_frame(C)).tiles == (C,)
    assert world.asked[-1] is not None and _holds(world.asked[-1], C)


def test_the_watcher_tells_which_reading_it_tracked() -> None:
    told: list[SceneReading] = []
    readings = iter([_reading(A), _reading(A, C)])
    watcher = SceneWatcher(
        lambda image: next(readings),
        SceneTracker(None),
        SettleDetector(SettleParams()),
        max_reads=1,
        average=1,
        on_tracked=told.append,
    )
    k = 0
    for scene in (_frame(A), _frame(A, C)):
        for _ in range(15):
            watcher.feed(Frame(scene, k / 10, k))
            k += 1
        for level in (20, 240, 20):  # a hand passes
            watcher.feed(Frame(np.full((H, W, 3), level, np.uint8), k / 10, k))
            k += 1
    watcher.flush()
    assert [r.tiles for r in told] == [(A,), (A, C)]


def test_identify_reads_a_window_in_the_images_pixels() -> None:
    image = render_scene(2, width=640, height=360, n_tiles=8, max_pips=6).image
    whole = stages.identify(image)
    box = (100, 40, 560, 330)
    got = stages.identify(image, window=box)
    crop = stages.identify(image[40:330, 100:560])
    assert (got.width, got.height) == (640, 360)
    assert len(got.tiles) == len(crop.tiles) > 0
    for t, c in zip(got.tiles, crop.tiles, strict=True):
        assert t.pips == c.pips
        assert np.allclose(np.array(t.corners), np.array(c.corners) + np.array([100, 40]))
    held = [t for t in whole.tiles if _holds(box, t)]
    # the order of a tile's two halves carries no meaning
    pairs = [tuple(sorted(t.pips)) for t in got.tiles if _holds(box, t)]
    assert sorted(tuple(sorted(t.pips)) for t in held) == sorted(pairs)
    with pytest.raises(InvalidImageError):
        stages.identify(image, window=(10, 10, 15, 300))


def test_a_rendered_hand_tracked_by_windows_equals_its_truth(tmp_path: Path) -> None:
    render_fixture(sample_record(3), tmp_path, seed=3, params=RenderParams(width=960, height=540))
    truth = json.loads((tmp_path / "truth.json").read_text())
    recognize = functools.partial(stages.identify, max_pips=6)
    result = track_fixture(tmp_path, recognize=recognize, regional=P)
    assert compare_with_truth(truth, result.events).equal
    assert 0 < result.windowed < result.recognitions  # the first tile is read whole
