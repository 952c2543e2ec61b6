"""Typed, validated settings (pydantic-settings). Nothing is built at import time.

Environment variables: ``DOMINO_MQTT_*`` for :class:`MqttSettings`, ``DOMINO_SCOREBOARD_*``
for :class:`ScoreboardSettings` (nested MQTT fields as ``DOMINO_SCOREBOARD_MQTT__URL``...) and
``DOMINO_TABLE_*`` for :class:`TableSettings` (lists as JSON: ``DOMINO_TABLE_TEAMS='["Los
Gallos", "Las Palmas"]'``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Self
from urllib.parse import unquote, urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from controller.live.errors import LiveConfigError
from controller.redact import redact_url

TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_ROOT = re.compile(r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$")
DEFAULT_ROOT = "domino/v1"


def short_reason(exc: ValidationError) -> str:
    """The first problem of a pydantic ``ValidationError`` in one line (``field: reason``), not
    its multi-line dump with links."""
    first = exc.errors()[0]
    loc = ".".join(str(part) for part in first.get("loc", ()))
    reason = str(first.get("msg", "invalid")).removeprefix("Value error, ")
    return f"{loc}: {reason}" if loc else reason


MIN_KEY_LENGTH = 16


def check_key(key: SecretStr) -> SecretStr:
    """A command key must be long enough to resist guessing (the message never shows it)."""
    if len(key.get_secret_value()) < MIN_KEY_LENGTH:
        raise ValueError(f"a command key needs at least {MIN_KEY_LENGTH} characters")
    return key


@dataclass(frozen=True, slots=True)
class BrokerAddress:
    """Where a broker listens, parsed from ``mqtt://[user[:pass]@]host[:port]`` or ``mqtts://``."""

    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> BrokerAddress:
        """Parse a broker URL; errors show it with the password redacted."""
        text = url.strip()
        if "://" not in text:
            text = "mqtt://" + text
        url = redact_url(text)
        try:
            parts = urlsplit(text)
        except ValueError as exc:
            raise LiveConfigError(f"broker URL {url!r}: {exc}") from None
        if parts.scheme not in ("mqtt", "mqtts", "tcp", "ssl"):
            raise LiveConfigError(f"broker URL {url!r}: scheme must be mqtt:// or mqtts://")
        tls = parts.scheme in ("mqtts", "ssl")
        if not parts.hostname:
            raise LiveConfigError(f"broker URL {url!r} has no host")
        try:
            port = parts.port or (8883 if tls else 1883)
        except ValueError as exc:
            raise LiveConfigError(f"broker URL {url!r}: bad port") from exc
        if parts.path not in ("", "/"):
            raise LiveConfigError(f"broker URL {url!r}: no path expected")
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else None
        return cls(parts.hostname, port, tls, user, password)

    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"

    def redacted(self) -> str:
        """The URL to show a person: the user name kept, the password as ``***``."""
        if self.username is None:
            return self.url()
        scheme, rest = self.url().split("://", 1)
        secret = ":***" if self.password is not None else ""
        return f"{scheme}://{self.username}{secret}@{rest}"


class MqttSettings(BaseSettings):
    """How a table or the scoreboard reaches the broker."""

    model_config = SettingsConfigDict(env_prefix="DOMINO_MQTT_", extra="forbid")

    url: str | None = Field(
        default=None, description="mqtt://host:port or mqtts://...; None starts the embedded broker"
    )
    root: str = DEFAULT_ROOT
    username: str | None = None
    password: SecretStr | None = None
    tls: bool = False
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    tls_insecure: bool = Field(default=False, description="skip host-name check (lab use only)")
    client_id: str | None = None
    keepalive_s: int = Field(default=15, ge=5, le=600)
    reconnect_min_s: float = Field(default=0.5, gt=0, le=60)
    reconnect_max_s: float = Field(default=30.0, gt=0, le=3600)
    outbox_events: int = Field(default=1000, ge=1, le=1_000_000)
    max_payload: int = Field(default=256 * 1024, ge=1024, le=16 * 1024 * 1024)

    @field_validator("root")
    @classmethod
    def _root_ok(cls, value: str) -> str:
        if not _ROOT.match(value):
            raise ValueError("topic root: letters, digits, '_', '-', separated by '/'")
        return value

    @field_validator("url")
    @classmethod
    def _url_ok(cls, value: str | None) -> str | None:
        if value is not None:
            BrokerAddress.parse(value)
        return value

    @model_validator(mode="after")
    def _tls_files(self) -> Self:
        if (self.cert_file is None) != (self.key_file is None):
            raise ValueError("cert_file and key_file go together")
        for path in (self.ca_file, self.cert_file, self.key_file):
            if path is not None and not path.is_file():
                raise ValueError(f"TLS file {path} does not exist")
        if self.reconnect_max_s < self.reconnect_min_s:
            raise ValueError("reconnect_max_s must be >= reconnect_min_s")
        return self

    def address(self) -> BrokerAddress:
        """The broker to reach; user name, password and TLS from the fields win over the URL."""
        if self.url is None:
            raise LiveConfigError("no broker URL configured")
        addr = BrokerAddress.parse(self.url)
        password = self.password.get_secret_value() if self.password else addr.password
        return BrokerAddress(
            addr.host, addr.port, addr.tls or self.tls, self.username or addr.username, password
        )


class ScoreboardSettings(BaseSettings):
    """The scoreboard web service."""

    model_config = SettingsConfigDict(
        env_prefix="DOMINO_SCOREBOARD_", env_nested_delimiter="__", extra="forbid"
    )

    mqtt: MqttSettings = Field(default_factory=MqttSettings)
    http_host: str = "0.0.0.0"
    http_port: int = Field(default=8080, ge=0, le=65535)
    token: SecretStr | None = Field(
        default=None, description="bearer token for the write endpoints; None = read-only"
    )
    cmd_keys: dict[str, SecretStr] = Field(
        default_factory=dict,
        description="per table id, the key that signs its commands (each table holds its own as "
        "DOMINO_TABLE_CMD_KEY); a table without one takes no commands from here",
        max_length=10_000,
    )
    tables: list[str] = Field(
        default_factory=list,
        max_length=10_000,
        description="tables always tracked, never crowded out by unknown ones (those with a "
        "command key are tracked too)",
    )
    embedded_host: str = Field(
        default="127.0.0.1", description="embedded broker address, used when mqtt.url is unset"
    )
    embedded_port: int = Field(default=1883, ge=0, le=65535, description="0: any free port")
    ring_size: int = Field(default=500, ge=1, le=100_000, description="events kept per table")
    max_tables: int = Field(default=500, ge=1, le=100_000)
    client_queue: int = Field(default=256, ge=1, le=10_000, description="SSE messages per client")
    keepalive_s: float = Field(default=10.0, gt=0, le=300)
    resync_min_interval_s: float = Field(default=1.0, ge=0, le=60)
    cmd_qos: int = Field(default=1, ge=0, le=2)
    max_body_bytes: int = Field(
        default=64 * 1024, ge=1024, le=16 * 2**20, description="longest request body (else 413)"
    )
    max_json_depth: int = Field(default=32, ge=2, le=1000, description="deepest JSON body (400)")
    max_streams: int = Field(
        default=256, ge=1, le=100_000, description="live (SSE) streams open at once (else 503)"
    )
    max_streams_per_client: int = Field(
        default=16, ge=1, le=10_000, description="live streams per client address (else 429)"
    )
    live_window_s: float = Field(
        default=120.0,
        gt=0,
        le=86_400,
        description="a table heard live this recently is never evicted to make room",
    )

    @field_validator("cmd_keys")
    @classmethod
    def _keys_ok(cls, value: dict[str, SecretStr]) -> dict[str, SecretStr]:
        for table, key in value.items():
            if not TABLE_ID.match(table):
                raise ValueError(f"cmd_keys: {table[:64]!r} is not a table id")
            check_key(key)
        return value

    @field_validator("tables")
    @classmethod
    def _tables_ok(cls, value: list[str]) -> list[str]:
        for table in value:
            if not TABLE_ID.match(table):
                raise ValueError(f"tables: {table[:64]!r} is not a table id")
        return value

    def tracked(self) -> frozenset[str]:
        """The configured tables: listed, or holding a command key."""
        return frozenset(self.tables) | frozenset(self.cmd_keys)


class TableSettings(BaseSettings):
    """The table side: which table this is, and Home Assistant discovery."""

    model_config = SettingsConfigDict(env_prefix="DOMINO_TABLE_", extra="forbid")

    table: str = "table-1"
    name: str | None = None
    ha_discovery: bool = False
    ha_prefix: str = "homeassistant"
    cmd_key: SecretStr | None = Field(
        default=None,
        description="key that signs this table's commands (shared with the scoreboard, at "
        "least 16 characters); None refuses every command",
    )
    cmd_window_s: float = Field(
        default=30.0, ge=1, le=600, description="a command is refused outside now +- this"
    )
    teams: list[str] | None = Field(
        default=None,
        min_length=2,
        max_length=4,
        description="team names, in side order (partnerships only); None: 'Seats 1 & 3'...",
    )

    @field_validator("cmd_key")
    @classmethod
    def _key_ok(cls, value: SecretStr | None) -> SecretStr | None:
        return None if value is None else check_key(value)

    @field_validator("teams")
    @classmethod
    def _teams_ok(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        names = [" ".join(name.split()) for name in value]
        for name in names:
            if not name or len(name) > 64:
                raise ValueError("a team name has 1-64 characters")
        return names

    @field_validator("table")
    @classmethod
    def _table_ok(cls, value: str) -> str:
        if not TABLE_ID.match(value):
            raise ValueError("table id: 1-64 letters, digits, '_' or '-'")
        return value


@dataclass(frozen=True, slots=True)
class StationSettings:
    """Everything a table's live side runs on, validated once where the run starts: the broker
    (``mqtt.url`` None: an embedded one is started), the table, and the scoreboard served in the
    same process (``http_port`` None: none)."""

    mqtt: MqttSettings
    table: TableSettings
    http_port: int | None = None
    http_host: str = "127.0.0.1"


def station_settings(
    *,
    table: str,
    broker: str | None = None,
    root: str | None = None,
    http_port: int | None = None,
    http_host: str = "127.0.0.1",
) -> StationSettings:
    """The live side's settings: the values given, the rest from ``DOMINO_MQTT_*`` and
    ``DOMINO_TABLE_*`` (``broker`` None means the embedded broker, whatever ``DOMINO_MQTT_URL``
    says). With a scoreboard in the process and no ``DOMINO_TABLE_CMD_KEY``, both ends share a
    key made now. A wrong value is one :class:`LiveConfigError` line."""
    import secrets

    try:
        tables = TableSettings(table=table)
        if http_port is not None and tables.cmd_key is None:
            tables = TableSettings.model_validate(
                {**tables.model_dump(), "cmd_key": secrets.token_hex(32)}
            )
        mqtt = MqttSettings(url=broker) if root is None else MqttSettings(url=broker, root=root)
    except ValidationError as exc:
        raise LiveConfigError(f"bad live settings: {short_reason(exc)}") from None
    except ValueError as exc:  # pydantic-settings' own (a value that is not JSON)
        raise LiveConfigError(f"bad live settings: {exc}") from None
    return StationSettings(mqtt, tables, http_port, http_host)
