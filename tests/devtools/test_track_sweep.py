"""``vision track-sweep``: rendered fixtures over the render sweep, tracked and compared with truth;
and :func:`vision.tracking.truth.compare_with_truth`, the comparison it (and the bench) uses."""

import json
from pathlib import Path

import pytest

from controller.cli import main
from vision.devtools import track_sweep as sweep_module
from vision.devtools.render.scene import RenderParams, sweep_params
from vision.devtools.track_sweep import SWEEP_RESOLUTIONS, sweep_points, track_sweep
from vision.events import SceneSettled, TileAdded
from vision.tracking.truth import compare_with_truth
from vision.types import SceneReading

SMALL = (480, 270)


def _blind(image: object, /) -> SceneReading:
    """A recogniser that never sees a tile: every fixture differs from truth, deterministically."""
    return SceneReading((), SMALL[0], SMALL[1])


def _add(t: float, pips: tuple[int, int], end: str) -> TileAdded:
    corners = ((0.0, 0.0), (1.0, 0.0), (1.0, 2.0), (0.0, 2.0))
    return TileAdded(t, pips, end, corners, 0.0, False, "mm")  # type: ignore[arg-type]


TRUTH = {
    "moves": [
        {"tile": "6-6", "end": "first", "t_settled": 2.0},
        {"kind": "pass", "seat": 2},
        {"tile": "3-6", "end": "left", "t_settled": 4.0},
        {"tile": "6-1", "end": "right", "t_settled": 6.0},
    ]
}


def test_comparison_equal_ignores_pip_order_and_times() -> None:
    events = [
        SceneSettled(1.9, 1),
        _add(2.1, (6, 6), "first"),
        _add(4.5, (6, 3), "left"),
        _add(6.2, (6, 1), "right"),
    ]
    c = compare_with_truth(TRUTH, events)
    assert c.equal
    assert c.expected == (("6-6", "first"), ("3-6", "left"), ("1-6", "right"))
    assert c.first_difference() is None


def test_comparison_names_the_first_difference() -> None:
    wrong_end = [_add(2.0, (6, 6), "first"), _add(4.0, (6, 3), "right")]
    c = compare_with_truth(TRUTH, wrong_end)
    assert not c.equal
    assert c.first_difference() == (
        "add 2 of 3: truth 3-6 at left (t=4.00), tracked 3-6 at right (t=4.00) (2 adds tracked)"
    )
    missing = compare_with_truth(TRUTH, wrong_end[:1])
    assert missing.first_difference() == (
        "add 2 of 3: truth 3-6 at left (t=4.00), tracked nothing more (1 adds tracked)"
    )
    extra = compare_with_truth({"moves": TRUTH["moves"][:1]}, wrong_end)
    assert extra.first_difference() == (
        "add 2 of 1: truth has no more adds, tracked 3-6 at right (t=4.00) (2 adds tracked)"
    )


def test_sweep_points_cycle_resolutions_and_match_render_record() -> None:
    points = sweep_points(4, 10)
    sizes = [(p.params.width, p.params.height) for p in points]
    assert sizes == [*SWEEP_RESOLUTIONS, SWEEP_RESOLUTIONS[0]]
    assert (1280, 720) in sizes and (1920, 1080) in sizes
    # fixture i is what 'fixture render-record --seed S+i --sweep i --width W --height H' renders
    p = points[1]
    assert p.seed == 11
    assert p.params == sweep_params(1, 11, RenderParams(width=1920, height=1080))
    assert "--seed 11 --sweep 1 --width 1920 --height 1080" in p.command()
    assert sweep_points(2, 10, SMALL)[1].params.width == SMALL[0]


def test_a_blind_recogniser_differs_where_the_oracle_does_not(tmp_path: Path) -> None:
    (result,) = track_sweep(tmp_path, sweep_points(1, 5, SMALL), recognize=_blind)
    assert (result.fixture / "truth.json").is_file()
    assert not result.equal
    assert result.comparison.got == ()
    diff = result.comparison.first_difference()
    assert diff is not None and diff.startswith("add 1 of ")
    assert "at first" in diff and "tracked nothing more" in diff
    assert result.oracle_equal is True  # the video is trackable: recognition is what failed
    assert result.to_json()["first_difference"] == diff


def test_cli_reports_every_fixture_and_exits_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sweep_module, "_recogniser", lambda: _blind)
    argv = ["vision", "track-sweep", "--out", str(tmp_path), "--count", "2", "--seed", "3"]
    assert main([*argv, "--width", "480", "--height", "270"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[-1] == "0 of 2 fixtures equal truth"
    rows = [line for line in lines if line.startswith(("00 ", "01 "))]
    assert len(rows) == 2
    assert all("480x270" in r and "blur" in r and "noise" in r and " NO " in r for r in rows)
    assert out.count("first difference: add 1 of ") == 2
    assert out.count("oracle: equal") == 2
    assert "fixture 2/2 480x270 tracking" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["00", "01"]


def test_cli_json_with_the_real_recogniser(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["vision", "track-sweep", "--out", str(tmp_path), "--count", "1", "--json"]
    assert main([*argv, "--width", "480", "--height", "270", "--quiet"]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    fixture, summary = (json.loads(line) for line in out.splitlines())
    assert (fixture["index"], fixture["width"], fixture["height"]) == (0, 480, 270)
    assert isinstance(fixture["equal"], bool)
    assert fixture["adds_truth"] > 0
    assert (fixture["first_difference"] is None) == fixture["equal"]
    assert summary == {
        "summary": f"{int(fixture['equal'])} of 1 fixtures equal truth",
        "equal": int(fixture["equal"]),
        "count": 1,
    }


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--count", "0"], "--count must be 1 or more"),
        (["--seed", "-1"], "--seed must be 0 or more"),
        (["--width", "640"], "give both --width and --height"),
        (["--width", "100", "--height", "50"], "resolution 100x50 is too small"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    out_dir = tmp_path / "sweep"
    assert main(["vision", "track-sweep", "--out", str(out_dir), *extra]) == 2
    out, err = capsys.readouterr()
    assert message in err
    assert "Traceback" not in err
    assert out == ""
    assert not out_dir.exists()  # nothing rendered


def test_an_out_that_is_a_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    argv = ["vision", "track-sweep", "--out", str(target), "--count", "1"]
    assert main([*argv, "--width", "480", "--height", "270"]) == 2
    assert "exists and is not a directory" in capsys.readouterr().err


def test_an_unparsable_count_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["vision", "track-sweep", "--out", "x", "--count", "many"])
    assert exc.value.code == 2
    assert "invalid int value" in capsys.readouterr().err


def test_cli_tracks_with_the_tile_reader_for_a_double_six_set(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import vision.recognition

    calls: list[int] = []

    def blind_reader(image: object, /, *, max_pips: int) -> SceneReading:
        calls.append(max_pips)
        return _blind(image)

    monkeypatch.setattr(vision.recognition, "identify", blind_reader)
    argv = ["vision", "track-sweep", "--out", str(tmp_path), "--count", "1", "--quiet"]
    assert main([*argv, "--width", "480", "--height", "270"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "0 of 1 fixtures equal truth"
    assert calls and set(calls) == {6}  # the sample records are double-six
