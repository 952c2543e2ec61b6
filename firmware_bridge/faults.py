"""Fault injection between host and device: a byte transformer and an in-process link harness.

The same :class:`FaultInjector` sits in the pty proxy (:mod:`firmware_bridge.sim`) and in the
in-process :class:`LossyLink` that the tests and benchmarks drive with a fake clock.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from firmware_bridge.device import DeviceCore
from firmware_bridge.link import HostLink, LinkTiming
from firmware_bridge.types import BridgeEvent, LedState


@dataclass(frozen=True, slots=True)
class FaultRates:
    """Per-byte rates for flips and drops; per-chunk rates for bursts and truncation."""

    bit_flip: float = 0.0
    drop: float = 0.0
    garbage_burst: float = 0.0
    truncate: float = 0.0
    max_burst: int = 40


@dataclass(slots=True)
class FaultCounts:
    bits_flipped: int = 0
    bytes_dropped: int = 0
    bursts: int = 0
    truncations: int = 0


@dataclass(slots=True)
class FaultInjector:
    """Corrupts a byte stream chunk by chunk; seeded, so every run is reproducible."""

    rates: FaultRates
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    counts: FaultCounts = field(default_factory=FaultCounts)

    def apply(self, data: bytes) -> bytes:
        r = self.rates
        rng = self.rng
        if not data:
            return data
        out = bytearray()
        for byte in data:
            if r.drop and rng.random() < r.drop:
                self.counts.bytes_dropped += 1
                continue
            flip = 0
            if r.bit_flip and rng.random() < r.bit_flip:
                flip = 1 << rng.randrange(8)
                self.counts.bits_flipped += 1
            out.append(byte ^ flip)
        if r.truncate and out and rng.random() < r.truncate:
            del out[rng.randrange(len(out)) :]
            self.counts.truncations += 1
        if r.garbage_burst and rng.random() < r.garbage_burst:
            at = rng.randrange(len(out) + 1)
            out[at:at] = rng.randbytes(rng.randint(1, r.max_burst))
            self.counts.bursts += 1
        return bytes(out)


class LossyLink:
    """Host core and device core joined through two fault injectors, on simulated time."""

    def __init__(
        self,
        *,
        rates: FaultRates,
        seed: int = 0,
        seats: int = 4,
        step: float = 0.005,
        timing: LinkTiming | None = None,
    ) -> None:
        rng = random.Random(seed)
        self.now = 0.0
        self.step = step
        self.host = HostLink(seats=seats, timing=timing)
        self.device = DeviceCore(seats=seats, rng=random.Random(rng.random()))
        self.to_host = FaultInjector(rates, random.Random(rng.random()))
        self.to_device = FaultInjector(rates, random.Random(rng.random()))
        self.events: list[BridgeEvent] = []
        self.plugged = True
        self.device.boot(self.now)
        self.host.connection_made(self.now)

    def run(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end:
            self.advance()

    def advance(self) -> None:
        """One step: both sides tick, bytes cross (corrupted) in both directions."""
        self.now += self.step
        self.device.tick(self.now)
        self.host.tick(self.now)
        to_host = self.device.take_output()
        to_device = self.host.take_output()
        if self.plugged:
            self.host.receive(self.now, self.to_host.apply(to_host))
            self.device.receive(self.now, self.to_device.apply(to_device))
        self.events.extend(self.host.take_events())

    def unplug(self) -> None:
        """USB gone: the host sees the port vanish, the device loses power."""
        self.plugged = False
        self.host.connection_lost(self.now, "port vanished")

    def replug(self) -> None:
        self.plugged = True
        self.device.reboot(self.now)
        self.host.connection_made(self.now)

    def set_leds(self, states: tuple[LedState, ...]) -> None:
        self.host.set_leds(self.now, states)
