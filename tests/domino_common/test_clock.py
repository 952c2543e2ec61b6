"""The table's one clock: the fake moves only when told to or slept on (both its clocks, from any
thread); the real one is a Clock and never sleeps backwards."""

from __future__ import annotations

import threading

import pytest

from domino_common.clock import Clock, FakeClock, SystemClock


def _pace(clock: Clock, seconds: float) -> float:
    start = clock.monotonic()
    clock.sleep(seconds)
    return clock.monotonic() - start


def test_the_fake_clock_moves_only_when_told_or_slept_on() -> None:
    clock = FakeClock(wall=100.0, monotonic=5.0)
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
    assert (clock.time(), clock.monotonic()) == (103.0, 8.0)


def test_the_fake_clock_starts_at_a_plausible_wall_time_and_zero() -> None:
    clock = FakeClock()
    assert clock.monotonic() == 0.0
    assert clock.time() == 1_700_000_000.0


def test_advance_to_sets_the_monotonic_time_and_refuses_the_past() -> None:
    clock = FakeClock(wall=1000.0, monotonic=2.0)
    clock.advance_to(2.0)
    clock.advance_to(3.5)
    assert (clock.time(), clock.monotonic()) == (1001.5, 3.5)
    with pytest.raises(ValueError, match=r"does not go backwards \(from 3.5 to 3.0\)"):
        clock.advance_to(3.0)
    assert (clock.time(), clock.monotonic()) == (1001.5, 3.5)


def test_the_fake_clock_loses_no_step_when_threads_share_it() -> None:
    clock = FakeClock(wall=0.0)
    steps = 2_000

    def tick() -> None:
        for _ in range(steps):
            clock.advance(1.0)
            clock.sleep(1.0)

    threads = [threading.Thread(target=tick) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert clock.monotonic() == clock.time() == 4 * steps * 2


def test_the_system_clock_is_a_clock_and_never_sleeps_backwards() -> None:
    clock: Clock = SystemClock()
    before = clock.monotonic()
    clock.sleep(-5.0)  # returns at once instead of raising
    clock.sleep(0.0)
    assert clock.monotonic() >= before
    assert clock.time() > 1_600_000_000
