"""The controller's clock, injected wherever time is read (the table core reads none: time comes
in its inputs). One protocol for the runtime, the live side and the scoreboard: wall-clock
seconds for payload timestamps, a monotonic clock for durations and pacing, and sleeping.
:class:`FakeClock` moves only when told to or slept on; it never reads the real clock.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    """Wall-clock seconds (timestamps), monotonic seconds (durations, pacing) and a sleep."""

    def time(self) -> float: ...

    def monotonic(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real clocks."""

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class FakeClock:
    """A clock that moves only when told to (:meth:`advance`) or slept on; never reads the real
    clock. ``start`` is its wall-clock time, ``monotonic`` its monotonic time."""

    def __init__(self, start: float = 1_700_000_000.0, *, monotonic: float = 0.0) -> None:
        self._now = start
        self._mono = monotonic

    def time(self) -> float:
        return self._now

    def monotonic(self) -> float:
        return self._mono

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            self.advance(seconds)

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("a clock does not go backwards")
        self._now += seconds
        self._mono += seconds
