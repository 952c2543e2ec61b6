"""Seat-link benchmarks for ``domino-table bench``.

- Presses through the fault injector (1% bit flips, 1% dropped bytes, garbage bursts, truncated
  chunks) between the host and device state machines on simulated time: how many arrive exactly
  once and in order, how many phantoms.
- Unplug/replug of the simulated device on a real pty: time until the link is back and every LED
  is confirmed as the host last set it.
- Host CPU of an idle link (heartbeats only), the simulator in another process.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time

from firmware_bridge.bridge import Backoff, Bridge
from firmware_bridge.faults import FaultRates, LossyLink
from firmware_bridge.ports import SerialPortFactory
from firmware_bridge.sim import PtyDevice
from firmware_bridge.types import ButtonGesture, Gesture, LedState, LinkUp, Pattern

Row = dict[str, object]

FAULTS = FaultRates(bit_flip=0.01, drop=0.01, garbage_burst=0.02, truncate=0.005)
LEDS = (
    LedState(0, 255, 0, Pattern.SOLID),
    LedState(255, 0, 0, Pattern.BLINK),
    LedState(0, 0, 255, Pattern.PULSE),
    LedState(255, 160, 0, Pattern.SOLID),
)


def run_benchmarks(quick: bool) -> list[dict[str, object]]:
    rows = bench_lossy_presses(2_000 if quick else 10_000)
    rows += bench_relink(2 if quick else 5)
    rows += bench_idle_cpu(3.0 if quick else 10.0)
    return rows


def bench_lossy_presses(count: int, seed: int = 1) -> list[Row]:
    link = LossyLink(rates=FAULTS, seed=seed)
    link.run(0.5)
    rng = random.Random(seed)
    sent: list[tuple[int, Gesture]] = []
    started = time.perf_counter()
    for _ in range(count):
        seat, gesture = rng.randrange(4), rng.choice(list(Gesture))
        link.device.press(link.now, seat, gesture)
        sent.append((seat, gesture))
        link.run(rng.choice((0.02, 0.05, 0.1, 0.2)))  # bursts faster than any player
    link.run(5.0)
    elapsed = time.perf_counter() - started
    got = [(e.seat, e.gesture) for e in link.events if isinstance(e, ButtonGesture)]
    exact = sum(1 for a, b in zip(sent, got, strict=False) if a == b)
    in_order = got == sent
    wrong = sum(1 for a, b in zip(sent, got, strict=False) if a != b)
    phantoms = max(len(got) - len(sent), 0) + wrong
    c = link.to_host.counts
    note = (
        f"{'all in order' if in_order else 'ORDER BROKEN'}; {c.bits_flipped} bits flipped, "
        f"{c.bytes_dropped} bytes dropped, {c.bursts} garbage bursts towards the host; "
        f"{link.host.stats.frames_corrupt} corrupt frames dropped, "
        f"{link.host.stats.duplicates} duplicate frames suppressed; {link.now:.0f} s simulated "
        f"in {elapsed:.1f} s"
    )
    return [
        {
            "name": f"seat link: presses delivered exactly once, in order ({count} sent)",
            "value": exact,
            "unit": "presses",
            "target": f"== {count}",
            "note": note,
        },
        {
            "name": "seat link: phantom presses",
            "value": phantoms,
            "unit": "presses",
            "target": "== 0",
            "note": f"presses lost on the device: {link.host.stats.lost}",
        },
    ]


def bench_relink(rounds: int) -> list[Row]:
    times: list[float] = []
    with (
        PtyDevice() as device,
        Bridge(SerialPortFactory(device.path), backoff=Backoff(0.05, 1.0)) as bridge,
    ):
        _wait(lambda: bridge.leds_confirmed or _up(bridge), 10.0)
        bridge.set_leds(LEDS)
        _wait(lambda: bridge.leds_confirmed, 10.0)
        for _ in range(rounds):
            device.unplug()
            _wait(lambda: not bridge.leds_confirmed, 10.0)
            time.sleep(1.0)  # unplugged long enough for the backoff to grow
            started = time.monotonic()
            device.replug()
            _wait(lambda: bridge.leds_confirmed and device.leds == LEDS, 10.0)
            times.append(time.monotonic() - started)
    return [
        {
            "name": "seat link: relink after unplug/replug, LEDs restored (worst)",
            "value": round(max(times), 3),
            "unit": "s",
            "target": "<= 2",
            "note": f"median {statistics.median(times):.3f} s over {rounds} replugs on a pty",
        }
    ]


def bench_idle_cpu(seconds: float) -> list[Row]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.cli.sim", "--no-keyboard"],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        path = proc.stdout.readline().strip()
        with Bridge(SerialPortFactory(path)) as bridge:
            _wait(lambda: bridge.leds_confirmed or _up(bridge), 10.0)
            time.sleep(0.5)
            cpu0, wall0 = time.process_time(), time.monotonic()
            time.sleep(seconds)
            cpu = time.process_time() - cpu0
            wall = time.monotonic() - wall0
            frames = bridge.link.stats.frames_ok
    finally:
        proc.terminate()
        proc.wait(timeout=5)
    return [
        {
            "name": "seat link: host CPU, idle link with heartbeats",
            "value": round(100 * cpu / wall, 3),
            "unit": "% of a core",
            "target": "<= 1",
            "note": f"time.process_time over {wall:.1f} s; {frames} frames received in total",
        }
    ]


def _up(bridge: Bridge) -> bool:
    seen = []
    while not bridge.events.empty():
        seen.append(bridge.events.get_nowait())
    return any(isinstance(e, LinkUp) for e in seen)


def _wait(condition: object, timeout: float) -> None:
    assert callable(condition)
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("seat link benchmark: condition not met in time")
        time.sleep(0.005)


if __name__ == "__main__":  # pragma: no cover
    import json

    for row in run_benchmarks(quick="--quick" in sys.argv):
        print(json.dumps(row))
