"""Where the MQTT publisher and the scoreboard join the runtime.

Until ``controller.live`` lands this does nothing: :func:`start_live` returns no publisher and
the demo says so. When it lands, it returns a publisher for ``broker`` (starting the embedded
broker when ``broker`` is None) and serves the scoreboard on ``http_port``, and ``stop()`` ends
both.
"""

from __future__ import annotations

from dataclasses import dataclass

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
