"""The codec: byte stuffing, CRC, every message round-trips, the deframer survives anything."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import codec
from firmware_bridge.codec import (
    Ack,
    Boot,
    Button,
    CorruptFrame,
    Deframer,
    DevHeartbeat,
    DevHello,
    DeviceError,
    HostHeartbeat,
    HostHello,
    Leds,
    SetLed,
    SetLeds,
)
from firmware_bridge.errors import FrameError
from firmware_bridge.types import OFF, Gesture, LedState, Pattern

RED_BLINK = LedState(255, 0, 0, Pattern.BLINK)

MESSAGES: list[codec.Message] = [
    HostHello(1),
    HostHeartbeat(),
    Ack(7, 65535, 0b1010_0001),
    SetLeds((RED_BLINK, OFF, LedState(0, 0, 0, Pattern.SOLID), LedState(1, 2, 3, Pattern.PULSE))),
    SetLed(3, RED_BLINK),
    DevHello(1, (1, 2, 3), 4, codec.CAP_RGB, 0xFFFFFFFF, 12),
    DevHeartbeat(9, 0xBEEF, 3),
    Button(9, 42, 40, 2, Gesture.DOUBLE, 1234),
    Leds((OFF,) * 4),
    Boot(9, 1),
    DeviceError(codec.ErrorCode.VERSION, 2),
]


# Vectors from the COBS paper / Wikipedia's table, not from this code.
@pytest.mark.parametrize(
    ("raw", "stuffed"),
    [
        (b"\x00", b"\x01\x01"),
        (b"\x00\x00", b"\x01\x01\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
        (bytes(range(1, 255)), b"\xff" + bytes(range(1, 255)) + b"\x01"),
        (bytes(range(0, 255)), b"\x01\xff" + bytes(range(1, 255)) + b"\x01"),
    ],
)
def test_cobs_known_vectors(raw: bytes, stuffed: bytes) -> None:
    assert codec.cobs_encode(raw) == stuffed
    assert codec.cobs_decode(stuffed) == raw


def test_crc32_check_value() -> None:
    assert codec.crc32(b"123456789") == 0xCBF43926


@pytest.mark.parametrize("msg", MESSAGES, ids=lambda m: type(m).__name__)
def test_every_message_round_trips(msg: codec.Message) -> None:
    frame = codec.encode(msg)
    assert frame[0] == 0 and frame[-1] == 0 and frame.count(0) == 2
    assert len(frame) - 2 <= codec.MAX_ENCODED
    assert Deframer().feed(frame) == [msg]


def test_byte_layout_of_a_button_frame() -> None:
    body = codec.encode_body(Button(1, 2, 1, 3, Gesture.LONG, 500))
    assert body[:13] == bytes.fromhex("8301000000020001000302f401")
    assert int.from_bytes(body[13:], "little") == codec.crc32(body[:13])


def test_corrupted_crc_is_reported_not_decoded() -> None:
    body = bytearray(codec.encode_body(Button(1, 2, 1, 3, Gesture.LONG, 500)))
    body[5] ^= 0x01
    items = Deframer().feed(codec.cobs_encode(bytes(body)) + b"\x00")
    assert len(items) == 1 and isinstance(items[0], CorruptFrame)
    assert "CRC" in items[0].reason


def test_unknown_type_and_bad_length_are_frame_errors() -> None:
    for body in (b"\x7f", b"\x83\x01"):
        with pytest.raises(FrameError):
            codec.decode_body(body + codec.crc32(body).to_bytes(4, "little"))


def test_resync_after_garbage_and_split_reads() -> None:
    stream = b"\x13\x37garbage" + codec.encode(MESSAGES[7]) + b"\xff" * 300 + b"\x00"
    stream += codec.encode(MESSAGES[6])
    deframer = Deframer()
    items: list[codec.Message | CorruptFrame] = []
    for i in range(0, len(stream), 7):
        items += deframer.feed(stream[i : i + 7])
    messages = [i for i in items if not isinstance(i, CorruptFrame)]
    assert messages == [MESSAGES[7], MESSAGES[6]]
    assert any(i.reason == "frame too long" for i in items if isinstance(i, CorruptFrame))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.binary(max_size=200), max_size=20))
def test_deframer_never_raises_and_never_invents_a_press(chunks: list[bytes]) -> None:
    deframer = Deframer()
    for chunk in chunks:
        for item in deframer.feed(chunk):
            # Random bytes pass a CRC32 with odds of 2**-32: a decoded message here is a bug.
            assert isinstance(item, CorruptFrame)


@settings(max_examples=200, deadline=None)
@given(
    st.binary(max_size=100),
    st.sampled_from(MESSAGES),
    st.binary(max_size=100),
    st.integers(min_value=1, max_value=50),
)
def test_a_frame_after_any_garbage_is_recovered(
    before: bytes, msg: codec.Message, after: bytes, chunk: int
) -> None:
    stream = before + codec.encode(msg) + after
    deframer = Deframer()
    items: list[codec.Message | CorruptFrame] = []
    for i in range(0, len(stream), chunk):
        items += deframer.feed(stream[i : i + chunk])
    assert msg in items


@given(st.binary(max_size=codec.MAX_BODY))
def test_cobs_round_trips_any_bytes(raw: bytes) -> None:
    stuffed = codec.cobs_encode(raw)
    assert 0 not in stuffed
    assert codec.cobs_decode(stuffed) == raw


def test_led_state_parse_and_format() -> None:
    assert LedState.parse("blink:#ff0000") == RED_BLINK
    assert str(RED_BLINK) == "blink:#ff0000"
    assert LedState.parse("off") == OFF
    with pytest.raises(ValueError):
        LedState(256, 0, 0, Pattern.SOLID)
    with pytest.raises(ValueError):
        Gesture.parse("triple")
