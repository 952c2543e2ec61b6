"""The threaded shell around :class:`~firmware_bridge.link.HostLink`: a port, a reader thread,
reconnection with backoff, and a queue of typed events.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading

from domino_common.clock import Clock, SystemClock
from firmware_bridge.link import HostLink, LinkState, LinkTiming
from firmware_bridge.ports import Port, PortFactory
from firmware_bridge.types import BridgeEvent, LedState, LinkUp

log = logging.getLogger(__name__)


class Backoff:
    """Reconnect delays: ``first``, then times ``factor`` up to ``limit``."""

    def __init__(self, first: float = 0.05, limit: float = 1.0, factor: float = 2.0) -> None:
        self.first = first
        self.limit = limit
        self.factor = factor
        self._next = first

    def next(self) -> float:
        delay = self._next
        self._next = min(self._next * self.factor, self.limit)
        return delay

    def reset(self) -> None:
        self._next = self.first


class Bridge:
    """Owns the seat device link: ``events`` out, ``set_leds`` in; survives unplug and reboot.

    ``with Bridge(SerialPortFactory()) as bridge: event = bridge.events.get()``
    """

    def __init__(
        self,
        port_factory: PortFactory,
        *,
        seats: int = 4,
        clock: Clock | None = None,
        timing: LinkTiming | None = None,
        backoff: Backoff | None = None,
        read_size: int = 256,
    ) -> None:
        self._factory = port_factory
        self._clock = clock or SystemClock()
        self._backoff = backoff or Backoff()
        self._link = HostLink(seats=seats, timing=timing)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._port: Port | None = None
        self._read_size = read_size
        self.events: queue.Queue[BridgeEvent] = queue.Queue()
        self.open_failures = 0

    # --- life cycle ---------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("bridge already started")
        self._thread = threading.Thread(target=self._run, name="seat-device", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._close("bridge stopped")

    def __enter__(self) -> Bridge:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- commands and state -------------------------------------------------------------------

    def set_leds(self, states: tuple[LedState, ...]) -> None:
        """Desired state of every seat LED; restored by the bridge after a relink or reboot."""
        with self._lock:
            self._link.set_leds(self._clock.monotonic(), states)
            self._flush()

    @property
    def state(self) -> LinkState:
        with self._lock:
            return self._link.state

    @property
    def leds_confirmed(self) -> bool:
        with self._lock:
            return self._link.leds_confirmed

    @property
    def link(self) -> HostLink:
        """The state machine itself (stats, boot count); read it, do not drive it."""
        return self._link

    # --- the reader thread --------------------------------------------------------------------

    def _run(self) -> None:
        next_open = 0.0
        while not self._stop.is_set():
            now = self._clock.monotonic()
            if self._port is None:
                if now < next_open:
                    self._stop.wait(min(next_open - now, 0.05))
                    continue
                if not self._open(now):
                    next_open = now + self._backoff.next()
                continue
            port = self._port
            try:
                data = port.read(self._read_size)
            except OSError as exc:
                self._close(f"port vanished: {exc}")
                next_open = self._clock.monotonic() + self._backoff.next()
                continue
            with self._lock:
                now = self._clock.monotonic()
                if data:
                    self._link.receive(now, data)
                self._link.tick(now)
                self._flush()

    def _open(self, now: float) -> bool:
        try:
            port = self._factory()
        except OSError as exc:
            self.open_failures += 1
            if self.open_failures == 1 or self.open_failures % 50 == 0:
                log.warning("cannot open the seat device (%s); retrying", exc)
            return False
        with self._lock:
            self._port = port
            self._link.connection_made(self._clock.monotonic())
            self._flush()
        self.open_failures = 0
        return True

    def _flush(self) -> None:
        """Write pending output and publish events; called with the lock held."""
        data = self._link.take_output()
        if data and self._port is not None:
            try:
                self._port.write(data)
            except OSError as exc:
                log.warning("write to the seat device failed: %s", exc)
        for event in self._link.take_events():
            if isinstance(event, LinkUp):
                self._backoff.reset()  # not on open: a port that opens but fails must back off
            self.events.put(event)

    def _close(self, reason: str) -> None:
        with self._lock:
            port, self._port = self._port, None
            if port is None:
                return
            self._link.connection_lost(self._clock.monotonic(), reason)
            for event in self._link.take_events():
                self.events.put(event)
        with contextlib.suppress(OSError):
            port.close()
