"""More presets end to end through the demo pipeline: a two-hand bot match rendered as a small
fixture (640x360, read with the truth oracle), then ``demo --exit-when-done`` must give exactly
``replay`` of its truth record: draws pressed on the buttons, the table cleared between hands,
end-sum scoring, a partnership match whose first leader is found from a press."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from controller.cli import main
from controller.rules.options import build_rules
from controller.rules.record import parse_record, replay
from controller.rules.simulate import simulate


def _render(preset: str, out: Path) -> dict[str, object]:
    from vision.devtools.fixture_writer import render_fixture
    from vision.devtools.render.scene import RenderParams

    record = next(simulate(build_rules(preset), hands=2, seed=5)).to_record()
    record["hands"] = record["hands"][:2]
    render_fixture(record, out, seed=5, params=RenderParams(width=640, height=360))
    truth: dict[str, object] = json.loads((out / "truth.json").read_text(encoding="utf-8"))
    return truth


def _demo_result(fixture: Path, capsys: pytest.CaptureFixture[str]) -> object:
    """``demo --exit-when-done`` on a rendered fixture (truth oracle, terminal only)."""
    argv = ["demo", "--fixture", str(fixture), "--fixture-only", "--exit-when-done", "--quiet"]
    code = main(
        [*argv, "--speed", "1000", "--buttons", "direct", "--recogniser", "oracle", "--no-live"]
    )
    assert code == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
@pytest.mark.parametrize(
    "preset",
    ["latin", "international", "colombian", "draw", "block", "all_fives", "fives_and_threes"],
)
def test_a_rendered_two_hand_match_through_the_demo_scores_as_replay(
    preset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    truth = _render(preset, tmp_path / "fx")
    expected = replay(parse_record(truth["record"])).to_json()  # type: ignore[arg-type]
    assert _demo_result(tmp_path / "fx", capsys) == expected
    assert len(expected["hands"]) == 2


@pytest.mark.slow
def test_fixture_render_command_cuban_through_the_demo(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``fixture render --rules cuban``: the double-nine line fits (smaller tiles), the block is
    pressed by every seat in turn, and the demo scores it as replay does."""
    out = tmp_path / "cuban"
    argv = ["fixture", "render", "--rules", "cuban", "--seed", "5", "--out", str(out)]
    assert main([*argv, "--width", "640", "--height", "360", "--quiet"]) == 0
    capsys.readouterr()
    truth = json.loads((out / "truth.json").read_text(encoding="utf-8"))
    assert truth["record"]["rules"] == "cuban"
    expected = replay(parse_record(truth["record"])).to_json()
    assert _demo_result(out, capsys) == expected
    assert expected["hands"]
