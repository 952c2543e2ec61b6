"""Serial ports, injected: discovery by USB VID/PID or ``/dev/serial/by-id``, exclusive open.

A port factory is a callable that opens the seat device's port (finding it anew each time, since
a replug can bring it back under another ``ttyACM`` number) or raises ``OSError``.
"""

from __future__ import annotations

import collections
import glob
import logging
import os
import threading
from collections.abc import Callable
from typing import Protocol

from domino_common.clock import Clock, SystemClock
from firmware_bridge.errors import PortNotFoundError

log = logging.getLogger(__name__)

PICO_VID = 0x2E8A
"""Raspberry Pi's USB vendor id; MicroPython on a Pico enumerates as 2e8a:0005."""
MICROPYTHON_PID = 0x0005
BAUD = 115200
"""Ignored by USB CDC; never 1200, which some RP2040 cores take as 'reboot to bootloader'."""


class Port(Protocol):
    """The part of ``serial.Serial`` the bridge uses."""

    def read(self, size: int = 1) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def close(self) -> None: ...


PortFactory = Callable[[], Port]


def find_device_ports(
    vid: int = PICO_VID, pid: int = MICROPYTHON_PID, *, by_id_dir: str = "/dev/serial/by-id"
) -> list[str]:
    """Paths of matching devices, stable ``/dev/serial/by-id`` names first."""
    from serial.tools import list_ports

    found = [p.device for p in list_ports.comports() if p.vid == vid and p.pid == pid]
    stable: list[str] = []
    for link in sorted(glob.glob(os.path.join(by_id_dir, "*"))):
        target = os.path.realpath(link)
        if target in found or "MicroPython" in os.path.basename(link):
            stable.append(link)
            if target in found:
                found.remove(target)
    return stable + found


class SerialPortFactory:
    """Opens the device with pyserial: exclusive lock, no DTR toggle, input flushed once ready."""

    def __init__(
        self,
        path: str | None = None,
        *,
        vid: int = PICO_VID,
        pid: int = MICROPYTHON_PID,
        read_timeout: float = 0.05,
        settle: float = 0.05,
        clock: Clock | None = None,
    ) -> None:
        self.path = path
        self.vid = vid
        self.pid = pid
        self.read_timeout = read_timeout
        self.settle = settle
        self.clock = clock or SystemClock()

    def resolve(self) -> str:
        if self.path is not None:
            return self.path
        candidates = find_device_ports(self.vid, self.pid)
        if not candidates:
            raise PortNotFoundError(
                f"no seat device with USB id {self.vid:04x}:{self.pid:04x} is plugged in"
            )
        return candidates[0]

    def __call__(self) -> Port:
        import serial

        path = self.resolve()
        port = serial.Serial()
        port.port = path
        port.baudrate = BAUD
        port.timeout = self.read_timeout
        port.write_timeout = 1.0
        port.exclusive = True
        # Set before open() so pyserial asserts DTR once instead of toggling it (pyserial #124).
        # The Pico does not reset on DTR, and MicroPython only sends while DTR is asserted.
        port.dtr = True
        port.rts = False
        port.open()
        # open() can return before the device is ready (pyserial #329): give it a moment and drop
        # whatever it said before we listened; the handshake is retried anyway.
        self.clock.sleep(self.settle)
        port.reset_input_buffer()
        log.info("opened seat device port %s", path)
        return port


class LoopbackPort:
    """A port whose far end is the test: ``feed()`` what the device says, read what was written.

    ``vanish()`` makes every later call raise ``OSError``, as an unplugged tty does.
    """

    def __init__(self, *, read_timeout: float = 0.01) -> None:
        self._incoming: collections.deque[bytes] = collections.deque()
        self._cond = threading.Condition()
        self.written = bytearray()
        self.read_timeout = read_timeout
        self.closed = False
        self.vanished = False

    def feed(self, data: bytes) -> None:
        with self._cond:
            self._incoming.append(data)
            self._cond.notify_all()

    def vanish(self) -> None:
        with self._cond:
            self.vanished = True
            self._cond.notify_all()

    def take_written(self) -> bytes:
        with self._cond:
            data = bytes(self.written)
            self.written.clear()
            return data

    def read(self, size: int = 1) -> bytes:
        with self._cond:
            if not self._incoming and not self.vanished:
                self._cond.wait(self.read_timeout)
            if self.vanished:
                raise OSError("device disconnected")
            if not self._incoming:
                return b""
            return self._incoming.popleft()

    def write(self, data: bytes, /) -> int:
        with self._cond:
            if self.vanished or self.closed:
                raise OSError("device disconnected")
            self.written += data
            return len(data)

    def close(self) -> None:
        self.closed = True
