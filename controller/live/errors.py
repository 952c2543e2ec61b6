"""Errors of the live-state package.

``LiveError`` is the root, under the controller's ``ControllerError``.
"""

from __future__ import annotations

from controller.errors import ControllerError


class LiveError(ControllerError):
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
