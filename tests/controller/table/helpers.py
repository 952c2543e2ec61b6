"""A small driver for the table session in tests: lay tiles as the camera would report them,
press buttons, read back events, LEDs and alerts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from controller.rules.line import End
from controller.rules.tiles import Tile
from controller.table import (
    Button,
    Effect,
    Emit,
    Laid,
    NewMatch,
    Revealed,
    SetLeds,
    TableInput,
    TableState,
    TilesLaid,
    TileTaken,
    initial_state,
    problems,
    step,
)
from controller.table.state import HandState

FIXTURE = Path(__file__).resolve().parents[3] / "vision" / "fixtures" / "latin-hand"


def truth() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURE / "truth.json").read_text(encoding="utf-8"))
    return data


class Table:
    def __init__(
        self,
        preset: str = "latin",
        *,
        leader: int | None = 1,
        options: dict[str, object] | None = None,
    ) -> None:
        self.state: TableState = initial_state()
        self.inputs: list[TableInput] = []
        self.effects: list[Effect] = []
        self.t = 0.0
        self.feed(NewMatch(self.t, preset, options or {}, None, leader))

    def feed(self, inp: TableInput) -> list[Effect]:
        self.inputs.append(inp)
        self.state, self.effects = step(self.state, inp)
        return self.effects

    def tick(self) -> float:
        self.t += 1.0
        return self.t

    @property
    def hand(self) -> HandState:
        assert self.state.match is not None and self.state.match.hand is not None
        return self.state.match.hand

    def pips(self, tile: str, end: str | None) -> tuple[tuple[int, int], str]:
        a, b = (int(x) for x in tile.split("-"))
        line = self.hand.engine.line
        if line.empty or end is None:
            return (a, b), "first"
        number = line.open_ends[End(end)]
        t = Tile.of(a, b)
        if t.has(number):
            return (number, t.other(number)), end
        return (a, b), end

    def lay(self, tile: str, end: str | None = None) -> list[Effect]:
        pips, where = self.pips(tile, end)
        return self.feed(TilesLaid(self.tick(), (Laid(pips, where),)))  # type: ignore[arg-type]

    def lay_two(self, a: tuple[str, str], b: tuple[str, str]) -> list[Effect]:
        pa, ea = self.pips(*a)
        pb, eb = self.pips(*b)
        return self.feed(
            TilesLaid(self.tick(), (Laid(pa, ea), Laid(pb, eb)))  # type: ignore[arg-type]
        )

    def take(self, tile: str) -> list[Effect]:
        a, b = (int(x) for x in tile.split("-"))
        return self.feed(TileTaken(self.tick(), (a, b)))

    def press(self, seat: int, gesture: str = "short") -> list[Effect]:
        return self.feed(Button(self.tick(), seat, gesture))  # type: ignore[arg-type]

    def reveal(self, seat: int, tiles: list[str]) -> list[Effect]:
        pips = tuple(tuple(int(x) for x in t.split("-")) for t in tiles)
        return self.feed(Revealed(self.tick(), seat, pips))  # type: ignore[arg-type]

    def kinds(self) -> list[str]:
        return [e.event.kind for e in self.effects if isinstance(e, Emit)]

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [
            e.event.to_json() for e in self.effects if isinstance(e, Emit) and e.event.kind == kind
        ]

    def leds(self) -> list[str]:
        return [str(s) for s in self.state.leds]

    def led_effects(self) -> list[list[str]]:
        return [[str(s) for s in e.states] for e in self.effects if isinstance(e, SetLeds)]

    def blocking(self) -> list[str]:
        return [a.kind for a in problems(self.state) if a.blocking]

    def moves(self) -> int:
        return len(self.hand.moves)


def play_fixture_hand(table: Table) -> None:
    """The fixture's hand (seat 1 leads 6-6): every move, the two passes by button."""
    hand = truth()["record"]["hands"][0]
    for move in hand["moves"]:
        if "play" in move:
            table.lay(move["play"], move.get("end"))
        else:
            table.press(move["seat"])
