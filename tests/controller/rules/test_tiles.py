import pytest

from controller.errors import TileError
from controller.rules.tiles import DominoSet, Tile, pip_total


@pytest.mark.parametrize(("max_pip", "count"), [(6, 28), (9, 55), (12, 91), (15, 136), (18, 190)])
def test_set_sizes(max_pip: int, count: int) -> None:
    tiles = DominoSet(max_pip).tiles
    assert len(tiles) == count
    assert len(set(tiles)) == count
    assert all(0 <= t.low <= t.high <= max_pip for t in tiles)


def test_double_six_sums_to_168() -> None:
    assert DominoSet(6).total_pips == 168
    assert pip_total(DominoSet(6).tiles) == 168


@pytest.mark.parametrize("text", ["3-5", "5-3", " 5-3 ", "5 - 3"])
def test_parse_either_order(text: str) -> None:
    assert Tile.parse(text) == Tile(3, 5)
    assert str(Tile.parse(text)) == "3-5"


def test_repr_rebuilds() -> None:
    assert eval(repr(Tile(2, 4))) == Tile(2, 4)


@pytest.mark.parametrize("bad", ["", "3", "3-", "a-b", "3-5-1", "-1-2", "3_5", "19-2"])
def test_parse_rejects(bad: str) -> None:
    with pytest.raises(TileError):
        Tile.parse(bad)


def test_tile_outside_the_set() -> None:
    with pytest.raises(TileError, match="not in the double-6 set"):
        DominoSet(6).parse("7-1")
    assert DominoSet(9).parse("7-1") == Tile(1, 7)


def test_unsupported_set() -> None:
    with pytest.raises(TileError):
        DominoSet(7)


def test_other_half() -> None:
    assert Tile(2, 5).other(2) == 5
    assert Tile(4, 4).other(4) == 4
    with pytest.raises(TileError):
        Tile(2, 5).other(3)


def test_with_number_counts() -> None:
    s = DominoSet(6)
    assert all(len(s.with_number[n]) == 7 for n in range(7))
