"""Fixture button scripts and the ``device-sim`` command's registration."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.cli import main
from firmware_bridge.errors import FixtureError
from firmware_bridge.sim import ScriptedPress, load_buttons
from firmware_bridge.types import Gesture


def test_buttons_jsonl_is_read_sorted_and_validated(tmp_path: Path) -> None:
    path = tmp_path / "buttons.jsonl"
    path.write_text('{"t": 2.5, "seat": 3, "gesture": "long"}\n\n{"t": 1, "seat": 0}\n')
    assert load_buttons(path) == [
        ScriptedPress(1.0, 0, Gesture.SHORT),
        ScriptedPress(2.5, 3, Gesture.LONG),
    ]


@pytest.mark.parametrize(
    "line",
    [
        "not json",
        '{"seat": 1}',
        '{"t": 1, "seat": 4}',
        '{"t": -1, "seat": 0}',
        '{"t": 1, "seat": 0, "gesture": "triple"}',
    ],
)
def test_bad_button_line_names_the_line(tmp_path: Path, line: str) -> None:
    path = tmp_path / "buttons.jsonl"
    path.write_text('{"t": 0, "seat": 0}\n' + line + "\n")
    with pytest.raises(FixtureError, match=r"buttons.jsonl:2"):
        load_buttons(path)


def test_device_sim_is_a_sub_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["device-sim", "--help"])
    assert exc.value.code == 0
    assert "--buttons" in capsys.readouterr().out


def test_bench_rows_have_the_shared_shape() -> None:
    from firmware_bridge.bench.link import bench_lossy_presses

    rows = bench_lossy_presses(200)
    assert {tuple(sorted(r)) for r in rows} == {("name", "note", "target", "unit", "value")}
    delivered, phantoms = rows
    assert delivered["value"] == 200
    assert phantoms["value"] == 0
