"""Evaluation: the ddd scoring semantics on hand-made cases, the generic truth format, and
``vision eval``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from tests.vision.recognition_support import ddd_dev_dir
from vision.devtools.evaluation import (
    EvalReport,
    ImageResult,
    evaluate_dir,
    evaluate_sweep,
    evaluate_synthetic,
    load_truth_dir,
    write_synthetic_set,
)
from vision.devtools.evaluation.scoring import (
    COL_MISS,
    ROW_EMPTY,
    PredHalf,
    PredTile,
    parse_prediction,
    score_ddd,
    score_generic,
)
from vision.errors import TruthFormatError

# A 15x15 grid of 10 px cells whose top-left corner is at (100, 100).
GRID = {"grid_corners_px": [[100, 100], [250, 100], [250, 250], [100, 250]]}


def cell_centre(name: str) -> tuple[float, float]:
    row, col = int(name[:-1]) - 1, "ABCDEFGHIJKLMNO".index(name[-1])
    return (100 + 10 * col + 5, 100 + 10 * row + 5)


def truth(*tiles: tuple[str, int, str, int]) -> dict[str, object]:
    return {
        **GRID,
        "tiles": [
            {
                "tile": f"{min(a, b)}-{max(a, b)}",
                "halves": [
                    {"cell": ca, "pips": a, "center_px": list(cell_centre(ca))},
                    {"cell": cb, "pips": b, "center_px": list(cell_centre(cb))},
                ],
            }
            for ca, a, cb, b in tiles
        ],
    }


def pred(*tiles: tuple[tuple[float, float], int, tuple[float, float], int]) -> list[PredTile]:
    return [PredTile((PredHalf(p, a), PredHalf(q, b))) for p, a, q, b in tiles]


def test_ddd_all_right() -> None:
    t = truth(("8H", 6, "8I", 1), ("1A", 0, "2A", 3))
    p = pred(
        (cell_centre("8H"), 6, cell_centre("8I"), 1),
        ((cell_centre("1A")[0] + 3, cell_centre("1A")[1]), 0, cell_centre("2A"), 3),
    )
    s = score_ddd(t, p)
    assert (s.halves_correct, s.tiles_correct, s.false_pos, s.duplicates) == (4, 2, 0, 0)


def test_ddd_wrong_pips_missing_half_outside_duplicate_and_false() -> None:
    t = truth(("8H", 6, "8I", 1), ("1A", 0, "2A", 3))
    p = pred(
        (cell_centre("8H"), 5, cell_centre("8I"), 1),  # one wrong half: tile wrong
        ((cell_centre("8I")[0] + 2, cell_centre("8I")[1]), 1, cell_centre("5E"), 2),  # dup+false
        ((50.0, 50.0), 3, (60.0, 50.0), 3),  # outside the grid: ignored
    )
    s = score_ddd(t, p)
    assert s.halves_correct == 1 and s.halves_found == 2 and s.tiles_correct == 0
    assert s.duplicates == 1 and s.false_pos == 1 and s.false_tiles == 1 and s.outside == 2
    assert s.confusion[6, 5] == 1 and s.confusion[1, 1] == 1
    assert s.confusion[0, COL_MISS] == 1 and s.confusion[3, COL_MISS] == 1
    assert s.confusion[ROW_EMPTY, 2] == 1


def test_ddd_two_halves_from_different_tiles_do_not_make_a_tile() -> None:
    t = truth(("8H", 6, "8I", 1))
    p = pred(
        (cell_centre("8H"), 6, cell_centre("9H"), 2),
        (cell_centre("8I"), 1, cell_centre("9I"), 2),
    )
    s = score_ddd(t, p)
    assert s.halves_correct == 2 and s.tiles_correct == 0


def test_ddd_counts_the_sure_tiles_that_are_not_a_tile_read_right() -> None:
    t = truth(("8H", 6, "8I", 1), ("1A", 0, "2A", 3), ("5E", 2, "5F", 2))
    right, misread, across = pred(
        (cell_centre("8H"), 6, cell_centre("8I"), 1),
        (cell_centre("1A"), 0, cell_centre("2A"), 4),
        (cell_centre("5F"), 2, cell_centre("5G"), 2),  # one half on an empty cell
    )
    outside = PredTile((PredHalf((50.0, 50.0), 3), PredHalf((60.0, 50.0), 3)))
    assert score_ddd(t, [right, misread, across, outside]).sure_wrong == 2
    unsure = PredTile(misread.halves, sure=False)
    assert score_ddd(t, [right, unsure, across, outside]).sure_wrong == 1


def test_generic_counts_the_sure_tiles_that_are_not_a_tile_read_right() -> None:
    truth_tiles = pred(((0, 0), 3, (40, 0), 9), ((0, 100), 1, (40, 100), 1))
    right, misread, false = pred(
        ((0, 0), 3, (40, 0), 9), ((0, 100), 1, (40, 100), 2), ((200, 200), 1, (240, 200), 1)
    )
    assert score_generic(truth_tiles, [right, misread, false]).sure_wrong == 2
    unsure = PredTile(false.halves, sure=False)
    assert score_generic(truth_tiles, [right, misread, unsure]).sure_wrong == 1


def test_parse_prediction_reads_the_sure_flag() -> None:
    half = {"center": [1, 2], "pips": 1}
    tiles = parse_prediction(
        {"tiles": [{"halves": [half, half], "sure": False}, {"halves": [half, half]}]}
    )
    assert [t.sure for t in tiles] == [False, True]


def test_parse_prediction_is_lenient() -> None:
    tiles = parse_prediction(
        {
            "tiles": [
                {"halves": [{"center": [1, 2], "pips": 7.0}, {"center_px": [3, 4], "pips": True}]},
                {"halves": [{"center": ["x"], "pips": 1}, "junk"]},
                "junk",
            ]
        }
    )
    assert tiles[0].halves == (PredHalf((1.0, 2.0), 7), PredHalf((3.0, 4.0), None))
    assert tiles[1].halves == ()


def test_generic_matching_in_either_half_order() -> None:
    truth_tiles = pred(((0, 0), 3, (40, 0), 9))
    s = score_generic(truth_tiles, pred(((41, 1), 9, (1, -1), 3)))
    assert s.tiles_correct == 1 and s.false_tiles == 0
    s = score_generic(truth_tiles, pred(((41, 1), 9, (1, -1), 4), ((200, 200), 1, (240, 200), 1)))
    assert s.tiles_correct == 0 and s.halves_correct == 1 and s.false_tiles == 1


def test_generic_ignore_drops_readings_of_hidden_tiles() -> None:
    truth_tiles = pred(((0, 0), 3, (40, 0), 9))
    hidden = pred(((200, 200), 1, (240, 200), 1))
    s = score_generic(
        truth_tiles, pred(((0, 0), 3, (40, 0), 9), ((201, 200), 1, (240, 201), 2)), hidden
    )
    assert s.tiles_correct == 1 and s.false_tiles == 0 and s.pred_tiles == 1


def test_synthetic_set_round_trip(tmp_path: Path) -> None:
    path = write_synthetic_set(tmp_path / "set", 3, seed=20)
    doc = json.loads(path.read_text())
    assert doc["format"] == "domino-table/recognition-truth" and len(doc["images"]) == 3
    items = load_truth_dir(tmp_path / "set")
    assert [i.name for i in items] == ["scene_0020.png", "scene_0021.png", "scene_0022.png"]
    seen: list[int] = []
    report = evaluate_dir(tmp_path / "set", progress=lambda done, total, name: seen.append(done))
    s = report.summary()
    assert seen == [1, 2, 3]
    assert s["tile_accuracy"] == 1.0 and s["false_tiles"] == 0
    assert s["truth_tiles"] == sum(len(i["tiles"]) for i in doc["images"])


def test_evaluate_synthetic_counts_every_tile() -> None:
    report = evaluate_synthetic(2, seed=40, pip_diameter_px=5.0)
    s = report.summary()
    assert s["truth_tiles"] == 56 and s["tile_accuracy"] == 1.0
    assert "tile identity" in report.format_text()


@pytest.mark.parametrize(
    "content",
    [
        None,
        "not json",
        '{"format": "other", "images": []}',
        '{"format": "domino-table/recognition-truth", "images": [{"image": "a.png", "tiles": '
        '[{"halves": [{"center": [1, 2], "pips": 11}, {"center": [3, 4], "pips": 1}]}]}]}',
        '{"format": "domino-table/recognition-truth", "images": [{"image": "a.png", "tiles": '
        '[{"halves": [{"center": [1, 2], "pips": 1}]}]}]}',
    ],
)
def test_malformed_truth_is_refused(tmp_path: Path, content: str | None) -> None:
    if content is not None:
        (tmp_path / "recognition-truth.json").write_text(content)
    with pytest.raises(TruthFormatError):
        load_truth_dir(tmp_path)


def test_eval_cli_json_on_a_generic_set(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_synthetic_set(tmp_path, 2, seed=30)
    assert main(["vision", "eval", str(tmp_path), "--json"]) == 0
    out, err = capsys.readouterr()
    s = json.loads(out)
    assert s["kind"] == "generic" and s["images"] == 2 and s["tile_accuracy"] == 1.0
    assert len(s["confusion"]) == 11 and len(s["confusion"][0]) == 12
    assert "[2/2]" in err  # progress


def test_eval_cli_synthetic_text(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["vision", "eval", "--synthetic", "1", "--seed", "3", "--quiet"]
    assert main(args) == 0
    out, err = capsys.readouterr()
    assert "tile identity" in out and err == ""
    assert main([*args, "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["kind"] == "synthetic" and summary["truth_tiles"] == 28
    assert summary["tiles_correct"] > 20 and summary["false_tiles"] == summary["sure_wrong"] == 0


def test_eval_cli_needs_a_directory_or_synthetic() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["vision", "eval"])
    assert exc.value.code == 2


def test_eval_cli_on_a_folder_without_truth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["vision", "eval", str(tmp_path)]) == 2
    assert "no recognition-truth.json" in capsys.readouterr().err


def test_eval_on_ddd_dev_subset(tmp_path: Path) -> None:
    # Score three real photos through the ddd path by pointing an index at them.
    src = ddd_dev_dir()
    index = json.loads((src / "index.json").read_text())
    items = load_truth_dir(src)
    assert len(items) == index["n_images"] == 100
    picked = [i for i in items if i.name in {"1_05.jpg", "3_20.jpg", "5_13.jpg"}]
    from vision.devtools.evaluation.report import EvalReport
    from vision.devtools.evaluation.runner import _score, read_image
    from vision.recognition import identify

    report = EvalReport(source="subset", kind="ddd")
    for item in picked:
        report.images.append(_score(item, identify(read_image(item.path))))
    s = report.summary()
    assert s["half_pip_accuracy"] == 1.0 and s["false_tiles"] == 0


def test_report_groups_tile_identity_by_image_size_and_pip_diameter() -> None:
    from vision.devtools.evaluation.report import EvalReport, ImageResult
    from vision.devtools.evaluation.scoring import ImageScore

    def result(name: str, tiles: int, correct: int, pip: float, size: str) -> ImageResult:
        score = ImageScore(truth_tiles=tiles, tiles_correct=correct)
        return ImageResult(name, score, 0.0, 0, pip_diameter_px=pip, size=size)

    report = EvalReport("x", "generic")
    report.images += [
        result("a", 10, 9, 4.2, "1280x720"),
        result("b", 4, 4, 4.4, "1280x720"),
        result("c", 6, 6, 6.8, "1920x1080"),
    ]
    assert report.by_group() == {
        "size": {"1280x720": (14, 13, 0), "1920x1080": (6, 6, 0)},
        "pip_diameter_px": {"4.0-4.5": (14, 13, 0), "6.5-7.0": (6, 6, 0)},
    }
    assert "1280x720" in report.format_text()
    groups = report.summary()["by_group"]
    assert groups["size"]["1920x1080"] == {"tiles": 6, "correct": 6, "false_tiles": 0}  # type: ignore[index]


def _counts(report: EvalReport) -> list[tuple[str, dict[str, int], list[str]]]:
    return [
        (r.name.rsplit("/", 1)[-1].removesuffix(".png"), _image_counts(r), r.score.wrong)
        for r in report.images
    ]


def _image_counts(r: ImageResult) -> dict[str, int]:
    s = r.score
    return {
        "truth": s.truth_tiles,
        "pred": s.pred_tiles,
        "correct": s.tiles_correct,
        "false": s.false_tiles,
    }


def test_a_sweep_read_in_memory_scores_as_its_stills_rendered_to_disk(tmp_path: Path) -> None:
    # Scenes 3 and 4 of sweep 5: rendered to PNG by `fixture render-stills` and scored by
    # `vision eval DIR`, then drawn in memory by `vision eval --sweep` (in two processes).
    # Same images, same truth: the same scores, scene by scene, and the same sizes and pips.
    assert (
        main(
            [
                "fixture",
                "render-stills",
                "--out",
                str(tmp_path),
                "--count",
                "5",
                "--seed",
                "5",
                "--quiet",
            ]
        )
        == 0
    )
    doc = json.loads((tmp_path / "recognition-truth.json").read_text())
    doc["images"] = doc["images"][3:]
    (tmp_path / "recognition-truth.json").write_text(json.dumps(doc))
    on_disk = evaluate_dir(tmp_path)
    seen: list[str] = []
    in_memory = evaluate_sweep(
        5, 2, first=3, jobs=2, progress=lambda done, total, name: seen.append(name)
    )
    assert seen == ["5/0003", "5/0004"]
    assert _counts(in_memory) == _counts(on_disk)
    assert in_memory.summary()["truth_tiles"] == sum(len(i["tiles"]) for i in doc["images"]) > 0
    assert [r.size for r in in_memory.images] == [r.size for r in on_disk.images]
    assert [r.pip_diameter_px for r in in_memory.images] == pytest.approx(
        [i["pip_diameter_px"] for i in doc["images"]], abs=0.01
    )


def test_eval_cli_sweep_reads_the_scenes_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vision", "eval", "--sweep", "7", "--first", "10", "--count", "1", "--json"]) == 0
    out, err = capsys.readouterr()
    s = json.loads(out)
    assert s["images"] == 1 and s["source"].endswith("scenes 10-10") and "[1/1] 7/0010" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["--sweep", "1", "--count", "0"],
        ["--sweep", "1", "--first", "-1"],
        ["--sweep", "1", "--jobs", "0"],
        ["--sweep", "1", "--synthetic", "2"],
        ["--synthetic", "2", "--jobs", "2"],
        ["somewhere", "--count", "3"],
    ],
)
def test_eval_cli_refuses_sweep_options_that_do_not_fit(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["vision", "eval", *argv])
    assert exc.value.code == 2
    assert "error:" in capsys.readouterr().err
