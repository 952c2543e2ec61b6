"""The table's command gate and refusal limiter, pure, on an injected clock."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from controller.live.commands import CommandGate, RefusalLimiter, canonical, signed_command
from controller.live.models import encode
from controller.live.settings import BrokerAddress, ScoreboardSettings, TableSettings
from controller.redact import redact_url
from domino_common.clock import FakeClock

KEY = b"k" * 32


def cmd(cmd_id: str, ts: float, **kw: object) -> bytes:
    fields: dict[str, object] = {"table": "t1", "name": "undo", "args": {}, **kw}
    return encode(signed_command(KEY, ts=ts, cmd_id=cmd_id, **fields))  # type: ignore[arg-type]


def test_the_signature_covers_every_field_in_one_canonical_form() -> None:
    a = canonical({"b": 1, "a": [1.5, "é"], "mac": "x"})
    assert a == b'{"a":[1.5,"\\u00e9"],"b":1}'
    one = signed_command(KEY, table="t1", name="undo", ts=5.0, args={}, cmd_id="c-00000001")
    two = signed_command(KEY, table="t2", name="undo", ts=5.0, args={}, cmd_id="c-00000001")
    assert one.mac != two.mac and len(one.mac) == 64


def test_the_replay_cache_is_bounded_and_forgets_only_what_the_window_refuses() -> None:
    clock = FakeClock()
    gate = CommandGate("t1", KEY, window_s=30, cache_size=3)
    now = clock.time()
    for i in range(3):
        assert gate.check("undo", cmd(f"c-0000000{i}", now), now).reason is None
    # full of ids still inside the window: refuse rather than forget one and let it replay
    assert gate.check("undo", cmd("c-00000003", now), now).reason == "busy"
    assert gate.check("undo", cmd("c-00000000", now), now).reason == "replayed"
    clock.advance(31)
    later = clock.time()
    # the old ids are out of the window: a replay of one is stale, and room is made
    assert gate.check("undo", cmd("c-00000000", now), later).reason == "stale"
    assert gate.check("undo", cmd("c-00000004", later), later).reason is None
    assert gate.check("undo", cmd("c-00000005", later + 40), later).reason == "stale"  # future
    assert gate.accepted == 4
    assert dict(gate.refused) == {"busy": 1, "replayed": 1, "stale": 2}
    assert "k" * 16 not in repr(gate)


def test_the_refusal_limiter_lets_n_a_minute_through_and_says_how_many_it_held() -> None:
    limiter = RefusalLimiter(per_minute=2)
    assert [limiter.allow(t) for t in (0.0, 1.0, 2.0, 3.0, 59.0)] == [0, 0, None, None, None]
    assert limiter.allow(60.0) == 3 and limiter.allow(61.0) == 0 and limiter.held_total == 3


def test_command_keys_are_checked_and_never_shown() -> None:
    with pytest.raises(ValidationError) as exc:
        TableSettings(cmd_key="short-key")
    assert "short-key" not in str(exc.value.errors()[0]["msg"])
    with pytest.raises(ValidationError):
        ScoreboardSettings(cmd_keys={"bad table!": "k" * 20})
    settings = ScoreboardSettings(cmd_keys={"t1": "k" * 20}, tables=["t9"])
    assert settings.tracked() == {"t1", "t9"} and "k" * 20 not in repr(settings)


def test_urls_are_shown_without_their_password() -> None:
    assert BrokerAddress.parse("mqtts://sb:p%40ss@h:8883").redacted() == "mqtts://sb:***@h:8883"
    assert BrokerAddress.parse("mqtt://h").redacted() == "mqtt://h:1883"
    assert redact_url("x mqtt://u:a@b@h:1 y mqtt://h:2") == "x mqtt://u:***@h:1 y mqtt://h:2"
