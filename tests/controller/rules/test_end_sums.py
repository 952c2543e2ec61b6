"""End sums for all fives and fives and threes, the spinner, and mid-hand targets."""

from __future__ import annotations

import pytest

from controller.rules.hand import Hand
from controller.rules.moves import HandEnd, Play
from controller.rules.options import EndScoring, build_rules, find_preset
from controller.rules.scoring import end_sum_points
from controller.rules.tiles import Tile

T = Tile.parse

# RULES.md: fives-and-threes points per sum.
FIVES_AND_THREES = {3: 1, 5: 1, 6: 2, 9: 3, 10: 2, 12: 4, 15: 8, 18: 6, 20: 4, 21: 7, 24: 8}


@pytest.mark.parametrize("total", range(0, 30))
def test_fives_and_threes_table(total: int) -> None:
    points = end_sum_points(EndScoring.FIVES_AND_THREES, total)
    assert points == FIVES_AND_THREES.get(total, 0)
    if points:  # the count of fives plus the count of threes
        assert points == (total // 5 if total % 5 == 0 else 0) + (
            total // 3 if total % 3 == 0 else 0
        )


@pytest.mark.parametrize("total", range(0, 30))
def test_all_fives_table(total: int) -> None:
    expected = total if total and total % 5 == 0 else 0
    assert end_sum_points(EndScoring.ALL_FIVES, total) == expected


def _play(preset: str, moves: list[Play], **options: object) -> Hand:
    hand = Hand(build_rules(preset, options), leaders=[0])
    for move in moves:
        hand.push(move)
    return hand


def test_first_tile_counts_both_halves() -> None:
    assert _play("all_fives", [Play(0, T("5-5"))]).awarded == (10, 0)
    assert _play("all_fives", [Play(0, T("2-3"))]).awarded == (5, 0)
    assert _play("all_fives", [Play(0, T("2-4"))]).awarded == (0, 0)


def test_a_double_at_an_end_counts_both_halves() -> None:
    hand = _play("all_fives", [Play(0, T("5-5")), Play(1, T("5-0"), "right")])
    assert hand.line.end_sum() == 10  # 5-5 at the left end + 0
    assert hand.awarded == (10, 10)
    hand.push(Play(0, T("0-0"), "right"))
    assert hand.line.end_sum() == 10


def test_spinner_opens_four_ways() -> None:
    moves = [
        Play(0, T("5-5")),
        Play(1, T("5-0"), "left"),  # spinner 5-5 at the right end: 0 + 10
        Play(0, T("5-1"), "right"),  # both sides taken: arms open, adding nothing yet: 0 + 1
    ]
    hand = _play("all_fives", moves, spinner=True)
    assert hand.line.open_ends == {"left": 0, "right": 1, "up": 5, "down": 5}
    assert hand.line.end_sum() == 1
    hand.push(Play(1, T("5-4"), "up"))
    assert hand.line.end_sum() == 5
    assert hand.end_scores[-1].points == 5
    without = _play("all_fives", moves)
    assert without.line.open_ends == {"left": 0, "right": 1}


def test_target_reached_mid_hand_ends_the_match() -> None:
    hand = Hand(find_preset("all_fives"), leaders=[0], scores_before=[140, 0])
    hand.push(Play(0, T("5-5")))
    assert hand.outcome is HandEnd.TARGET
    result = hand.finish()
    assert (result.result, result.winner, result.points) == (HandEnd.TARGET, 0, (10, 0))
