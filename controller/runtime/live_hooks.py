"""Where the MQTT publisher and the scoreboard join the runtime.

:func:`start_live` starts ``controller.live``'s :class:`~controller.live.station.LiveStation` on
one :class:`~controller.live.settings.StationSettings` value, built once by the preflight: the
table's MQTT publisher on its broker (an embedded broker when it names none) and, when it has an
``http_port``, the scoreboard in the same process. Live state must never stop the table:
if it cannot start, the runtime goes on without it and says why.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from controller.live.port import Publisher
from controller.live.settings import StationSettings

log = logging.getLogger(__name__)


@dataclass(slots=True)
class LiveServices:
    """The live side as the runtime holds it: the station's MQTT publisher (None when live state
    is off), a line saying where it publishes, and the station to stop."""

    publisher: Publisher | None
    note: str
    station: Any = None

    def take_commands(self, runtime: Any) -> None:
        """Run the authorised commands the table receives (``new_match``, ``correct``,
        ``undo``) on ``runtime`` (a :class:`~controller.runtime.core.TableRuntime`)."""
        if self.station is not None:
            self.station.set_command_handler(command_handler(runtime))

    def stop(self) -> None:
        """Say ``offline``, stop the publisher, and the broker and web server if we started them."""
        if self.station is not None:
            self.station.stop()
            self.station = None


def command_handler(runtime: Any) -> Callable[[str, Any], None]:
    """A live command handler feeding ``runtime``: the command's arguments become a journaled
    table input; wrong arguments raise ``ValueError`` (the publisher refuses the command)."""

    def handle(name: str, cmd: Any) -> None:
        runtime.command(name, dict(cmd.args))

    return handle


def _port_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def start_live(
    settings: StationSettings, *, on_broker: Callable[[str], None] | None = None
) -> LiveServices:
    """Start MQTT publishing (and the scoreboard when ``settings.http_port`` is set) for the
    table of ``settings`` (built once, by the preflight). ``http_port`` 0 picks a free port; a
    busy port falls back to a free one. ``on_broker`` gets one line each time the link to the
    broker changes: lost, unreachable, (back) connected; the first connection that works at once
    is not worth a line."""
    from controller.errors import ControllerError
    from controller.live.broker import free_port
    from controller.live.station import LiveStation
    from controller.redact import redact_url

    notes = []
    http_port, http_host = settings.http_port, settings.http_host
    if http_port is not None and (http_port == 0 or not _port_free(http_port, http_host)):
        if http_port:
            notes.append(f"port {http_port} is busy")
        settings = replace(settings, http_port=free_port(http_host))
    station = LiveStation(
        settings, on_broker_status=None if on_broker is None else _status_lines(on_broker)
    )
    try:
        station.start()
    except (ControllerError, OSError) as exc:
        station.stop()
        log.warning("live state is off: %s", exc)
        return LiveServices(None, f"live state is off ({exc}); the table goes on without it")
    broker = settings.mqtt.url
    where = (
        f"embedded broker at {station.broker_url}"
        if broker is None
        else f"broker {redact_url(broker)}"
    )
    notes.insert(0, f"MQTT via {where}")
    if station.scoreboard_url:
        notes.append(f"scoreboard at {station.scoreboard_url}")
    return LiveServices(station.publisher, "; ".join(notes), station)


def _status_lines(say: Callable[[str], None]) -> Callable[[Any], None]:
    seen_down = False

    def on_status(status: Any) -> None:
        nonlocal seen_down
        seen_down = seen_down or not status.connected
        if seen_down:
            say(status.describe())

    return on_status
