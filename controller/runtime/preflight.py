"""Checks made before anything starts: every input of ``demo`` and ``run`` is looked at first and
every problem found is reported together, one line each, so a user fixes them all in one go and
no broker, scoreboard or URL is started or printed for a run that cannot happen.

``run --check`` is :func:`check_table` printed; ``run`` refuses on the same problems (a broker
that does not answer excepted: the table plays and keeps retrying it). ``demo`` calls
:func:`check_demo`.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from controller.runtime.config import RunConfig
from controller.runtime.core import TableRuntimeError
from controller.runtime.devices import open_camera, serial_factory

if TYPE_CHECKING:
    from controller.live.settings import StationSettings

#: how long a check waits for the broker's answer
BROKER_TIMEOUT_S = 5.0

BrokerProbe = Callable[[Any], str | None]


class PreflightError(TableRuntimeError):
    """Inputs that cannot be used; ``problems`` holds one line per problem (the CLI prints each
    on its own line)."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = tuple(problems)


def _recogniser_present() -> bool:
    return importlib.util.find_spec("vision.recognition") is not None


def default_probe(settings: Any) -> str | None:
    """Connect to the broker once and wait up to :data:`BROKER_TIMEOUT_S` for its answer."""
    from controller.live.probe import probe_broker

    return probe_broker(settings, timeout_s=BROKER_TIMEOUT_S)


def broker_problems(
    url: str | None, *, option: str, probe: BrokerProbe | None = None, hint: str = ""
) -> list[str]:
    """A broker URL that does not parse, settings from ``DOMINO_MQTT_*`` that do not validate,
    and, with ``probe``, a broker that does not accept a connection."""
    from pydantic import ValidationError

    from controller.live.errors import LiveConfigError
    from controller.live.settings import BrokerAddress, MqttSettings, short_reason

    if url is None:
        return []
    try:
        address = BrokerAddress.parse(url)
    except LiveConfigError as exc:
        return [f"{option}: {exc}"]
    try:
        settings = MqttSettings(url=url)
    except ValidationError as exc:
        return [f"{option}: MQTT settings (DOMINO_MQTT_*): {short_reason(exc)}"]
    if probe is None:
        return []
    reason = probe(settings)
    return [] if reason is None else [f"{option} {address.url()}: no connection ({reason}){hint}"]


def table_problems(table: str, *, option: str) -> list[str]:
    """A table id the MQTT topics cannot carry."""
    from controller.live.settings import TABLE_ID

    if TABLE_ID.match(table):
        return []
    return [f"{option} {table!r}: a table id is 1-64 letters, digits, '_' or '-'"]


def journal_problems(path: Path, *, option: str) -> list[str]:
    """The journal must be a table journal we can write, or a new file in a directory we can
    write. Nothing is created here."""
    from controller.journal import check_file

    if path.is_dir():
        return [f"{option} {path}: is a directory, not a journal file"]
    if not path.exists():
        parent = path.parent if str(path.parent) else Path()
        if not parent.is_dir():
            return [f"{option} {path}: directory {parent} does not exist"]
        if not os.access(parent, os.W_OK | os.X_OK):
            return [f"{option} {path}: cannot create it (no write permission in {parent})"]
        return []
    if not os.access(path, os.R_OK | os.W_OK):
        return [f"{option} {path}: no permission to read and write it"]
    problem = check_file(path)
    return [] if problem is None else [f"{option} {problem}"]


def fixture_problems(
    fixture: Path, *, recogniser: str = "auto", preset: str | None = None
) -> list[str]:
    """A fixture directory that ``run_fixture`` can play: video, table file, button script,
    truth record when it stands in for the recogniser."""
    from controller.errors import ControllerError
    from controller.rules.options import build_rules
    from controller.runtime.fixture_player import fixture_match
    from firmware_bridge.errors import BridgeError
    from firmware_bridge.sim import load_buttons
    from vision.calibration import load_table
    from vision.errors import VisionError

    if not fixture.is_dir():
        return [f"--fixture {fixture}: no such fixture directory"]
    problems: list[str] = []
    if not any(p.name.startswith("video.") for p in fixture.iterdir()):
        problems.append(f"--fixture {fixture}: no video.* in it")
    table = fixture / "table.json"
    if not table.exists():
        problems.append(f"--fixture {fixture}: no table.json in it")
    else:
        try:
            load_table(table)
        except VisionError as exc:
            problems.append(f"--fixture: {exc}")
    truth = fixture / "truth.json"
    try:
        match = fixture_match(fixture, preset)
        seats = build_rules(match.preset, match.options).seats
    except ControllerError as exc:  # rules that do not exist, from --rules or truth.json
        problems.append(f"--rules: {exc}" if preset else f"--fixture: {truth}: {exc}")
        return problems
    except (ValueError, AttributeError, TypeError) as exc:
        problems.append(f"--fixture: {truth}: unusable: {exc}")
        return problems
    buttons = fixture / "buttons.jsonl"
    if buttons.exists():
        try:
            load_buttons(buttons, seats=seats)
        except (BridgeError, OSError) as exc:
            problems.append(f"--fixture: {exc}")
    wants_truth = recogniser == "oracle" or (recogniser == "auto" and not _recogniser_present())
    if recogniser == "identify" and not _recogniser_present():
        problems.append("--recogniser identify: vision.recognition is not in this build")
    elif wants_truth and not truth.exists():
        problems.append(
            f"--fixture {fixture}: no truth.json to stand in for the recogniser "
            f"({'asked for by --recogniser oracle' if recogniser == 'oracle' else 'none here'})"
        )
    return problems


def live_settings(
    *, table: str, broker: str | None, root: str | None = None, http_port: int | None = None
) -> tuple[StationSettings | None, list[str]]:
    """The live side's settings, built once here for the run to use, or None and the one line
    that says why not (a wrong ``DOMINO_TABLE_*`` or ``DOMINO_MQTT_*`` value, a topic root)."""
    from controller.live.errors import LiveConfigError
    from controller.live.settings import station_settings

    try:
        return station_settings(table=table, broker=broker, root=root, http_port=http_port), []
    except LiveConfigError as exc:
        return None, [str(exc)]


def check_demo(
    *,
    fixture: Path,
    speed: float,
    table: str,
    journal: Path | None,
    recogniser: str,
    preset: str | None,
    live: bool,
    broker: str | None,
    http_port: int | None,
    probe: BrokerProbe | None = default_probe,
) -> StationSettings | None:
    """Raise :class:`PreflightError` with every problem of ``demo``'s inputs. An explicit
    ``broker`` must answer now (``probe``): a demo that publishes nowhere is not what was
    asked for. Returns the live side's settings (None without ``live``)."""
    problems = fixture_problems(fixture, recogniser=recogniser, preset=preset)
    if not speed > 0:
        problems.append(f"--speed {speed:g}: must be positive")
    if journal is not None:
        problems += journal_problems(journal, option="--journal")
    settings = None
    if live:
        found = table_problems(table, option="--table")
        if http_port is not None and not 0 <= http_port <= 65535:
            found.append(f"--http-port {http_port}: must be 0-65535")
        found += broker_problems(broker, option="--broker")
        settings, unusable = live_settings(table=table, broker=broker, http_port=http_port)
        problems += found or unusable  # a wrong table or broker already says why
        # probe only once everything else is known to be usable: it takes up to a few seconds
        if not problems and settings is not None and probe is not None:
            problems += broker_problems(
                broker,
                option="--broker",
                probe=probe,
                hint="; start it, or leave out --broker to use an embedded one",
            )
    if problems:
        raise PreflightError(problems)
    return settings


@dataclass(slots=True)
class TableCheck:
    """What :func:`check_table` found: ``ok`` lines, ``problems`` (``fatal`` ones stop ``run``),
    and what it built or opened for ``run`` to use: the live side's settings, the calibration,
    the seat device, the recogniser, the camera (close with :meth:`close` when not used)."""

    ok: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    fatal: list[str] = field(default_factory=list)
    live: StationSettings | None = None
    geometry: Any = None
    factory: Any = None
    recognition: Any = None
    source: Any = None

    def problem(self, line: str, *, fatal: bool = True) -> None:
        self.problems.append(line)
        if fatal:
            self.fatal.append(line)

    def close(self) -> None:
        if self.source is not None:
            self.source.close()
            self.source = None


def check_table(
    config: RunConfig,
    *,
    where: str,
    probe: BrokerProbe | None = default_probe,
    config_problems: Sequence[str] = (),
) -> TableCheck:
    """Everything ``run`` needs, each checked even when another failed: the config (already
    parsed), the calibration, the recogniser, the camera (opened: ``source``), the seat device,
    the broker (answering, when ``probe`` is given; not fatal) and the journal."""
    from vision.calibration import load_table
    from vision.errors import VisionError

    check = TableCheck()
    for line in [*config_problems, *table_problems(config.table, option=f"{where}: table")]:
        check.problem(line)
    if not check.problems:
        check.ok.append(f"config {where} (table {config.table}, rules {config.preset})")

    if config.table_file is None:
        check.problem(
            "calibration: no [camera] table_file: photograph the markers, run `domino-table "
            "vision calibrate PHOTO --out table.json`, set table_file"
        )
    else:
        try:
            geometry = load_table(config.table_file)
        except VisionError as exc:
            check.problem(f"calibration: {exc}")
        else:
            if geometry.calibrated:
                check.geometry = geometry
                check.ok.append(f"calibration {config.table_file}")
            else:
                check.problem(
                    f"calibration: {config.table_file} has no homography: run `domino-table "
                    "vision calibrate PHOTO --out FILE` on a photo from the mounted camera"
                )

    if _recogniser_present():
        check.recognition = importlib.import_module("vision.recognition")
        check.ok.append("recogniser vision.recognition, by windows round each change")
    else:
        check.problem("recogniser: vision.recognition is not in this build: a table cannot run")

    try:
        check.source = open_camera(config)
        check.ok.append(f"camera {config.camera}")
    except TableRuntimeError as exc:
        check.problem(str(exc))

    try:
        check.factory = serial_factory(config)
        check.ok.append(f"seat device {check.factory.resolve()}")
    except TableRuntimeError as exc:
        check.problem(str(exc))

    broker = broker_problems(config.broker, option="[broker] url")
    check.live, unusable = live_settings(
        table=config.table, broker=config.broker, root=config.topic_root
    )
    if broker or table_problems(config.table, option=""):
        unusable = []  # the wrong table or broker URL is said already
    for line in [*broker, *unusable]:
        check.problem(line)
    if not broker and not unusable:
        if config.broker is None:
            check.ok.append(
                "broker: none configured, an embedded one is started (set [broker] url for a "
                "hall's scoreboard)"
            )
        elif probe is not None:
            reached = broker_problems(
                config.broker,
                option="[broker] url",
                probe=probe,
                hint="; run would start anyway and keep retrying it",
            )
            for line in reached:
                check.problem(line, fatal=False)
            if not reached:
                from controller.redact import redact_url

                check.ok.append(f"broker {redact_url(config.broker)} answers")

    journal = journal_problems(config.journal, option="[journal] path")
    for line in journal:
        check.problem(line)
    if not journal:
        check.ok.append(f"journal {config.journal}")
    return check
