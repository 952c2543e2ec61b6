"""The camera and the seat device's port, opened from the config (``run``, ``record`` and the
preflight check share them): a missing or unusable one is one clear error naming the fix.
"""

from __future__ import annotations

import os
from typing import Any, Protocol

from controller.runtime.core import TableRuntimeError


class DeviceConfig(Protocol):
    """What of the run config (:class:`controller.runtime.config.RunConfig`) the devices need."""

    @property
    def camera(self) -> str: ...

    @property
    def fps(self) -> float | None: ...

    @property
    def serial(self) -> str: ...


def open_camera(config: DeviceConfig) -> Any:
    from vision.errors import VisionError
    from vision.sources import open_source

    try:
        return open_source(config.camera, fps=config.fps)
    except (VisionError, OSError) as exc:
        # the source's message names the camera and what failed: say it once, with the fix
        raise TableRuntimeError(
            f"{exc} (is it plugged in? set [camera] source or DOMINO_CAMERA)"
        ) from None


def serial_factory(config: DeviceConfig) -> Any:
    """A port factory for the seat device, checked once now."""
    from firmware_bridge.errors import BridgeError
    from firmware_bridge.ports import SerialPortFactory

    path = None if config.serial == "auto" else config.serial
    factory = SerialPortFactory(path)
    try:
        resolved = factory.resolve()
    except (BridgeError, OSError) as exc:
        raise TableRuntimeError(
            f"seat device not found: {exc} (plug it in, or set [serial] port / DOMINO_SERIAL_PORT)"
        ) from None
    if not os.path.exists(resolved):
        raise TableRuntimeError(
            f"seat device {resolved} does not exist (plug it in, or set [serial] port)"
        )
    if not os.access(resolved, os.R_OK | os.W_OK):
        raise TableRuntimeError(
            f"seat device {resolved}: no permission to read and write it (add the user to the "
            "dialout group)"
        )
    return factory
