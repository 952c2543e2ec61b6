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
    with LiveStation(table="demo-1", http_port=port) as station:
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


def test_bad_broker_url_is_a_config_error() -> None:
    with pytest.raises(LiveConfigError):
        LiveStation(broker_url="http://nope")


def test_bad_team_names_are_one_line_naming_the_field(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOMINO_TABLE_TEAMS", '["alone"]')
    with pytest.raises(LiveConfigError) as exc:
        LiveStation(table="t1")
    assert str(exc.value).startswith("bad live settings: teams: ")
    assert "\n" not in str(exc.value)
