"""Scene tracking: over rendered fixtures with the truth oracle, and on hand-made readings."""

import copy
import itertools
import json
import math
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from domino_common.clock import FakeClock
from vision.calibration.geometry import TableGeometry, default_geometry
from vision.devtools.fixture_writer import render_fixture
from vision.devtools.render.layout import parse_tile
from vision.devtools.render.sample import LATIN_BLOCKED_HAND, sample_record
from vision.devtools.render.scene import TILE_LOOKS, RenderParams
from vision.devtools.render.tiles import PlacedTile
from vision.events import (
    MotionStarted,
    SceneSettled,
    TileAdded,
    TileMoved,
    TileRemoved,
    TilesRevealed,
    Unsure,
)
from vision.motion import SettleDetector, SettleParams
from vision.sources import Frame, VideoFileSource
from vision.tracking.occlusion import SkinOcclusion
from vision.tracking.replay import track_fixture
from vision.tracking.tracker import SceneTracker
from vision.tracking.truth import TruthOracle, added_tiles
from vision.tracking.watcher import SceneWatcher
from vision.types import HalfReading, SceneReading, TileReading

PARAMS = RenderParams(width=640, height=360, fps=10.0)


def _expected_adds(record: dict) -> list[tuple[tuple[int, int], str]]:
    """((joined, open), end) for every play, worked out from the record alone."""
    out: list[tuple[tuple[int, int], str]] = []
    ends: list[int] = []
    for m in record["hands"][0]["moves"]:
        if "play" not in m:
            continue
        a, b = parse_tile(m["play"])
        if not ends:
            ends = [a, b]
            out.append(((a, b), "first"))
            continue
        # no "end" in the record: the only end it fits; both (same number): right, by the
        # renderer's documented choice
        side = m.get("end") or ("right" if ends[1] in (a, b) else "left")
        i = 0 if side == "left" else 1
        joined = ends[i]
        ends[i] = b if a == joined else a
        out.append(((joined, ends[i]), side))
    return out


def _sorted_left(record: dict) -> dict[int, tuple[tuple[int, int], ...]]:
    left = record["hands"][0]["left"]
    return {
        s: tuple(sorted(tuple(sorted(parse_tile(t))) for t in tiles))
        for s, tiles in enumerate(left)
        if tiles
    }


RECORDS = {"hand-written": LATIN_BLOCKED_HAND, "seed-7": sample_record(7)}


@pytest.fixture(scope="module", params=sorted(RECORDS))
def fixture_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp(request.param)
    render_fixture(RECORDS[request.param], out, seed=5, params=PARAMS)
    return out


def test_oracle_tracking_finds_exactly_the_played_tiles(fixture_dir: Path) -> None:
    truth = json.loads((fixture_dir / "truth.json").read_text())
    record = truth["record"]
    result = track_fixture(fixture_dir)
    adds = added_tiles(result.events)
    assert [(a.pips, a.end) for a in adds] == _expected_adds(record)
    assert all(a.coords == "mm" for a in adds)
    revealed = {e.seat: e.tiles for e in result.events if isinstance(e, TilesRevealed)}
    assert revealed == _sorted_left(record)
    assert not [e for e in result.events if isinstance(e, TileRemoved | TileMoved | Unsure)]


def test_watch_a_source_and_the_table_region(fixture_dir: Path) -> None:
    from vision.calibration.tablefile import load_table
    from vision.tracking.watcher import table_region, watch

    truth = json.loads((fixture_dir / "truth.json").read_text())
    geometry = load_table(fixture_dir / "table.json")
    clock = FakeClock()
    oracle = TruthOracle(truth, clock)

    def recognize(image: np.ndarray) -> SceneReading:
        return oracle(image)

    watcher = SceneWatcher(recognize, SceneTracker(geometry))
    with VideoFileSource(fixture_dir / "video.mp4") as src:

        def timed() -> Iterator[Frame]:
            for frame in src:
                clock.advance_to(frame.t_seconds)
                yield frame

        events = list(watch(_Timed(timed()), watcher))
    expected = _expected_adds(truth["record"])
    assert [(a.pips, a.end) for a in added_tiles(events)] == expected
    region = table_region(geometry)
    assert len(region) == 4
    xs, ys = [p[0] for p in region], [p[1] for p in region]
    assert 0 < min(xs) < max(xs) < 640 and 0 < min(ys) < max(ys) < 360
    for tile in truth["scenes"][-1]["tiles"]:
        (cx, cy) = np.mean([h["center"] for h in tile["halves"]], axis=0)
        assert min(xs) < cx < max(xs) and min(ys) < cy < max(ys)


class _Timed:
    """A frame source made from an iterator (what ``watch`` needs: iteration)."""

    def __init__(self, frames: Iterator[Frame]) -> None:
        self._frames = frames

    def __iter__(self) -> Iterator[Frame]:
        return self._frames

    def close(self) -> None:
        pass

    def __enter__(self) -> "_Timed":
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def test_cli_track_prints_the_events_as_json(
    fixture_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from controller.cli import main

    assert main(["vision", "track", str(fixture_dir), "--oracle", "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    record = json.loads((fixture_dir / "truth.json").read_text())["record"]
    added = [(tuple(e["pips"]), e["end"]) for e in events if e["event"] == "TileAdded"]
    assert added == _expected_adds(record)
    assert all(isinstance(e["t"], float) for e in events)


def test_no_tile_is_reported_while_the_hand_is_over_the_table(fixture_dir: Path) -> None:
    truth = json.loads((fixture_dir / "truth.json").read_text())
    plays = [m for m in truth["moves"] if m["kind"] == "play"]
    result = track_fixture(fixture_dir)
    adds = added_tiles(result.events)
    for move, event in zip(plays, adds, strict=True):
        # the new tile is read only once the arm is gone and the scene has been still a while
        assert event.t >= move["t_settled"] + SettleParams().settle_s - 1e-6
    for a, b in itertools.pairwise(plays):
        between = [e for e in result.events if a["t_start"] <= e.t < a["t_settled"]]
        assert all(isinstance(e, MotionStarted) for e in between)
        assert b["t_start"] > a["t_settled"]


def test_uncalibrated_tracking_in_pixels_finds_the_same_line(fixture_dir: Path) -> None:
    truth = json.loads((fixture_dir / "truth.json").read_text())
    clock = FakeClock()
    watcher = SceneWatcher(TruthOracle(truth, clock), SceneTracker(None))
    events = []
    with VideoFileSource(fixture_dir / "video.mp4") as src:
        for frame in src:
            clock.advance_to(frame.t_seconds)
            events.extend(watcher.feed(frame))
    adds = added_tiles(events)
    expected = _expected_adds(truth["record"])
    assert [(a.pips, a.end) for a in adds[: len(expected)]] == expected
    assert all(a.coords == "px" for a in adds)


def test_a_second_hand_starts_a_new_line_even_on_the_same_spot(tmp_path: Path) -> None:
    record = sample_record(1)
    second = sample_record(2)["hands"][0]
    record["hands"].append(second)
    # both hands open with 6-6 in the middle of the table
    assert record["hands"][0]["moves"][0]["play"] == second["moves"][0]["play"] == "6-6"
    render_fixture(record, tmp_path, seed=4, params=RenderParams(width=480, height=270, fps=8))
    result = track_fixture(tmp_path)
    first_hand = _expected_adds(sample_record(1))
    expected = first_hand + _expected_adds({"hands": [second]})
    assert [(a.pips, a.end) for a in added_tiles(result.events)] == expected
    removed = [e for e in result.events if isinstance(e, TileRemoved)]
    assert len(removed) == len(first_hand)  # the cleared line, each tile once
    second_first = added_tiles(result.events)[len(first_hand)]
    assert all(e.t <= second_first.t for e in removed)


def test_a_hand_that_lingers_gives_unsure_and_no_tile_until_it_leaves(tmp_path: Path) -> None:
    record = copy.deepcopy(LATIN_BLOCKED_HAND)
    hand = record["hands"][0]
    hand["moves"] = hand["moves"][:3]
    hand["left"] = [[], [], [], []]
    params = RenderParams(width=480, height=270, fps=10.0, linger_after_move=1, linger_s=7.0)
    render_fixture(record, tmp_path, seed=1, params=params)
    truth = json.loads((tmp_path / "truth.json").read_text())
    second = truth["moves"][1]
    result = track_fixture(tmp_path, settle=SettleParams(timeout_s=4.0))
    unsure = [e for e in result.events if isinstance(e, Unsure)]
    assert len(unsure) == 1 and "motion" in unsure[0].reason
    assert second["t_start"] + 4.0 - 0.2 <= unsure[0].t <= second["t_start"] + 4.0 + 0.2
    adds = added_tiles(result.events)
    assert [(a.pips, a.end) for a in adds] == _expected_adds(record)
    assert adds[1].t >= second["t_settled"]


@pytest.mark.parametrize("table", ["green", "dim walnut"])
def test_a_hand_resting_still_is_not_read_until_it_leaves(table: str, tmp_path: Path) -> None:
    record = copy.deepcopy(LATIN_BLOCKED_HAND)
    hand = record["hands"][0]
    hand["moves"] = hand["moves"][:3]
    hand["left"] = [[], [], [], []]
    params = RenderParams(
        width=480, height=270, fps=10.0, linger_after_move=1, linger_s=3.0, tremor_mm=0.0
    )
    if table == "dim walnut":  # brown wood, skin-coloured where it meets the tiles
        params = replace(params, surface="walnut", light=0.75, tile_look="ivory")
    render_fixture(record, tmp_path, seed=1, params=params)
    second = json.loads((tmp_path / "truth.json").read_text())["moves"][1]
    result = track_fixture(tmp_path)
    unsure = [e for e in result.events if isinstance(e, Unsure)]
    assert len(unsure) == 1 and "hand rests" in unsure[0].reason
    assert second["t_placed"] < unsure[0].t < second["t_settled"]
    adds = added_tiles(result.events)
    assert [(a.pips, a.end) for a in adds] == _expected_adds(record)
    assert adds[1].t >= second["t_settled"]
    # without the check, the still hand's frame is read (the oracle sees through hands)
    blind = added_tiles(track_fixture(tmp_path, skin_check=False).events)
    assert blind[1].t < second["t_settled"]


def test_motion_that_never_settles_is_unsure_and_nothing_is_read() -> None:
    def never(image: np.ndarray) -> SceneReading:
        raise AssertionError("a moving scene must not be read")

    watcher = SceneWatcher(never, settle=SettleDetector(SettleParams(timeout_s=5.0)))
    events = []
    for i in range(150):  # 15 s of an arm waving over the table
        img = np.full((360, 640, 3), (60, 110, 50), np.uint8)
        x = int(320 + 200 * math.sin(i / 3))
        img[100:260, x - 60 : x + 60] = (120, 160, 210)
        events.extend(watcher.feed(Frame(img, i / 10, i)))
    assert [type(e) for e in events] == [Unsure]
    assert events[0].t == pytest.approx(5.0, abs=0.15)


# -- the pure tracker, on hand-made readings (table mm = image px) ----------------------


def _geometry() -> TableGeometry:
    return default_geometry().with_homography(np.eye(3), (760, 760))


def _reading(*tiles: PlacedTile, confidence: float = 1.0) -> SceneReading:
    out = []
    for t in tiles:
        halves = tuple(HalfReading(c, p) for c, p in zip(t.half_centers, t.pips, strict=True))
        out.append(TileReading(t.corners, halves, confidence))  # type: ignore[arg-type]
    return SceneReading(tuple(out), 760, 760)


C = (380.0, 380.0)
DOUBLE = PlacedTile((6, 6), C, 90.0)  # crosswise, opens the line
LEFT = PlacedTile((6, 3), (C[0] - 12.5 - 1 - 25, C[1]), 180.0)  # 6 against the double, 3 open
RIGHT = PlacedTile((6, 1), (C[0] + 12.5 + 1 + 25, C[1]), 0.0)


def test_tracker_builds_the_line_from_the_first_tile_on() -> None:
    tr = SceneTracker(_geometry())
    ev = tr.settled(1.0, _reading(DOUBLE))
    assert isinstance(ev[0], SceneSettled) and ev[0].tile_count == 1
    added = added_tiles(ev)
    assert [(a.pips, a.end, a.crosswise) for a in added] == [((6, 6), "first", True)]
    ev = tr.settled(2.0, _reading(DOUBLE, LEFT))
    assert [(a.pips, a.end) for a in added_tiles(ev)] == [((6, 3), "left")]
    ev = tr.settled(3.0, _reading(DOUBLE, LEFT, RIGHT))
    assert [(a.pips, a.end) for a in added_tiles(ev)] == [((6, 1), "right")]
    assert tr.chain() == [(6, 3), (6, 6), (6, 1)]


def test_a_tile_fitting_both_ends_goes_to_the_end_it_was_laid_against() -> None:
    # 6-6 opens: both ends show 6, so 6-2 fits both; only where it lies can tell
    for tile, end in ((LEFT, "left"), (RIGHT, "right")):
        tr = SceneTracker(_geometry())
        tr.settled(1.0, _reading(DOUBLE))
        ev = tr.settled(2.0, _reading(DOUBLE, tile))
        assert [a.end for a in added_tiles(ev)] == [end]
    # 3-6 | 6-6 | 6-3: a 3-5 fits both open 3s; laid on the right it is the right end's
    three_right = PlacedTile((6, 3), RIGHT.center, 0.0)
    tr = SceneTracker(_geometry())
    for step, tiles in enumerate([(DOUBLE,), (DOUBLE, LEFT), (DOUBLE, LEFT, three_right)]):
        tr.settled(float(step), _reading(*tiles))
    new = PlacedTile((3, 5), (RIGHT.center[0] + 51, C[1]), 0.0)
    ev = tr.settled(5.0, _reading(DOUBLE, LEFT, three_right, new))
    assert [(a.pips, a.end) for a in added_tiles(ev)] == [((3, 5), "right")]


def test_a_nudged_tile_is_moved_not_added() -> None:
    tr = SceneTracker(_geometry())
    tr.settled(1.0, _reading(DOUBLE))
    tr.settled(2.0, _reading(DOUBLE, LEFT))
    # a reading a seventh of a length away is the reader's jitter, not a move
    jitter = PlacedTile(LEFT.pips, (LEFT.center[0] + 6, LEFT.center[1] - 4), 180.0)
    assert [type(e) for e in tr.settled(2.5, _reading(DOUBLE, jitter))] == [SceneSettled]
    nudged = PlacedTile(LEFT.pips, (LEFT.center[0] - 12, LEFT.center[1] + 8), 184.0)
    ev = tr.settled(3.0, _reading(DOUBLE, nudged))
    assert [type(e) for e in ev] == [SceneSettled, TileMoved]
    moved = ev[1]
    assert isinstance(moved, TileMoved)
    assert moved.old_center == pytest.approx(jitter.center)  # where it was last read
    assert moved.new_center == pytest.approx(nudged.center)
    assert tr.chain() == [(6, 3), (6, 6)]
    # the next tile is laid against the nudged tile's end
    nxt = PlacedTile((3, 4), (nudged.center[0] - 51, nudged.center[1]), 180.0)
    ev = tr.settled(4.0, _reading(DOUBLE, nudged, nxt))
    assert [(a.pips, a.end) for a in added_tiles(ev)] == [((3, 4), "left")]


def test_a_tile_hidden_once_is_unsure_not_removed() -> None:
    tr = SceneTracker(_geometry())
    tr.settled(1.0, _reading(DOUBLE))
    tr.settled(2.0, _reading(DOUBLE, LEFT))
    ev = tr.settled(3.0, _reading(DOUBLE))  # e.g. a still hand covering it
    assert [type(e) for e in ev] == [SceneSettled, Unsure]
    ev = tr.settled(4.0, _reading(DOUBLE, LEFT))
    assert [type(e) for e in ev] == [SceneSettled]
    assert tr.chain() == [(6, 3), (6, 6)]


def test_a_tile_taken_back_is_removed_and_its_end_reopens() -> None:
    tr = SceneTracker(_geometry())
    tr.settled(1.0, _reading(DOUBLE))
    tr.settled(2.0, _reading(DOUBLE, LEFT))
    tr.settled(3.0, _reading(DOUBLE))
    ev = tr.settled(4.0, _reading(DOUBLE))
    assert [type(e) for e in ev] == [SceneSettled, TileRemoved]
    assert tr.chain() == [(6, 6)]
    other = PlacedTile((6, 2), LEFT.center, 180.0)
    ev = tr.settled(5.0, _reading(DOUBLE, other))
    assert [(a.pips, a.end) for a in added_tiles(ev)] == [((6, 2), "left")]


def test_a_tile_inside_the_line_is_never_removed_when_unseen() -> None:
    tr = SceneTracker(_geometry())
    tr.settled(1.0, _reading(DOUBLE))
    tr.settled(2.0, _reading(DOUBLE, LEFT))
    tr.settled(3.0, _reading(DOUBLE, LEFT, RIGHT))
    events = []
    for k in range(4):  # the double in the middle is misread (or covered) four times running
        events += tr.settled(4.0 + k, _reading(LEFT, RIGHT))
    assert not [e for e in events if isinstance(e, TileRemoved)]
    assert len([e for e in events if isinstance(e, Unsure)]) == 1  # said once, not every time
    assert tr.chain() == [(6, 3), (6, 6), (6, 1)]
    assert [type(e) for e in tr.settled(9.0, _reading(DOUBLE, LEFT, RIGHT))] == [SceneSettled]


def test_a_line_mostly_covered_adds_and_removes_nothing() -> None:
    far_left = PlacedTile((3, 4), (LEFT.center[0] - 51, C[1]), 180.0)
    line = (DOUBLE, LEFT, RIGHT, far_left)
    tr = SceneTracker(_geometry())
    for k in range(1, 5):
        tr.settled(float(k), _reading(*line[:k]))
    assert tr.chain() == [(3, 4), (6, 3), (6, 6), (6, 1)]
    events = []
    for k in range(3):  # something big rests over all but the right end, three settles running
        events += tr.settled(10.0 + k, _reading(RIGHT))
    assert not [e for e in events if isinstance(e, TileAdded | TileRemoved)]
    assert tr.chain() == [(3, 4), (6, 3), (6, 6), (6, 1)]
    assert [type(e) for e in tr.settled(20.0, _reading(*line))] == [SceneSettled]


def test_a_person_corrects_a_misread_end_tile() -> None:
    tr = SceneTracker(_geometry())
    tr.settled(1.0, _reading(DOUBLE))
    misread = PlacedTile((6, 5), LEFT.center, 180.0)  # really 6-3: the open end is a 3
    tr.settled(2.0, _reading(DOUBLE, misread))
    assert tr.ends["left"].open_pips == 5
    assert tr.correct((5, 6), (6, 3))
    assert tr.chain() == [(6, 3), (6, 6)]
    assert tr.ends["left"].open_pips == 3
    # the corrected tile now matches the real tile, and the next tile joins at its 3
    nxt = PlacedTile((3, 2), (LEFT.center[0] - 51, C[1]), 180.0)
    ev = tr.settled(3.0, _reading(DOUBLE, LEFT, nxt))
    assert [type(e) for e in ev] == [SceneSettled, TileAdded]
    assert [(a.pips, a.end) for a in added_tiles(ev)] == [((3, 2), "left")]
    assert not tr.correct((0, 0), (1, 1))


def test_reset_starts_a_new_line() -> None:
    tr = SceneTracker(_geometry())
    tr.settled(1.0, _reading(DOUBLE))
    tr.settled(2.0, _reading(DOUBLE, LEFT))
    tr.reset()
    ev = tr.settled(3.0, _reading(DOUBLE))
    assert [(a.pips, a.end) for a in added_tiles(ev)] == [((6, 6), "first")]


def test_a_stray_tile_is_unsure_never_added() -> None:
    tr = SceneTracker(_geometry())
    tr.settled(1.0, _reading(DOUBLE))
    stray = PlacedTile((2, 5), (200.0, 560.0), 30.0)
    ev = tr.settled(2.0, _reading(DOUBLE, stray))
    assert not added_tiles(ev)
    assert any(isinstance(e, Unsure) and "not at an open end" in e.reason for e in ev)


def test_a_very_unsure_reading_is_reported_once_not_added() -> None:
    tr = SceneTracker(_geometry())
    tr.settled(1.0, _reading(DOUBLE))
    unsure_left = _reading(LEFT, confidence=0.1).tiles[0]
    scene = SceneReading((_reading(DOUBLE).tiles[0], unsure_left), 760, 760)
    ev = tr.settled(2.0, scene)
    assert not added_tiles(ev)
    assert [e.pips for e in ev if isinstance(e, Unsure)] == [(6, 3)]
    ev = tr.settled(3.0, scene)
    assert [type(e) for e in ev] == [SceneSettled]  # said once
    ev = tr.settled(4.0, _reading(DOUBLE, LEFT))  # now read surely: it joins the line
    assert [(a.pips, a.end) for a in added_tiles(ev)] == [((6, 3), "left")]


def test_a_doubtful_reading_is_added_with_a_request_to_check() -> None:
    tr = SceneTracker(_geometry())
    ev = tr.settled(1.0, _reading(DOUBLE, confidence=0.3))
    assert [a.end for a in added_tiles(ev)] == ["first"]
    assert any(isinstance(e, Unsure) and "please check" in e.reason for e in ev)


def test_a_known_tile_read_differently_is_unsure() -> None:
    tr = SceneTracker(_geometry())
    tr.settled(1.0, _reading(DOUBLE))
    tr.settled(2.0, _reading(DOUBLE, LEFT))
    misread = PlacedTile((6, 5), LEFT.center, 180.0)
    ev = tr.settled(3.0, _reading(DOUBLE, misread))
    assert not added_tiles(ev)
    assert any(isinstance(e, Unsure) and "now reads 6-5" in e.reason for e in ev)


def test_tiles_in_a_reveal_zone_are_revealed_for_that_seat() -> None:
    g = _geometry()
    tr = SceneTracker(g)
    zone = g.reveal_zones[1]
    shown = [
        PlacedTile((4, 2), (zone.center[0], zone.center[1] - 20), 0.0),
        PlacedTile((5, 5), (zone.center[0], zone.center[1] + 20), 0.0),
    ]
    ev = tr.settled(1.0, _reading(DOUBLE, *shown))
    revealed = [e for e in ev if isinstance(e, TilesRevealed)]
    assert [(e.seat, e.tiles) for e in revealed] == [(1, ((2, 4), (5, 5)))]
    assert [a.end for a in added_tiles(ev)] == ["first"]
    assert tr.settled(2.0, _reading(DOUBLE, *shown))[1:] == []  # nothing new, nothing said


@pytest.mark.parametrize("rules", ["draw", "cuban"])
def test_simulated_records_render_and_track_exactly(
    rules: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Records from the rules engine's simulator: a boneyard game and a double-nine game."""
    from controller.cli import main

    assert main(["simulate", "--rules", rules, "--seed", "0", "--hands", "1", "--json"]) == 0
    record = json.loads(capsys.readouterr().out.splitlines()[0])
    render_fixture(record, tmp_path, seed=0, params=RenderParams(width=320, height=180, fps=6))
    result = track_fixture(tmp_path)
    assert [(a.pips, a.end) for a in added_tiles(result.events)] == _expected_adds(record)
    presses = (tmp_path / "buttons.jsonl").read_text().splitlines()
    moves = record["hands"][0]["moves"]
    assert len(presses) == sum(1 for m in moves if "pass" in m or "draw" in m)


def _table_frames(look: str) -> tuple[TableGeometry, list[np.ndarray]]:
    """A dim walnut table as the camera sees it: bare, with 28 tiles laid, with those tiles and
    an arm reaching in (the hand over the tiles), and with the arm's hand beside them."""
    from vision.devtools.render.scene import ArmPose, SceneRenderer

    params = RenderParams(
        width=1280,
        height=720,
        surface="walnut",
        tile_look=look,
        light=0.72,
        blur=1.0,
        noise=1.5,
        jpeg_quality=60,
        tile_height_mm=6.0,
    )
    geometry = default_geometry(4)
    renderer = SceneRenderer(geometry, params, np.random.default_rng(3))
    rng = np.random.default_rng(4)
    tiles = [
        PlacedTile((i % 7, (i + row) % 7), (230.0 + 52.0 * i, 300.0 + 40.0 * row), 0.0)
        for row in range(4)
        for i in range(7)
    ]
    bare = renderer.background
    laid = renderer.draw_tiles(bare, tiles)
    skin = (118, 158, 208)
    frames = [renderer.finish(renderer.to_camera(bare), rng)]
    frames.append(renderer.finish(renderer.to_camera(laid), rng))
    for hand in ((380.0, 380.0), (300.0, 540.0)):
        img = laid.copy()
        renderer.draw_arm(img, ArmPose((hand[0], hand[1] + 600.0), hand, skin))
        frames.append(renderer.finish(renderer.to_camera(img), rng))
    calibrated = geometry.with_homography(
        np.asarray(np.linalg.inv(renderer.h_table_to_image), dtype=np.float64),
        (params.width, params.height),
    )
    return calibrated, frames


@pytest.mark.parametrize("look", sorted(TILE_LOOKS))
def test_tiles_laid_on_a_brown_table_are_no_hand_but_an_arm_is(look: str) -> None:
    """Where a light tile meets walnut, the blend is skin-coloured: a rim round every tile. Laid
    tiles must never pass for a hand resting over the table; an arm reaching in still does."""
    geometry, (bare, laid, over, beside) = _table_frames(look)
    occluded = SkinOcclusion(geometry)
    assert not occluded(bare)
    assert not occluded.disabled  # the dim walnut is not itself skin-coloured
    assert not occluded(laid)
    assert occluded(over)
    assert occluded(beside)
    assert not occluded(laid)  # and once the arm has gone, the laid tiles are no hand again


def test_two_tiles_read_as_one_across_their_seam_add_nothing() -> None:
    tr = SceneTracker(_geometry())
    tr.settled(1.0, _reading(DOUBLE))
    tr.settled(2.0, _reading(DOUBLE, LEFT))
    laid = PlacedTile((3, 5), (LEFT.center[0] - 51, C[1]), 180.0)  # 3 against LEFT's open 3
    # LEFT's 3 and the new tile's 3, read as one 3-3 lying half over each
    seam = PlacedTile((3, 3), (LEFT.center[0] - 25.5, C[1]), 180.0)
    for k in range(3):
        ev = tr.settled(3.0 + k, _reading(DOUBLE, seam))
        assert not added_tiles(ev)
        assert not [e for e in ev if isinstance(e, TileRemoved)]
        assert any(isinstance(e, Unsure) and "lies over tile 6-3" in e.reason for e in ev)
    ev = tr.settled(9.0, _reading(DOUBLE, LEFT, laid))
    assert [(a.pips, a.end) for a in added_tiles(ev)] == [((3, 5), "left")]
    assert tr.chain() == [(5, 3), (6, 3), (6, 6)] or tr.chain() == [(3, 5), (6, 3), (6, 6)]


class _Scripted:
    """A recogniser that reads each frame as the next of its readings."""

    def __init__(self, *readings: SceneReading) -> None:
        self.readings = list(readings)

    def __call__(self, image: np.ndarray) -> SceneReading:
        return self.readings.pop(0)


def _still_then_moving(watcher: SceneWatcher, settles: int) -> list:
    """``settles`` still scenes of 1 s each with a second of motion between them."""
    still = np.full((180, 320, 3), (60, 110, 50), np.uint8)
    events, t = [], 0.0
    for k in range(settles):
        for _ in range(10):
            events += watcher.feed(Frame(still, t, round(t * 10)))
            t += 0.1
        if k + 1 < settles:
            for i in range(10):
                moving = still.copy()
                moving[40:140, 20 + 25 * i : 80 + 25 * i] = (120, 160, 210)
                events += watcher.feed(Frame(moving, t, round(t * 10)))
                t += 0.1
    return events + watcher.flush()


def test_a_settled_scene_misread_is_read_again_from_its_next_frame() -> None:
    # the tile laid before the second settle is missed in the settle frame, read in the next
    recognise = _Scripted(_reading(DOUBLE), _reading(DOUBLE), _reading(DOUBLE, LEFT))
    watcher = SceneWatcher(recognise, SceneTracker(_geometry()))
    events = _still_then_moving(watcher, 2)
    assert [(a.pips, a.end) for a in added_tiles(events)] == [((6, 6), "first"), ((6, 3), "left")]
    assert watcher.recognitions == 3
    assert not recognise.readings


def test_of_readings_that_all_doubt_the_one_that_sees_the_line_is_tracked() -> None:
    # the third settle brings nothing new, and two of its three readings miss the double
    recognise = _Scripted(
        _reading(DOUBLE),
        _reading(DOUBLE, LEFT),
        _reading(LEFT),
        _reading(DOUBLE, LEFT),
        _reading(LEFT),
    )
    watcher = SceneWatcher(recognise, SceneTracker(_geometry()), max_reads=3)
    events = _still_then_moving(watcher, 3)
    assert [(a.pips, a.end) for a in added_tiles(events)] == [((6, 6), "first"), ((6, 3), "left")]
    assert not [e for e in events if isinstance(e, TileRemoved)]
    assert watcher.tracker.chain() == [(6, 3), (6, 6)]


def test_a_tile_most_readings_see_unsure_is_tracked_over_one_that_misses_it() -> None:
    # the second settle lays the 6-3, read unsure in two frames of three and missed in one:
    # the reading that sees nothing new leaves no doubt, but most readings see the tile
    unsure_left = _reading(DOUBLE, LEFT, confidence=0.4)
    recognise = _Scripted(_reading(DOUBLE), unsure_left, _reading(DOUBLE), unsure_left)
    watcher = SceneWatcher(recognise, SceneTracker(_geometry()), max_reads=3)
    events = _still_then_moving(watcher, 2)
    assert [(a.pips, a.end) for a in added_tiles(events)] == [((6, 6), "first"), ((6, 3), "left")]
    assert not recognise.readings


def test_one_read_per_settle_when_asked() -> None:
    recognise = _Scripted(_reading(DOUBLE), _reading(DOUBLE), _reading(DOUBLE, LEFT))
    watcher = SceneWatcher(recognise, SceneTracker(_geometry()), max_reads=1)
    events = _still_then_moving(watcher, 2)
    assert [(a.pips, a.end) for a in added_tiles(events)] == [((6, 6), "first")]
    assert watcher.recognitions == 2


def test_the_mean_of_the_last_still_frames_is_read() -> None:
    # a still scene whose frames differ by noise: each reading is of the mean of the last
    # (here four) still frames, and motion starts the mean afresh
    seen: list[np.ndarray] = []

    def recognise(image: np.ndarray) -> SceneReading:
        seen.append(image.copy())
        return _reading()

    watcher = SceneWatcher(recognise, SceneTracker(_geometry()), max_reads=1, average=4)
    rng = np.random.default_rng(3)
    frames: list[np.ndarray] = []
    read_at = []
    for k in range(10):
        frames.append(np.clip(100 + rng.normal(0, 2, (60, 80, 3)), 0, 255).astype(np.uint8))
        watcher.feed(Frame(frames[-1], k / 10, k))
        read_at += [k] * (len(seen) - len(read_at))
    assert len(seen) == 1
    window = np.stack(frames[read_at[0] - 3 : read_at[0] + 1]).astype(np.float64)
    assert np.abs(seen[0] - window.mean(axis=0)).max() <= 0.5 + 1e-9
    assert seen[0].std() < np.stack(frames).std() / 1.5  # the noise shrank
    # after motion, the frames before it are not in the mean
    watcher = SceneWatcher(recognise, SceneTracker(_geometry()), max_reads=1)
    levels = [50] * 10 + [50, 250] * 5 + [200] * 10
    for k, level in enumerate(levels):
        watcher.feed(Frame(np.full((60, 80, 3), level, np.uint8), k / 10, k))
    assert [int(seen[-2].mean()), int(seen[-1].mean())] == [50, 200]
    assert seen[-1].min() == 200
    # no mean asked for: the frame alone is read, and no frame is kept beyond it
    watcher = SceneWatcher(recognise, SceneTracker(_geometry()), max_reads=1, average=0)
    for k in range(10):
        watcher.feed(Frame(frames[k], k / 10, k))
        assert len(watcher._still) <= 1
    assert any(np.array_equal(seen[-1], f) for f in frames)


def test_only_the_tile_laid_last_can_be_taken_back() -> None:
    tr = SceneTracker(_geometry())
    tr.settled(1.0, _reading(DOUBLE))
    tr.settled(2.0, _reading(DOUBLE, LEFT))
    tr.settled(3.0, _reading(DOUBLE, LEFT, RIGHT))
    events = []
    for k in range(3):  # the left end, laid before the right one, unread three times running
        events += tr.settled(4.0 + k, _reading(DOUBLE, RIGHT))
    assert not [e for e in events if isinstance(e, TileRemoved)]
    assert tr.chain() == [(6, 3), (6, 6), (6, 1)]
    tr.settled(8.0, _reading(DOUBLE, LEFT))
    ev = tr.settled(9.0, _reading(DOUBLE, LEFT))  # the right end, laid last, is gone
    assert [e.pips for e in ev if isinstance(e, TileRemoved)] == [(6, 1)]
    assert tr.chain() == [(6, 3), (6, 6)]


def test_a_later_reading_that_loses_the_line_is_not_taken_for_a_clean_one() -> None:
    stray = PlacedTile((1, 2), (200.0, 200.0), 0.0)
    recognise = _Scripted(
        _reading(DOUBLE),
        _reading(DOUBLE, LEFT),
        _reading(),  # the third settle: nothing read at all, three times
        _reading(),
        _reading(),
        _reading(DOUBLE, LEFT, RIGHT, stray),  # the fourth: right, but for a stray
        _reading(RIGHT),  # the line missed a second time: as if the table were cleared
        _reading(LEFT),
    )
    watcher = SceneWatcher(recognise, SceneTracker(_geometry()))
    events = _still_then_moving(watcher, 4)
    assert not [e for e in events if isinstance(e, TileRemoved)]
    assert [(a.pips, a.end) for a in added_tiles(events)] == [
        ((6, 6), "first"),
        ((6, 3), "left"),
        ((6, 1), "right"),
    ]
    assert not recognise.readings


def test_a_tiles_half_spacing_is_the_distance_between_its_half_centres() -> None:
    halves = (HalfReading((10.0, 20.0), 3), HalfReading((13.0, 24.0), 5))
    tile = TileReading(((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)), halves, 0.9)
    assert tile.half_spacing == pytest.approx(5.0)
    assert tile.shifted(7.0, -2.0).half_spacing == pytest.approx(5.0)
