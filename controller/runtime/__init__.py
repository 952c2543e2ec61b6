"""The table runtime: the thin I/O shell around :mod:`controller.table` (camera or video,
seat device, journal, publisher). Heavy imports (OpenCV, pyserial) happen inside functions."""

from controller.runtime.core import TableRuntime, TableRuntimeError
from controller.runtime.publisher import FanoutPublisher, MemoryPublisher, Publisher

__all__ = [
    "FanoutPublisher",
    "MemoryPublisher",
    "Publisher",
    "TableRuntime",
    "TableRuntimeError",
]
