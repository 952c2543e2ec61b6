"""The observed table (RULES.md section 5): unknown hands, renuncio, tranque, revealed tiles."""

from __future__ import annotations

import pytest

from controller.errors import IllegalMoveError, ScoringError
from controller.rules.hand import Hand
from controller.rules.moves import Draw, HandEnd, Pass, Play
from controller.rules.options import find_preset
from controller.rules.record import parse_record, replay
from controller.rules.tiles import Tile
from tests.controller.rules.helpers import pas, play, record

T = Tile.parse


def _latin() -> Hand:
    hand = Hand(find_preset("latin"), lead_tile=T("6-6"))
    hand.push(Play(0, T("6-6")))
    hand.push(Play(1, T("6-5"), "right"))  # ends 6 | 5
    return hand


def test_a_play_is_checked_against_the_ends_and_the_tiles_seen() -> None:
    hand = _latin()
    with pytest.raises(IllegalMoveError, match="does not fit"):
        hand.push(Play(2, T("1-2")))
    with pytest.raises(IllegalMoveError, match="already on the table"):
        hand.push(Play(2, T("5-6")))
    with pytest.raises(IllegalMoveError, match="out of turn"):
        hand.push(Play(3, T("5-1")))
    assert len(hand.moves) == 2  # nothing changed


def test_renuncio_when_a_passed_number_is_played_later() -> None:
    hand = _latin()
    hand.push(Pass(2))  # seat 2 says: no 6 and no 5
    hand.push(Play(3, T("5-1"), "right"))  # ends 6 | 1
    hand.push(Play(0, T("1-1"), "right"))
    hand.push(Play(1, T("1-3"), "right"))  # ends 6 | 3
    assert hand.lacks(2) == [5, 6]
    hand.push(Play(2, T("6-3"), "left"))  # ... but it held a 6
    (ren,) = hand.renuncios
    assert (ren.seat, ren.pass_move, ren.play_move, ren.tile, ren.number) == (2, 2, 6, T("3-6"), 6)
    assert "passed at move 3" in str(ren) and "move 7" in str(ren)


def test_no_renuncio_after_an_unseen_draw() -> None:
    hand = Hand(find_preset("draw"), leaders=[0])
    hand.push(Play(0, T("6-6")))
    hand.push(Draw(1))  # could not play on 6; drew an unseen tile
    hand.push(Play(1, T("6-2"), "right"))  # it may be the drawn tile: no accusation
    assert hand.renuncios == []


def test_renuncio_found_in_the_tiles_left() -> None:
    hands = [
        {
            "moves": [play(0, "6-6"), play(1, "6-5", "right"), pas(2), pas(3), pas(0), pas(1)],
            "left": [
                ["0-0", "0-1", "0-2", "0-3", "0-4", "1-1"],
                ["1-2", "1-3", "1-4", "2-2", "2-3", "2-4"],
                ["3-6", "3-3", "3-4", "4-4", "0-5", "1-5", "2-5"],
                ["0-6", "1-6", "2-6", "4-6", "3-5", "4-5", "5-5"],
            ],
        }
    ]
    result = replay(parse_record(record("latin", hands)))
    (h,) = result.results
    assert h.result is HandEnd.BLOCK
    kept = {(r.seat, r.tile) for r in h.renuncios if r.play_move is None}
    assert (2, T("3-6")) in kept
    assert {seat for seat, _ in kept} == {2, 3}  # seat 0 and 1 kept no 5 or 6


def test_block_when_everyone_passes_in_turn() -> None:
    hand = _latin()
    for seat in (2, 3, 0, 1):
        hand.push(Pass(seat))
    assert hand.outcome is HandEnd.BLOCK


def test_an_observed_hand_needs_the_tiles_left_to_be_scored() -> None:
    hand = _latin()
    for seat in (2, 3, 0, 1):
        hand.push(Pass(seat))
    with pytest.raises(ScoringError, match="tiles left"):
        hand.finish()


@pytest.mark.parametrize(
    ("left", "message"),
    [
        ([["1-1"]] * 4, "should hold"),
        ([["6-5", *["0-0"] * 5], [], [], []], "1 hands for 4 seats"),
    ],
)
def test_revealed_tiles_are_checked(left: list[list[str]], message: str) -> None:
    hand = _latin()
    for seat in (2, 3, 0, 1):
        hand.push(Pass(seat))
    tiles = [[T(t) for t in seat] for seat in left]
    if "seats" in message:
        tiles = tiles[:1]
    with pytest.raises(IllegalMoveError, match=message):
        hand.finish(tiles)


def test_revealed_tile_already_on_the_table() -> None:
    hand = _latin()
    for seat in (2, 3, 0, 1):
        hand.push(Pass(seat))
    tiles = [["0-0"] * 6, ["1-1"] * 6, ["2-2"] * 7, ["3-3"] * 7]
    tiles[0] = ["6-5", "0-1", "0-2", "0-3", "0-4", "0-5"]
    with pytest.raises(IllegalMoveError, match="already on the table"):
        hand.finish([[T(t) for t in seat] for seat in tiles])


def test_spectators_see_what_a_seat_lacks() -> None:
    hand = _latin()
    hand.push(Pass(2))
    assert hand.lacks(2) == [5, 6]
    assert hand.lacks(3) == []
