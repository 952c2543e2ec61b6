"""Host and device cores joined in-process on simulated time, with and without faults."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import codec
from firmware_bridge.faults import FaultRates, LossyLink
from firmware_bridge.link import HostLink, LinkState
from firmware_bridge.types import (
    ButtonGesture,
    DeviceRebooted,
    Gesture,
    LedState,
    LinkDown,
    LinkUp,
    Pattern,
    ProtocolMismatch,
)

NOISY = FaultRates(bit_flip=0.01, drop=0.01, garbage_burst=0.02, truncate=0.01)
GREEN = LedState(0, 255, 0, Pattern.SOLID)
RED_BLINK = LedState(255, 0, 0, Pattern.BLINK)


def presses(link: LossyLink) -> list[tuple[int, Gesture]]:
    return [(e.seat, e.gesture) for e in link.events if isinstance(e, ButtonGesture)]


def test_clean_link_comes_up_and_delivers_a_press() -> None:
    link = LossyLink(rates=FaultRates())
    link.run(0.3)
    assert link.events == [LinkUp(link.device.session, "1.1.0", 4)]
    link.device.press(link.now, 2, Gesture.LONG)
    link.run(0.1)
    assert link.events[-1] == ButtonGesture(2, Gesture.LONG, 1, link.device.session)
    assert link.device.pending == 0


def test_2000_presses_through_faults_arrive_exactly_once_in_order() -> None:
    link = LossyLink(rates=NOISY, seed=4)
    link.run(0.5)
    rng = random.Random(11)
    sent = []
    for _ in range(2000):
        seat, gesture = rng.randrange(4), rng.choice(list(Gesture))
        link.device.press(link.now, seat, gesture)
        sent.append((seat, gesture))
        link.run(rng.choice((0.02, 0.1, 0.3)))
    link.run(5.0)
    assert presses(link) == sent
    seqs = [e.seq for e in link.events if isinstance(e, ButtonGesture)]
    assert seqs == list(range(1, 2001))
    assert link.to_host.counts.bits_flipped > 100 and link.to_host.counts.bursts > 10
    assert link.host.stats.frames_corrupt > 100


def test_leds_set_and_confirmed_despite_faults() -> None:
    link = LossyLink(rates=NOISY, seed=2)
    link.run(0.5)
    wanted = (GREEN, RED_BLINK, LedState(), LedState(0, 0, 255, Pattern.PULSE))
    link.set_leds(wanted)
    link.run(3.0)
    assert link.device.leds == wanted
    assert link.host.leds_confirmed


def test_unplug_replug_restores_leds_and_reports_reboot() -> None:
    link = LossyLink(rates=FaultRates())
    link.run(0.3)
    wanted = (GREEN, GREEN, RED_BLINK, LedState())
    link.set_leds(wanted)
    link.run(0.3)
    link.unplug()
    link.run(1.0)
    assert link.events[-1] == LinkDown("port vanished")
    link.replug()
    link.run(0.5)
    assert DeviceRebooted(link.device.session) in link.events
    assert link.events[-1] == LinkUp(link.device.session, "1.1.0", 4)
    assert link.device.leds == wanted
    assert link.host.leds_confirmed


def test_reboot_mid_game_keeps_numbering_apart() -> None:
    link = LossyLink(rates=FaultRates())
    link.run(0.3)
    for seat in range(3):
        link.device.press(link.now, seat, Gesture.SHORT)
    link.run(0.2)
    link.set_leds((GREEN,) * 4)
    link.device.reboot(link.now)  # seq restarts at 1 on the new boot
    link.device.press(link.now, 3, Gesture.DOUBLE)
    link.run(1.0)
    assert presses(link) == [(0, Gesture.SHORT), (1, Gesture.SHORT), (2, Gesture.SHORT),
                             (3, Gesture.DOUBLE)]  # fmt: skip
    assert link.events[-1] == ButtonGesture(3, Gesture.DOUBLE, 1, link.device.session)
    assert LinkDown("device rebooted") in link.events
    assert DeviceRebooted(link.device.session) in link.events
    assert link.device.leds == (GREEN,) * 4


def test_presses_made_while_the_host_is_away_arrive_after_relink() -> None:
    link = LossyLink(rates=FaultRates())
    link.run(0.3)
    link.plugged = False  # cable flaky, device stays powered
    link.device.press(link.now, 1, Gesture.SHORT)
    link.device.press(link.now, 0, Gesture.LONG)
    link.run(4.0)
    assert isinstance(link.events[-1], LinkDown)
    assert link.events[-1].reason == "heartbeat timeout"
    link.plugged = True
    link.run(2.0)
    assert presses(link) == [(1, Gesture.SHORT), (0, Gesture.LONG)]
    assert link.host.state is LinkState.UP


def test_device_queue_overflow_is_counted_not_a_stall() -> None:
    link = LossyLink(rates=FaultRates())
    link.run(0.3)
    link.plugged = False
    for i in range(link.device.QUEUE_MAX + 5):
        link.device.press(link.now, i % 4, Gesture.SHORT)
    link.run(3.0)
    link.plugged = True
    link.run(3.0)
    assert len(presses(link)) == link.device.QUEUE_MAX
    assert link.host.stats.lost == 5
    link.device.press(link.now, 1, Gesture.LONG)
    link.run(0.5)
    assert presses(link)[-1] == (1, Gesture.LONG)


def test_other_protocol_version_is_a_mismatch_and_no_press() -> None:
    link = LossyLink(rates=FaultRates())
    link.device.version = 2
    link.device.press(link.now, 1, Gesture.SHORT)
    link.run(3.0)
    assert ProtocolMismatch(2, codec.PROTOCOL_VERSION) in link.events
    assert link.host.state is LinkState.MISMATCH
    assert presses(link) == []
    assert not any(isinstance(e, LinkUp) for e in link.events)


def test_device_that_never_answers_gives_one_link_down() -> None:
    link = LossyLink(rates=FaultRates())
    link.device.silent = True
    link.run(10.0)
    assert link.events == [LinkDown("device does not answer the handshake")]
    assert link.host.state is LinkState.HANDSHAKE


def test_press_on_an_unknown_seat_is_dropped_and_numbering_goes_on() -> None:
    link = LossyLink(rates=FaultRates())
    link.run(0.3)
    link.device.press(link.now, 9, Gesture.SHORT)
    link.device.press(link.now, 1, Gesture.SHORT)
    link.run(0.3)
    assert presses(link) == [(1, Gesture.SHORT)]
    assert link.device.pending == 0


def test_sequence_numbers_wrap() -> None:
    link = LossyLink(rates=FaultRates())
    link.device._next_seq = 0xFFFE  # as after 65,533 presses
    link.device._acked = 0xFFFD
    link.run(0.3)
    for seat in range(4):
        link.device.press(link.now, seat, Gesture.SHORT)
    link.run(0.5)
    assert [e.seq for e in link.events if isinstance(e, ButtonGesture)] == [0xFFFE, 0xFFFF, 0, 1]


def test_flapping_port_gives_one_link_down_per_outage() -> None:
    link = LossyLink(rates=FaultRates())
    link.run(0.3)
    for _ in range(5):
        link.unplug()
        link.host.connection_made(link.now)  # opens, then the port fails again at once
        link.host.connection_lost(link.now, "port vanished")
    link.events += link.host.take_events()
    downs = [e for e in link.events if isinstance(e, LinkDown)]
    assert downs == [LinkDown("port vanished")]
    link.replug()
    link.run(0.5)
    assert isinstance(link.events[-1], LinkUp)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=300), max_size=30))
def test_any_bytes_after_link_up_never_crash_or_press(chunks: list[bytes]) -> None:
    host = HostLink()
    host.connection_made(0.0)
    host.receive(0.0, codec.encode(codec.DevHello(1, (1, 0, 0), 4, 7, 3, 0)))
    now = 0.0
    for chunk in chunks:
        now += 0.1
        host.receive(now, chunk)
        host.tick(now)
    events = host.take_events()
    assert events[0] == LinkUp(3, "1.0.0", 4)
    assert not any(isinstance(e, ButtonGesture) for e in events)
    assert len([e for e in events if isinstance(e, LinkDown)]) <= 1
