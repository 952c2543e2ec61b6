"""Settings: broker URLs, validation, environment."""

import pytest
from pydantic import ValidationError

from controller.live.errors import LiveConfigError
from controller.live.settings import BrokerAddress, MqttSettings, ScoreboardSettings, TableSettings


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("mqtt://broker.local", BrokerAddress("broker.local", 1883)),
        ("broker.local:1884", BrokerAddress("broker.local", 1884)),
        ("mqtts://h", BrokerAddress("h", 8883, tls=True)),
        ("mqtt://t1:p%40ss@h:1", BrokerAddress("h", 1, False, "t1", "p@ss")),
    ],
)
def test_broker_urls(url: str, expected: BrokerAddress) -> None:
    assert BrokerAddress.parse(url) == expected


@pytest.mark.parametrize("url", ["http://h", "mqtt://", "mqtt://h:99999", "mqtt://h/x"])
def test_bad_broker_urls(url: str) -> None:
    with pytest.raises(LiveConfigError):
        BrokerAddress.parse(url)


def test_fields_override_url_credentials() -> None:
    s = MqttSettings(url="mqtt://a:b@h", username="c", password="d", tls=True)
    assert s.address() == BrokerAddress("h", 1883, True, "c", "d")


def test_validation_at_load() -> None:
    with pytest.raises(ValidationError):
        MqttSettings(root="bad root/#")
    with pytest.raises(ValidationError):
        MqttSettings(ca_file="/no/such/ca.pem")
    with pytest.raises(ValidationError):
        TableSettings(table="a/b")
    with pytest.raises(ValidationError):
        MqttSettings(url="ftp://x")


def test_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINO_SCOREBOARD_TOKEN", "s3cret")
    monkeypatch.setenv("DOMINO_SCOREBOARD_MQTT__URL", "mqtt://h:2")
    s = ScoreboardSettings()
    assert s.token is not None and s.token.get_secret_value() == "s3cret"
    assert s.mqtt.address().port == 2
    assert "s3cret" not in repr(s)


def test_team_names_from_the_environment_and_their_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    assert TableSettings().teams is None  # the table names partnerships by their seats
    monkeypatch.setenv("DOMINO_TABLE_TEAMS", '["Los  Gallos ", "Las Palmas"]')
    assert TableSettings().teams == ["Los Gallos", "Las Palmas"]
    for bad in ('["only one"]', '["", "B"]', '["A", "' + "x" * 65 + '"]', '["a","b","c","d","e"]'):
        monkeypatch.setenv("DOMINO_TABLE_TEAMS", bad)
        with pytest.raises(ValidationError):
            TableSettings()
