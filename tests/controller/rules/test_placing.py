"""Where a tile may go: the opening tile's rules and the end a tile joins, each refusal naming
the move and the reason."""

from __future__ import annotations

import pytest

from controller.errors import IllegalMoveError
from controller.rules.line import End, Line
from controller.rules.moves import Play
from controller.rules.placing import check_lead, choose_end
from controller.rules.tiles import Tile

T = Tile.parse


def _line(*tiles: str) -> Line:
    """A line opened with the first tile (its first-written half on the left), each next tile
    joined to the right."""
    line = Line()
    first = T(tiles[0])
    line.open(first, 0, first_half=int(tiles[0][0]), spinner=False)
    for text in tiles[1:]:
        line.join(T(text), End.RIGHT, 0, spinner=False)
    return line


@pytest.mark.parametrize(
    ("tile", "end", "expected"),
    [
        ("6-4", None, End.LEFT),  # fits the left 6 only
        ("5-5", None, End.RIGHT),  # fits the right 5 only
        ("5-2", End.RIGHT, End.RIGHT),
    ],
)
def test_the_end_a_tile_joins(tile: str, end: End | None, expected: End) -> None:
    assert choose_end(_line("6-5"), Play(1, T(tile), end)) is expected


def test_a_tile_fitting_two_ends_showing_one_number_joins_either() -> None:
    assert choose_end(_line("6-6"), Play(1, T("6-2"))) in (End.LEFT, End.RIGHT)


@pytest.mark.parametrize(
    ("line", "tile", "end", "reason"),
    [
        (("6-5",), "1-2", None, r"1-2 does not fit the open ends \(left 6, right 5\)"),
        (("6-5",), "6-4", End.RIGHT, r"4-6 does not fit the right end \(it shows 5\)"),
        (("6-5",), "6-4", End.UP, r"4-6 does not fit the up end \(it is not open\)"),
        (("6-6", "6-5", "5-4"), "6-4", None, "fits both ends with different numbers"),
    ],
)
def test_a_tile_that_does_not_fit_is_refused(
    line: tuple[str, ...], tile: str, end: End | None, reason: str
) -> None:
    with pytest.raises(IllegalMoveError, match=reason):
        choose_end(_line(*line), Play(1, T(tile), end))


def _lead(
    tile: str,
    *,
    lead_tile: str | None = None,
    double_only: bool = False,
    double_if_held: bool = False,
    held: set[Tile] | None = None,
) -> None:
    check_lead(
        Play(0, T(tile)),
        lead_tile=None if lead_tile is None else T(lead_tile),
        lead_double_only=double_only,
        lead_double_if_held=double_if_held,
        held=held,
    )


def test_an_opening_tile_that_keeps_the_lead_rules_passes() -> None:
    _lead("6-6", lead_tile="6-6", double_only=True)
    _lead("3-4")
    _lead("3-4", double_if_held=True, held={T("3-4"), T("1-2")})
    _lead("3-4", double_if_held=True, held=None)  # an observed leader: nobody knows its tiles
    _lead("2-2", double_if_held=True, held={T("2-2"), T("5-5")})


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"lead_tile": "6-6"}, "this hand must open with 6-6"),
        ({"double_only": True}, "this hand must open with a double"),
        (
            {"double_if_held": True, "held": {T("3-4"), T("5-5"), T("2-2")}},
            "the leader holds 2-2 and must lead a double",
        ),
    ],
)
def test_an_opening_tile_against_the_lead_rules_is_refused(
    kwargs: dict[str, object], reason: str
) -> None:
    with pytest.raises(IllegalMoveError, match=reason):
        _lead("3-4", **kwargs)  # type: ignore[arg-type]
