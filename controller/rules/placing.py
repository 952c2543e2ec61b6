"""Where a tile may go, checked before :class:`~controller.rules.hand.Hand` lays it: the opening
tile's rules (a lead tile, a double) and the end a tile joins. Each check takes values, raises
:class:`~controller.errors.IllegalMoveError` naming the move and the reason, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Set

from controller.errors import IllegalMoveError
from controller.rules.line import End, Line
from controller.rules.moves import Play
from controller.rules.tiles import Tile


def check_lead(
    move: Play,
    *,
    lead_tile: Tile | None,
    lead_double_only: bool,
    lead_double_if_held: bool,
    held: Set[Tile] | None,
) -> None:
    """``move`` may open the hand. ``held`` is the leader's hand when known (a leader holding a
    double must lead one under ``lead_double_if_held``)."""
    tile = move.tile
    if lead_tile is not None and tile != lead_tile:
        raise IllegalMoveError(f"{move}: this hand must open with {lead_tile}")
    if not tile.is_double:
        if lead_double_only:
            raise IllegalMoveError(f"{move}: this hand must open with a double")
        if lead_double_if_held and held is not None:
            doubles = sorted(t for t in held if t.is_double)
            if doubles:
                raise IllegalMoveError(
                    f"{move}: the leader holds {doubles[0]} and must lead a double"
                )


def choose_end(line: Line, move: Play) -> End:
    """The end of ``line`` that ``move`` joins: the one it names, or the only number it fits."""
    fits = line.fits(move.tile)
    ends = line.open_ends
    if not fits:
        shown = ", ".join(f"{e} {n}" for e, n in ends.items())
        raise IllegalMoveError(f"{move}: {move.tile} does not fit the open ends ({shown})")
    if move.end is not None:
        if move.end not in fits:
            where = f"shows {ends[move.end]}" if move.end in ends else "is not open"
            raise IllegalMoveError(
                f"{move}: {move.tile} does not fit the {move.end} end (it {where})"
            )
        return move.end
    if len({ends[e] for e in fits}) > 1:
        raise IllegalMoveError(
            f"{move}: {move.tile} fits both ends with different numbers: say which end"
        )
    return fits[0]
