"""The table's one clock, injected wherever time is read. The pure cores (rules, table session,
frame codec, vision stages) read none: time comes in their inputs.

:class:`Clock` is what the shells need: wall-clock seconds (payload timestamps), monotonic seconds
(durations, pacing, live frame times, link deadlines) and a sleep. :class:`SystemClock` is the real
one; :class:`FakeClock` moves only when told to (:meth:`~FakeClock.advance`,
:meth:`~FakeClock.advance_to`) or slept on, never reads the real clock, and may be shared by
threads.
"""

from __future__ import annotations

import threading
import time
from typing import Protocol


class Clock(Protocol):
    """Wall-clock seconds (timestamps), monotonic seconds (durations, pacing) and a sleep."""

    def time(self) -> float: ...

    def monotonic(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real clocks. Sleeping for no time or less returns at once."""

    def time(self) -> float:
        return time.time()

    def monotonic(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class FakeClock:
    """A clock that moves only when told to or slept on; it never reads the real clock.

    ``wall`` is its wall-clock time (:meth:`time`), ``monotonic`` its monotonic time; both move
    together. Reads and moves are safe from several threads.
    """

    def __init__(self, *, wall: float = 1_700_000_000.0, monotonic: float = 0.0) -> None:
        self._wall = wall
        self._mono = monotonic
        self._lock = threading.Lock()

    def time(self) -> float:
        with self._lock:
            return self._wall

    def monotonic(self) -> float:
        with self._lock:
            return self._mono

    def sleep(self, seconds: float) -> None:
        """Time passes at once; no time or less (a deadline already past) moves nothing."""
        if seconds > 0:
            self.advance(seconds)

    def advance(self, seconds: float) -> None:
        """Move both clocks ``seconds`` forward."""
        if seconds < 0:
            raise ValueError(f"a clock does not go backwards (advance by {seconds})")
        with self._lock:
            self._wall += seconds
            self._mono += seconds

    def advance_to(self, monotonic: float) -> None:
        """Move both clocks forward until :meth:`monotonic` reads ``monotonic`` (a replay sets it
        to each frame's time)."""
        with self._lock:
            step = monotonic - self._mono
            if step < 0:
                raise ValueError(
                    f"a clock does not go backwards (from {self._mono} to {monotonic})"
                )
            self._wall += step
            self._mono = monotonic
