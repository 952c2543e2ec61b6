"""The I/O shell around the pure session: one lock, the journal written before any effect is
carried out, effects handed to the LEDs, the publisher and the scene tracker. The published
state and events become the publishing port's typed bodies here, once (:mod:`controller.live.port`).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from controller.errors import ControllerError
from controller.journal import Journal
from controller.live.port import Publisher
from controller.runtime.adapters import device_view, event_body, led_states, state_body
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
    """Feeds inputs to the session; restores from the journal on creation. Without a
    ``publisher`` nothing is published."""

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
        self.publisher = publisher
        self.leds = leds
        self.vision_fix = vision_fix
        self.on_event = on_event
        self._lock = threading.Lock()
        start = initial_state(table)
        self.state: TableState = journal.restore(start) if journal is not None else start
        self.restored_inputs = self.state.inputs

    def start(self) -> None:
        """Publish the state the table starts in and restore the LEDs."""
        if self.publisher is not None:
            self.publisher.publish_state(state_body(snapshot(self.state)))
        if self.leds is not None and self.state.leds:
            self.leds(led_states(self.state.leds))

    def stop(self) -> None:
        """The end of a run: nothing to release here (the journal, the devices and the
        publisher are the caller's; the MQTT publisher says ``offline`` when it stops)."""

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
                if self.publisher is not None:
                    self.publisher.publish_event(*event_body(data))
                    view = device_view(data)
                    if view is not None:
                        self.publisher.publish_device(view)
                if self.on_event is not None:
                    self.on_event(data)
            elif isinstance(effect, PublishState):
                if self.publisher is not None:
                    self.publisher.publish_state(state_body(effect.snapshot))
            elif isinstance(effect, SetLeds):
                if self.leds is not None:
                    self.leds(led_states(effect.states))
            elif self.vision_fix is not None:
                self.vision_fix(effect)
        return new
