"""The controller's one clock: the fake moves only when told to or slept on, both its clocks."""

from __future__ import annotations

import pytest

from controller.clock import Clock, FakeClock, SystemClock


def _pace(clock: Clock, seconds: float) -> float:
    start = clock.monotonic()
    clock.sleep(seconds)
    return clock.monotonic() - start


def test_the_fake_clock_moves_only_when_told_or_slept_on() -> None:
    clock = FakeClock(100.0, monotonic=5.0)
    assert (clock.time(), clock.monotonic()) == (100.0, 5.0)
    assert (clock.time(), clock.monotonic()) == (100.0, 5.0)  # reading does not move it
    assert _pace(clock, 2.5) == 2.5
    assert (clock.time(), clock.monotonic()) == (102.5, 7.5)
    clock.sleep(-1.0)  # a deadline already past: no sleep, no time travel
    clock.sleep(0.0)
    assert (clock.time(), clock.monotonic()) == (102.5, 7.5)
    clock.advance(0.5)
    assert (clock.time(), clock.monotonic()) == (103.0, 8.0)
    with pytest.raises(ValueError, match="does not go backwards"):
        clock.advance(-1.0)


def test_the_system_clock_is_a_clock_and_never_sleeps_backwards() -> None:
    clock: Clock = SystemClock()
    before = clock.monotonic()
    clock.sleep(-5.0)  # returns at once instead of raising
    assert clock.monotonic() >= before
    assert clock.time() > 1_600_000_000
