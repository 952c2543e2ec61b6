"""The seat-device wire protocol as pure functions (spec: ``hardware/PROTOCOL.md``).

A frame on the wire is ``0x00 COBS(body) 0x00``; ``body = type:u8 payload crc32:u32le`` where
the CRC (IEEE 802.3, as ``binascii.crc32``) covers type and payload. The firmware carries its
own copy of this codec (``hardware/firmware/proto.py``); tests check that both produce the
same bytes.
"""

from __future__ import annotations

import binascii
import enum
import struct
from dataclasses import dataclass

from firmware_bridge.errors import FrameError
from firmware_bridge.types import Gesture, LedState, Pattern

PROTOCOL_VERSION = 1
MAX_BODY = 64
"""Largest decoded body (type + payload + CRC) either side may send."""
MAX_ENCODED = MAX_BODY + 1 + MAX_BODY // 254 + 1
"""Largest COBS-encoded frame, without its delimiter; longer runs are dropped as garbage."""
DELIMITER = b"\x00"
MAX_SEATS = 8


class MsgType(enum.IntEnum):
    HOST_HELLO = 0x01
    HOST_HEARTBEAT = 0x02
    ACK = 0x03
    SET_LEDS = 0x04
    SET_LED = 0x05
    DEV_HELLO = 0x81
    DEV_HEARTBEAT = 0x82
    BUTTON = 0x83
    LEDS = 0x84
    BOOT = 0x85
    ERROR = 0x86


class ErrorCode(enum.IntEnum):
    BAD_FRAME = 1
    UNKNOWN_TYPE = 2
    BAD_PAYLOAD = 3
    VERSION = 4
    QUEUE_OVERFLOW = 5


# --- messages -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HostHello:
    version: int = PROTOCOL_VERSION


@dataclass(frozen=True, slots=True)
class HostHeartbeat:
    pass


@dataclass(frozen=True, slots=True)
class Ack:
    """Cumulative acknowledgement of ``seq``; bit i of ``sack`` acknowledges ``seq + 2 + i``."""

    boot: int
    seq: int
    sack: int = 0


@dataclass(frozen=True, slots=True)
class SetLeds:
    states: tuple[LedState, ...]


@dataclass(frozen=True, slots=True)
class SetLed:
    seat: int
    state: LedState


@dataclass(frozen=True, slots=True)
class DevHello:
    version: int
    firmware: tuple[int, int, int]
    seats: int
    capabilities: int
    boot: int
    acked_seq: int


@dataclass(frozen=True, slots=True)
class DevHeartbeat:
    boot: int
    led_crc: int
    pending: int


@dataclass(frozen=True, slots=True)
class Button:
    """A gesture; ``oldest`` is the oldest sequence number the device still holds."""

    boot: int
    seq: int
    oldest: int
    seat: int
    gesture: Gesture
    age_ms: int


@dataclass(frozen=True, slots=True)
class Leds:
    states: tuple[LedState, ...]


@dataclass(frozen=True, slots=True)
class Boot:
    boot: int
    reset_cause: int


@dataclass(frozen=True, slots=True)
class DeviceError:
    code: int
    detail: int


Message = (
    HostHello
    | HostHeartbeat
    | Ack
    | SetLeds
    | SetLed
    | DevHello
    | DevHeartbeat
    | Button
    | Leds
    | Boot
    | DeviceError
)

CAP_RGB = 0x01
CAP_GESTURES = 0x02
CAP_PATTERNS = 0x04


# --- checksums and byte stuffing --------------------------------------------------------------


def crc32(data: bytes) -> int:
    return binascii.crc32(data) & 0xFFFFFFFF


def leds_crc(states: tuple[LedState, ...]) -> int:
    """16-bit digest of an LED snapshot that the device reports in its heartbeat."""
    return crc32(_pack_leds(states)) & 0xFFFF


def cobs_encode(data: bytes) -> bytes:
    out = bytearray()
    block = bytearray()
    for byte in data:
        if byte == 0:
            out.append(len(block) + 1)
            out += block
            block.clear()
        else:
            block.append(byte)
            if len(block) == 254:
                out.append(255)
                out += block
                block.clear()
    out.append(len(block) + 1)
    out += block
    return bytes(out)


def cobs_decode(data: bytes) -> bytes:
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise FrameError("zero byte inside a COBS frame")
        end = i + code
        if end > n:
            raise FrameError("COBS block runs past the end of the frame")
        block = data[i + 1 : end]
        if 0 in block:
            raise FrameError("zero byte inside a COBS frame")
        out += block
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


# --- payloads ---------------------------------------------------------------------------------


def _pack_leds(states: tuple[LedState, ...]) -> bytes:
    out = bytearray([len(states)])
    for s in states:
        out += bytes((s.r, s.g, s.b, int(s.pattern)))
    return bytes(out)


def _unpack_leds(payload: bytes) -> tuple[LedState, ...]:
    if not payload or payload[0] > MAX_SEATS or len(payload) != 1 + 4 * payload[0]:
        raise FrameError(f"bad LED snapshot length {len(payload)}")
    return tuple(_unpack_led(payload[1 + 4 * i : 5 + 4 * i]) for i in range(payload[0]))


def _unpack_led(raw: bytes) -> LedState:
    try:
        return LedState(raw[0], raw[1], raw[2], Pattern(raw[3]))
    except ValueError as exc:
        raise FrameError(f"bad LED state {raw.hex()}") from exc


def _payload(msg: Message) -> tuple[MsgType, bytes]:
    match msg:
        case HostHello(version):
            return MsgType.HOST_HELLO, bytes((version,))
        case HostHeartbeat():
            return MsgType.HOST_HEARTBEAT, b""
        case Ack(boot, seq, sack):
            return MsgType.ACK, struct.pack("<IHB", boot, seq, sack)
        case SetLeds(states):
            return MsgType.SET_LEDS, _pack_leds(states)
        case SetLed(seat, s):
            return MsgType.SET_LED, bytes((seat, s.r, s.g, s.b, int(s.pattern)))
        case DevHello(version, fw, seats, caps, boot, acked):
            return MsgType.DEV_HELLO, struct.pack(
                "<BBBBBBIH", version, *fw, seats, caps, boot, acked
            )
        case DevHeartbeat(boot, crc, pending):
            return MsgType.DEV_HEARTBEAT, struct.pack("<IHB", boot, crc, pending)
        case Button(boot, seq, oldest, seat, gesture, age):
            payload = struct.pack("<IHHBBH", boot, seq, oldest, seat, int(gesture), age)
            return MsgType.BUTTON, payload
        case Leds(states):
            return MsgType.LEDS, _pack_leds(states)
        case Boot(boot, cause):
            return MsgType.BOOT, struct.pack("<IB", boot, cause)
        case DeviceError(code, detail):
            return MsgType.ERROR, bytes((code, detail))
    raise TypeError(f"not a protocol message: {msg!r}")  # pragma: no cover


_FIXED_SIZES = {
    MsgType.HOST_HELLO: 1,
    MsgType.HOST_HEARTBEAT: 0,
    MsgType.ACK: 7,
    MsgType.SET_LED: 5,
    MsgType.DEV_HELLO: 12,
    MsgType.DEV_HEARTBEAT: 7,
    MsgType.BUTTON: 12,
    MsgType.BOOT: 5,
    MsgType.ERROR: 2,
}


def _parse(kind: MsgType, p: bytes) -> Message:
    size = _FIXED_SIZES.get(kind)
    if size is not None and len(p) != size:
        raise FrameError(f"{kind.name} payload has {len(p)} bytes, expected {size}")
    if kind is MsgType.HOST_HELLO:
        return HostHello(p[0])
    if kind is MsgType.HOST_HEARTBEAT:
        return HostHeartbeat()
    if kind is MsgType.ACK:
        boot, seq, sack = struct.unpack("<IHB", p)
        return Ack(boot, seq, sack)
    if kind is MsgType.SET_LEDS:
        return SetLeds(_unpack_leds(p))
    if kind is MsgType.SET_LED:
        return SetLed(p[0], _unpack_led(p[1:]))
    if kind is MsgType.DEV_HELLO:
        version, major, minor, patch, seats, caps, boot, acked = struct.unpack("<BBBBBBIH", p)
        return DevHello(version, (major, minor, patch), seats, caps, boot, acked)
    if kind is MsgType.DEV_HEARTBEAT:
        boot, crc, pending = struct.unpack("<IHB", p)
        return DevHeartbeat(boot, crc, pending)
    if kind is MsgType.BUTTON:
        boot, seq, oldest, seat, gesture, age = struct.unpack("<IHHBBH", p)
        try:
            return Button(boot, seq, oldest, seat, Gesture(gesture), age)
        except ValueError as exc:
            raise FrameError(f"unknown gesture {gesture}") from exc
    if kind is MsgType.LEDS:
        return Leds(_unpack_leds(p))
    if kind is MsgType.BOOT:
        boot, cause = struct.unpack("<IB", p)
        return Boot(boot, cause)
    return DeviceError(p[0], p[1])


# --- frames -----------------------------------------------------------------------------------


def encode_body(msg: Message) -> bytes:
    kind, payload = _payload(msg)
    body = bytes((kind,)) + payload
    return body + struct.pack("<I", crc32(body))


def encode(msg: Message) -> bytes:
    """One message as it goes on the wire: ``00 COBS(body) 00``.

    The leading delimiter costs a byte and means garbage before a frame can never swallow it.
    """
    return DELIMITER + cobs_encode(encode_body(msg)) + DELIMITER


def decode_body(body: bytes) -> Message:
    if len(body) < 5 or len(body) > MAX_BODY:
        raise FrameError(f"frame body of {len(body)} bytes")
    (crc,) = struct.unpack("<I", body[-4:])
    if crc32(body[:-4]) != crc:
        raise FrameError("CRC mismatch")
    try:
        kind = MsgType(body[0])
    except ValueError:
        raise FrameError(f"unknown message type 0x{body[0]:02x}") from None
    return _parse(kind, body[1:-4])


def decode(frame: bytes) -> Message:
    """Decode one COBS frame (without its delimiter)."""
    return decode_body(cobs_decode(frame))


@dataclass(frozen=True, slots=True)
class CorruptFrame:
    """Bytes between delimiters that did not decode; ``reason`` is for the log."""

    reason: str
    size: int


class Deframer:
    """Streaming splitter: bytes in, messages and corrupt-frame reports out.

    Resyncs on every 0x00, so garbage costs at most the frame it hit. A run longer than
    ``MAX_ENCODED`` without a delimiter is dropped (reported once) until the next 0x00.
    """

    __slots__ = ("_buf", "_overflow")

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False

    def reset(self) -> None:
        self._buf.clear()
        self._overflow = False

    def feed(self, data: bytes) -> list[Message | CorruptFrame]:
        out: list[Message | CorruptFrame] = []
        start = 0
        while True:
            end = data.find(0, start)
            if end < 0:
                self._append(data[start:], out)
                return out
            self._append(data[start:end], out)
            start = end + 1
            if self._overflow:
                self._overflow = False
            elif self._buf:
                frame = bytes(self._buf)
                try:
                    out.append(decode(frame))
                except FrameError as exc:
                    out.append(CorruptFrame(str(exc), len(frame)))
            self._buf.clear()

    def _append(self, chunk: bytes, out: list[Message | CorruptFrame]) -> None:
        if self._overflow or not chunk:
            return
        self._buf += chunk
        if len(self._buf) > MAX_ENCODED:
            out.append(CorruptFrame("frame too long", len(self._buf)))
            self._buf.clear()
            self._overflow = True
