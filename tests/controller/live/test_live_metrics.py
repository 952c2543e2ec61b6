"""``/metrics`` through prometheus_client: the existing names, exact values, a parseable text."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from controller.live.app import create_app
from controller.live.examples import example_body
from controller.live.fakes import FakeMqttClient
from controller.live.models import encode
from controller.live.port import FakePublisher
from controller.live.settings import MqttSettings, ScoreboardSettings
from domino_common.clock import FakeClock

# a last-seen time that %g printed as 1.79651e+09 (1,230.123 s lost)
SEEN = 1_796_511_230.123

NAMES = {
    "domino_scoreboard_broker_up",
    "domino_scoreboard_messages_total",
    "domino_scoreboard_refused_total",
    "domino_scoreboard_seq_gaps_total",
    "domino_scoreboard_resyncs_total",
    "domino_scoreboard_sse_clients",
    "domino_scoreboard_sse_dropped_total",
    "domino_scoreboard_tables",
    "domino_scoreboard_tables_evicted_total",
    "domino_scoreboard_table_online",
    "domino_scoreboard_table_stale",
    "domino_scoreboard_table_last_seen_seconds",
    "domino_scoreboard_table_score",
}


@pytest.fixture
def scraped() -> Iterator[tuple[TestClient, FakeMqttClient, FakeClock]]:
    clients: list[FakeMqttClient] = []
    clock = FakeClock(wall=SEEN)

    def factory(client_id: str, settings: MqttSettings) -> FakeMqttClient:
        clients.append(FakeMqttClient(client_id, settings))
        return clients[-1]

    settings = ScoreboardSettings(mqtt=MqttSettings(url="mqtt://127.0.0.1:1"))
    with TestClient(create_app(settings, mqtt_factory=factory, clock=clock)) as http:
        yield http, clients[0], clock


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_metrics_keep_their_names_and_print_exact_values(
    scraped: tuple[TestClient, FakeMqttClient, FakeClock],
) -> None:
    http, client, clock = scraped
    client.connect()
    pub = FakePublisher("t-9", clock=clock, session="s")
    client.deliver("domino/v1/t-9/availability", b"online")
    client.deliver("domino/v1/t-9/state", encode(pub.publish_state(example_body(scores=(57, 81)))))
    client.deliver("domino/v1/t-9/state", b"{junk")
    r = http.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    got = samples(r.text)
    assert {name for name, _ in got} == NAMES
    seen = got[("domino_scoreboard_table_last_seen_seconds", (("table", "t-9"),))]
    assert seen == SEEN  # exact: no %g rounding
    assert got[("domino_scoreboard_broker_up", ())] == 1
    assert got[("domino_scoreboard_table_online", (("table", "t-9"),))] == 1
    assert got[("domino_scoreboard_table_score", (("side", "1"), ("table", "t-9")))] == 81
    assert got[("domino_scoreboard_messages_total", (("kind", "state"),))] == 2
    refused = ("domino_scoreboard_refused_total", (("kind", "state"), ("reason", "malformed")))
    assert got[refused] == 1
    assert got[("domino_scoreboard_tables", ())] == 1
    # the printed number itself carries every digit (a scraper reads the text, not our floats)
    line = next(x for x in r.text.splitlines() if x.startswith("domino_scoreboard_table_last"))
    assert float(line.rsplit(" ", 1)[1]) == SEEN
