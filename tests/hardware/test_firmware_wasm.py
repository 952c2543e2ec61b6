"""The firmware's logic under the real MicroPython interpreter (WebAssembly on Node.js).

Bytes cross between the firmware and the host's own codec and link state machine, so the two
implementations of the protocol are checked against each other, not against themselves.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from seat_firmware_runner import MicroPython

from firmware_bridge import codec
from firmware_bridge.codec import (
    Ack,
    Boot,
    Button,
    DevHeartbeat,
    DevHello,
    DeviceError,
    HostHeartbeat,
    HostHello,
    Leds,
    SetLed,
    SetLeds,
)
from firmware_bridge.faults import FaultInjector, FaultRates
from firmware_bridge.link import HostLink, LinkState
from firmware_bridge.types import (
    OFF,
    BridgeEvent,
    ButtonGesture,
    DeviceRebooted,
    Gesture,
    LedState,
    LinkUp,
    Pattern,
)

pytestmark = [pytest.mark.micropython, pytest.mark.timeout(120)]

HOST_MESSAGES: list[codec.Message] = [
    HostHello(1),
    HostHeartbeat(),
    Ack(7, 65535, 0b1000_0001),
    SetLeds((LedState(255, 0, 0, Pattern.BLINK), OFF, OFF, LedState(1, 2, 3, Pattern.PULSE))),
    SetLed(3, LedState(0, 9, 0, Pattern.SOLID)),
]


def test_firmware_decodes_host_frames_byte_for_byte(mpy: MicroPython) -> None:
    frames = [codec.encode(m) for m in HOST_MESSAGES]
    corrupted = bytearray(frames[2])
    corrupted[4] ^= 0x40
    stream = [b"\x03\x03garbage", *frames, bytes(corrupted), b"\xff" * 100 + b"\x00"]
    reply = mpy.call({"cmd": "decode", "frames": [f.hex() for f in stream]})
    assert [m[0] for m in reply["messages"]] == [codec.encode_body(m)[0] for m in HOST_MESSAGES]
    for (_, payload, again), msg, frame in zip(
        reply["messages"], HOST_MESSAGES, frames, strict=True
    ):
        assert bytes.fromhex(payload) == codec.encode_body(msg)[1:-4]
        assert bytes.fromhex(again) == frame
    assert reply["corrupt"] == 3  # the garbage run, the flipped bit, the too-long run


def test_host_decodes_firmware_frames(mpy: MicroPython) -> None:
    reply = mpy.call({"cmd": "encode"})
    assert reply["crc"] == 0xCBF43926
    expected: list[codec.Message] = [
        DevHello(1, (1, 2, 3), 4, codec.CAP_RGB, 0xFFFFFFFF, 12),
        DevHeartbeat(9, 0xBEEF, 3),
        Button(9, 42, 40, 2, Gesture.DOUBLE, 1234),
        Leds((OFF,) * 4),
        Boot(9, 1),
        DeviceError(codec.ErrorCode.VERSION, 2),
    ]
    assert [bytes.fromhex(f) for f in reply["frames"]] == [codec.encode(m) for m in expected]


def test_firmware_deframer_survives_random_bytes(mpy: MicroPython) -> None:
    rng = random.Random(5)
    chunks = [rng.randbytes(rng.randint(1, 120)).hex() for _ in range(300)]
    reply = mpy.call({"cmd": "decode", "frames": chunks})
    assert reply["messages"] == []
    assert reply["corrupt"] > 0


def press(t: int, ms: int) -> list[list[int]]:
    return [[t, 1], [t + ms, 0]]


def bouncy(t: int, ms: int) -> list[list[int]]:
    """Contact chatter for 8 ms at both edges, as a cheap push button does."""
    chatter = [[t + i, (i + 1) % 2] for i in range(0, 8, 2)]
    release = [[t + ms + i, i % 2] for i in range(0, 8, 2)] + [[t + ms + 8, 0]]
    return [*chatter, [t + 8, 1], *release]


SHORT, LONG, DOUBLE = 1, 2, 3


@pytest.mark.parametrize(
    ("timeline", "expected"),
    [
        (press(100, 120), [SHORT]),
        (bouncy(100, 150), [SHORT]),
        (press(100, 30), []),  # a 30 ms glitch is not a press
        ([[100, 1], [130, 0], [140, 1], [170, 0]], []),  # two glitches
        (press(100, 1500), [LONG]),
        (press(100, 120) + press(350, 120), [DOUBLE]),
        (bouncy(100, 120) + bouncy(330, 100), [DOUBLE]),
        (press(100, 120) + press(700, 120), [SHORT, SHORT]),
        (press(100, 600), [SHORT]),  # held past the double window, under a second
        (press(100, 120) + press(350, 1500), [DOUBLE]),  # the second press never turns long
    ],
    ids=[
        "short",
        "bouncy-short",
        "glitch",
        "two-glitches",
        "long",
        "double",
        "bouncy-double",
        "two-shorts",
        "slow-short",
        "double-then-hold",
    ],
)
def test_button_gestures(mpy: MicroPython, timeline: list[list[int]], expected: list[int]) -> None:
    reply = mpy.call({"cmd": "gestures", "timeline": timeline, "until": 4000, "step": 1})
    assert [g for _, g in reply["gestures"]] == expected


def test_gesture_timing(mpy: MicroPython) -> None:
    long_press = mpy.call({"cmd": "gestures", "timeline": press(100, 3000), "until": 4000})
    assert long_press["gestures"] == [[1100, LONG]]  # reported while still held
    short = mpy.call({"cmd": "gestures", "timeline": press(100, 100), "until": 4000})
    assert short["gestures"] == [[500, SHORT]]  # once it can no longer become a double


def test_led_patterns(mpy: MicroPython) -> None:
    states = [[0, 255, 0, 1], [255, 0, 0, 2], [0, 0, 255, 3], [9, 9, 9, 0]]
    frames = mpy.call({"cmd": "render", "states": states, "times": [0, 600, 1000]})["frames"]
    assert [f[0] for f in frames] == [[0, 255, 0]] * 3  # solid
    assert [f[1] for f in frames] == [[255, 0, 0], [0, 0, 0], [255, 0, 0]]  # blink 500/500
    assert frames[0][2][2] < 30 and frames[2][2][2] == 255  # pulse: dim, then full at 1 s
    assert [f[3] for f in frames] == [[0, 0, 0]] * 3  # off
    offline = mpy.call({"cmd": "render", "states": states, "times": [1000], "linked": False})
    assert offline["frames"][0] == [[40, 16, 0]] * 4  # no host: every seat breathes amber


class Lockstep:
    """The host's link state machine and the firmware, stepping 10 ms at a time."""

    def __init__(self, mpy: MicroPython, rates: FaultRates, seed: int = 0) -> None:
        self.mpy = mpy
        self.host = HostLink()
        self.to_device = FaultInjector(rates, random.Random(seed))
        self.to_host = FaultInjector(rates, random.Random(seed + 1))
        self.events: list[BridgeEvent] = []
        self.levels = [0, 0, 0, 0]
        self.ms = 0
        self.last: dict[str, Any] = {}
        self.boot = mpy.call({"cmd": "boot"})["boot"]
        self.host.connection_made(0.0)

    def run(self, ms: int, *, extra_rx: bytes = b"") -> None:
        for _ in range(ms // 10):
            rx = self.to_device.apply(self.host.take_output()) + extra_rx
            extra_rx = b""
            self.last = self.mpy.call(
                {"cmd": "run", "ms": 10, "rx": rx.hex(), "levels": self.levels}
            )
            self.ms += 10
            now = self.ms / 1000
            self.host.receive(now, self.to_host.apply(bytes.fromhex(self.last["tx"])))
            self.host.tick(now)
            self.events += self.host.take_events()

    def gesture(self, seat: int, gesture: Gesture) -> None:
        hold = {Gesture.SHORT: [120], Gesture.LONG: [1200], Gesture.DOUBLE: [100, 100]}[gesture]
        for i, ms in enumerate(hold):
            if i:
                self.run(100)
            self.levels[seat] = 1
            self.run(ms)
            self.levels[seat] = 0
        self.run(500)


def presses(events: list[BridgeEvent]) -> list[tuple[int, Gesture]]:
    return [(e.seat, e.gesture) for e in events if isinstance(e, ButtonGesture)]


def test_firmware_and_host_link_up_and_deliver_gestures(mpy: MicroPython) -> None:
    ls = Lockstep(mpy, FaultRates())
    ls.run(300)
    assert ls.events == [LinkUp(ls.boot, "1.1.0", 4)]
    wanted = (
        LedState(0, 255, 0, Pattern.SOLID),
        OFF,
        LedState(255, 0, 0, Pattern.SOLID),
        LedState(0, 0, 255, Pattern.SOLID),
    )
    ls.host.set_leds(ls.ms / 1000, wanted)
    ls.run(100)
    assert ls.host.leds_confirmed
    assert ls.last["pixels"] == [[0, 255, 0], [0, 0, 0], [255, 0, 0], [0, 0, 255]]
    script = [(0, Gesture.SHORT), (3, Gesture.LONG), (1, Gesture.DOUBLE), (2, Gesture.SHORT)]
    for seat, gesture in script:
        ls.gesture(seat, gesture)
    assert presses(ls.events) == script
    assert ls.last["fed"] > 100  # the watchdog is fed on every pass


def test_gestures_through_faults_arrive_once_in_order(mpy: MicroPython) -> None:
    ls = Lockstep(mpy, FaultRates(bit_flip=0.01, drop=0.01, garbage_burst=0.03), seed=3)
    ls.run(500)
    rng = random.Random(9)
    script = [(rng.randrange(4), rng.choice(list(Gesture))) for _ in range(40)]
    for seat, gesture in script:
        ls.gesture(seat, gesture)
    ls.run(2000)
    assert presses(ls.events) == script
    assert ls.host.stats.frames_corrupt > 0


def test_ctrl_c_bytes_on_the_line_are_just_garbage(mpy: MicroPython) -> None:
    ls = Lockstep(mpy, FaultRates())
    ls.run(300)
    ls.run(50, extra_rx=b"\x03" * 20 + b"\x03\x04\x02\x01")  # Ctrl-C, Ctrl-D, raw-REPL keys
    ls.gesture(2, Gesture.SHORT)
    assert presses(ls.events) == [(2, Gesture.SHORT)]
    assert ls.host.state is LinkState.UP


def test_reboot_draws_a_new_session_id_and_leds_are_restored(mpy: MicroPython) -> None:
    ls = Lockstep(mpy, FaultRates())
    ls.run(300)
    first = ls.boot
    wanted = (LedState(0, 0, 255, Pattern.SOLID),) * 4
    ls.host.set_leds(ls.ms / 1000, wanted)
    ls.gesture(1, Gesture.SHORT)
    second = mpy.call({"cmd": "boot", "cause": 3})["boot"]  # watchdog reset
    assert second not in (first, 0)
    ls.run(800)
    assert DeviceRebooted(second) in ls.events
    assert ls.last["pixels"] == [[0, 0, 255]] * 4
    ls.gesture(0, Gesture.LONG)
    assert ls.events[-1] == ButtonGesture(0, Gesture.LONG, 1, second)


def test_the_session_id_comes_from_the_random_source_and_is_never_zero(mpy: MicroPython) -> None:
    booted = mpy.call({"cmd": "boot", "random": ["00000000", "78563412"]})
    assert booted["boot"] == 0x12345678
    ids = {mpy.call({"cmd": "boot"})["boot"] for _ in range(5)}
    assert len(ids) == 5 and 0 not in ids


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_reboot_that_repeats_the_session_id_loses_no_press(mpy: MicroPython, seed: int) -> None:
    """The issue's case: the device comes back with the id it had (firmware 1.0's counter after
    its flash file was lost). The host starts anew on the BOOT frame: every press arrives once."""
    ls = Lockstep(mpy, FaultRates())
    ls.run(300)
    rng = random.Random(seed)
    before = [(rng.randrange(4), rng.choice(list(Gesture))) for _ in range(5)]
    for seat, gesture in before:
        ls.gesture(seat, gesture)
    same = ls.boot.to_bytes(4, "little").hex()
    assert mpy.call({"cmd": "boot", "cause": 3, "random": [same]})["boot"] == ls.boot
    ls.run(800)
    after = [(rng.randrange(4), rng.choice(list(Gesture))) for _ in range(9)]
    for seat, gesture in after:
        ls.gesture(seat, gesture)
    ls.run(500)
    assert presses(ls.events) == before + after
    assert DeviceRebooted(ls.boot) in ls.events


def test_no_host_means_offline_leds_and_presses_kept(mpy: MicroPython) -> None:
    ls = Lockstep(mpy, FaultRates())
    ls.run(300)
    ls.host.set_leds(ls.ms / 1000, (LedState(0, 255, 0, Pattern.SOLID),) * 4)
    ls.run(100)
    host = ls.host
    ls.host = HostLink()  # host side silent: nothing is sent to the device for a while
    ls.gesture(3, Gesture.DOUBLE)
    ls.run(3500)
    assert ls.last["linked"] is False
    assert ls.last["pixels"][0][2] == 0 and ls.last["pixels"][0][0] > 0  # amber, not green
    ls.host = host
    ls.run(1000)
    assert presses(ls.events) == [(3, Gesture.DOUBLE)]
    assert ls.last["pixels"] == [[0, 255, 0]] * 4
