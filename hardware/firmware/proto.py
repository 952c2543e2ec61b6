"""Wire codec of the seat-device protocol (hardware/PROTOCOL.md), MicroPython side.

Frame: 0x00 COBS(body) 0x00; body = type:u8 payload crc32:u32le over type+payload. Messages are
plain tuples ``(type, payload_bytes)`` here; the packers below build the payloads.
"""

import struct

try:
    from binascii import crc32 as _crc32
except ImportError:  # a port built without binascii.crc32
    _crc32 = None

VERSION = 1
MAX_BODY = 64
MAX_ENCODED = MAX_BODY + 2

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

ERR_BAD_FRAME = 1
ERR_UNKNOWN_TYPE = 2
ERR_BAD_PAYLOAD = 3
ERR_VERSION = 4
ERR_QUEUE_OVERFLOW = 5

CAP_RGB = 0x01
CAP_GESTURES = 0x02
CAP_PATTERNS = 0x04

_TABLE = None


def crc32(data):
    if _crc32 is not None:
        return _crc32(data) & 0xFFFFFFFF
    global _TABLE
    if _TABLE is None:
        _TABLE = []
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
            _TABLE.append(c)
    c = 0xFFFFFFFF
    for b in data:
        c = _TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def cobs_encode(data):
    out = bytearray()
    block = bytearray()
    for b in data:
        if b == 0:
            out.append(len(block) + 1)
            out.extend(block)
            block = bytearray()
        else:
            block.append(b)
            if len(block) == 254:
                out.append(255)
                out.extend(block)
                block = bytearray()
    out.append(len(block) + 1)
    out.extend(block)
    return bytes(out)


def cobs_decode(data):
    """Returns the decoded bytes, or None if the frame is not valid COBS."""
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        end = i + code
        if code == 0 or end > n:
            return None
        for j in range(i + 1, end):
            if data[j] == 0:
                return None
            out.append(data[j])
        i = end
        if code != 255 and i < n:
            out.append(0)
    return bytes(out)


def encode(kind, payload=b""):
    body = bytes((kind,)) + payload
    body += struct.pack("<I", crc32(body))
    return b"\x00" + cobs_encode(body) + b"\x00"


def decode_body(body):
    """(type, payload), or None for a frame that fails length or CRC."""
    if body is None or len(body) < 5 or len(body) > MAX_BODY:
        return None
    (crc,) = struct.unpack("<I", body[-4:])
    if crc32(body[:-4]) != crc:
        return None
    return body[0], bytes(body[1:-4])


class Deframer:
    """Bytes in, (type, payload) out; a corrupt frame counts in ``corrupt`` and is dropped."""

    def __init__(self):
        self.buf = bytearray()
        self.overflow = False
        self.corrupt = 0

    def feed(self, data):
        out = []
        for b in data:
            if b == 0:
                if self.buf and not self.overflow:
                    msg = decode_body(cobs_decode(bytes(self.buf)))
                    if msg is None:
                        self.corrupt += 1
                    else:
                        out.append(msg)
                self.buf = bytearray()
                self.overflow = False
            elif not self.overflow:
                self.buf.append(b)
                if len(self.buf) > MAX_ENCODED:
                    self.corrupt += 1
                    self.overflow = True
                    self.buf = bytearray()
        return out


# --- payloads (layouts in PROTOCOL.md; little-endian) ------------------------------------------


def pack_leds(states):
    """states: list of (r, g, b, pattern)."""
    out = bytearray((len(states),))
    for s in states:
        out.extend(bytes(s))
    return bytes(out)


def unpack_leds(payload):
    if not payload or len(payload) != 1 + 4 * payload[0]:
        return None
    return [tuple(payload[1 + 4 * i : 5 + 4 * i]) for i in range(payload[0])]


def leds_crc(states):
    return crc32(pack_leds(states)) & 0xFFFF


def dev_hello(fw, seats, caps, boot, acked):
    return encode(DEV_HELLO, struct.pack("<BBBBBBIH", VERSION, fw[0], fw[1], fw[2], seats, caps,
                                         boot, acked))  # fmt: skip


def dev_heartbeat(boot, crc, pending):
    return encode(DEV_HEARTBEAT, struct.pack("<IHB", boot, crc, pending))


def button(boot, seq, oldest, seat, gesture, age_ms):  # noqa: PLR0917
    return encode(BUTTON, struct.pack("<IHHBBH", boot, seq, oldest, seat, gesture, age_ms))


def boot_msg(boot, cause):
    return encode(BOOT, struct.pack("<IB", boot, cause))


def error(code, detail):
    return encode(ERROR, bytes((code & 0xFF, detail & 0xFF)))


def leds(states):
    return encode(LEDS, pack_leds(states))
