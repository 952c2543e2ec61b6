"""``/metrics``: the scoreboard's figures in the Prometheus text format, written by
``prometheus_client`` (values printed exactly: a UNIX time keeps its milliseconds).

The figures are read from the store and the hub when scraped (a custom collector on a registry of
the app's own, never the process-wide default one), so nothing has to be kept in step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_PLAIN_0_0_4, generate_latest
from prometheus_client.registry import CollectorRegistry

if TYPE_CHECKING:
    from controller.live.hub import Hub
    from controller.live.store import TableStore

CONTENT_TYPE = CONTENT_TYPE_PLAIN_0_0_4


class ScoreboardCollector:
    """Collects the live figures of one scoreboard at each scrape."""

    def __init__(self, store: TableStore, hub: Hub, resyncs: Callable[[], int]) -> None:
        self._store = store
        self._hub = hub
        self._resyncs = resyncs

    def collect(self) -> Iterator[Metric]:
        store, hub = self._store, self._hub
        up = GaugeMetricFamily(
            "domino_scoreboard_broker_up", "1 when the scoreboard is connected to MQTT"
        )
        up.add_metric([], 1 if store.broker_up else 0)
        yield up
        messages = CounterMetricFamily(
            "domino_scoreboard_messages_total",
            "MQTT messages received, by topic kind",
            labels=["kind"],
        )
        for kind, n in sorted(store.messages.items()):
            messages.add_metric([kind], n)
        yield messages
        refused = CounterMetricFamily(
            "domino_scoreboard_refused_total",
            "MQTT payloads refused, by kind and reason",
            labels=["kind", "reason"],
        )
        for (kind, reason), n in sorted(store.refused.items()):
            refused.add_metric([kind, reason], n)
        yield refused
        yield CounterMetricFamily(
            "domino_scoreboard_seq_gaps_total",
            "event seq gaps seen (each resyncs)",
            value=store.gaps_total,
        )
        yield CounterMetricFamily(
            "domino_scoreboard_resyncs_total",
            "resyncs from the retained state",
            value=self._resyncs(),
        )
        yield GaugeMetricFamily(
            "domino_scoreboard_sse_clients", "connected live-page clients", value=hub.clients
        )
        yield CounterMetricFamily(
            "domino_scoreboard_sse_dropped_total",
            "live clients dropped for being slow",
            value=hub.dropped_total,
        )
        rows = store.hall()
        yield GaugeMetricFamily("domino_scoreboard_tables", "tables known", value=len(rows))
        online = GaugeMetricFamily(
            "domino_scoreboard_table_online", "1 when the table says online", labels=["table"]
        )
        stale = GaugeMetricFamily(
            "domino_scoreboard_table_stale",
            "1 when the shown state may be out of date",
            labels=["table"],
        )
        seen = GaugeMetricFamily(
            "domino_scoreboard_table_last_seen_seconds",
            "UNIX time of the last message",
            labels=["table"],
        )
        score = GaugeMetricFamily(
            "domino_scoreboard_table_score", "score of each side", labels=["table", "side"]
        )
        commands = GaugeMetricFamily(
            "domino_scoreboard_table_commands",
            "commands the table says it took and refused since it started (from its state)",
            labels=["table", "outcome"],
        )
        yield CounterMetricFamily(
            "domino_scoreboard_tables_evicted_total",
            "unconfigured tables dropped at the table cap",
            value=store.evicted,
        )
        for r in rows:
            table = r["table"]
            view = store.view(table)
            counts = ((view or {}).get("state") or {}).get("commands")
            if counts:
                commands.add_metric([table, "accepted"], counts["accepted"])
                commands.add_metric([table, "refused"], counts["refused"])
            online.add_metric([table], 1 if r["status"] == "online" else 0)
            stale.add_metric([table], 1 if r["stale"] else 0)
            seen.add_metric([table], r["last_seen"] or 0)
            for i, side in enumerate(r["sides"]):
                score.add_metric([table, str(i)], side["score"])
        yield from (online, stale, seen, score, commands)


def registry_for(store: TableStore, hub: Hub, resyncs: Callable[[], int]) -> CollectorRegistry:
    """A registry of the scoreboard's own, holding only its collector."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ScoreboardCollector(store, hub, resyncs))
    return registry


def exposition(registry: CollectorRegistry) -> bytes:
    """The text exposition format (0.0.4) of everything in ``registry``."""
    return generate_latest(registry)
