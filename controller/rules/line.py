"""The line of play: its open ends, their numbers and what they add to an end sum.

Ends are named ``left``/``right`` (the opening tile's first-written half is the left end); with the
``spinner`` option the first double also opens ``up`` and ``down`` once both its long sides are
taken. Mutable with :meth:`Line.copy`, like the hand that owns it.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import StrEnum
from typing import NamedTuple

from controller.rules.tiles import Tile


class End(StrEnum):
    LEFT = "left"
    RIGHT = "right"
    UP = "up"
    DOWN = "down"


END_ORDER = (End.LEFT, End.RIGHT, End.UP, End.DOWN)


class Placement(NamedTuple):
    """A tile on the line: ``end`` is None for the opening tile; ``outer`` is the number it leaves
    open (for the opening tile, the right end)."""

    tile: Tile
    end: End | None
    outer: int
    seat: int


# Built without the Python-level ``__new__`` of a named tuple: the join is on the hot path.
_new = tuple.__new__


class Line:
    __slots__ = ("_ends", "_spinner", "_spinner_ends", "_spinner_sides", "placements")

    def __init__(self) -> None:
        self.placements: list[Placement] = []
        # end -> (open number, pips the end adds to an end sum)
        self._ends: dict[End, tuple[int, int]] = {}
        self._spinner: Tile | None = None
        self._spinner_ends: set[End] = set()
        self._spinner_sides = 0

    def copy(self) -> Line:
        new = Line.__new__(Line)
        new.placements = list(self.placements)
        new._ends = dict(self._ends)
        new._spinner = self._spinner
        new._spinner_ends = set(self._spinner_ends)
        new._spinner_sides = self._spinner_sides
        return new

    def __len__(self) -> int:
        return len(self.placements)

    @property
    def empty(self) -> bool:
        return not self.placements

    # ``_ends`` keeps insertion order left, right (up, down): the order of END_ORDER.

    @property
    def open_ends(self) -> dict[End, int]:
        """Open ends and the number each shows, in the order left, right, up, down."""
        return {e: n for e, (n, _) in self._ends.items()}

    def numbers(self) -> set[int]:
        return {n for n, _ in self._ends.values()}

    def fits(self, tile: Tile) -> list[End]:
        """The ends ``tile`` could join (none before the opening tile)."""
        low, high = tile.low, tile.high
        return [e for e, (n, _) in self._ends.items() if n in (low, high)]

    def joins(
        self, tiles: set[Tile], with_number: tuple[frozenset[Tile], ...]
    ) -> list[tuple[Tile, End]]:
        """Every (tile, end) pair where a tile of ``tiles`` could join the line."""
        return [(t, e) for e, (n, _) in self._ends.items() for t in tiles & with_number[n]]

    def end_items(self) -> list[tuple[End, int]]:
        """(end, number) for each open end, in order."""
        return [(e, n) for e, (n, _) in self._ends.items()]

    def end_numbers(self) -> Iterator[int]:
        for n, _ in self._ends.values():
            yield n

    def all_shown(self, shown: list[int], per_number: int) -> bool:
        """Whether ``shown[n] == per_number`` for every open number ``n``."""
        return all(shown[n] == per_number for n, _ in self._ends.values())

    def end_sum(self) -> int:
        """Sum of the open ends after a play: a double lying at an end counts both halves, the
        opening tile alone counts both halves, spinner arms count once played on."""
        if len(self.placements) == 1:
            return self.placements[0].tile.pips
        return sum(weight for _, weight in self._ends.values())

    def open(self, tile: Tile, seat: int, *, first_half: int | None = None, spinner: bool) -> None:
        """Lay the opening tile. ``first_half`` is the half written first (the left end)."""
        assert not self.placements
        left = tile.low if first_half is None else first_half
        right = tile.other(left)
        weight = tile.pips if tile.is_double else None
        self._ends = {
            End.LEFT: (left, weight if weight is not None else left),
            End.RIGHT: (right, weight if weight is not None else right),
        }
        self.placements.append(Placement(tile, None, right, seat))
        if spinner and tile.is_double:
            self._spinner = tile
            self._spinner_ends = {End.LEFT, End.RIGHT}

    def join(self, tile: Tile, end: End, seat: int, *, spinner: bool) -> None:
        """Join ``tile`` to ``end``; the caller has checked that it fits."""
        number = self._ends[end][0]
        outer = tile.high if tile.low == number else tile.low
        self._ends[end] = (outer, tile.pips if tile.is_double else outer)
        self.placements.append(_new(Placement, (tile, end, outer, seat)))
        if end in self._spinner_ends:
            self._spinner_ends.discard(end)
            self._spinner_sides += 1
            if self._spinner_sides == 2 and self._spinner is not None:
                # Both long sides taken: the arms open, adding nothing until played on.
                n = self._spinner.low
                self._ends[End.UP] = (n, 0)
                self._ends[End.DOWN] = (n, 0)
        elif spinner and self._spinner is None and tile.is_double and end in (End.LEFT, End.RIGHT):
            self._spinner = tile
            self._spinner_ends = {end}
            self._spinner_sides = 1
