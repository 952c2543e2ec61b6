"""The command line: help works, unknown commands are usage errors."""

import pytest

from controller.cli import main


def test_help_lists_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    assert "COMMAND" in capsys.readouterr().out


def test_unknown_command_is_usage_error() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["no-such-command"])
    assert exc.value.code == 2


def test_a_pydantic_error_is_one_line_naming_the_field() -> None:
    from pydantic import BaseModel, ValidationError, field_validator

    from controller.cli import one_line

    class Model(BaseModel):
        url: str

        @field_validator("url")
        @classmethod
        def _ok(cls, value: str) -> str:
            raise ValueError("scheme must be mqtt://")

    with pytest.raises(ValidationError) as exc:
        Model(url="foo://x")
    assert one_line(exc.value) == "url: scheme must be mqtt://"
    assert one_line(RuntimeError("first\n\n  second\n")) == "first second"


def test_live_simulate_with_a_bad_broker_is_a_usage_error_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["live", "simulate", "--broker", "foo://x"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "domino-table: error: bad MQTT settings: url: broker URL 'foo://x': scheme must be "
        "mqtt:// or mqtts://\n"
    )
