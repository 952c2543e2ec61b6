"""``run`` and ``record`` on real hardware: a TOML config (plus environment overrides), validated
before anything opens; the camera and the seat device are checked up front and a missing one is a
clear error, not a traceback.

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
``DOMINO_JOURNAL`` override the file.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TextIO

from controller.runtime.core import TableRuntimeError
from controller.runtime.devices import open_camera, serial_factory
from controller.runtime.preflight import PreflightError, check_table, default_probe

log = logging.getLogger(__name__)


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
    topic_root: str = "domino/v1"
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
        topic_root=text("broker", "root", "domino/v1") or "domino/v1",
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


def _geometry(config: RunConfig) -> Any:
    from vision.calibration import default_geometry, load_table

    return load_table(config.table_file) if config.table_file else default_geometry()


def run_table(
    config: RunConfig,
    *,
    check_only: bool = False,
    where: str = "config",
    config_problems: Sequence[str] = (),
    err: TextIO | None = None,
) -> int:
    """The live table: camera -> scene watcher -> session <- seat device; until interrupted.
    Everything it needs is checked first and every problem reported at once (see
    :mod:`controller.runtime.preflight`); ``check_only`` stops there, the broker included."""
    from controller.journal import Journal
    from controller.runtime.adapters import device_input, scene_inputs, set_recogniser
    from controller.runtime.core import TableRuntime
    from controller.runtime.live_hooks import start_live
    from controller.table import CorrectVision, NewMatch, VisionUnsure
    from domino_common.clock import SystemClock
    from firmware_bridge.bridge import Bridge
    from vision.errors import VisionError
    from vision.tracking import SceneTracker, SceneWatcher, SkinOcclusion, table_region

    err = err or sys.stderr
    check = check_table(
        config,
        where=where,
        probe=default_probe if check_only else None,
        config_problems=config_problems,
    )
    if check_only:
        check.close()
        for line in check.ok:
            print(f"ok: {line}")
        if check.problems:
            raise PreflightError(check.problems)
        print("config ok: everything a run needs answers")
        return 0
    if check.fatal:
        check.close()
        raise PreflightError(check.fatal)
    factory, geometry, recognition, source = (
        check.factory,
        check.geometry,
        check.recognition,
        check.source,
    )
    clock = SystemClock()
    start = clock.monotonic()
    live = start_live(
        broker=config.broker,
        http_port=None,
        table=config.table,
        on_broker=lambda line: print(f"run: {line}", file=err, flush=True),
    )
    runtime: TableRuntime | None = None  # made below; the reader asks it the set in play

    def max_pip() -> int | None:
        return None if runtime is None else runtime.max_pip()

    watcher = SceneWatcher(
        set_recogniser(recognition, table_region(geometry), max_pip),
        SceneTracker(geometry),
        occluded=SkinOcclusion(geometry) if geometry.calibrated else None,
    )

    def fix(c: CorrectVision) -> None:
        watcher.tracker.correct(c.read_as, c.actual)

    with Journal(config.journal, table=config.table) as journal:
        from controller.rules.options import build_rules

        bridge = Bridge(factory, seats=build_rules(config.preset, config.options).seats)
        runtime = TableRuntime(
            table=config.table,
            journal=journal,
            publisher=live.publisher,
            leds=bridge.set_leds,
            vision_fix=fix,
        )
        live.take_commands(runtime)
        stop = threading.Event()

        def pump() -> None:
            import queue

            while not stop.is_set():
                try:
                    event = bridge.events.get(timeout=0.2)
                except queue.Empty:
                    continue
                kind = "buttons" if type(event).__name__ == "ButtonGesture" else "device"
                runtime.feed(device_input(event, clock.monotonic() - start), kind)

        bridge.start()
        runtime.start()
        if runtime.state.match is None:
            runtime.feed(
                NewMatch(clock.monotonic() - start, config.preset, config.options, config.seats),
                "api",
            )
        pumper = threading.Thread(target=pump, name="seat-events", daemon=True)
        pumper.start()
        try:
            while True:
                try:
                    with source:
                        for frame in source:
                            for inp in scene_inputs(watcher.feed(frame)):
                                runtime.feed(replace(inp, t=clock.monotonic() - start), "vision")
                    break  # a video file ended
                except VisionError as exc:
                    # the camera dropped out: say so, keep the match, try again
                    reason = f"camera lost ({exc}): no tile is read until it is back"
                    runtime.feed(VisionUnsure(clock.monotonic() - start, reason), "camera")
                    source = _reopen_camera(config, clock)
        finally:
            stop.set()
            pumper.join(timeout=5)  # no input after the journal closes
            bridge.stop()
            # the bridge's last word (its link is down) goes in too, so the live device state
            # does not stay "up" after a clean stop
            while not bridge.events.empty():
                event = bridge.events.get_nowait()
                runtime.feed(device_input(event, clock.monotonic() - start), "device")
            runtime.stop()
            live.stop()
    return 0


def _reopen_camera(config: RunConfig, clock: Any, every_s: float = 2.0) -> Any:
    """Try to open the camera again until it answers (Ctrl-C or SIGTERM ends the wait); says
    why once, not at every try."""
    said = False
    while True:
        try:
            return open_camera(config)
        except TableRuntimeError as exc:
            if not said:
                log.warning("%s; retrying every %.0f s", exc, every_s)
                said = True
            clock.sleep(every_s)


def record_fixture(
    config: RunConfig,
    out: Path,
    *,
    camera: str | None = None,
    serial: str | None = None,
    seconds: float | None = None,
) -> int:
    """Camera video and seat presses into a fixture directory (video.mp4, buttons.jsonl,
    table.json) that ``demo --fixture`` replays."""
    import json

    config = replace(config, camera=camera or config.camera, serial=serial or config.serial)
    factory = serial_factory(config)
    source = open_camera(config)
    geometry = _geometry(config)
    out.mkdir(parents=True, exist_ok=True)
    from firmware_bridge.bridge import Bridge
    from firmware_bridge.types import ButtonGesture
    from vision.calibration import save_table

    save_table(geometry, out / "table.json")
    import cv2

    writer: Any = None
    fps = config.fps or 12.0
    start = time.monotonic()
    with Bridge(factory) as bridge, (out / "buttons.jsonl").open("w") as buttons, source:
        try:
            for frame in source:
                if writer is None:
                    h, w = frame.image.shape[:2]
                    writer = cv2.VideoWriter(
                        str(out / "video.mp4"), cv2.VideoWriter.fourcc(*"mp4v"), fps, (w, h)
                    )
                writer.write(frame.image)
                t = time.monotonic() - start
                while not bridge.events.empty():
                    event = bridge.events.get_nowait()
                    if isinstance(event, ButtonGesture):
                        line = {"t": round(t, 3), "seat": event.seat, "gesture": str(event.gesture)}
                        buttons.write(json.dumps(line) + "\n")
                if seconds is not None and t >= seconds:
                    break
        finally:
            if writer is not None:
                writer.release()
    print(f"recorded {out} ({time.monotonic() - start:.1f} s)")
    return 0
