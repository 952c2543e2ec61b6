"""Rendered fixtures: files, buttons, truth and determinism, from a hand-written record."""

import copy
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from controller.cli import main
from vision.calibration.tablefile import load_table
from vision.devtools.fixture_writer import FixtureInfo, render_fixture
from vision.devtools.render.sample import LATIN_BLOCKED_HAND, sample_record
from vision.devtools.render.scene import RenderParams
from vision.devtools.render.tiles import RenderError
from vision.sources import VideoFileSource

SMALL = RenderParams(width=480, height=270, fps=8.0)
HAND = LATIN_BLOCKED_HAND["hands"][0]
PLAYS = [m for m in HAND["moves"] if "play" in m]
PRESSES = [m for m in HAND["moves"] if "pass" in m or "draw" in m]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, FixtureInfo, list]:
    out = tmp_path_factory.mktemp("fixture")
    calls: list[tuple[int, int]] = []
    info = render_fixture(
        LATIN_BLOCKED_HAND, out, seed=11, params=SMALL, progress=lambda d, t: calls.append((d, t))
    )
    return out, info, calls


def test_fixture_directory_holds_the_four_files(rendered: tuple) -> None:
    out, info, _ = rendered
    assert {p.name for p in out.iterdir()} == {
        "video.mp4",
        "buttons.jsonl",
        "table.json",
        "truth.json",
    }
    assert info.video == out / "video.mp4"
    with VideoFileSource(info.video) as src:
        frames = list(src)
    assert len(frames) == info.frames
    assert frames[0].image.shape == (270, 480, 3)
    assert info.duration_s == pytest.approx(info.frames / 8.0)


def test_buttons_are_one_short_press_per_pass(rendered: tuple) -> None:
    out, _, _ = rendered
    lines = (out / "buttons.jsonl").read_text().splitlines()
    presses = [json.loads(line) for line in lines]
    assert [p["seat"] for p in presses] == [m["seat"] for m in PRESSES]
    assert all(set(p) == {"t", "seat", "gesture"} and p["gesture"] == "short" for p in presses)
    times = [p["t"] for p in presses]
    assert times == sorted(times) and len(set(times)) == len(times)


def test_truth_follows_the_record(rendered: tuple) -> None:
    out, info, _ = rendered
    truth = json.loads((out / "truth.json").read_text())
    assert truth["record"] == LATIN_BLOCKED_HAND
    plays = [m for m in truth["moves"] if m["kind"] == "play"]
    assert [m["tile"] for m in plays] == [m["play"] for m in PLAYS]
    assert [m["end"] for m in plays] == ["first"] + [m["end"] for m in PLAYS[1:]]
    assert [m["seat"] for m in plays] == [m["seat"] for m in PLAYS]
    settled = [m["t_settled"] for m in plays]
    assert settled == sorted(settled)
    assert all(m["t_start"] < m["t_placed"] < m["t_settled"] for m in plays)
    assert all(m["frame_settled"] < info.frames for m in plays)
    # every still scene lists what lies on the table: after play k, k+1 tiles in the line
    for k, m in enumerate(plays):
        scene = truth["scenes"][m["scene"]]
        line = [t for t in scene["tiles"] if t["zone"] == "line"]
        assert len(line) == k + 1
        assert sorted(t["chain_index"] for t in line) == list(range(k + 1))
        assert scene["t_settled"] == m["t_settled"] < scene["t_until"]
    last = truth["scenes"][-1]["tiles"]
    assert len(last) == 28  # a blocked hand: 13 in the line + 15 laid face up = the whole set
    revealed = {r["seat"]: r["tiles"] for r in truth["reveals"]}
    assert revealed == {s: HAND["left"][s] for s in range(4) if HAND["left"][s]}
    for tile in last:
        if tile["zone"] == "reveal":
            name = tile["tile"]
            a, b = name.split("-")
            assert name in HAND["left"][tile["seat"]] or f"{b}-{a}" in HAND["left"][tile["seat"]]


def test_truth_corners_agree_with_the_table_file(rendered: tuple) -> None:
    out, _, _ = rendered
    truth = json.loads((out / "truth.json").read_text())
    table = load_table(out / "table.json")
    assert table.calibrated and table.image_size == (480, 270)
    for tile in truth["scenes"][-1]["tiles"]:
        mm = table.image_to_table([tuple(c) for c in tile["corners"]])
        assert np.allclose(mm, tile["table"]["corners"], atol=0.05)
        assert all(table.play_area.contains(p) or table.zone_of(p)[0] == "reveal" for p in mm)


def test_progress_reaches_the_total(rendered: tuple) -> None:
    _, info, calls = rendered
    assert calls[-1] == (info.frames, info.frames)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_same_seed_same_fixture_other_seed_other_jitter(rendered: tuple, tmp_path: Path) -> None:
    out, _, _ = rendered
    again = render_fixture(LATIN_BLOCKED_HAND, tmp_path / "a", seed=11, params=SMALL)
    assert (again.out_dir / "truth.json").read_bytes() == (out / "truth.json").read_bytes()
    with VideoFileSource(out / "video.mp4") as s1, VideoFileSource(again.video) as s2:
        for f1, f2, _ in zip(s1, s2, range(40), strict=False):
            assert np.array_equal(f1.image, f2.image)
    other = render_fixture(LATIN_BLOCKED_HAND, tmp_path / "b", seed=12, params=SMALL)
    t1 = json.loads((out / "truth.json").read_text())
    t2 = json.loads((other.out_dir / "truth.json").read_text())
    assert [m["tile"] for m in t1["moves"] if m["kind"] == "play"] == [
        m["tile"] for m in t2["moves"] if m["kind"] == "play"
    ]
    assert t1["scenes"][-1]["tiles"] != t2["scenes"][-1]["tiles"]


def test_a_draw_game_renders_its_boneyard(tmp_path: Path) -> None:
    record = sample_record(2, rules="draw")
    draws = [m for m in record["hands"][0]["moves"] if "draw" in m]
    info = render_fixture(
        record, tmp_path, seed=2, params=RenderParams(width=320, height=180, fps=6.0)
    )
    truth = json.loads((tmp_path / "truth.json").read_text())
    assert truth["scenes"][0]["boneyard"] == 14
    assert truth["scenes"][-1]["boneyard"] == 14 - len(draws)
    presses = (tmp_path / "buttons.jsonl").read_text().splitlines()
    passes = [m for m in record["hands"][0]["moves"] if "pass" in m]
    assert len(presses) == len(draws) + len(passes)
    assert info.hands == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r["hands"][0]["moves"].insert(1, {"seat": 3, "play": "2-3"}), "fits neither"),
        (lambda r: r["hands"][0]["moves"].insert(1, {"seat": 3, "play": "6-10"}), "0-9"),
        (lambda r: r["hands"][0]["moves"].insert(1, {"seat": 7, "pass": True}), "bad seat"),
        (lambda r: r["hands"][0]["moves"].insert(1, {"seat": 1}), "not a play"),
        (lambda r: r.update(hands=[]), "hands"),
    ],
)
def test_records_that_cannot_be_drawn(
    change: Callable[[dict], None], message: str, tmp_path: Path
) -> None:
    record = copy.deepcopy(LATIN_BLOCKED_HAND)
    change(record)
    with pytest.raises(RenderError, match=message):
        render_fixture(record, tmp_path, seed=0, params=SMALL)


def test_cli_render_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "record.json"
    record.write_text(json.dumps(LATIN_BLOCKED_HAND))
    out = tmp_path / "fx"
    args = ["fixture", "render-record", str(record), "--out", str(out), "--seed", "3"]
    assert main([*args, "--width", "320", "--height", "180", "--fps", "5", "--quiet"]) == 0
    assert "rendering [" not in capsys.readouterr().err  # --quiet: no progress bar
    assert json.loads((out / "truth.json").read_text())["width"] == 320
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["fixture", "render-record", str(bad), "--out", str(out)]) == 2


def test_still_scenes_with_identify_truth(tmp_path: Path) -> None:
    from vision.devtools.render.stills import render_stills

    base = RenderParams(width=480, height=270)
    paths = render_stills(tmp_path, 3, seed=3, base=base, sweep=False)
    assert [p.name for p in paths] == ["0000.png", "0001.png", "0002.png"]
    for p in paths:
        truth = json.loads(p.with_suffix(".json").read_text())
        assert truth["image"] == p.name and truth["tiles"]
        for tile in truth["tiles"]:
            a, b = (int(v) for v in tile["tile"].split("-"))
            assert [h["pips"] for h in tile["halves"]] == [a, b]
            assert all(0 <= x < 480 and 0 <= y < 270 for x, y in tile["corners"])
        assert 1.0 < truth["pip_px"] < 3.0  # 480 px wide: a 5 mm pip is about 1.7 px
    generic = json.loads((tmp_path / "recognition-truth.json").read_text())
    assert generic["format"] == "domino-table/recognition-truth" and generic["version"] == 1
    assert [e["image"] for e in generic["images"]] == [p.name for p in paths]
    for entry, p in zip(generic["images"], paths, strict=True):
        own = json.loads(p.with_suffix(".json").read_text())
        assert [t["halves"] for t in entry["tiles"]] == [t["halves"] for t in own["tiles"]]
    again = render_stills(tmp_path / "again", 1, seed=3, base=base, sweep=False)
    assert again[0].with_suffix(".json").read_text() == paths[0].with_suffix(".json").read_text()


def test_shipped_fixture_tracks_exactly() -> None:
    """The fixture in the repository (demo and tests): complete, and the oracle tracking of its
    video gives back every play of its record, in order, at the right end."""
    from vision.tracking.replay import track_fixture
    from vision.tracking.truth import added_tiles

    shipped = Path(__file__).resolve().parents[2] / "vision" / "fixtures" / "latin-hand"
    truth = json.loads((shipped / "truth.json").read_text())
    plays = [m for m in truth["record"]["hands"][0]["moves"] if "play" in m]
    assert sum(p.stat().st_size for p in shipped.iterdir()) < 10_000_000
    result = track_fixture(shipped)
    adds = added_tiles(result.events)
    assert [sorted(a.pips) for a in adds] == [
        sorted(int(v) for v in m["play"].split("-")) for m in plays
    ]
    assert [a.end for a in adds] == ["first"] + [m["end"] for m in plays[1:]]
    presses = (shipped / "buttons.jsonl").read_text().splitlines()
    assert len(presses) == sum(1 for m in truth["record"]["hands"][0]["moves"] if "pass" in m)


def test_fixture_stills_for_recognition_eval(rendered: tuple, tmp_path: Path) -> None:
    from vision.devtools.render.stills import export_fixture_stills

    out, _, _ = rendered
    truth = json.loads((out / "truth.json").read_text())
    paths = export_fixture_stills(out, tmp_path)
    generic = json.loads((tmp_path / "recognition-truth.json").read_text())
    assert len(paths) == len(generic["images"]) == len(truth["scenes"])
    by_name = {e["image"]: e for e in generic["images"]}
    for scene in truth["scenes"]:
        entry = by_name[f"scene_{scene['index']:04d}.png"]
        assert len(entry["tiles"]) == len(scene["tiles"])
    import cv2

    assert cv2.imread(str(paths[-1])).shape == (270, 480, 3)
