"""Where the MQTT publisher and the scoreboard join the runtime.

Until ``controller.live`` lands this does nothing: :func:`start_live` returns no publisher and
the demo says so. When it lands, it returns a publisher for ``broker`` (starting the embedded
broker when ``broker`` is None) and serves the scoreboard on ``http_port``, and ``stop()`` ends
both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.runtime.publisher import Publisher


@dataclass(slots=True)
class LiveServices:
    publisher: Publisher | None
    note: str

    def stop(self) -> None:
        """Stop the broker and web server started for the demo (nothing yet)."""


def start_live(*, broker: str | None, http_port: int | None, table: str) -> LiveServices:
    """Start MQTT publishing and the scoreboard for ``table`` (not wired yet)."""
    wanted = []
    if broker:
        wanted.append(f"broker {broker}")
    if http_port:
        wanted.append(f"scoreboard on port {http_port}")
    what = " and ".join(wanted) or "the embedded broker and scoreboard"
    return LiveServices(None, f"MQTT/scoreboard not wired yet: {what} not started")


class LiveStationPublisher:
    """The runtime's :class:`Publisher` over ``controller.live``'s ``LiveStation`` (ready for
    :func:`start_live` to return; not used until it is wired)::

        station = LiveStation(table=table, broker_url=broker, http_port=http_port)
        station.start()
        return LiveServices(LiveStationPublisher(station), f"MQTT at {station.broker_url}")
    """

    def __init__(self, station: Any) -> None:
        self.station = station

    def publish_state(self, snapshot: Mapping[str, Any]) -> None:
        from controller.table.snapshot import live_state_body

        self.station.publish_state(live_state_body(dict(snapshot)))

    def publish_event(self, event: Mapping[str, Any]) -> None:
        data = {k: v for k, v in event.items() if k not in ("seq", "t", "kind")}
        self.station.publish_event(str(event["kind"]), data)
        if event.get("kind") == "device":
            self.station.publish_device(str(event["link"]), str(event.get("detail") or ""))

    def set_availability(self, online: bool) -> None:
        """The station publishes ``online`` when it starts and ``offline`` (its last will) when
        it stops: nothing to do per call."""
