"""The tiles left when a hand is over: what each seat shows, checked against what the hand knows
(the hands themselves when known; for an observed hand, the counts, the tiles on the table and
those seen drawn), and the false passes (renuncios) the tiles shown expose. Used by
:meth:`~controller.rules.hand.Hand.finish`; values in, values out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence, Set

from controller.errors import IllegalMoveError
from controller.rules.moves import Renuncio
from controller.rules.options import Rules
from controller.rules.tiles import Tile


def tiles_left(
    left: Sequence[Iterable[Tile]] | None,
    *,
    rules: Rules,
    hands: Sequence[Set[Tile]] | None,
    counts: Sequence[int],
    on_table: Set[Tile],
    held_known: Sequence[Set[Tile]],
) -> list[list[Tile]] | None:
    """The tiles each seat holds at the end, sorted: the known ``hands`` (``left``, when given,
    must match them), else ``left`` checked against what an observed hand knows; ``None`` when
    neither is known. Raises :class:`IllegalMoveError` naming the seat and the tile."""
    n = rules.seats
    if left is not None:
        shown = [sorted(tiles) for tiles in left]
        if len(shown) != n:
            raise IllegalMoveError(f"left lists {len(shown)} hands for {n} seats")
    if hands is not None:
        actual = [sorted(h) for h in hands]
        if left is not None:
            for seat in range(n):
                if shown[seat] != actual[seat]:
                    raise IllegalMoveError(
                        f"seat {seat} left {' '.join(map(str, shown[seat])) or 'nothing'} "
                        f"but holds {' '.join(map(str, actual[seat])) or 'nothing'}"
                    )
        return actual
    if left is None:
        return None
    seen: set[Tile] = set()
    for seat, tiles in enumerate(shown):
        if len(tiles) != counts[seat]:
            raise IllegalMoveError(
                f"seat {seat} shows {len(tiles)} tiles left but should hold {counts[seat]}"
            )
        for tile in tiles:
            if tile not in rules.tileset:
                raise IllegalMoveError(f"left: {tile} is not in the set")
            if tile in on_table:
                raise IllegalMoveError(f"left: {tile} (seat {seat}) is already on the table")
            if tile in seen:
                raise IllegalMoveError(f"left: {tile} is shown twice")
            for other, held in enumerate(held_known):
                if other != seat and tile in held:
                    raise IllegalMoveError(f"left: {tile} was drawn by seat {other}")
            seen.add(tile)
    return shown


def renuncios_in(
    left: Sequence[Iterable[Tile]],
    *,
    lacks: Sequence[Mapping[int, int]],
    exempt: Sequence[Set[Tile]],
) -> list[Renuncio]:
    """False passes shown by the tiles left: a tile carrying a number its seat showed it lacked
    (``lacks``: number -> index of the pass), unless drawn since (``exempt``)."""
    found = []
    for seat, tiles in enumerate(left):
        seat_lacks = lacks[seat]
        for tile in sorted(tiles):
            if tile in exempt[seat]:
                continue
            for n in (tile.low, tile.high):
                if n in seat_lacks:
                    found.append(Renuncio(seat, seat_lacks[n], None, tile, n))
                    break
    return found
