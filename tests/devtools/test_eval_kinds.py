"""Evaluation on truth without positions: single-tile photos labelled by folder (crops) and
hand-labelled scenes (truth.json), each with a confusion matrix of halves; kind detection."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from controller.cli import main
from vision.devtools.evaluation import (
    CropReport,
    SceneReport,
    detect_kind,
    evaluate_dir,
    evaluate_scenes,
    evaluate_set,
    load_truth_dir,
)
from vision.devtools.evaluation.labels import (
    MISSED,
    RIGHT,
    WRONG,
    ReadTile,
    confusion_matrix,
    pair_tiles,
    score_crop,
    score_scene,
)
from vision.devtools.synthetic import render_scene
from vision.errors import TruthFormatError
from vision.types import SURE_CONFIDENCE, HalfReading, SceneReading, TileReading

DATASETS = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
CROPS_DEV = DATASETS / "domibot-crops-dev"

Image = npt.NDArray[np.uint8]


def sure(a: int, b: int) -> ReadTile:
    return ReadTile((a, b), True)


def unsure(a: int, b: int) -> ReadTile:
    return ReadTile((a, b), False)


def reading(*tiles: ReadTile) -> SceneReading:
    """A reading of the given tiles (positions made up; the scorers here ignore them)."""
    out = []
    for k, t in enumerate(tiles):
        x = 20.0 * k
        conf = SURE_CONFIDENCE + 0.3 if t.sure else SURE_CONFIDENCE - 0.2
        out.append(
            TileReading(
                corners=((x, 0.0), (x + 10, 0.0), (x + 10, 20.0), (x, 20.0)),
                halves=(
                    HalfReading((x + 5, 5.0), t.pips[0]),
                    HalfReading((x + 5, 15.0), t.pips[1]),
                ),
                confidence=conf,
            )
        )
    return SceneReading(tuple(out), 100, 100)


def scripted(*readings: SceneReading) -> tuple[Callable[[Image], SceneReading], list[int]]:
    """A reader that returns ``readings`` in turn, and the list of image widths it was given."""
    it: Iterator[SceneReading] = iter(readings)
    seen: list[int] = []

    def read(image: Image) -> SceneReading:
        seen.append(int(image.shape[1]))
        return next(it)

    return read, seen


def tile_image(seed: int, pips: tuple[int, int], width: int = 160, height: int = 120) -> Image:
    return render_scene(seed, width=width, height=height, n_tiles=1, tiles=(pips,)).image


def write(path: Path, image: Image) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    assert cv2.imwrite(str(path), image)


def cell(conf: dict[str, object], row: str, col: str) -> int:
    rows, cols = conf["confusion_rows"], conf["confusion_cols"]
    assert isinstance(rows, list) and isinstance(cols, list)
    matrix = conf["confusion"]
    assert isinstance(matrix, list)
    value = matrix[rows.index(row)][cols.index(col)]
    assert isinstance(value, int)
    return value


# --- pure scoring -------------------------------------------------------------------------


def test_pairing_takes_exact_matches_first_then_fewest_differing_halves() -> None:
    p = pair_tiles([(6, 4), (2, 5), (1, 1)], [(5, 3), (4, 6), (1, 2)])
    # 6-4 is read exactly (reversed); 2-5 pairs with 5-3 (the 5s line up, 2 read as 3);
    # 1-1 pairs with 1-2 (one half wrong).
    assert sorted(p.halves) == sorted([(6, 6), (4, 4), (2, 3), (5, 5), (1, 1), (1, 2)])
    assert p.extra == 0


def test_pairing_misses_truth_left_over_and_counts_read_tiles_left_over() -> None:
    assert pair_tiles([(3, 3), (0, 2)], []).halves == ((3, None), (3, None), (0, None), (2, None))
    p = pair_tiles([(3, 4)], [(0, 0), (3, 5), (6, 6)])
    assert p.halves == ((3, 3), (4, 5)) and p.extra == 2


def test_crop_right_missed_wrong_as_score_crops() -> None:
    right = score_crop((6, 4), [sure(4, 6)])
    assert (right.outcome, right.sure, right.extra) == (RIGHT, True, 0)
    assert sorted(right.halves) == [(4, 4), (6, 6)]
    unsure_right = score_crop((6, 4), [unsure(6, 4)])
    assert (unsure_right.outcome, unsure_right.sure) == (RIGHT, False)
    missed = score_crop((2, 0), [])
    assert (missed.outcome, missed.sure, missed.halves) == (MISSED, False, ((2, None), (0, None)))
    misread = score_crop((6, 4), [sure(6, 6)])
    assert (misread.outcome, misread.sure) == (WRONG, True)
    assert sorted(misread.halves) == [(4, 6), (6, 6)]
    # The right tile plus an extra one is wrong; sure only if every tile read was sure.
    extra = score_crop((6, 4), [sure(6, 4), unsure(1, 1)])
    assert (extra.outcome, extra.sure, extra.extra) == (WRONG, False, 1)
    assert sorted(extra.halves) == [(4, 4), (6, 6)]
    both_sure = score_crop((6, 4), [sure(6, 4), sure(6, 4)])
    assert (both_sure.outcome, both_sure.sure, both_sure.extra) == (WRONG, True, 1)


def test_crop_halves_pair_in_the_order_with_fewer_mismatches() -> None:
    # Truth 5-1 read as 1-4: straight (5,1)/(1,4) has two mismatches, swapped (5,4)/(1,1) one.
    assert score_crop((5, 1), [sure(1, 4)]).halves == ((5, 4), (1, 1))


def test_scene_multiset_with_duplicates_uncertain_and_sure_split() -> None:
    s = score_scene(
        truth=[(6, 4), (2, 5), (3, 3)],
        read=[sure(4, 6), sure(2, 6), unsure(3, 3), sure(3, 3), sure(0, 1)],
        uncertain=[(0, 1)],
    )
    assert (s.tiles, s.right) == (3, 2)
    assert s.missed == ("2-5",)
    assert s.wrong == ("2-6", "3-3")  # the second 3-3 is not there
    assert s.wrong_sure == 1  # 2-6; the sure 3-3 is the one taken as right
    assert s.right_unsure == 0 and s.uncertain_read == 1 and not s.whole
    assert sorted(s.halves) == sorted([(6, 6), (4, 4), (3, 3), (3, 3), (2, 2), (5, 6)])
    assert s.extra == 1  # the unsure 3-3 has no labelled tile left to pair with


def test_scene_read_whole_and_uncertain_tiles_count_neither_way() -> None:
    s = score_scene([(1, 2)], [unsure(2, 1), unsure(5, 5)], uncertain=[(5, 5)])
    assert (s.right, s.right_unsure, s.missed, s.wrong, s.uncertain_read) == (1, 1, (), (), 1)
    assert s.whole
    # An uncertain label not read costs nothing either.
    assert score_scene([(1, 2)], [sure(1, 2)], uncertain=[(0, 0)]).whole


def test_confusion_matrix_grows_to_the_pips_seen() -> None:
    small = confusion_matrix([(6, 6), (0, None), (0, 1)])
    assert small.rows == tuple("0123456") and small.cols == (*"0123456", "miss")
    assert small.counts[6][6] == 1 and small.counts[0][7] == 1 and small.counts[0][1] == 1
    big = confusion_matrix([(8, 8), (2, 9)])
    assert big.rows == tuple("012345678") and big.cols == (*"0123456789", "miss")
    assert big.counts[8][8] == 1 and big.counts[2][9] == 1
    assert sum(map(sum, big.counts)) == 2


# --- crops folders ------------------------------------------------------------------------


def make_crops(root: Path) -> Path:
    """Three rendered single-tile photos in their folders, an undecodable photo, and files and
    folders that are not part of the set."""
    write(root / "6x4" / "a.png", tile_image(0, (6, 4)))
    write(root / "6x4" / "b.png", tile_image(1, (4, 6)))
    write(root / "2x5" / "c.jpg", tile_image(2, (2, 5)))
    (root / "6x4" / "broken.jpg").write_bytes(b"not an image")
    (root / "6x4" / "notes.txt").write_text("ignored")
    write(root / "misc" / "other.png", tile_image(3, (1, 1)))  # not a tile folder
    return root


def test_crops_scored_with_a_reader_that_misreads(tmp_path: Path) -> None:
    root = make_crops(tmp_path / "crops")
    # Photos are read in folder then file order: 2x5/c.jpg, 6x4/a.png, 6x4/b.png
    # (6x4/broken.jpg never reaches the reader).
    read, seen = scripted(
        reading(sure(2, 5), unsure(1, 1)),  # right tile plus an extra: unsure wrong
        reading(sure(6, 6)),  # misread, sure: sure wrong
        reading(unsure(4, 6)),  # right, unsure
    )
    progress: list[tuple[int, int]] = []
    report = evaluate_set(root, reader=read, progress=lambda d, t, _n: progress.append((d, t)))
    assert isinstance(report, CropReport)
    assert seen == [160, 160, 160]
    assert progress == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert [r.name for r in report.images] == [
        "2x5/c.jpg",
        "6x4/a.png",
        "6x4/b.png",
        "6x4/broken.jpg",
    ]
    t = report.totals()
    assert t == {
        "images": 4,
        "right": 1,
        "missed": 1,
        "wrong": 2,
        "sure_wrong": 1,
        "unsure_wrong": 1,
        "right_unsure": 1,
        "unreadable": 1,
        "extra": 1,
    }
    s = report.summary()
    assert s["kind"] == "crops" and s["accuracy"] == 0.25
    assert cell(s, "6", "6") == 2 and cell(s, "4", "6") == 1 and cell(s, "4", "4") == 1
    assert cell(s, "6", "miss") == 1 and cell(s, "4", "miss") == 1
    assert cell(s, "2", "2") == 1 and cell(s, "5", "5") == 1
    assert sum(map(sum, s["confusion"])) == 8  # type: ignore[arg-type]
    assert s["by_tile"] == {
        "2-5": {"images": 1, "right": 0, "missed": 0, "wrong": 1},
        "4-6": {"images": 3, "right": 1, "missed": 1, "wrong": 1},
    }
    wrong = s["wrong_images"]
    assert isinstance(wrong, list) and [w["image"] for w in wrong] == ["2x5/c.jpg", "6x4/a.png"]
    assert wrong[1]["read"] == [{"tile": "6-6", "pips": [6, 6], "sure": True}]
    unreadable = s["unreadable_images"]
    assert isinstance(unreadable, dict) and list(unreadable) == ["6x4/broken.jpg"]
    assert "cannot read image" in unreadable["6x4/broken.jpg"]
    text = report.format_text()
    assert "sure wrong 1, unsure wrong 1" in text and "unreadable 1" in text
    assert "6x4/a.png: truth 4-6, read [6-6]" in text
    assert "2x5/c.jpg: truth 2-5, read [2-5, 1-1 unsure]" in text
    assert "  miss" in text  # the confusion matrix header


def test_crops_read_by_the_reader_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_crops(tmp_path / "crops")
    assert main(["vision", "eval", str(root), "--json"]) == 0
    out, err = capsys.readouterr()
    s = json.loads(out)
    assert s["kind"] == "crops" and s["images"] == 4
    assert (s["right"], s["missed"], s["wrong"], s["unreadable"]) == (3, 1, 0, 1)
    assert s["confusion_rows"] == list("0123456")
    assert s["confusion_cols"] == [*"0123456", "miss"]
    assert cell(s, "6", "6") == 2 and cell(s, "4", "4") == 2
    assert cell(s, "2", "2") == 1 and cell(s, "5", "5") == 1
    assert cell(s, "6", "miss") == 1 and cell(s, "4", "miss") == 1
    assert "[4/4]" in err
    assert main(["vision", "eval", str(root), "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("crops ") and "confusion of halves" in out and err == ""


# --- scenes truth.json --------------------------------------------------------------------


SCENE_TILES = ((6, 4), (2, 5), (3, 3))


def make_scenes(root: Path) -> Path:
    image = render_scene(3, width=320, height=200, tiles=SCENE_TILES).image
    write(root / "a.png", image)
    write(root / "sub" / "b.png", image)
    write(root / "c.png", tile_image(4, (1, 1)))
    truth = {
        "format": "scenes-truth/1",
        "images": {
            "a.png": {"tiles": ["6-4", "2-5", "3-3"], "face_down": 1, "uncertain": []},
            "sub/b.png": {
                "tiles": ["4-6", "5-2"],
                "face_down": 2,
                "uncertain": [{"tile": "3-3", "why": "clipped"}],
            },
            "c.png": {"tiles": ["1-1", "0-0"]},
            "gone.png": {"tiles": ["0-0"], "face_down": 0, "uncertain": []},
        },
    }
    (root / "truth.json").write_text(json.dumps(truth))
    return root


def test_scenes_scored_with_a_reader_that_misreads(tmp_path: Path) -> None:
    root = make_scenes(tmp_path / "scenes")
    # Photos are read in name order: a.png, c.png, (gone.png is missing), sub/b.png.
    read, seen = scripted(
        reading(sure(4, 6), sure(2, 6), unsure(3, 3), sure(3, 3)),
        reading(),
        reading(sure(6, 4), sure(3, 3), sure(5, 2)),
    )
    report = evaluate_scenes(root, reader=read)
    assert isinstance(report, SceneReport) and seen == [320, 160, 320]
    assert [r.name for r in report.images] == ["a.png", "c.png", "gone.png", "sub/b.png"]
    t = report.totals()
    assert t == {
        "images": 4,
        "tiles": 8,
        "right": 4,  # a.png 2, sub/b.png 2
        "missed": 4,  # 2-5 in a.png, both tiles of c.png, gone.png's 0-0
        "wrong": 2,  # 2-6 and the second 3-3 in a.png
        "sure_wrong": 1,
        "unsure_wrong": 1,
        "right_unsure": 0,
        "uncertain": 1,
        "uncertain_read": 1,
        "face_down": 3,
        "images_whole": 1,
        "unreadable": 1,
        "extra": 1,
    }
    s = report.summary()
    assert s["kind"] == "scenes" and s["accuracy"] == 0.5
    # a.png's 2-5 read as 2-6 pairs 2 with 2 and 5 with 6; sub/b.png's 2-5 is read right.
    assert cell(s, "2", "2") == 2 and cell(s, "5", "6") == 1 and cell(s, "5", "5") == 1
    assert cell(s, "6", "6") == 2 and cell(s, "4", "4") == 2 and cell(s, "3", "3") == 2
    assert cell(s, "1", "miss") == 2 and cell(s, "0", "miss") == 4  # c.png, gone.png
    assert sum(map(sum, s["confusion"])) == 16  # type: ignore[arg-type]
    failures = s["failures"]
    assert isinstance(failures, dict) and sorted(failures) == ["a.png", "c.png", "gone.png"]
    assert failures["a.png"]["missed"] == ["2-5"] and failures["a.png"]["wrong"] == ["2-6", "3-3"]
    assert "no such file" in failures["gone.png"]["error"]
    text = report.format_text()
    assert "1 uncertain left out, 3 face down" in text
    assert "wrong   2 read tiles not there: sure 1, unsure 1" in text
    assert "photos read whole 1/4, unreadable 1" in text


def test_scenes_read_by_the_reader_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = make_scenes(tmp_path / "scenes")
    assert main(["vision", "eval", str(root), "--json", "--quiet"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["kind"] == "scenes" and s["images"] == 4 and s["tiles"] == 8
    # a.png and sub/b.png read whole (b's 3-3 is uncertain); c.png's 1-1 is read, not its 0-0.
    assert (s["right"], s["missed"], s["wrong"], s["uncertain_read"]) == (6, 2, 0, 1)
    assert s["images_whole"] == 2 and s["unreadable"] == 1 and s["face_down"] == 3
    assert cell(s, "0", "miss") == 4 and cell(s, "3", "3") == 2


# --- kinds and errors ---------------------------------------------------------------------


def test_kinds_are_told_apart(tmp_path: Path) -> None:
    crops = make_crops(tmp_path / "crops")
    scenes = make_scenes(tmp_path / "scenes")
    assert detect_kind(crops) == "crops" and detect_kind(scenes) == "scenes"
    (crops / "truth.json").write_text('{"note": "no images mapping"}')
    assert detect_kind(crops) == "crops"
    (crops / "recognition-truth.json").write_text("{}")
    assert detect_kind(crops) == "generic"
    # The positional kinds' loaders and evaluate_dir refuse a set without positions.
    with pytest.raises(TruthFormatError, match="scenes set"):
        load_truth_dir(scenes)
    with pytest.raises(TruthFormatError, match="scenes set"):
        evaluate_dir(scenes)


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({}, "no tile folders named like 6x4"),
        ({"truth.json": '{"images": ["a.png"]}'}, "'images' must map each photo"),
        ({"truth.json": "not json"}, "is not JSON"),
        ({"truth.json": '{"images": {"a.png": {"tiles": ["7"]}}}'}, "is not a tile"),
        ({"truth.json": '{"images": {"a.png": {"tiles": [], "face_down": -1}}}'}, "face_down"),
        ({"6x4/readme.txt": "no photos"}, "no photos in tile folders"),
    ],
)
def test_a_directory_of_no_kind_is_a_one_line_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: dict[str, str], message: str
) -> None:
    for name, content in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(content)
    assert main(["vision", "eval", str(tmp_path), "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and message in err
    assert err.startswith("domino-table: error: ") and err.count("\n") == 1
    assert "Traceback" not in err


# --- the real photos beside the repository ------------------------------------------------


def crops_dev_dir() -> Path:
    """domibot-crops-dev: always there in CI; locally a test that needs it is skipped without."""
    if not (CROPS_DEV / "6x4").is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CROPS_DEV} is missing (it is always present in CI)")
        pytest.skip(f"{CROPS_DEV} not present")
    return CROPS_DEV


def test_crops_on_a_dozen_real_photos(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The first photo of each of 12 tile folders, linked (not copied) into a set of their own.
    src = crops_dev_dir()
    folders = sorted(d for d in src.iterdir() if d.is_dir())[::2][:12]
    assert len(folders) == 12
    for d in folders:
        photo = sorted(d.glob("*.jpg"))[0]
        (tmp_path / d.name).mkdir()
        (tmp_path / d.name / photo.name).symlink_to(photo)
    assert main(["vision", "eval", str(tmp_path), "--json", "--quiet"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert s["kind"] == "crops" and s["images"] == 12 and s["unreadable"] == 0
    assert s["right"] + s["missed"] + s["wrong"] == 12
    assert s["sure_wrong"] + s["unsure_wrong"] == s["wrong"]
    assert s["right_unsure"] <= s["right"]
    assert sum(row["images"] for row in s["by_tile"].values()) == 12
    # Two halves per photo, each paired with a read half or missed.
    assert sum(map(sum, s["confusion"])) == 24
    assert sum(row[-1] for row in s["confusion"]) >= 2 * s["missed"]
    assert main(["vision", "eval", str(tmp_path), "--quiet"]) == 0
    assert capsys.readouterr().out.startswith(f"crops {tmp_path}: 12 photos of 12 tiles")
