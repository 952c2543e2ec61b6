"""The demo publishes the table live: through a real Mosquitto, the retained state a late
subscriber gets carries the final score, and the availability topic says the table went offline."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from controller.cli import main
from controller.live.broker import MosquittoBroker
from controller.rules.record import parse_record, replay
from tests.controller.runtime.mqtt_helpers import retained
from tests.controller.table.helpers import truth


def test_demo_publishes_the_final_state_to_mosquitto(capsys: pytest.CaptureFixture[str]) -> None:
    if MosquittoBroker.find_executable() is None:
        if os.environ.get("CI") == "true":
            pytest.fail("mosquitto is missing under CI (scripts/test.sh installs it)")
        pytest.skip("mosquitto not installed")
    with MosquittoBroker() as broker:
        code = main(
            [
                "demo",
                "--fixture-only",
                "--exit-when-done",
                "--speed",
                "1000",
                "--buttons",
                "direct",
                "--recogniser",
                "oracle",
                "--broker",
                broker.url,
                "--http-port",
                "0",
                "--table",
                "demo-live",
            ]
        )
        _, err = capsys.readouterr()
        assert code == 0
        assert "scoreboard at http://" in err
        root = "domino/v1/demo-live"
        msgs = retained(broker.port, [f"{root}/state", f"{root}/availability"])
    state: Any = json.loads(msgs[f"{root}/state"])
    expected = replay(parse_record(truth()["record"])).to_json()["totals"]
    assert [side["score"] for side in state["match"]["sides"]] == expected
    assert state["schema"] == "domino-table/state/1"
    assert msgs[f"{root}/availability"] == b"offline"
