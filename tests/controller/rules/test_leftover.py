"""The tiles left when a hand is over: checked against the known hands or against what an
observed hand knows, and the false passes they expose."""

from __future__ import annotations

import pytest

from controller.errors import IllegalMoveError
from controller.rules.leftover import renuncios_in, tiles_left
from controller.rules.moves import Renuncio
from controller.rules.options import find_preset
from controller.rules.tiles import Tile

T = Tile.parse
RULES = find_preset("latin")  # four seats, double six


def _tiles(*texts: str) -> list[Tile]:
    return [T(t) for t in texts]


def _observed(left: list[list[Tile]] | None, **over: object) -> list[list[Tile]] | None:
    known: dict[str, object] = {
        "counts": [1, 2, 0, 1],
        "on_table": {T("6-6"), T("6-5")},
        "held_known": [set(), set(), {T("4-4")}, set()],
    }
    known.update(over)
    return tiles_left(left, rules=RULES, hands=None, **known)  # type: ignore[arg-type]


def test_known_hands_are_the_tiles_left_and_what_is_shown_must_match() -> None:
    hands = [{T("1-2"), T("0-0")}, set(), {T("3-3")}, set()]
    expected = [_tiles("0-0", "1-2"), [], _tiles("3-3"), []]
    kwargs = {"rules": RULES, "hands": hands, "counts": [2, 0, 1, 0], "on_table": set()}
    assert tiles_left(None, held_known=[set()] * 4, **kwargs) == expected  # type: ignore[arg-type]
    shown = [_tiles("1-2", "0-0"), [], _tiles("3-3"), []]
    assert tiles_left(shown, held_known=[set()] * 4, **kwargs) == expected  # type: ignore[arg-type]
    wrong = [_tiles("1-2"), [], _tiles("3-3"), []]
    with pytest.raises(IllegalMoveError, match="seat 0 left 1-2 but holds 0-0 1-2"):
        tiles_left(wrong, held_known=[set()] * 4, **kwargs)  # type: ignore[arg-type]


def test_an_observed_hand_takes_what_is_shown_when_it_fits() -> None:
    shown = [_tiles("1-2"), _tiles("5-5", "0-3"), [], _tiles("4-1")]
    assert _observed(shown) == [_tiles("1-2"), _tiles("0-3", "5-5"), [], _tiles("1-4")]
    assert _observed(None) is None


@pytest.mark.parametrize(
    ("shown", "reason"),
    [
        ([_tiles("1-2")], "left lists 1 hands for 4 seats"),
        ([_tiles("1-2"), _tiles("5-5"), [], _tiles("4-1")], "seat 1 shows 1 tiles left but"),
        ([_tiles("1-2"), _tiles("5-5", "6-5"), [], _tiles("4-1")], r"5-6 \(seat 1\) is already"),
        ([_tiles("1-2"), _tiles("5-5", "1-2"), [], _tiles("4-1")], "1-2 is shown twice"),
        ([_tiles("1-2"), _tiles("5-5", "4-4"), [], _tiles("4-1")], "4-4 was drawn by seat 2"),
        ([_tiles("1-2"), _tiles("5-5", "7-7"), [], _tiles("4-1")], "7-7 is not in the set"),
    ],
)
def test_an_observed_hand_refuses_tiles_it_knows_cannot_be_left(
    shown: list[list[Tile]], reason: str
) -> None:
    with pytest.raises(IllegalMoveError, match=reason):
        _observed(shown)


def test_the_tiles_left_show_false_passes_unless_drawn_since() -> None:
    lacks = [{5: 3, 1: 7}, {}, {2: 1}, {}]
    exempt = [set(), set(), {T("2-6")}, set()]
    left = [_tiles("3-3", "1-5"), _tiles("5-5"), _tiles("2-6"), []]
    assert renuncios_in(left, lacks=lacks, exempt=exempt) == [Renuncio(0, 7, None, T("1-5"), 1)]
