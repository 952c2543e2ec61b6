"""The bridge on a real tty (pty pair, pyserial) against the simulated device."""

from __future__ import annotations

import queue
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import serial

from firmware_bridge import codec
from firmware_bridge.bridge import Backoff, Bridge
from firmware_bridge.faults import FaultInjector, FaultRates
from firmware_bridge.link import LinkState
from firmware_bridge.ports import LoopbackPort, SerialPortFactory
from firmware_bridge.sim import PtyDevice
from firmware_bridge.types import (
    BridgeEvent,
    ButtonGesture,
    DeviceRebooted,
    Gesture,
    LedState,
    LinkDown,
    LinkUp,
    Pattern,
    ProtocolMismatch,
)

pytestmark = pytest.mark.timeout(60)

LEDS = (
    LedState(0, 255, 0, Pattern.SOLID),
    LedState(255, 0, 0, Pattern.BLINK),
    LedState(),
    LedState(0, 0, 255, Pattern.PULSE),
)


def wait_for(
    bridge: Bridge, want: Callable[[BridgeEvent], bool], timeout: float = 5.0
) -> list[BridgeEvent]:
    """Events up to and including the first one ``want`` accepts."""
    seen: list[BridgeEvent] = []
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        try:
            event = bridge.events.get(timeout=max(left, 0.01))
        except queue.Empty:
            raise AssertionError(f"timed out; events so far: {seen}") from None
        seen.append(event)
        if want(event):
            return seen


def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.01)


@pytest.fixture
def device() -> Iterator[PtyDevice]:
    with PtyDevice() as dev:
        yield dev


def bridge_for(dev: PtyDevice) -> Bridge:
    return Bridge(SerialPortFactory(dev.path), backoff=Backoff(0.05, 0.5))


def test_press_and_leds_through_a_real_tty(device: PtyDevice) -> None:
    with bridge_for(device) as bridge:
        wait_for(bridge, lambda e: isinstance(e, LinkUp))
        device.press(2, Gesture.DOUBLE)
        events = wait_for(bridge, lambda e: isinstance(e, ButtonGesture))
        assert events == [ButtonGesture(2, Gesture.DOUBLE, 1, device.core.session)]
        bridge.set_leds(LEDS)
        until(lambda: bridge.leds_confirmed)
        assert device.leds == LEDS


def test_unplug_and_replug_restores_every_led(device: PtyDevice) -> None:
    with bridge_for(device) as bridge:
        wait_for(bridge, lambda e: isinstance(e, LinkUp))
        bridge.set_leds(LEDS)
        until(lambda: bridge.leds_confirmed)
        device.unplug()
        down = wait_for(bridge, lambda e: isinstance(e, LinkDown))
        assert isinstance(down[-1], LinkDown) and "vanished" in down[-1].reason
        time.sleep(0.3)
        device.replug()
        events = wait_for(bridge, lambda e: isinstance(e, LinkUp))
        assert DeviceRebooted(device.core.session) in events
        until(lambda: bridge.leds_confirmed)
        assert device.leds == LEDS
        device.press(0, Gesture.SHORT)
        got = wait_for(bridge, lambda e: isinstance(e, ButtonGesture))
        assert got[-1] == ButtonGesture(0, Gesture.SHORT, 1, device.core.session)


def test_presses_through_injected_faults_arrive_once_in_order() -> None:
    rates = FaultRates(bit_flip=0.01, drop=0.01, garbage_burst=0.05, truncate=0.01)
    with (
        PtyDevice(
            to_host=FaultInjector(rates, random.Random(1)),
            to_device=FaultInjector(rates, random.Random(2)),
        ) as dev,
        bridge_for(dev) as bridge,
    ):
        wait_for(bridge, lambda e: isinstance(e, LinkUp), timeout=10)
        rng = random.Random(3)
        sent = []
        for _ in range(100):
            seat, gesture = rng.randrange(4), rng.choice(list(Gesture))
            until(lambda: dev.pending < 16, timeout=20)
            dev.press(seat, gesture)
            sent.append((seat, gesture))
        got: list[tuple[int, Gesture]] = []
        deadline = time.monotonic() + 30
        while len(got) < len(sent) and time.monotonic() < deadline:
            try:
                event = bridge.events.get(timeout=0.5)
            except queue.Empty:
                continue
            if isinstance(event, ButtonGesture):
                got.append((event.seat, event.gesture))
        time.sleep(0.3)
        while not bridge.events.empty():  # nothing after the last: no duplicate, no phantom
            assert not isinstance(bridge.events.get_nowait(), ButtonGesture)
        assert got == sent
        assert bridge.link.stats.frames_corrupt > 0


def test_device_with_another_protocol_version_gives_no_press() -> None:
    with PtyDevice(version=codec.PROTOCOL_VERSION + 1) as dev, bridge_for(dev) as bridge:
        dev.press(1, Gesture.SHORT)
        events = wait_for(bridge, lambda e: isinstance(e, ProtocolMismatch))
        assert events[-1] == ProtocolMismatch(codec.PROTOCOL_VERSION + 1, codec.PROTOCOL_VERSION)
        time.sleep(0.5)
        assert bridge.state is LinkState.MISMATCH
        rest = []
        while not bridge.events.empty():
            rest.append(bridge.events.get_nowait())
        assert not any(isinstance(e, ButtonGesture | LinkUp) for e in rest)


def test_device_that_never_answers_is_a_link_down(device: PtyDevice) -> None:
    device.core.silent = True
    with bridge_for(device) as bridge:
        events = wait_for(bridge, lambda e: isinstance(e, LinkDown), timeout=6)
        assert events == [LinkDown("device does not answer the handshake")]


def test_port_that_vanishes_for_good_is_retried_without_crash(device: PtyDevice) -> None:
    bridge = bridge_for(device)
    with bridge:
        wait_for(bridge, lambda e: isinstance(e, LinkUp))
        device.unplug()
        wait_for(bridge, lambda e: isinstance(e, LinkDown))
        until(lambda: bridge.open_failures >= 3)
        assert bridge.state is LinkState.CLOSED
    assert bridge.events.empty()


def test_port_is_opened_exclusively(device: PtyDevice) -> None:
    first = SerialPortFactory(device.path)()
    try:
        with pytest.raises(serial.SerialException):
            SerialPortFactory(device.path)()
    finally:
        first.close()


def test_garbage_only_port_never_makes_a_press() -> None:
    port = LoopbackPort()
    rng = random.Random(7)
    with Bridge(lambda: port) as bridge:
        for _ in range(200):
            port.feed(rng.randbytes(rng.randint(1, 64)))
        time.sleep(0.3)
        port.feed(codec.encode(codec.DevHello(1, (1, 0, 0), 4, 0, 5, 0)))
        wait_for(bridge, lambda e: isinstance(e, LinkUp))
        port.vanish()
        events = wait_for(bridge, lambda e: isinstance(e, LinkDown))
        assert not any(isinstance(e, ButtonGesture) for e in events)
    assert bridge.link.stats.frames_corrupt > 0


def test_device_sim_command_replays_buttons_jsonl(tmp_path: Path) -> None:
    script = tmp_path / "buttons.jsonl"
    script.write_text(
        '{"t": 0.5, "seat": 1, "gesture": "short"}\n'
        '{"t": 0.9, "seat": 3, "gesture": "long"}\n'
        '{"t": 0.7, "seat": 0, "gesture": "double"}\n'
    )
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "firmware_bridge.cli.sim", "--buttons", str(script)),
            *("--speed", "2", "--exit-when-done", "--no-keyboard"),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        path = proc.stdout.readline().strip()
        with Bridge(SerialPortFactory(path)) as bridge:
            got = []
            for _ in range(3):
                events = wait_for(bridge, lambda e: isinstance(e, ButtonGesture))
                event = events[-1]
                assert isinstance(event, ButtonGesture)
                got.append((event.seat, event.gesture))
        assert got == [(1, Gesture.SHORT), (0, Gesture.DOUBLE), (3, Gesture.LONG)]
        assert proc.wait(timeout=10) == 0
    finally:
        proc.kill()
        proc.wait()


def test_device_sim_keyboard_keys_make_gestures_reboot_and_quit() -> None:
    import argparse
    import io
    import os
    import threading

    from firmware_bridge.cli import sim as sim_cli

    parser = argparse.ArgumentParser()
    sim_cli.add_arguments(parser)
    read_fd, write_fd = os.pipe()
    out = io.StringIO()
    with os.fdopen(read_fd) as stdin:
        runner = threading.Thread(
            target=sim_cli.run,
            args=(parser.parse_args(["--boot-count", "1"]),),  # firmware 1.0's counter
            kwargs={"stdin": stdin, "out": out},
        )
        runner.start()
        until(lambda: "\n" in out.getvalue())
        path = out.getvalue().splitlines()[0]
        with Bridge(SerialPortFactory(path)) as bridge:
            wait_for(bridge, lambda e: isinstance(e, LinkUp))
            os.write(write_fd, b"1$w")
            got = []
            for _ in range(3):
                event = wait_for(bridge, lambda e: isinstance(e, ButtonGesture))[-1]
                assert isinstance(event, ButtonGesture)
                got.append((event.seat, event.gesture))
            assert got == [(0, Gesture.SHORT), (3, Gesture.LONG), (1, Gesture.DOUBLE)]
            os.write(write_fd, b"b")
            assert DeviceRebooted(2) in wait_for(bridge, lambda e: isinstance(e, LinkUp))
            os.write(write_fd, b"23")
            for seat in (1, 2):
                event = wait_for(bridge, lambda e: isinstance(e, ButtonGesture))[-1]
                assert event == ButtonGesture(seat, Gesture.SHORT, seat, 2)
            os.write(write_fd, b"B")  # reboot, same id: the counter restarted
            assert DeviceRebooted(2) in wait_for(bridge, lambda e: isinstance(e, LinkUp))
            os.write(write_fd, b"4")  # seq 1 again: delivered, not taken for the old #1
            event = wait_for(bridge, lambda e: isinstance(e, ButtonGesture))[-1]
            assert event == ButtonGesture(3, Gesture.SHORT, 1, 2)
            os.write(write_fd, b"x")
            runner.join(timeout=5)
            assert not runner.is_alive()
    os.close(write_fd)
    assert "rebooted (session 00000002)" in out.getvalue()
    # people read seats from 1: key 1 is Seat 1 (0 in the protocol), key $ is Seat 4
    lines = out.getvalue().splitlines()
    assert any(line.startswith("Seat 1 short") for line in lines), lines
    assert any(line.startswith("Seat 4 long") for line in lines), lines
