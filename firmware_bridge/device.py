"""The device side of the link as a sans-I/O state machine, for the simulator and the tests.

It follows ``hardware/PROTOCOL.md`` like the MicroPython firmware does
(``hardware/firmware/link.py``), without the buttons' debouncing: presses come in as finished
gestures.
"""

from __future__ import annotations

import logging
import random
from collections import deque
from dataclasses import dataclass

from firmware_bridge import codec
from firmware_bridge.codec import (
    Ack,
    Boot,
    Button,
    CorruptFrame,
    DevHeartbeat,
    DevHello,
    DeviceError,
    ErrorCode,
    HostHeartbeat,
    HostHello,
    Leds,
    SetLed,
    SetLeds,
)
from firmware_bridge.types import OFF, Gesture, LedState

log = logging.getLogger(__name__)

FIRMWARE_VERSION = (1, 1, 0)


@dataclass(slots=True)
class _Pending:
    seq: int
    seat: int
    gesture: Gesture
    pressed_at: float
    sent_at: float | None = None
    acked: bool = False


class DeviceCore:
    """A seat device: numbered button events retransmitted until acknowledged, LED state, HELLO."""

    WINDOW = 8
    RETRANSMIT = 0.15
    HEARTBEAT = 0.5
    HOST_TIMEOUT = 3.0
    QUEUE_MAX = 64

    def __init__(
        self,
        *,
        seats: int = 4,
        boot_count: int | None = None,
        version: int = codec.PROTOCOL_VERSION,
        rng: random.Random | None = None,
    ) -> None:
        """``boot_count`` None: a fresh random session id at every boot (firmware 1.1); an int:
        the boot counter of firmware 1.0, from that value, one more at every reboot."""
        self.seats = seats
        self.version = version
        self._rng = rng or random.Random()
        self._counter = boot_count is not None
        self.session = boot_count if boot_count is not None else self._draw()
        """The id the device sends in the ``boot`` field of HELLO, HEARTBEAT, BUTTON, BOOT."""
        self.leds: tuple[LedState, ...] = (OFF,) * seats
        self.host_linked = False
        self.dropped_presses = 0
        self.silent = False
        """A device that never answers (for tests): reads everything, sends nothing."""
        self._deframer = codec.Deframer()
        self._out = bytearray()
        self._queue: deque[_Pending] = deque()
        self._next_seq = 1
        self._acked = 0
        self._last_host_rx = 0.0
        self._next_heartbeat = 0.0

    def boot(self, now: float) -> None:
        """Power-on with the current session id (RAM state is lost)."""
        self._deframer.reset()
        self._out.clear()
        self._queue.clear()
        self._next_seq = 1
        self._acked = 0
        self.leds = (OFF,) * self.seats
        self.host_linked = False
        self._out += codec.DELIMITER
        self._send(Boot(self.session, 1))
        self._next_heartbeat = now

    def reboot(self, now: float, *, session: int | None = None) -> None:
        """Power cycle: a new session id (``session`` forces one, e.g. the same as before, as a
        boot counter that restarted from a lost flash file would)."""
        if session is not None:
            self.session = session
        elif self._counter:
            self.session = (self.session + 1) & 0xFFFFFFFF or 1
        else:
            self.session = self._draw()
        self.boot(now)

    @property
    def boot_count(self) -> int:
        """The session id (firmware 1.0 sent a boot counter in the same field)."""
        return self.session

    def _draw(self) -> int:
        return self._rng.getrandbits(32) or 1

    def press(self, now: float, seat: int, gesture: Gesture) -> int:
        """A finished gesture on a seat button; returns its sequence number."""
        if len(self._queue) >= self.QUEUE_MAX:
            self._queue.popleft()
            self.dropped_presses += 1
            self._send(DeviceError(ErrorCode.QUEUE_OVERFLOW, len(self._queue)))
        seq = self._next_seq
        self._next_seq = (seq + 1) & 0xFFFF
        self._queue.append(_Pending(seq, seat, gesture, now))
        return seq

    @property
    def pending(self) -> int:
        return len(self._queue)

    def receive(self, now: float, data: bytes) -> None:
        for item in self._deframer.feed(data):
            if isinstance(item, CorruptFrame):
                continue
            self._on_message(now, item)

    def tick(self, now: float) -> None:
        if self.host_linked and now - self._last_host_rx > self.HOST_TIMEOUT:
            self.host_linked = False
        if now >= self._next_heartbeat:
            self._send(DevHeartbeat(self.session, codec.leds_crc(self.leds), self.pending))
            self._next_heartbeat = now + self.HEARTBEAT
        if not self.host_linked:
            return
        oldest = self._queue[0].seq if self._queue else self._next_seq
        for i, item in enumerate(self._queue):
            if i >= self.WINDOW:
                break
            if item.acked:
                continue
            if item.sent_at is None or now - item.sent_at >= self.RETRANSMIT:
                age = min(int((now - item.pressed_at) * 1000), 0xFFFF)
                self._send(Button(self.session, item.seq, oldest, item.seat, item.gesture, age))
                item.sent_at = now

    def take_output(self) -> bytes:
        data = bytes(self._out) if not self.silent else b""
        self._out.clear()
        return data

    def _send(self, msg: codec.Message) -> None:
        self._out += codec.encode(msg)

    def _on_message(self, now: float, msg: codec.Message) -> None:
        self._last_host_rx = now
        match msg:
            case HostHello(version):
                self._send(
                    DevHello(
                        self.version,
                        FIRMWARE_VERSION,
                        self.seats,
                        codec.CAP_RGB | codec.CAP_GESTURES | codec.CAP_PATTERNS,
                        self.session,
                        self._acked,
                    )
                )
                if version != self.version:
                    self._send(DeviceError(ErrorCode.VERSION, version))
                    self.host_linked = False
                else:
                    self.host_linked = True
                    for item in self._queue:
                        item.sent_at = None
            case HostHeartbeat():
                pass
            case Ack(boot, seq, sack):
                if boot == self.session:
                    self._on_ack(seq, sack)
            case SetLeds(states):
                if len(states) == self.seats:
                    self.leds = states
                else:
                    self._send(DeviceError(ErrorCode.BAD_PAYLOAD, len(states)))
                self._send(Leds(self.leds))
            case SetLed(seat, state):
                if 0 <= seat < self.seats:
                    self.leds = (*self.leds[:seat], state, *self.leds[seat + 1 :])
                else:
                    self._send(DeviceError(ErrorCode.BAD_PAYLOAD, seat))
                self._send(Leds(self.leds))
            case _:
                self._send(DeviceError(ErrorCode.UNKNOWN_TYPE, codec.encode_body(msg)[0]))

    def _on_ack(self, seq: int, sack: int) -> None:
        # Cumulative: everything up to ``seq`` (modulo 2**16) is delivered.
        while self._queue and ((seq - self._queue[0].seq) & 0xFFFF) < 0x8000:
            self._acked = self._queue.popleft().seq
        for item in self._queue:
            bit = (item.seq - seq - 2) & 0xFFFF
            if bit < 8 and sack >> bit & 1:
                item.acked = True
