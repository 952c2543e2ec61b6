"""The table runtime: the thin I/O shell around :mod:`controller.table` (camera or video,
seat device, journal, publisher). Heavy imports (OpenCV, pyserial) happen inside functions."""

from controller.live.port import FakePublisher, Publisher
from controller.runtime.core import TableRuntime, TableRuntimeError

__all__ = [
    "FakePublisher",
    "Publisher",
    "TableRuntime",
    "TableRuntimeError",
]
