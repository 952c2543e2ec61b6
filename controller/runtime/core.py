"""The I/O shell around the pure session: one lock, the journal written before any effect is
carried out, effects handed to the LEDs, the publisher and the scene tracker."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from controller.errors import ControllerError
from controller.journal import Journal
from controller.runtime.adapters import led_states
from controller.runtime.publisher import MemoryPublisher, Publisher
from controller.table import (
    CorrectVision,
    Emit,
    PublishState,
    SetLeds,
    TableInput,
    TableState,
    initial_state,
    snapshot,
    step,
)
from controller.table.inputs import InputError
from firmware_bridge.types import LedState

log = logging.getLogger(__name__)


class TableRuntimeError(ControllerError, RuntimeError):
    """The runtime cannot go on: hardware absent, a device that never answers, a bad config."""


LedSink = Callable[[tuple[LedState, ...]], None]
VisionFix = Callable[[CorrectVision], None]
EventSink = Callable[[Mapping[str, Any]], None]


class TableRuntime:
    """Feeds inputs to the session; restores from the journal on creation."""

    def __init__(
        self,
        *,
        table: str = "table-1",
        journal: Journal | None = None,
        publisher: Publisher | None = None,
        leds: LedSink | None = None,
        vision_fix: VisionFix | None = None,
        on_event: EventSink | None = None,
    ) -> None:
        self.journal = journal
        self.publisher: Publisher = publisher or MemoryPublisher()
        self.leds = leds
        self.vision_fix = vision_fix
        self.on_event = on_event
        self._lock = threading.Lock()
        start = initial_state(table)
        self.state: TableState = journal.restore(start) if journal is not None else start
        self.restored_inputs = self.state.inputs

    def start(self) -> None:
        """Announce the table and restore the LEDs and the retained state."""
        self.publisher.set_availability(True)
        self.publisher.publish_state(snapshot(self.state))
        if self.leds is not None and self.state.leds:
            self.leds(led_states(self.state.leds))

    def stop(self) -> None:
        self.publisher.set_availability(False)

    def max_pip(self) -> int | None:
        """The highest pip count of the set the match on plays (``None``: no match)."""
        match = self.state.match
        return None if match is None else match.rules.max_pip

    def command(self, name: str, args: Mapping[str, Any]) -> TableState:
        """An authorised command (``new_match``, ``correct``, ``undo``...), journaled as an
        ``api`` input at the table's current time like any other input; its effects (events,
        the new state) are published as usual. Raises :class:`~controller.table.InputError`
        (a ``ValueError``) when its arguments are wrong: nothing is journaled then."""
        from controller.runtime.adapters import command_input

        count = 1
        if name == "undo":
            moves = args.get("moves", 1)
            if not isinstance(moves, int) or isinstance(moves, bool) or not 1 <= moves <= 10:
                raise InputError("undo: 'moves' must be 1 to 10")
            count = moves
        inp = command_input(name, {k: v for k, v in args.items() if k != "moves"}, self.state.t)
        state = self.state
        for _ in range(count):
            state = self.feed(replace(inp, t=self.state.t), "api")
        return state

    def feed(self, inp: TableInput, source: str) -> TableState:
        """One input: step, journal (before anything is carried out), then the effects."""
        with self._lock:
            new, effects = step(self.state, inp)
            if self.journal is not None:
                events = [e.event for e in effects if isinstance(e, Emit)]
                self.journal.append(inp, source, events)
            self.state = new
        for effect in effects:
            if isinstance(effect, Emit):
                data = effect.event.to_json()
                self.publisher.publish_event(data)
                if self.on_event is not None:
                    self.on_event(data)
            elif isinstance(effect, PublishState):
                self.publisher.publish_state(effect.snapshot)
            elif isinstance(effect, SetLeds):
                if self.leds is not None:
                    self.leds(led_states(effect.states))
            elif self.vision_fix is not None:
                self.vision_fix(effect)
        return new
