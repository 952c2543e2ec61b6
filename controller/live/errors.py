"""Errors of the live-state package.

``LiveError`` is the root; once ``controller.errors.ControllerError`` exists it should derive from
it (kept local so this package lands independently).
"""

from __future__ import annotations


class LiveError(Exception):
    """Root of every error raised by :mod:`controller.live`."""


class LiveConfigError(LiveError, ValueError):
    """Unusable settings (bad broker URL, TLS files missing...)."""

    exit_code = 2


class PayloadError(LiveError, ValueError):
    """An MQTT payload that is refused: oversized, malformed, unknown schema or invalid."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason


class BrokerError(LiveError, RuntimeError):
    """A broker could not be started, reached or stopped."""

    exit_code = 2
