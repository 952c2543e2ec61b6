"""A table's live side in one object: the broker (embedded when none is configured), the table's
MQTT publisher, and optionally the scoreboard served from the same process.

This is what ``domino-table demo`` uses for its zero-setup default: no broker and no scoreboard
to start by hand. ``domino-table run`` uses only the publisher, against a real broker.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from types import TracebackType
from typing import Any, Self

from pydantic import ValidationError

from controller.live.broker import EmbeddedBroker
from controller.live.errors import LiveConfigError
from controller.live.models import DeviceView, StateBody
from controller.live.publisher import CommandHandler, MqttPublisher, StatusHandler
from controller.live.settings import MqttSettings, ScoreboardSettings, TableSettings, short_reason
from domino_common.clock import Clock, SystemClock

log = logging.getLogger(__name__)

_STATE_KEYS = ("match", "hand", "alerts", "device")


def state_body(snapshot: Mapping[str, Any]) -> StateBody:
    """The MQTT state body of a table snapshot (the table session's fields of the same names)."""
    return StateBody.model_validate({k: snapshot[k] for k in _STATE_KEYS if k in snapshot})


class LiveStation:
    """Start with :meth:`start` (or ``with``); publish with :meth:`publish_state` and
    :meth:`publish_event`; :meth:`stop` says ``offline`` and shuts everything down."""

    def __init__(
        self,
        *,
        table: str = "table-1",
        broker_url: str | None = None,
        http_port: int | None = None,
        http_host: str = "127.0.0.1",
        clock: Clock | None = None,
        on_broker_status: StatusHandler | None = None,
        cmd_key: str | None = None,
    ) -> None:
        self.table = table
        self._broker_url = broker_url
        self._http_port = http_port
        self._http_host = http_host
        self._clock = clock or SystemClock()
        self._on_broker_status = on_broker_status
        self._embedded: EmbeddedBroker | None = None
        self._server: Any = None
        self.publisher: MqttPublisher | None = None
        self._on_command: CommandHandler | None = None
        try:
            self._table_settings = TableSettings(table=table)
            if cmd_key is None and http_port is not None and self._table_settings.cmd_key is None:
                # the scoreboard is ours, in this process: both ends share a key made now
                cmd_key = secrets.token_hex(32)
            if cmd_key is not None:
                self._table_settings = TableSettings.model_validate(
                    {**self._table_settings.model_dump(), "cmd_key": cmd_key}
                )
            if broker_url is not None:
                MqttSettings(url=broker_url)
        except ValidationError as exc:
            raise LiveConfigError(f"bad live settings: {short_reason(exc)}") from None
        except ValueError as exc:  # pydantic-settings' own (a value that is not JSON)
            raise LiveConfigError(f"bad live settings: {exc}") from None

    @property
    def broker_url(self) -> str | None:
        return self._embedded.url if self._embedded is not None else self._broker_url

    @property
    def scoreboard_url(self) -> str | None:
        return None if self._server is None else f"{self._server.url}/table/{self.table}"

    def start(self) -> None:
        url = self._broker_url
        if url is None:
            self._embedded = EmbeddedBroker()
            self._embedded.start()
            url = self._embedded.url
        mqtt = MqttSettings(url=url)
        self.publisher = MqttPublisher(
            mqtt,
            self._table_settings,
            clock=self._clock,
            on_status=self._on_broker_status,
            on_command=self._on_command,
        )
        self.publisher.start()
        if self._http_port is not None:
            from controller.live.app import create_app
            from controller.live.server import ServerThread

            board = ScoreboardSettings(mqtt=mqtt, http_host=self._http_host)
            # this table is the board's own: tracked, and its commands signed with its key
            keys = dict(board.cmd_keys)
            if self._table_settings.cmd_key is not None:
                keys.setdefault(self.table, self._table_settings.cmd_key)
            board = board.model_copy(
                update={"cmd_keys": keys, "tables": [*board.tables, self.table]}
            )
            self._server = ServerThread(create_app(board), self._http_host, self._http_port)
            self._server.start()
            log.info("scoreboard on %s", self.scoreboard_url)

    def set_command_handler(self, handler: CommandHandler | None) -> None:
        """Who runs the table's accepted commands (see :class:`MqttPublisher`)."""
        self._on_command = handler
        if self.publisher is not None:
            self.publisher.set_command_handler(handler)

    def publish_state(self, snapshot: Mapping[str, Any]) -> None:
        if self.publisher is not None:
            self.publisher.publish_state(state_body(snapshot))

    def publish_event(self, type_: str, data: Mapping[str, Any]) -> None:
        if self.publisher is not None:
            self.publisher.publish_event(type_, data)

    def publish_device(self, link: str, detail: str | None = None) -> None:
        if self.publisher is not None:
            view = DeviceView.model_validate({"link": link, "detail": detail})
            self.publisher.publish_device(view)

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
