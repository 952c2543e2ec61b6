"""RULES.md section 4: the worked examples from the seeds, as test vectors."""

from __future__ import annotations

from typing import Any

import pytest

from controller.errors import IllegalRecordError
from controller.rules.hand import Hand
from controller.rules.moves import HandEnd, Play
from controller.rules.options import build_rules, find_preset
from controller.rules.record import parse_record, replay
from controller.rules.scoring import FinishedHand, Tally, score_hand
from controller.rules.tiles import Tile
from tests.controller.rules.helpers import draw, pas, play, record

# Example 1: a `draw` hand where A (seat 0) goes out and B (seat 1) keeps 4-4 and 0-3.
EXAMPLE_1_MOVES = [
    play(0, "6-6"),
    play(1, "6-1", "right"),
    play(0, "1-1", "right"),
    play(1, "1-2", "right"),
    play(0, "2-2", "right"),
    play(1, "2-5", "right"),
    play(0, "5-5", "right"),
    play(1, "5-1", "right"),
    play(0, "6-2", "left"),
    draw(1, "2-4"),
    play(1, "2-4", "left"),
    play(0, "1-3", "right"),
    play(1, "3-5", "right"),
    play(0, "5-0", "right"),
]
EXAMPLE_1_DEALT = [
    ["6-6", "1-1", "2-2", "5-5", "2-6", "1-3", "0-5"],
    ["1-6", "1-2", "2-5", "1-5", "3-5", "4-4", "0-3"],
]


@pytest.mark.parametrize("known", [True, False], ids=["dealt", "observed"])
def test_example_1_draw_domino_scores_the_difference(known: bool) -> None:
    hand: dict[str, Any] = {"moves": EXAMPLE_1_MOVES, "left": [[], ["4-4", "0-3"]]}
    if known:
        hand["dealt"] = EXAMPLE_1_DEALT
    result = replay(parse_record(record("draw", [hand])))
    (h,) = result.results
    assert h.result is HandEnd.DOMINO
    assert h.winner == 0
    assert h.points == (11, 0)


def test_example_1_unseen_draw_is_fine_when_observed() -> None:
    moves = [dict(m) for m in EXAMPLE_1_MOVES]
    moves[9] = draw(1)
    result = replay(parse_record(record("draw", [{"moves": moves, "left": [[], ["4-4", "0-3"]]}])))
    assert result.results[0].points == (11, 0)


def _blocked(rules_name: str, seat_pips: list[int], leader: int = 0) -> Any:
    rules = find_preset(rules_name)
    finished = FinishedHand(
        number=0,
        outcome=HandEnd.BLOCK,
        outcome_seat=leader,
        leader=leader,
        last_player=leader,
        seat_pips=seat_pips,
        capicua=False,
        moves=20,
    )
    return score_hand(finished, Tally.start(rules, None))


def test_example_2_draw_block_scores_the_difference() -> None:
    # A holds 5-6 and 4-6 (21), B holds 2-4, 0-2 and 2-2 (12): B scores 21 - 12.
    a = Tile.parse("5-6").pips + Tile.parse("4-6").pips
    b = sum(Tile.parse(t).pips for t in ("2-4", "0-2", "2-2"))
    result = _blocked("draw", [a, b])
    assert result.winner == 1
    assert result.points == (0, 9)


# A latin line that ends in a certain tranque: every 6 is out and both ends show 6.
TRANQUE_MOVES = [
    play(0, "6-6"),
    play(1, "6-0", "left"),
    play(2, "6-2", "right"),
    play(3, "0-1", "left"),
    play(0, "2-3", "right"),
    play(1, "1-6", "left"),
    play(2, "3-6", "right"),
    play(3, "6-4", "right"),
    play(0, "4-5", "right"),
    play(1, "5-6", "right"),
]
# 45 pips for each pair.
TRANQUE_LEFT = [
    ["5-5", "4-4", "3-5", "3-4"],
    ["0-3", "0-4", "1-3", "1-4"],
    ["0-0", "0-2", "1-1", "1-2", "0-5"],
    ["1-5", "2-2", "2-4", "2-5", "3-3"],
]


def test_example_3_latin_tied_block_goes_to_the_leading_pair() -> None:
    hands = [{"moves": TRANQUE_MOVES, "left": TRANQUE_LEFT}]
    result = replay(parse_record(record("latin", hands)))
    (h,) = result.results
    assert h.result is HandEnd.BLOCK
    assert h.remaining is not None
    assert h.remaining[0] + h.remaining[2] == h.remaining[1] + h.remaining[3] == 45
    assert h.winner == 0
    assert h.points == (45, 0)
    # ... and the same seat leads the next hand.
    second = {"moves": [play(1, "3-3")]}
    with pytest.raises(IllegalRecordError, match="hand 2, move 1.*led by seat 0"):
        replay(parse_record(record("latin", [*hands, second])))
    ok = replay(parse_record(record("latin", [*hands, {"moves": [play(0, "3-3")]}])))
    assert ok.unfinished is not None


def test_example_4_international_tied_block_scores_nothing_and_the_lead_moves_on() -> None:
    hands = [{"moves": TRANQUE_MOVES, "left": TRANQUE_LEFT}]
    result = replay(parse_record(record("international", hands)))
    (h,) = result.results
    assert h.result is HandEnd.BLOCK
    assert h.winner is None
    assert h.points == (0, 0)
    with pytest.raises(IllegalRecordError, match="led by seat 1"):
        replay(parse_record(record("international", [*hands, {"moves": [play(0, "3-3")]}])))
    ok = replay(parse_record(record("international", [*hands, {"moves": [play(1, "3-3")]}])))
    assert ok.unfinished is not None


@pytest.mark.parametrize(
    ("opening", "expected_score", "match_over"),
    [("6-6", 59, False), ("3-3", 61, True)],
    ids=["sum-12-overshoots", "sum-6-reaches-61"],
)
def test_example_5_fives_and_threes_exact_target(
    opening: str, expected_score: int, match_over: bool
) -> None:
    rules = find_preset("fives_and_threes")
    hand = Hand(rules, scores_before=[59, 0], leaders=[0])
    hand.push(Play(0, Tile.parse(opening)))
    assert 59 + hand.awarded[0] == expected_score
    assert hand.over is match_over
    if match_over:
        assert hand.outcome is HandEnd.TARGET
        assert hand.finish().winner == 0
    else:
        assert hand.end_scores[0].counted is False


def test_example_6_latin_pase_corrido() -> None:
    hand = Hand(find_preset("latin"), leaders=range(4), lead_tile=Tile(6, 6))
    hand.push(Play(0, Tile(6, 6)))
    hand.push(Play(1, Tile(5, 6)))  # seat 1 plays ...
    for seat in (2, 3, 0):  # ... everyone else passes in turn ...
        hand.push(_pass(seat))
    assert hand.awarded == (0, 0)
    hand.push(Play(1, Tile(1, 5)))  # ... and the turn comes straight back: pair (1, 3) +25
    assert hand.awarded == (0, 25)
    (bonus,) = hand.bonuses
    assert (bonus.kind, bonus.side, bonus.seat) == ("pase_corrido", 1, 1)


def test_pase_corrido_bonus_is_an_option() -> None:
    hand = Hand(build_rules("latin", {"pase_corrido_bonus": 30}), leaders=range(4))
    for move in (Play(0, Tile(6, 6)), Play(1, Tile(5, 6)), *map(_pass, (2, 3, 0))):
        hand.push(move)
    hand.push(Play(1, Tile(1, 5)))
    assert hand.awarded == (0, 30)


def test_a_block_after_a_play_is_not_a_pase_corrido() -> None:
    # Seat 1 lays the last 6: nobody (seat 1 included) can go on, so the passes that follow
    # establish a tranque and earn nothing.
    hands = [{"moves": [*TRANQUE_MOVES, pas(2), pas(3), pas(0)], "left": TRANQUE_LEFT}]
    result = replay(parse_record(record("latin", hands)))
    assert result.results[0].bonuses == ()


def _pass(seat: int) -> Any:
    from controller.rules.moves import Pass

    return Pass(seat)
