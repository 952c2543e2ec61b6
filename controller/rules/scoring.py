"""Scoring: points per side within a hand (with exact and mid-hand targets) and the end of a hand.

Shared by the rules engine (:class:`~controller.rules.hand.Hand`) and the bot kernel
(:mod:`controller.rules.fastsim`), so both score a hand the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from controller.errors import ScoringError
from controller.rules.moves import Bonus, EndScore, HandEnd, HandResult, Renuncio
from controller.rules.options import BlockTie, BlockWinner, EndScoring, Points, Rules

#: Fives-and-threes points per end sum (RULES.md section 2).
FIVES_AND_THREES_POINTS = {3: 1, 5: 1, 6: 2, 9: 3, 10: 2, 12: 4, 15: 8, 18: 6, 20: 4, 21: 7, 24: 8}


def end_sum_points(scoring: EndScoring, end_sum: int) -> int:
    if scoring is EndScoring.ALL_FIVES:
        return end_sum if end_sum > 0 and end_sum % 5 == 0 else 0
    if scoring is EndScoring.FIVES_AND_THREES:
        return FIVES_AND_THREES_POINTS.get(end_sum, 0)
    return 0


@dataclass(slots=True)
class Tally:
    """Points gained per side during one hand."""

    rules: Rules
    scores_before: list[int]
    awarded: list[int]
    bonuses: list[Bonus]
    #: A side reached the target during the hand (only where the target is checked mid-hand).
    reached_target: bool = False

    @classmethod
    def start(cls, rules: Rules, scores_before: Sequence[int] | None) -> Tally:
        before = list(scores_before or [0] * rules.sides)
        return cls(rules, before, [0] * rules.sides, [])

    def copy(self) -> Tally:
        return Tally(
            self.rules,
            self.scores_before,
            list(self.awarded),
            list(self.bonuses),
            self.reached_target,
        )

    def award(self, side: int, points: int) -> bool:
        """Add points to a side. With an exact target, points that would overshoot do not count
        (returns False). Where the target is checked mid-hand, reaching it is noted."""
        rules = self.rules
        total = self.scores_before[side] + self.awarded[side] + points
        if rules.exact_target and total > rules.target:
            return False
        self.awarded[side] += points
        if rules.end_scoring is not EndScoring.NONE and total >= rules.target:
            self.reached_target = True
        return True

    def bonus(self, kind: str, seat: int, points: int, move: int | None) -> None:
        if points <= 0:
            return
        side = self.rules.side_of(seat)
        counted = self.award(side, points)
        self.bonuses.append(Bonus(kind, seat, side, points, move, counted))


@dataclass(slots=True)  # not frozen: built once per simulated hand, and frozen init is slow
class FinishedHand:
    """What scoring needs to know about a hand that is over."""

    number: int
    outcome: HandEnd
    #: Who went out (domino), reached the target, or made the last play (block).
    outcome_seat: int | None
    leader: int
    last_player: int | None
    #: Pips left per seat (None when unknown: only a hand whose points need no pips can score).
    seat_pips: Sequence[int] | None
    #: The hand was won with a tile that fitted both ends, showing different numbers.
    capicua: bool
    moves: int
    end_scores: tuple[EndScore, ...] = ()
    renuncios: tuple[Renuncio, ...] = ()


def score_hand(hand: FinishedHand, tally: Tally) -> HandResult:
    """Score a finished hand on top of what it already gave (``tally`` is not changed)."""
    rules = tally.rules
    scored = tally.copy()
    winner: int | None = None
    winning_seat: int | None = None
    keeps_lead = False
    seat = hand.outcome_seat
    last_move = hand.moves - 1
    if hand.outcome is HandEnd.TARGET:
        assert seat is not None
        winning_seat, winner = seat, rules.side_of(seat)
    elif hand.outcome is HandEnd.DOMINO:
        assert seat is not None
        winning_seat, winner = seat, rules.side_of(seat)
        if rules.domino_points is not Points.NONE:
            points = hand_points(rules, rules.domino_points, winner, _need(hand))
            if points:
                scored.award(winner, points)
        if hand.capicua:
            scored.bonus("capicua", seat, rules.capicua_bonus, last_move)
        scored.bonus("going_out", seat, rules.going_out_bonus, last_move)
    else:
        pips = _need(hand)
        winner, keeps_lead = block_winner(rules, pips, hand.leader, hand.last_player)
        if winner is not None:
            leader = hand.leader
            winning_seat = min(
                rules.seats_of(winner), key=lambda s: (pips[s], (s - leader) % rules.seats)
            )
            points = hand_points(rules, rules.block_points, winner, pips)
            if points:
                scored.award(winner, points)
    return HandResult(
        number=hand.number,
        result=hand.outcome,
        winner=winner,
        winning_seat=winning_seat,
        leader=hand.leader,
        points=tuple(scored.awarded),
        bonuses=tuple(scored.bonuses),
        end_scores=hand.end_scores,
        remaining=None if hand.seat_pips is None else tuple(hand.seat_pips),
        renuncios=hand.renuncios,
        keeps_lead=keeps_lead,
    )


def _need(hand: FinishedHand) -> Sequence[int]:
    if hand.seat_pips is None:
        raise ScoringError(
            f"hand {hand.number + 1}: the tiles left in each hand are needed to score it"
        )
    return hand.seat_pips


def block_winner(
    rules: Rules, pips: Sequence[int], leader: int, last_player: int | None
) -> tuple[int | None, bool]:
    """The side that wins a blocked hand (None: nobody), and whether the leader keeps the lead."""
    if rules.block_winner is BlockWinner.LOWEST_PLAYER:
        low = min(pips)
        tied = {rules.side_of(s) for s in range(rules.seats) if pips[s] == low}
    else:
        side_pips = [sum(pips[s] for s in rules.seats_of(side)) for side in range(rules.sides)]
        low = min(side_pips)
        tied = {side for side, p in enumerate(side_pips) if p == low}
    if len(tied) == 1:
        return next(iter(tied)), False
    if rules.block_tie is BlockTie.LEADING_SIDE:
        side = rules.side_of(leader)
        return (side, True) if side in tied else (None, False)
    if rules.block_tie is BlockTie.BLOCKER and last_player is not None:
        side = rules.side_of(last_player)
        return (side, False) if side in tied else (None, False)
    return None, False


def hand_points(rules: Rules, kind: Points, winner: int, pips: Sequence[int]) -> int:
    """Points for winning a hand, from the pips left, rounded and counted as the rules say."""
    side_pips = [sum(pips[s] for s in rules.seats_of(side)) for side in range(rules.sides)]
    others = [p for side, p in enumerate(side_pips) if side != winner]
    if kind is Points.OPPONENTS:
        points = sum(others)
    elif kind is Points.ALL:
        points = sum(side_pips)
    elif kind is Points.DIFFERENCE:
        points = max(0, sum(p - side_pips[winner] for p in others))
    else:
        points = 0
    if rules.round_to == 5:
        points = (points + 2) // 5 * 5
    if rules.count_by == 10:
        points = (points + 5) // 10
    return points
