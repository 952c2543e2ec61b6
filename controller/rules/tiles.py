"""Tiles and double-N sets.

>>> Tile.parse("5-3")
Tile(3, 5)
>>> str(Tile(3, 5))
'3-5'
>>> len(DominoSet(6).tiles), DominoSet(6).total_pips
(28, 168)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

from controller.errors import TileError

SUPPORTED_MAX_PIPS = (6, 9, 12, 15, 18)


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """A domino: two halves ``low <= high``. Its orientation on the table lives in the line."""

    low: int
    high: int
    # Derived once: read on every move of every simulated hand.
    pips: int = field(init=False, repr=False, compare=False)
    is_double: bool = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not (0 <= self.low <= self.high):
            raise TileError(f"not a tile: {self.low}-{self.high} (halves must be 0 <= low <= high)")
        object.__setattr__(self, "pips", self.low + self.high)
        object.__setattr__(self, "is_double", self.low == self.high)
        object.__setattr__(self, "_hash", self.low * 64 + self.high)

    def __hash__(self) -> int:
        return self._hash

    @staticmethod
    def of(a: int, b: int) -> Tile:
        """The tile with halves ``a`` and ``b`` in either order."""
        return _interned(a, b) if a <= b else _interned(b, a)

    @staticmethod
    def parse(text: str) -> Tile:
        """Parse ``"a-b"`` (either order, surrounding spaces allowed)."""
        if not isinstance(text, str):
            raise TileError(f"not a tile string: {text!r} (expected 'a-b')")
        parts = text.strip().split("-")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise TileError(f"not a tile: {text!r} (expected 'a-b', e.g. '3-5')")
        a, b = (int(p) for p in parts)
        if max(a, b) > max(SUPPORTED_MAX_PIPS):
            raise TileError(
                f"not a tile: {text!r} (no set has more than {max(SUPPORTED_MAX_PIPS)})"
            )
        return Tile.of(a, b)

    def has(self, number: int) -> bool:
        return number in (self.low, self.high)

    def other(self, number: int) -> int:
        """The half that is left open when this tile is joined to ``number``."""
        if self.low == number:
            return self.high
        if self.high == number:
            return self.low
        raise TileError(f"{self} has no {number}")

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile({self.low}, {self.high})"


@cache
def _interned(low: int, high: int) -> Tile:
    return Tile(low, high)


@dataclass(frozen=True, slots=True)
class DominoSet:
    """The double-``max_pip`` set: every pair ``(a, b)`` with ``0 <= a <= b <= max_pip``."""

    max_pip: int
    tiles: tuple[Tile, ...] = field(init=False, repr=False, compare=False)
    #: For each number, the tiles that carry it.
    with_number: tuple[frozenset[Tile], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.max_pip not in SUPPORTED_MAX_PIPS:
            raise TileError(
                f"unsupported set double-{self.max_pip}: choose one of {SUPPORTED_MAX_PIPS}"
            )
        tiles = tuple(
            Tile.of(a, b) for a in range(self.max_pip + 1) for b in range(a, self.max_pip + 1)
        )
        object.__setattr__(self, "tiles", tiles)
        object.__setattr__(
            self,
            "with_number",
            tuple(frozenset(t for t in tiles if t.has(n)) for n in range(self.max_pip + 1)),
        )

    @property
    def total_pips(self) -> int:
        return sum(t.pips for t in self.tiles)

    @property
    def top_double(self) -> Tile:
        return Tile.of(self.max_pip, self.max_pip)

    def __contains__(self, tile: object) -> bool:
        return isinstance(tile, Tile) and tile.high <= self.max_pip

    def parse(self, text: str) -> Tile:
        """Parse a tile string and check it belongs to this set."""
        tile = Tile.parse(text)
        if tile.high > self.max_pip:
            raise TileError(f"{tile} is not in the double-{self.max_pip} set")
        return tile


@cache
def domino_set(max_pip: int) -> DominoSet:
    return DominoSet(max_pip)


def pip_total(tiles: Iterable[Tile]) -> int:
    """Total pips of some tiles."""
    return sum(t.pips for t in tiles)
