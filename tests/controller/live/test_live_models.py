"""Payload models: encoding round-trips, refusal reasons, schema files up to date."""

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from controller.live import examples, schemas
from controller.live.errors import PayloadError
from controller.live.models import (
    CommandPayload,
    DevicePayload,
    EventPayload,
    StatePayload,
    decode,
    encode,
)

MAX = 256 * 1024


def test_schema_files_are_up_to_date_with_the_models() -> None:
    for rel, text in schemas.expected_files().items():
        path = schemas.SCHEMA_DIR / rel
        assert path.is_file(), f"missing {rel}: run python -m controller.live.schemas"
        assert path.read_text(encoding="utf-8") == text, f"{rel} is out of date"


@pytest.mark.parametrize(
    ("model", "example"),
    [
        (StatePayload, "state"),
        (EventPayload, "event"),
        (DevicePayload, "device"),
        (CommandPayload, "cmd"),
    ],
)
def test_example_files_are_valid_payloads(model: type, example: str) -> None:
    raw = (schemas.SCHEMA_DIR / "examples" / f"{example}.json").read_bytes()
    payload = decode(model, raw, max_bytes=MAX)
    assert json.loads(encode(payload)) == json.loads(raw)


def test_wire_name_is_schema_and_version_is_checked() -> None:
    doc = json.loads(encode(examples.example_state()))
    assert doc["schema"] == "domino-table/state/1"
    doc["schema"] = "domino-table/state/2"
    with pytest.raises(PayloadError) as exc:
        decode(StatePayload, json.dumps(doc).encode(), max_bytes=MAX)
    assert exc.value.reason == "unknown_schema"


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"{not json", "malformed"),
        (b"\xff\xfe", "malformed"),
        (b"[1, 2]", "malformed"),
        (b'{"schema": "domino-table/state/1", "seq": -1}', "invalid"),
        (b'{"seq": 3}', "unknown_schema"),
        (b"x" * (MAX + 1), "oversized"),
        # numbers JSON cannot carry: a command holding one could not be signed (issue 46)
        (b'{"schema": "domino-table/state/1", "ts": NaN}', "malformed"),
        (b'{"schema": "domino-table/state/1", "ts": -Infinity}', "malformed"),
        (b'{"schema": "domino-table/state/1", "data": {"x": [1e999]}}', "malformed"),
    ],
)
def test_refusal_reasons(raw: bytes, reason: str) -> None:
    with pytest.raises(PayloadError) as exc:
        decode(StatePayload, raw, max_bytes=MAX)
    assert exc.value.reason == reason


def test_unknown_fields_are_refused() -> None:
    doc = json.loads(encode(examples.example_event()))
    doc["surprise"] = 1
    with pytest.raises(PayloadError) as exc:
        decode(EventPayload, json.dumps(doc).encode(), max_bytes=MAX)
    assert exc.value.reason == "invalid"


def test_deeply_nested_json_is_refused_not_crashing() -> None:
    raw = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(PayloadError):
        decode(EventPayload, raw, max_bytes=len(raw))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_either_decode_or_raise_payload_error(raw: bytes) -> None:
    for model in (StatePayload, EventPayload, DevicePayload, CommandPayload):
        with contextlib.suppress(PayloadError):
            decode(model, raw, max_bytes=MAX)


@settings(max_examples=100, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c, max_size=3),
        max_leaves=20,
    )
)
def test_any_json_under_a_known_schema_is_validated(value: object) -> None:
    doc = json.loads(encode(examples.example_state()))
    doc["hand"] = value
    try:
        decode(StatePayload, json.dumps(doc).encode(), max_bytes=MAX)
    except PayloadError as exc:
        assert exc.reason == "invalid"
