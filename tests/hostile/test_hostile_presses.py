"""Issue 46 item 6: presses are never silently lost. The seat device draws a random session id at
every boot (firmware 1.1; the simulator does the same); the host starts numbering anew on a new id
*or* on the device's BOOT frame, so even a device that comes back with the id it had (firmware
1.0's boot counter after its flash file was lost) has every press delivered exactly once. The pty
and MicroPython cases are in tests/firmware_bridge/test_bridge_pty.py and
tests/hardware/test_firmware_wasm.py."""

from __future__ import annotations

import logging
import random

import pytest

from firmware_bridge.bench.link import FAULTS
from firmware_bridge.device import DeviceCore
from firmware_bridge.faults import FaultRates, LossyLink
from firmware_bridge.types import ButtonGesture, DeviceRebooted, Gesture
from tests.hostile.ledger import record_case

CLEAN = FaultRates()
KIND = "seat link: presses across reboots and damaged frames"


def _presses(link: LossyLink) -> list[tuple[int, Gesture, int]]:
    return [(e.seat, e.gesture, e.boot_count) for e in link.events if isinstance(e, ButtonGesture)]


def _delivered(link: LossyLink, sent: list[tuple[int, Gesture, int]], kind: str) -> None:
    """Record each press as delivered in order or lost; then require all delivered."""
    got = _presses(link)
    same = sum(1 for a, b in zip(got, sent, strict=False) if a == b)
    record_case(kind, "accepted", same)
    record_case(kind, "lost", len(sent) - same)
    assert got == sent


def _press_some(link: LossyLink, rng: random.Random, n: int) -> list[tuple[int, Gesture, int]]:
    sent = []
    for _ in range(n):
        seat, gesture = rng.randrange(4), rng.choice(list(Gesture))
        link.device.press(link.now, seat, gesture)
        sent.append((seat, gesture, link.device.session))
        link.run(rng.choice((0.02, 0.05, 0.1)))
    for _ in range(200):  # until the device holds nothing unacknowledged
        if link.device.pending == 0:
            break
        link.run(0.1)
    assert link.device.pending == 0
    return sent


@pytest.mark.parametrize(
    "sessions",
    [
        [7, 7, 7, 7],  # the same id at every boot
        [5, 1, 1, 2, 1],  # a counter that restarts at 1 (flash file lost or damaged)
        [0xFFFFFFFF, 1, 0xFFFFFFFF],  # wrapping
    ],
)
def test_a_reboot_with_any_id_loses_no_press(
    sessions: list[int], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="firmware_bridge.link")
    link = LossyLink(rates=CLEAN, seed=1)
    link.device.reboot(link.now, session=sessions[0])
    link.run(0.5)
    rng = random.Random(4)
    sent = _press_some(link, rng, 12)
    for session in sessions[1:]:
        link.device.reboot(link.now, session=session)
        link.run(0.6)
        sent += _press_some(link, rng, 12)
    _delivered(link, sent, KIND)
    reboots = [e for e in link.events if isinstance(e, DeviceRebooted)]
    assert len(reboots) == len(sessions) - 1
    if sessions[0] == sessions[1]:
        assert "same id: new session by its BOOT frame" in caplog.text


@pytest.mark.parametrize("seed", [1, 2])
def test_reboots_under_faults_with_fresh_ids_lose_no_acknowledged_press(seed: int) -> None:
    """1% bit flips and drops both ways, reboots between bursts: every press the device saw
    acknowledged before it rebooted arrives once, in order."""
    link = LossyLink(rates=FAULTS, seed=seed)
    link.run(0.5)
    rng = random.Random(seed)
    sent: list[tuple[int, Gesture, int]] = []
    for _ in range(5):
        sent += _press_some(link, rng, 40)
        link.device.reboot(link.now)
        link.run(1.0)
    sent += _press_some(link, rng, 40)
    _delivered(link, sent, KIND)
    assert link.host.stats.frames_corrupt > 0
    record_case(
        KIND,
        "refused",
        link.host.stats.frames_corrupt,
    )


def test_session_ids_are_random_and_never_zero() -> None:
    device = DeviceCore(rng=random.Random(3))
    ids = {device.session}
    for _ in range(50):
        device.reboot(0.0)
        ids.add(device.session)
    assert len(ids) == 51 and 0 not in ids
    counter = DeviceCore(boot_count=4)
    counter.reboot(0.0)
    assert counter.session == 5  # firmware 1.0's behaviour, for tests of old devices


def test_a_press_from_another_session_is_logged_not_silently_dropped(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from firmware_bridge import codec
    from firmware_bridge.link import HostLink

    caplog.set_level(logging.INFO, logger="firmware_bridge.link")
    host = HostLink()
    host.connection_made(0.0)
    host.receive(0.0, codec.encode(codec.DevHello(1, (1, 1, 0), 4, 7, 0x1234, 0)))
    host.receive(0.1, codec.encode(codec.Button(0x9999, 1, 1, 0, Gesture.SHORT, 5)))
    assert not [e for e in host.take_events() if isinstance(e, ButtonGesture)]
    assert "press #1 of session 00009999 set aside until the handshake" in caplog.text


def test_presses_held_for_one_that_died_in_a_reboot_are_delivered_and_the_loss_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from firmware_bridge import codec
    from firmware_bridge.link import HostLink

    caplog.set_level(logging.INFO, logger="firmware_bridge.link")
    host = HostLink()
    host.connection_made(0.0)
    host.receive(0.0, codec.encode(codec.DevHello(1, (1, 1, 0), 4, 7, 0xA, 0)))
    for seq, seat in ((2, 1), (3, 2)):  # #1 was corrupted on the way
        host.receive(0.1, codec.encode(codec.Button(0xA, seq, 1, seat, Gesture.SHORT, 5)))
    assert not [e for e in host.take_events() if isinstance(e, ButtonGesture)]
    host.receive(0.2, codec.encode(codec.Boot(0xA, 3)))  # rebooted with the same id
    host.receive(0.3, codec.encode(codec.DevHello(1, (1, 1, 0), 4, 7, 0xA, 0)))
    host.receive(0.4, codec.encode(codec.Button(0xA, 1, 1, 3, Gesture.LONG, 5)))
    events = host.take_events()
    got = [(e.seat, e.seq) for e in events if isinstance(e, ButtonGesture)]
    assert got == [(1, 2), (2, 3), (3, 1)]  # the held two, then #1 of the new session
    assert DeviceRebooted(0xA) in events
    assert host.stats.lost == 1
    assert "1 presses of session 0000000a never arrived" in caplog.text
