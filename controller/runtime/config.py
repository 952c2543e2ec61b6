"""The run's config, read once at the edge and passed down as one typed value: a TOML file plus
environment overrides, every wrong value reported (not only the first). ``run`` and ``record``
(:mod:`controller.runtime.hardware`), the preflight and the device openers all take a
:class:`RunConfig`.

Config (every section optional except what the command needs)::

    table = "table-1"
    [camera]
    source = "0"            # index, /dev/video0, picamera, or a video file
    fps = 12
    table_file = "table.json"   # calibration (vision calibrate); run needs it, record not
    [serial]
    port = "auto"           # or /dev/serial/by-id/usb-MicroPython_...
    [broker]
    url = "mqtt://localhost:1883"
    root = "domino/v1"
    [rules]
    preset = "latin"
    options = { target = 100 }
    seats = ["Ana", "Beto", "Carla", "Dani"]
    [journal]
    path = "/var/lib/domino-table/journal.sqlite"

Environment: ``DOMINO_TABLE_ID``, ``DOMINO_CAMERA``, ``DOMINO_SERIAL_PORT``, ``DOMINO_BROKER_URL``,
``DOMINO_MQTT_ROOT``, ``DOMINO_JOURNAL`` override the file. The live side's settings
(:class:`~controller.live.settings.StationSettings`: broker, topic root, table, and the rest of
``DOMINO_MQTT_*`` / ``DOMINO_TABLE_*``) are built from it once, by the preflight.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from controller.runtime.core import TableRuntimeError


class ConfigError(TableRuntimeError, ValueError):
    """The config file is missing, not TOML, or holds wrong values (``problems``: one line each;
    the CLI prints each on its own line)."""

    problems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RunConfig:
    table: str = "table-1"
    camera: str = "0"
    fps: float | None = None
    table_file: Path | None = None
    serial: str = "auto"
    broker: str | None = None
    topic_root: str | None = None  # None: DOMINO_MQTT_ROOT, else domino/v1
    preset: str = "latin"
    options: Mapping[str, object] = field(default_factory=dict)
    seats: tuple[str, ...] | None = None
    journal: Path = Path("journal.sqlite")


_SECTIONS: dict[str, set[str]] = {
    "camera": {"source", "fps", "table_file"},
    "serial": {"port"},
    "broker": {"url", "root"},
    "rules": {"preset", "options", "seats"},
    "journal": {"path"},
}


def load_config(path: Path, env: Mapping[str, str] | None = None) -> RunConfig:
    """Read and check a config file; ``env`` (default ``os.environ``) overrides it. Every wrong
    value is reported, not only the first."""
    config, problems = read_config(path, env)
    if problems:
        raise _config_error(problems)
    return config


MAX_CONFIG_BYTES = 1024 * 1024


def read_config(path: Path, env: Mapping[str, str] | None = None) -> tuple[RunConfig, list[str]]:
    """The config with defaults where values are wrong, and the problems found (so a check can
    go on to the hardware). A file that cannot be read or is not TOML raises
    :class:`ConfigError`."""
    env = os.environ if env is None else env
    try:
        from controller.bounded import InputTooLargeError, read_bytes

        data = tomllib.loads(read_bytes(path, MAX_CONFIG_BYTES, "config file").decode("utf-8"))
    except InputTooLargeError as exc:
        raise ConfigError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except OSError as exc:
        reason = str(exc).removeprefix(f"{path}: cannot read: ")
        raise ConfigError(f"{path}: cannot read the config: {reason}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: TOML nested too deeply for a config") from None
    return check_config(data, env, where=str(path), base=path.parent)


def parse_config(
    data: Mapping[str, Any], env: Mapping[str, str], *, where: str = "config", base: Path = Path()
) -> RunConfig:
    config, problems = check_config(data, env, where=where, base=base)
    if problems:
        raise _config_error(problems)
    return config


def _config_error(problems: list[str]) -> ConfigError:
    error = ConfigError("; ".join(problems))
    error.problems = tuple(problems)
    return error


def check_config(
    data: Mapping[str, Any], env: Mapping[str, str], *, where: str = "config", base: Path = Path()
) -> tuple[RunConfig, list[str]]:
    """Every problem of a parsed config, one line each, and the config made of what is usable
    (defaults in place of wrong values)."""
    problems: list[str] = []

    def bad(message: str) -> None:
        problems.append(f"{where}: {message}")

    unknown = set(data) - set(_SECTIONS) - {"table"}
    if unknown:
        bad(f"unknown section(s) {', '.join(sorted(unknown))}")
    sections: dict[str, Mapping[str, Any]] = {}
    for name, keys in _SECTIONS.items():
        section = data.get(name, {})
        if not isinstance(section, Mapping):
            bad(f"[{name}] must be a table")
            section = {}
        extra = set(section) - keys
        if extra:
            bad(f"[{name}] has unknown key(s) {', '.join(sorted(extra))}")
        sections[name] = section

    def text(section: str, key: str, default: str | None) -> str | None:
        value = sections[section].get(key, default)
        if value is not None and not isinstance(value, str | int):
            bad(f"[{section}] {key} must be a string")
            return default
        return None if value is None else str(value)

    table = data.get("table", "table-1")
    if not isinstance(table, str) or not table or "/" in table or "+" in table or "#" in table:
        bad("table must be a name without '/', '+' or '#'")
        table = "table-1"
    fps = sections["camera"].get("fps")
    if fps is not None and (not isinstance(fps, int | float) or fps <= 0):
        bad("[camera] fps must be a positive number")
        fps = None
    options = sections["rules"].get("options", {})
    if not isinstance(options, Mapping):
        bad("[rules] options must be a table")
        options = {}
    seats = sections["rules"].get("seats")
    if seats is not None and (
        not isinstance(seats, list) or not all(isinstance(s, str) for s in seats)
    ):
        bad("[rules] seats must be a list of names")
        seats = None
    table_file = text("camera", "table_file", None)
    config = RunConfig(
        table=table,
        camera=text("camera", "source", "0") or "0",
        fps=None if fps is None else float(fps),
        table_file=None if table_file is None else base / table_file,
        serial=text("serial", "port", "auto") or "auto",
        broker=text("broker", "url", None),
        topic_root=text("broker", "root", None),
        preset=text("rules", "preset", "latin") or "latin",
        options=dict(options),
        seats=None if seats is None else tuple(seats),
        journal=base / (text("journal", "path", "journal.sqlite") or "journal.sqlite"),
    )
    config = replace(
        config,
        table=env.get("DOMINO_TABLE_ID", config.table),
        camera=env.get("DOMINO_CAMERA", config.camera),
        serial=env.get("DOMINO_SERIAL_PORT", config.serial),
        broker=env.get("DOMINO_BROKER_URL", config.broker),
        topic_root=env.get("DOMINO_MQTT_ROOT", config.topic_root),
        journal=Path(env["DOMINO_JOURNAL"]) if "DOMINO_JOURNAL" in env else config.journal,
    )
    from controller.errors import ControllerError
    from controller.rules.options import build_rules

    try:
        rules = build_rules(config.preset, config.options)
    except ControllerError as exc:
        bad(f"[rules] {exc}")
    else:
        if config.seats is not None and len(config.seats) != rules.seats:
            bad(f"[rules] seats names {len(config.seats)} players, the rules have {rules.seats}")
    return config, problems
