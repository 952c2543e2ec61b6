"""The host side of the link as a sans-I/O state machine: bytes and time in, bytes and events out.

No port, no thread, no clock read: the caller passes ``now`` (monotonic seconds) to every call,
feeds received bytes with :meth:`HostLink.receive`, calls :meth:`HostLink.tick` regularly, writes
:meth:`HostLink.take_output` to the port and hands :meth:`HostLink.take_events` to the
application. :class:`firmware_bridge.bridge.Bridge` is the threaded shell around it.
"""

from __future__ import annotations

import enum
import logging
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
    HostHeartbeat,
    HostHello,
    Leds,
    SetLeds,
)
from firmware_bridge.types import (
    OFF,
    BridgeEvent,
    ButtonGesture,
    DeviceRebooted,
    LedState,
    LinkDown,
    LinkUp,
    ProtocolMismatch,
)

log = logging.getLogger(__name__)

RX_WINDOW = 16
"""Presses the host buffers ahead of a missing one (the device sends at most 8 at once)."""


class LinkState(enum.Enum):
    CLOSED = "closed"
    HANDSHAKE = "handshake"
    UP = "up"
    MISMATCH = "protocol mismatch"


@dataclass(frozen=True, slots=True)
class LinkTiming:
    """Every period of the host side, in seconds."""

    hello_interval: float = 0.1
    hello_interval_max: float = 1.0
    heartbeat_interval: float = 0.5
    link_timeout: float = 2.0
    handshake_timeout: float = 3.0
    mismatch_retry: float = 2.0
    led_resend: float = 0.2


@dataclass(slots=True)
class LinkStats:
    frames_ok: int = 0
    frames_corrupt: int = 0
    duplicates: int = 0
    out_of_order: int = 0
    lost: int = 0
    device_errors: int = 0


class HostLink:
    """Handshake, heartbeat, link watchdog, acknowledged button events, LED state sync."""

    def __init__(self, *, seats: int = 4, timing: LinkTiming | None = None) -> None:
        self.seats = seats
        self.timing = timing or LinkTiming()
        self.state = LinkState.CLOSED
        self.stats = LinkStats()
        self._deframer = codec.Deframer()
        self._out = bytearray()
        self._events: list[BridgeEvent] = []
        self._leds: tuple[LedState, ...] = (OFF,) * seats
        self._leds_confirmed = False
        self._boot: int | None = None
        self._fresh_boot = False  # a BOOT frame came: the next HELLO starts a new session
        self._last_seq = 0
        self._reorder: dict[int, Button] = {}
        self._last_rx = 0.0
        self._opened_at = 0.0
        self._next_hello = 0.0
        self._hello_interval = self.timing.hello_interval
        self._next_heartbeat = 0.0
        self._next_led_send = 0.0
        self._handshake_reported = False
        self._down_reported = False
        self._mismatch_reported: int | None = None

    # --- inputs -------------------------------------------------------------------------------

    def connection_made(self, now: float) -> None:
        """The port is open: start the handshake (the leading 0x00 flushes a half frame)."""
        self._deframer.reset()
        self._out += codec.DELIMITER
        self._enter_handshake(now)
        self._opened_at = now
        self._handshake_reported = False

    def connection_lost(self, now: float, reason: str) -> None:
        if self.state is not LinkState.CLOSED:
            self._down(reason)
        self.state = LinkState.CLOSED
        self._out.clear()

    def set_leds(self, now: float, states: tuple[LedState, ...]) -> None:
        """Desired LED state of every seat; sent now if the link is up, else on link-up."""
        if len(states) != self.seats:
            raise ValueError(f"{len(states)} LED states for {self.seats} seats")
        self._leds = states
        self._leds_confirmed = False
        if self.state is LinkState.UP:
            self._send_leds(now)

    def receive(self, now: float, data: bytes) -> None:
        for item in self._deframer.feed(data):
            if isinstance(item, CorruptFrame):
                self.stats.frames_corrupt += 1
                log.debug("corrupt frame from device: %s (%d bytes)", item.reason, item.size)
                continue
            self.stats.frames_ok += 1
            self._on_message(now, item)

    def tick(self, now: float) -> None:
        t = self.timing
        if self.state is LinkState.HANDSHAKE:
            if now >= self._next_hello:
                self._send(HostHello())
                self._next_hello = now + self._hello_interval
                self._hello_interval = min(self._hello_interval * 1.5, t.hello_interval_max)
            if not self._handshake_reported and now - self._opened_at >= t.handshake_timeout:
                self._handshake_reported = True
                self._down("device does not answer the handshake")
        elif self.state is LinkState.MISMATCH:
            if now >= self._next_hello:
                self._send(HostHello())
                self._next_hello = now + t.mismatch_retry
        elif self.state is LinkState.UP:
            if now - self._last_rx > t.link_timeout:
                log.warning("no frame from the device for %.1f s: link down", t.link_timeout)
                self._down("heartbeat timeout")
                self._enter_handshake(now)
                self._handshake_reported = True
                return
            if now >= self._next_heartbeat:
                self._send(HostHeartbeat())
                self._next_heartbeat = now + t.heartbeat_interval

    # --- outputs ------------------------------------------------------------------------------

    def take_output(self) -> bytes:
        data = bytes(self._out)
        self._out.clear()
        return data

    def take_events(self) -> list[BridgeEvent]:
        events, self._events = self._events, []
        return events

    @property
    def leds(self) -> tuple[LedState, ...]:
        return self._leds

    @property
    def leds_confirmed(self) -> bool:
        """The device reported exactly the LED state last set (via LEDS or its heartbeat)."""
        return self.state is LinkState.UP and self._leds_confirmed

    @property
    def boot_count(self) -> int | None:
        return self._boot

    # --- internals ----------------------------------------------------------------------------

    def _send(self, msg: codec.Message) -> None:
        self._out += codec.encode(msg)

    def _send_leds(self, now: float) -> None:
        self._send(SetLeds(self._leds))
        self._next_led_send = now + self.timing.led_resend

    def _enter_handshake(self, now: float) -> None:
        self.state = LinkState.HANDSHAKE
        self._hello_interval = self.timing.hello_interval
        self._next_hello = now

    def _down(self, reason: str) -> None:
        """One LinkDown per outage: later reasons while still down are only logged."""
        if self._down_reported:
            log.info("seat device link still down: %s", reason)
            return
        self._down_reported = True
        log.warning("seat device link down: %s", reason)
        self._events.append(LinkDown(reason))

    def _on_message(self, now: float, msg: codec.Message) -> None:
        match msg:
            case DevHello():
                self._on_hello(now, msg)
                return
            case Boot(boot, cause):
                log.info("device booted (session %08x, reset cause %d)", boot, cause)
                # A new session whatever its id: a device whose id repeats (old firmware with a
                # boot counter on a lost flash file) must not have its presses taken as seen.
                self._fresh_boot = self._boot is not None
                if self.state is LinkState.UP:
                    self._down("device rebooted")
                if self.state is not LinkState.MISMATCH:
                    self._enter_handshake(now)
                    self._opened_at = now
                    self._handshake_reported = True
                return
            case DeviceError(code, detail):
                self.stats.device_errors += 1
                log.info("device reports error %d (detail %d)", code, detail)
                return
        if self.state is not LinkState.UP:
            return
        self._last_rx = now
        match msg:
            case Button():
                self._on_button(msg)
            case DevHeartbeat(boot, crc, _):
                if boot != self._boot:
                    self._down("device rebooted")
                    self._enter_handshake(now)
                    self._handshake_reported = True
                    return
                self._check_leds(now, crc)
            case Leds(states):
                self._check_leds(now, codec.leds_crc(states))
            case _:
                log.debug("ignoring %r from the device", msg)

    def _on_hello(self, now: float, hello: DevHello) -> None:
        if hello.version != codec.PROTOCOL_VERSION:
            if self._mismatch_reported != hello.version:
                self._mismatch_reported = hello.version
                log.error(
                    "seat device speaks protocol %d, host speaks %d: update the firmware",
                    hello.version,
                    codec.PROTOCOL_VERSION,
                )
                if self.state is LinkState.UP:
                    self._down("protocol mismatch")
                self._events.append(ProtocolMismatch(hello.version, codec.PROTOCOL_VERSION))
            self.state = LinkState.MISMATCH
            self._next_hello = now + self.timing.mismatch_retry
            return
        self._mismatch_reported = None
        self._last_rx = now
        if self.state is LinkState.UP and hello.boot == self._boot and not self._fresh_boot:
            return  # answer to a repeated HELLO
        if self._boot is None:
            self._last_seq = hello.acked_seq
            self._reorder.clear()
        elif hello.boot != self._boot or self._fresh_boot:
            same = " (same id: new session by its BOOT frame)" if hello.boot == self._boot else ""
            log.info("device rebooted: session %08x -> %08x%s", self._boot, hello.boot, same)
            self._flush_held()
            self._events.append(DeviceRebooted(hello.boot))
            self._last_seq = hello.acked_seq
            self._reorder.clear()
        self._fresh_boot = False
        self._boot = hello.boot
        self.state = LinkState.UP
        self._down_reported = False
        firmware = ".".join(str(part) for part in hello.firmware)
        log.info("seat device link up: firmware %s, boot %d", firmware, hello.boot)
        self._events.append(LinkUp(hello.boot, firmware, hello.seats))
        self._next_heartbeat = now
        self._leds_confirmed = False
        self._send_leds(now)
        self._send(Ack(hello.boot, self._last_seq))

    def _on_button(self, b: Button) -> None:
        if b.boot != self._boot or self._fresh_boot:
            # Not the session the link is up with: the device keeps it and sends it again
            # after the handshake that its HEARTBEAT or BOOT frame starts.
            log.info("press #%d of session %08x set aside until the handshake", b.seq, b.boot)
            return
        gap = (b.oldest - self._last_seq - 1) & 0xFFFF
        if 0 < gap < 0x8000:
            # The device no longer holds presses we never got: its queue overflowed.
            log.warning("%d presses lost: the device's queue overflowed (host away)", gap)
            self.stats.lost += gap
            self._last_seq = (b.oldest - 1) & 0xFFFF
            self._reorder = {s: e for s, e in self._reorder.items() if self._ahead(s)}
        ahead = (b.seq - self._last_seq) & 0xFFFF
        if ahead == 0 or ahead >= 0x8000 or b.seq in self._reorder:
            self.stats.duplicates += 1
            log.debug("press #%d dropped: already delivered (a resend)", b.seq)
        elif ahead > RX_WINDOW:
            self.stats.out_of_order += 1
            log.info("press #%d dropped for now: %d ahead of the last delivered", b.seq, ahead)
        else:
            self._reorder[b.seq] = b
        while (nxt := (self._last_seq + 1) & 0xFFFF) in self._reorder:
            self._deliver(self._reorder.pop(nxt))
        sack = 0
        for i in range(8):
            if (self._last_seq + 2 + i) & 0xFFFF in self._reorder:
                sack |= 1 << i
        self._send(Ack(b.boot, self._last_seq, sack))

    def _deliver(self, got: Button) -> None:
        self._last_seq = got.seq
        if 0 <= got.seat < self.seats:
            self._events.append(ButtonGesture(got.seat, got.gesture, got.seq, got.boot))
        else:
            log.warning(
                "press #%d dropped: the device reports seat %d of %d", got.seq, got.seat, self.seats
            )

    def _flush_held(self) -> None:
        """The device rebooted while presses waited here for a missing one: that one died with
        the device's RAM; the ones held are real, so they are delivered, in order."""
        if not self._reorder:
            return
        held = sorted(self._reorder.values(), key=lambda b: (b.seq - self._last_seq) & 0xFFFF)
        missing = ((held[-1].seq - self._last_seq) & 0xFFFF) - len(held)
        log.warning(
            "device rebooted: %d presses of session %08x never arrived (lost with its RAM); "
            "the %d received after them are delivered",
            missing,
            self._boot or 0,
            len(held),
        )
        self.stats.lost += missing
        self._reorder.clear()
        for got in held:
            self._deliver(got)

    def _ahead(self, seq: int) -> bool:
        return 0 < (seq - self._last_seq) & 0xFFFF < 0x8000

    def _check_leds(self, now: float, crc: int) -> None:
        if crc == codec.leds_crc(self._leds):
            self._leds_confirmed = True
        elif now >= self._next_led_send:
            self._leds_confirmed = False
            self._send_leds(now)
