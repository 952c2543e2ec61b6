"""Table-driven checks of each preset's lead, pass/draw, domino, block, tie and bonus rules."""

from __future__ import annotations

import random

import pytest

from controller.errors import IllegalMoveError
from controller.rules.hand import Hand
from controller.rules.match import Match, NoDoubleDealtError
from controller.rules.moves import Draw, HandEnd, HandResult, Pass, Play
from controller.rules.options import Rules, build_rules, find_preset
from controller.rules.scoring import FinishedHand, Tally, score_hand
from controller.rules.tiles import Tile

T = Tile.parse


def deal_with(
    rules: Rules, fixed: dict[int, list[str]], *, undealt: list[str] = (), seed: int = 0
) -> tuple[list[list[Tile]], list[Tile]]:
    """Hands with the given tiles, the rest of each hand filled at random from the other tiles."""
    chosen = {T(t) for tiles in fixed.values() for t in tiles} | {T(t) for t in undealt}
    pool = [t for t in rules.tileset.tiles if t not in chosen]
    random.Random(seed).shuffle(pool)
    hands = []
    for seat in range(rules.seats):
        hand = [T(t) for t in fixed.get(seat, [])]
        while len(hand) < rules.hand_size:
            hand.append(pool.pop())
        hands.append(hand)
    return hands, pool + [T(t) for t in undealt]


# --------------------------------------------------------------------------- first lead


@pytest.mark.parametrize(
    ("preset", "fixed", "undealt", "leader", "tile"),
    [
        ("latin", {2: ["6-6"]}, [], 2, "6-6"),
        ("colombian", {3: ["6-6"]}, [], 3, "6-6"),
        ("cuban", {1: ["8-8"]}, ["9-9"], 1, "8-8"),
        ("cuban", {0: ["9-9"]}, [], 0, "9-9"),
        ("block", {1: ["6-6"]}, [], 1, "6-6"),
        ("draw", {1: ["5-5"]}, ["6-6"], 1, "5-5"),
        ("all_fives", {0: ["6-6"]}, [], 0, "6-6"),
    ],
)
def test_first_lead_by_double(
    preset: str, fixed: dict[int, list[str]], undealt: list[str], leader: int, tile: str
) -> None:
    rules = find_preset(preset)
    hands, rest = deal_with(rules, fixed, undealt=undealt)
    match = Match(rules)
    hand = match.new_hand(hands, rest if rules.boneyard.value != "none" else None)
    assert hand.legal_moves() == [Play(leader, T(tile))]
    other = next(t for t in hands[leader] if t != T(tile))
    with pytest.raises(IllegalMoveError, match=f"must open with {tile}"):
        hand.push(Play(leader, other))
    with pytest.raises(IllegalMoveError, match=f"led by seat {leader}"):
        hand.push(Play((leader + 1) % rules.seats, hands[(leader + 1) % rules.seats][0]))


def test_draw_redeals_when_nobody_has_a_double() -> None:
    rules = find_preset("draw")
    doubles = [f"{n}-{n}" for n in range(7)]
    hands, rest = deal_with(rules, {}, undealt=doubles)
    with pytest.raises(NoDoubleDealtError):
        Match(rules).new_hand(hands, rest)


def test_without_redeal_the_heaviest_tile_leads() -> None:
    rules = find_preset("all_fives")
    doubles = [f"{n}-{n}" for n in range(7)]
    hands, rest = deal_with(rules, {1: ["5-6"]}, undealt=doubles)
    hand = Match(rules).new_hand(hands, rest)
    assert hand.legal_moves() == [Play(1, T("5-6"))]


def test_international_first_lead_is_any_seat_with_any_tile() -> None:
    rules = find_preset("international")
    hands, _ = deal_with(rules, {})
    hand = Match(rules).new_hand(hands)
    assert {m.seat for m in hand.legal_moves()} == {0, 1, 2, 3}
    assert len(hand.legal_moves()) == 28


# --------------------------------------------------------------------------- next lead


def _result(
    rules: Rules, leader: int, winner: int | None, seat: int | None, keeps: bool = False
) -> HandResult:
    return HandResult(
        number=0,
        result=HandEnd.DOMINO,
        winner=winner,
        winning_seat=seat,
        leader=leader,
        points=(0,) * rules.sides,
        bonuses=(),
        end_scores=(),
        remaining=None,
        renuncios=(),
        keeps_lead=keeps,
    )


@pytest.mark.parametrize(
    ("preset", "leader", "winner", "seat", "keeps", "expected"),
    [
        ("latin", 0, 1, 3, False, {1}),
        ("latin", 3, 0, 2, False, {0}),
        ("latin", 2, 0, 2, True, {2}),  # tied block won by the leading pair
        ("international", 1, None, None, False, {2}),  # corre la mano
        ("colombian", 0, 1, 1, False, {1, 3}),  # the winning pair chooses
        ("cuban", 1, 0, 0, False, {2}),
        ("draw", 0, 1, 1, False, {1}),  # the winner leads
        ("draw", 0, None, None, False, {1}),  # nobody won: the lead moves on
        ("block", 3, 1, 1, False, {0}),
        ("fives_and_threes", 1, 0, 0, False, {0}),
    ],
)
def test_next_lead(
    preset: str, leader: int, winner: int | None, seat: int | None, keeps: bool, expected: set[int]
) -> None:
    rules = find_preset(preset)
    match = Match(rules)
    match.record(_result(rules, leader, winner, seat, keeps))
    assert set(match.lead_for_next_hand(None).seats) == expected


def test_latin_must_lead_a_double_if_held() -> None:
    rules = find_preset("latin")
    match = Match(rules)
    match.record(_result(rules, 3, 0, 0))
    hands, _ = deal_with(rules, {0: ["2-2", "4-4", "0-1"], 1: ["6-6"]})
    hand = match.new_hand(hands)
    assert {m.tile for m in hand.legal_moves()} == {T("2-2"), T("4-4")}
    with pytest.raises(IllegalMoveError, match="must lead a double"):
        hand.push(Play(0, T("0-1")))


# --------------------------------------------------------------------------- pass and draw


def _opened(preset: str, fixed: dict[int, list[str]], *, opening: str, **options: object) -> Hand:
    rules = build_rules(preset, options)
    hands, rest = deal_with(rules, fixed)
    hand = Hand(rules, hands=hands, boneyard=rest if rules.boneyard.value != "none" else None)
    hand.push(Play(0, T(opening)))
    return hand


def test_no_pass_while_able_and_no_boneyard_in_latin() -> None:
    hand = _opened("latin", {0: ["6-6"], 1: ["6-1"]}, opening="6-6")
    with pytest.raises(IllegalMoveError, match="can play"):
        hand.push(Pass(1))
    with pytest.raises(IllegalMoveError, match="no boneyard"):
        hand.push(Draw(1))


def test_pass_when_able_option() -> None:
    hand = _opened("latin", {0: ["6-6"], 1: ["6-1"]}, opening="6-6", pass_when_able=True)
    hand.push(Pass(1))
    assert hand.turn == 2


def test_draw_until_it_fits() -> None:
    rules = find_preset("draw")
    fixed = {0: ["6-6"], 1: ["0-0", "0-1", "0-2", "1-1", "1-2", "2-2", "0-3"]}
    hand = _opened("draw", fixed, opening="6-6")
    with pytest.raises(IllegalMoveError, match="must draw"):
        hand.push(Pass(1))
    assert Draw(1) in hand.legal_moves()
    assert all(isinstance(m, Draw) for m in hand.legal_moves())
    assert hand.boneyard is not None
    fitting = next(t for t in hand.boneyard if t.has(6))
    for tile in list(hand.boneyard):
        if tile == fitting:
            break
        if not tile.has(6):
            hand.push(Draw(1, tile))
            assert hand.turn == 1  # the drawer keeps the turn
    hand.push(Draw(1, fitting))
    with pytest.raises(IllegalMoveError, match="can play"):
        hand.push(Draw(1))
    assert {m.tile for m in hand.legal_moves() if isinstance(m, Play)} == {fitting}
    assert rules.boneyard.value == "draw_until_fits"


def test_draw_one_then_pass() -> None:
    fixed = {0: ["6-6"], 1: ["0-0", "0-1", "0-2", "1-1", "1-2", "2-2", "0-3"]}
    hand = _opened("draw", fixed, opening="6-6", boneyard="draw_one")
    assert hand.boneyard is not None
    blank = next(t for t in hand.boneyard if not t.has(6))
    hand.push(Draw(1, blank))
    with pytest.raises(IllegalMoveError, match="only one tile"):
        hand.push(Draw(1))
    hand.push(Pass(1))
    assert hand.turn == 0


def test_optional_draw_while_able() -> None:
    hand = _opened("draw", {0: ["6-6"], 1: ["6-1"]}, opening="6-6", boneyard="optional")
    hand.push(Draw(1))
    assert hand.counts[1] == 8


def test_observed_pass_with_a_boneyard_must_draw_first() -> None:
    hand = Hand(find_preset("draw"), leaders=[0])
    hand.push(Play(0, T("6-6")))
    with pytest.raises(IllegalMoveError, match="must draw"):
        hand.push(Pass(1))
    for _ in range(14):
        hand.push(Draw(1))
    hand.push(Pass(1))
    assert hand.counts[1] == 21


# --------------------------------------------------------------------------- points


def _score(
    rules: Rules,
    outcome: HandEnd,
    seat: int,
    pips: list[int],
    *,
    leader: int = 0,
    capicua: bool = False,
) -> HandResult:
    finished = FinishedHand(
        number=0,
        outcome=outcome,
        outcome_seat=seat,
        leader=leader,
        last_player=seat,
        seat_pips=pips,
        capicua=capicua,
        moves=10,
    )
    return score_hand(finished, Tally.start(rules, None))


DOMINO, BLOCK = HandEnd.DOMINO, HandEnd.BLOCK


@pytest.mark.parametrize(
    ("preset", "options", "outcome", "seat", "pips", "winner", "points"),
    [
        # domino: the winner's side scores ...
        ("latin", {}, DOMINO, 0, [0, 10, 5, 20], 0, (30, 0)),  # ... the opponents' pips
        ("international", {}, DOMINO, 0, [0, 10, 5, 20], 0, (35, 0)),  # ... all pips
        ("block", {}, DOMINO, 3, [7, 0, 5, 0], 1, (0, 12)),  # ... all, partner's included
        ("colombian", {}, DOMINO, 1, [4, 0, 4, 9], 1, (0, 8)),
        ("draw", {}, DOMINO, 0, [0, 11], 0, (11, 0)),  # ... the difference
        ("all_fives", {}, DOMINO, 1, [13, 0], 1, (0, 15)),  # rounded to the nearest 5
        ("all_fives", {}, DOMINO, 1, [12, 0], 1, (0, 10)),
        ("fives_and_threes", {}, DOMINO, 0, [0, 30], 0, (1, 0)),  # +1 for going out
        ("latin", {"count_by": 10}, DOMINO, 0, [0, 20, 0, 14], 0, (3, 0)),
        ("latin", {"count_by": 10}, DOMINO, 0, [0, 20, 0, 15], 0, (4, 0)),
        # block: the lowest side wins ...
        ("latin", {}, BLOCK, 1, [10, 5, 10, 20], 0, (25, 0)),  # ... the opponents' pips
        ("international", {}, BLOCK, 1, [10, 5, 10, 20], 0, (45, 0)),  # ... all pips
        ("block", {}, BLOCK, 1, [10, 5, 10, 20], 0, (45, 0)),
        ("draw", {}, BLOCK, 0, [21, 12], 1, (0, 9)),  # ... the difference
        ("all_fives", {}, BLOCK, 0, [13, 4], 1, (0, 10)),
        ("fives_and_threes", {}, BLOCK, 0, [13, 4], 1, (0, 0)),  # nobody scores a block
        ("block", {"seats": 3}, BLOCK, 0, [9, 4, 6], 1, (0, 19, 0)),
        ("latin", {"block_winner": "lowest_player"}, BLOCK, 0, [1, 5, 30, 5], 0, (10, 0)),
        # ties
        ("block", {}, BLOCK, 1, [10, 10, 10, 10], None, (0, 0)),
        ("international", {}, BLOCK, 1, [10, 10, 10, 10], None, (0, 0)),
        ("latin", {}, BLOCK, 1, [10, 10, 10, 10], 0, (20, 0)),  # the leading pair
        ("draw", {}, BLOCK, 0, [7, 7], None, (0, 0)),
        ("latin", {"block_tie": "blocker"}, BLOCK, 1, [10, 10, 10, 10], 1, (0, 20)),
        ("block", {"seats": 3}, BLOCK, 0, [4, 4, 9], None, (0, 0, 0)),
    ],
)
def test_hand_points(
    preset: str,
    options: dict[str, object],
    outcome: HandEnd,
    seat: int,
    pips: list[int],
    winner: int | None,
    points: tuple[int, ...],
) -> None:
    result = _score(build_rules(preset, options), outcome, seat, pips)
    assert result.winner == winner
    assert result.points == points


def test_capicua_bonus() -> None:
    rules = build_rules("latin", {"capicua_bonus": 20})
    result = _score(rules, DOMINO, 2, [3, 4, 0, 5], capicua=True)
    assert result.points == (9 + 20, 0)
    assert [b.kind for b in result.bonuses] == ["capicua"]
    assert _score(find_preset("latin"), DOMINO, 2, [3, 4, 0, 5], capicua=True).bonuses == ()


def test_capicua_is_seen_in_play() -> None:
    rules = build_rules("block", {"capicua_bonus": 20, "seats": 2, "hand_size": 2})
    hands = [[T("3-4"), T("1-3")], [T("4-6"), T("0-0")]]
    hand = Hand(rules, hands=hands, leaders=[0])
    hand.push(Play(0, T("3-4"), first_half=3))  # ends 3 | 4
    hand.push(Play(1, T("4-6"), None))  # ends 3 | 6
    assert hand.line.open_ends == {"left": 3, "right": 6}
    hand.push(Play(0, T("1-3")))  # fits only the left: no capicua
    assert hand.finish().bonuses == ()
    hands = [[T("3-4"), T("3-6")], [T("4-6"), T("0-0")]]
    hand = Hand(rules, hands=hands, leaders=[0])
    for move in (Play(0, T("3-4"), first_half=3), Play(1, T("4-6")), Play(0, T("3-6"), "left")):
        hand.push(move)
    assert [b.kind for b in hand.finish().bonuses] == ["capicua"]


def test_a_tile_that_fits_both_ends_needs_an_end() -> None:
    rules = build_rules("block", {"seats": 2, "hand_size": 2})
    hand = Hand(rules, hands=[[T("3-4"), T("3-6")], [T("4-6"), T("0-0")]], leaders=[0])
    hand.push(Play(0, T("3-4"), first_half=3))
    hand.push(Play(1, T("4-6")))
    with pytest.raises(IllegalMoveError, match="say which end"):
        hand.push(Play(0, T("3-6")))
    with pytest.raises(IllegalMoveError, match="does not fit the up end"):
        hand.push(Play(0, T("3-6"), "up"))  # type: ignore[arg-type]
