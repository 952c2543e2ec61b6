"""Port discovery, backoff and the clock fakes."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from firmware_bridge.bridge import Backoff
from firmware_bridge.errors import PortNotFoundError
from firmware_bridge.ports import SerialPortFactory, find_device_ports


def test_by_id_names_of_micropython_boards_are_found(tmp_path: Path) -> None:
    target = tmp_path / "ttyACM7"
    target.touch()
    os.symlink(target, tmp_path / "usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00")
    os.symlink(target, tmp_path / "usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0")
    found = find_device_ports(by_id_dir=str(tmp_path))
    assert found == [str(tmp_path / "usb-MicroPython_Board_in_FS_mode_e6614c311b7e6f35-if00")]


def test_no_device_is_a_clear_error(tmp_path: Path) -> None:
    factory = SerialPortFactory(vid=0xFFFF, pid=0xFFFF)
    with pytest.raises(PortNotFoundError, match="ffff:ffff"):
        factory.resolve()


def test_backoff_grows_to_its_limit_and_resets() -> None:
    backoff = Backoff(0.05, 0.3)
    assert [backoff.next() for _ in range(5)] == [0.05, 0.1, 0.2, 0.3, 0.3]
    backoff.reset()
    assert backoff.next() == 0.05
