"""A table's live side in one object: the broker (embedded when none is configured), the table's
MQTT publisher, and optionally the scoreboard served from the same process.

This is what ``domino-table demo`` uses for its zero-setup default: no broker and no scoreboard
to start by hand. ``domino-table run`` uses only the publisher, against a real broker. The table
publishes through :attr:`LiveStation.publisher` (the :class:`~controller.live.port.Publisher` on
MQTT) once the station has started.
"""

from __future__ import annotations

import logging
from types import TracebackType
from typing import Any, Self

from controller.live.broker import EmbeddedBroker
from controller.live.publisher import CommandHandler, MqttPublisher, StatusHandler
from controller.live.settings import ScoreboardSettings, StationSettings
from domino_common.clock import Clock, SystemClock

log = logging.getLogger(__name__)


class LiveStation:
    """Start with :meth:`start` (or ``with``); publish through :attr:`publisher` (set while
    started); :meth:`stop` says ``offline`` and shuts everything down."""

    def __init__(
        self,
        settings: StationSettings,
        *,
        clock: Clock | None = None,
        on_broker_status: StatusHandler | None = None,
    ) -> None:
        self.settings = settings
        self.table = settings.table.table
        self._clock = clock or SystemClock()
        self._on_broker_status = on_broker_status
        self._embedded: EmbeddedBroker | None = None
        self._server: Any = None
        self.publisher: MqttPublisher | None = None
        self._on_command: CommandHandler | None = None

    @property
    def broker_url(self) -> str | None:
        return self._embedded.url if self._embedded is not None else self.settings.mqtt.url

    @property
    def scoreboard_url(self) -> str | None:
        return None if self._server is None else f"{self._server.url}/table/{self.table}"

    def start(self) -> None:
        mqtt = self.settings.mqtt
        if mqtt.url is None:
            self._embedded = EmbeddedBroker()
            self._embedded.start()
            mqtt = mqtt.model_copy(update={"url": self._embedded.url})
        table = self.settings.table
        self.publisher = MqttPublisher(
            mqtt,
            table,
            clock=self._clock,
            on_status=self._on_broker_status,
            on_command=self._on_command,
        )
        self.publisher.start()
        http_port, http_host = self.settings.http_port, self.settings.http_host
        if http_port is not None:
            from controller.live.app import create_app
            from controller.live.server import ServerThread

            board = ScoreboardSettings(mqtt=mqtt, http_host=http_host)
            # this table is the board's own: tracked, and its commands signed with its key
            keys = dict(board.cmd_keys)
            if table.cmd_key is not None:
                keys.setdefault(self.table, table.cmd_key)
            board = board.model_copy(
                update={"cmd_keys": keys, "tables": [*board.tables, self.table]}
            )
            self._server = ServerThread(create_app(board), http_host, http_port)
            self._server.start()
            log.info("scoreboard on %s", self.scoreboard_url)

    def set_command_handler(self, handler: CommandHandler | None) -> None:
        """Who runs the table's accepted commands (see :class:`MqttPublisher`)."""
        self._on_command = handler
        if self.publisher is not None:
            self.publisher.set_command_handler(handler)

    def stop(self) -> None:
        if self.publisher is not None:
            self.publisher.stop()
            self.publisher = None
        if self._server is not None:
            self._server.stop()
            self._server = None
        if self._embedded is not None:
            self._embedded.stop()
            self._embedded = None

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
