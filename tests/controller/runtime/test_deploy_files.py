"""The deployment files in hardware/deploy are valid and agree with the code."""

from __future__ import annotations

import configparser
from pathlib import Path

from controller.cli import build_parser
from controller.runtime.config import load_config
from firmware_bridge.ports import MICROPYTHON_PID, PICO_VID

DEPLOY = Path(__file__).resolve().parents[3] / "hardware" / "deploy"


def test_example_config_loads() -> None:
    config = load_config(DEPLOY / "table.example.toml", env={})
    assert config.table == "table-1"
    assert config.preset == "latin"
    assert config.options == {"target": 100}
    assert config.seats == ("Ana", "Beto", "Carla", "Dani")


def test_systemd_unit_runs_the_run_command() -> None:
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.read(DEPLOY / "domino-table.service")
    argv = unit["Service"]["ExecStart"].split()
    assert argv[0].endswith("/domino-table")
    args = build_parser().parse_args(argv[1:])
    assert args.command == "run"
    assert unit["Service"]["Restart"] == "always"


def test_udev_rule_matches_the_seat_device() -> None:
    rule = (DEPLOY / "99-domino-seats.rules").read_text()
    assert f'ATTRS{{idVendor}}=="{PICO_VID:04x}"' in rule
    assert f'ATTRS{{idProduct}}=="{MICROPYTHON_PID:04x}"' in rule
    assert 'ENV{ID_MM_DEVICE_IGNORE}="1"' in rule
