"""Errors of the seat-device bridge."""

from __future__ import annotations


class BridgeError(Exception):
    """Root of every error raised by ``firmware_bridge``."""

    exit_code = 2


class FrameError(BridgeError, ValueError):
    """A frame from the port is corrupt (bad COBS, CRC, type or length)."""


class PortNotFoundError(BridgeError, OSError):
    """No seat device was found on any serial port."""


class FixtureError(BridgeError, ValueError):
    """A ``buttons.jsonl`` line is malformed."""
