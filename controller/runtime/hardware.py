"""``run`` and ``record`` on real hardware, from a :class:`~controller.runtime.config.RunConfig`
(read and checked before anything opens); the camera and the seat device are checked up front and
a missing one is a clear error, not a traceback.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from controller.runtime.config import RunConfig
from controller.runtime.core import TableRuntimeError
from controller.runtime.devices import open_camera, serial_factory
from controller.runtime.preflight import PreflightError, check_table, default_probe

log = logging.getLogger(__name__)


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
    from vision.tracking.regional import RegionalReader

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
    assert check.live is not None  # else a fatal problem above
    live = start_live(
        check.live, on_broker=lambda line: print(f"run: {line}", file=err, flush=True)
    )
    runtime: TableRuntime | None = None  # made below; the reader asks it the set in play

    def max_pip() -> int | None:
        return None if runtime is None else runtime.max_pip()

    reader = RegionalReader(set_recogniser(recognition, table_region(geometry), max_pip))
    watcher = SceneWatcher(
        reader,
        SceneTracker(geometry),
        occluded=SkinOcclusion(geometry) if geometry.calibrated else None,
        on_tracked=reader.tracked,
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
