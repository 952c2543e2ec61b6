"""The demo's live side: embedded broker + publisher + scoreboard in one process."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from controller.live.broker import free_port
from controller.live.errors import LiveConfigError
from controller.live.models import StateBody
from controller.live.settings import station_settings
from controller.live.station import LiveStation

BODY = StateBody.model_validate(
    {
        "match": {
            "rules": "latin",
            "target": 200,
            "sides": [
                {"name": "Ana+Carla", "seats": [0, 2], "score": 25},
                {"name": "Beto+Dani", "seats": [1, 3], "score": 0},
            ],
            "seats": [
                {"name": n, "side": i % 2} for i, n in enumerate(["Ana", "Beto", "Carla", "Dani"])
            ],
            "hand_no": 1,
        },
        "hand": {"phase": "playing", "leader": 0, "turn": 1, "counts": [6, 7, 7, 7]},
    }
)


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


def test_station_serves_what_it_publishes() -> None:
    port = free_port()
    with LiveStation(station_settings(table="demo-1", http_port=port)) as station:
        assert station.broker_url is not None and station.scoreboard_url is not None
        assert station.publisher is not None  # the port the table publishes through
        station.publisher.publish_state(BODY)
        deadline = time.monotonic() + 20
        view: Any = None
        while time.monotonic() < deadline:
            try:
                view = _get(f"http://127.0.0.1:{port}/api/tables/demo-1")
            except OSError:
                view = None
            if view and view.get("state"):
                break
            time.sleep(0.1)
        assert view is not None and view["state"]["match"]["sides"][0]["score"] == 25


def test_the_station_publishes_under_the_root_and_table_of_its_settings() -> None:
    with LiveStation(station_settings(table="t5", root="hall/v2")) as station:
        assert station.publisher is not None
        assert station.publisher.topics.state == "hall/v2/t5/state"
        assert station.scoreboard_url is None  # no http_port: no scoreboard


def test_bad_broker_url_is_a_config_error() -> None:
    with pytest.raises(LiveConfigError):
        station_settings(table="t1", broker="http://nope")


def test_bad_team_names_are_one_line_naming_the_field(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINO_TABLE_TEAMS", '["alone"]')
    with pytest.raises(LiveConfigError) as exc:
        station_settings(table="t1")
    assert str(exc.value).startswith("bad live settings: teams: ")
    assert "\n" not in str(exc.value)


def test_the_settings_are_built_once_from_the_values_given_and_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DOMINO_MQTT_URL", "mqtt://elsewhere:1883")
    monkeypatch.setenv("DOMINO_MQTT_ROOT", "env/root")
    monkeypatch.setenv("DOMINO_TABLE_TEAMS", '["Los Gallos", "Las Palomas"]')
    embedded = station_settings(table="t1")
    assert embedded.mqtt.url is None  # no broker given: the embedded one, whatever the env says
    assert embedded.mqtt.root == "env/root"
    assert embedded.table.teams == ["Los Gallos", "Las Palomas"]
    assert embedded.table.cmd_key is None and embedded.http_port is None
    given = station_settings(table="t2", broker="mqtt://hall:1883", root="hall/v2", http_port=0)
    assert (given.mqtt.url, given.mqtt.root) == ("mqtt://hall:1883", "hall/v2")
    assert given.table.table == "t2"
    # a scoreboard in this process shares a key made now with the table
    key = given.table.cmd_key
    assert key is not None and len(key.get_secret_value()) == 64
    with pytest.raises(LiveConfigError, match="root"):
        station_settings(table="t1", root="bad root")
