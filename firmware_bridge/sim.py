"""A simulated seat device on a pseudo-terminal: the bridge opens a real tty through pyserial.

The device side is :class:`~firmware_bridge.device.DeviceCore` on the pty's master end; the
bridge opens :attr:`PtyDevice.path`, a symlink standing in for ``/dev/serial/by-id/...`` that
follows the pty across an unplug and replug. Faults can be injected in both directions.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import select
import tempfile
import threading
import tty
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from domino_common.clock import Clock, SystemClock
from firmware_bridge import codec
from firmware_bridge.device import DeviceCore
from firmware_bridge.errors import FixtureError
from firmware_bridge.faults import FaultInjector
from firmware_bridge.types import Gesture, LedState

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ScriptedPress:
    """One line of a fixture's ``buttons.jsonl``: seconds from the video's start."""

    t: float
    seat: int
    gesture: Gesture


MAX_LINE = 4096
"""Longest line of ``buttons.jsonl`` (one press is about 50 characters)."""


def load_buttons(path: Path, *, seats: int = 4) -> list[ScriptedPress]:
    """Read and validate ``buttons.jsonl``; blank lines are skipped; sorted by time."""
    presses: list[ScriptedPress] = []
    with path.open(encoding="utf-8") as f:
        for number, line in enumerate(iter(lambda: f.readline(MAX_LINE + 1), ""), 1):
            if len(line) > MAX_LINE:
                raise FixtureError(f"{path}:{number}: line longer than {MAX_LINE} characters")
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
                t = float(raw["t"])
                seat = int(raw["seat"])
                gesture = Gesture.parse(str(raw.get("gesture", "short")))
            except (ValueError, KeyError, TypeError) as exc:
                raise FixtureError(f"{path}:{number}: bad button line: {exc}") from exc
            except RecursionError:
                raise FixtureError(f"{path}:{number}: bad button line: nested too deeply") from None
            if not 0 <= seat < seats or t < 0:
                raise FixtureError(f"{path}:{number}: seat {seat} or time {t} out of range")
            presses.append(ScriptedPress(t, seat, gesture))
    return sorted(presses, key=lambda p: p.t)


class PtyDevice:
    """A :class:`DeviceCore` served on a pty by a thread; press, reboot, unplug from outside."""

    def __init__(
        self,
        *,
        seats: int = 4,
        boot_count: int | None = None,
        version: int = codec.PROTOCOL_VERSION,
        to_host: FaultInjector | None = None,
        to_device: FaultInjector | None = None,
        clock: Clock | None = None,
        link_dir: str | None = None,
    ) -> None:
        self.core = DeviceCore(seats=seats, boot_count=boot_count, version=version)
        self.to_host = to_host
        self.to_device = to_device
        self._clock = clock or SystemClock()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._own_dir = link_dir is None
        self._dir = link_dir or tempfile.mkdtemp(prefix="seat-device-")
        self.path = os.path.join(self._dir, "usb-MicroPython_Board_in_FS_mode-if00")
        """Stable name for the bridge to open, like ``/dev/serial/by-id/...``."""
        self.on_leds: Callable[[tuple[LedState, ...]], None] | None = None

    # --- life cycle ---------------------------------------------------------------------------

    def start(self) -> None:
        self._plug()
        with self._lock:
            self.core.boot(self._clock.monotonic())
        self._thread = threading.Thread(target=self._run, name="pty-device", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._unplug()
        if self._own_dir:
            with contextlib.suppress(OSError):
                os.rmdir(self._dir)

    def __enter__(self) -> PtyDevice:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- what a person or a test does to the device ---------------------------------------------

    def press(self, seat: int, gesture: Gesture = Gesture.SHORT) -> int:
        with self._lock:
            return self.core.press(self._clock.monotonic(), seat, gesture)

    def reboot(self, *, session: int | None = None) -> None:
        """Power cycle; ``session`` forces the new session id (the same as before, say)."""
        with self._lock:
            self.core.reboot(self._clock.monotonic(), session=session)

    def unplug(self) -> None:
        """The cable is pulled: the tty vanishes, the device loses power."""
        with self._lock:
            self._unplug()

    def replug(self) -> None:
        """The cable is back: a new tty under the same stable name, and a fresh boot."""
        with self._lock:
            self._plug()
            self.core.reboot(self._clock.monotonic())

    @property
    def leds(self) -> tuple[LedState, ...]:
        with self._lock:
            return self.core.leds

    @property
    def pending(self) -> int:
        with self._lock:
            return self.core.pending

    # --- internals ----------------------------------------------------------------------------

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line discipline before pyserial configures it
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        tmp = self.path + ".new"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)

    def _unplug(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None

    def _run(self) -> None:
        leds = self.core.leds
        while not self._stop.is_set():
            master = self._master
            if master is None:
                self._stop.wait(0.02)
                continue
            try:
                ready, _, _ = select.select([master], [], [], 0.02)
            except (OSError, ValueError):
                continue
            with self._lock:
                if self._master != master:
                    continue
                now = self._clock.monotonic()
                if ready:
                    for chunk in self._read_all(master):
                        faults = self.to_device
                        self.core.receive(now, faults.apply(chunk) if faults else chunk)
                self.core.tick(now)
                out = self.core.take_output()
                if out and self.to_host is not None:
                    out = self.to_host.apply(out)
                if out:
                    self._write(master, out)
                changed = self.core.leds != leds
                leds = self.core.leds
            if changed and self.on_leds is not None:
                self.on_leds(leds)

    @staticmethod
    def _read_all(fd: int) -> Iterator[bytes]:
        while True:
            try:
                chunk = os.read(fd, 4096)
            except BlockingIOError:
                return
            except OSError as exc:
                if exc.errno != errno.EIO:  # EIO: nobody has the tty open right now
                    log.debug("pty read failed: %s", exc)
                return
            if not chunk:
                return
            yield chunk

    @staticmethod
    def _write(fd: int, data: bytes) -> None:
        try:
            os.write(fd, data)
        except BlockingIOError:
            log.debug("pty full, %d bytes dropped (nobody reading)", len(data))
        except OSError as exc:
            log.debug("pty write failed: %s", exc)
