"""A match: hands in sequence, who leads each, running totals and the winner."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from controller.errors import IllegalMoveError
from controller.rules.moves import HandResult
from controller.rules.options import FirstLead, NextLead, Rules
from controller.rules.tiles import Tile

if TYPE_CHECKING:  # the bot kernel runs matches without loading the checked engine
    from controller.rules.hand import Hand


class NoDoubleDealtError(IllegalMoveError):
    """Nobody was dealt a double and the rules say to redeal."""


@dataclass(frozen=True, slots=True)
class Lead:
    """Who may open a hand and with what."""

    seats: frozenset[int]
    tile: Tile | None = None
    double_only: bool = False


def first_lead(rules: Rules, hands: Sequence[Iterable[Tile]] | None) -> Lead:
    """The lead of a match's first hand (RULES.md section 2, 'first lead')."""
    everyone = frozenset(range(rules.seats))
    policy = rules.first_lead
    if policy in (FirstLead.DRAWN_TILE, FirstLead.CHOSEN_SEAT):
        return Lead(everyone)
    if hands is None:
        # Observed table: the opening tile shows who held it.
        if policy is FirstLead.HOLDER_OF_TOP_DOUBLE and rules.all_dealt:
            return Lead(everyone, tile=rules.tileset.top_double)
        return Lead(everyone, double_only=rules.redeal_if_no_double)
    held = [set(h) for h in hands]
    doubles = [(t, seat) for seat, h in enumerate(held) for t in h if t.is_double]
    if doubles:
        tile, seat = max(doubles)
        return Lead(frozenset({seat}), tile=tile)
    if rules.redeal_if_no_double:
        raise NoDoubleDealtError("nobody was dealt a double: the hand must be redealt")
    # No double anywhere: the heaviest tile leads (common practice).
    _, heaviest, seat = max((t.pips, t, seat) for seat, h in enumerate(held) for t in h)
    return Lead(frozenset({seat}), tile=heaviest)


def next_lead(rules: Rules, previous: HandResult) -> frozenset[int]:
    """Seats that may lead the hand after ``previous``."""
    rotate = frozenset({(previous.leader + 1) % rules.seats})
    if previous.keeps_lead:
        return frozenset({previous.leader})
    if rules.next_lead is NextLead.HAND_WINNER and previous.winning_seat is not None:
        return frozenset({previous.winning_seat})
    if rules.next_lead is NextLead.WINNING_SIDE_CHOOSES and previous.winner is not None:
        return frozenset(rules.seats_of(previous.winner))
    return rotate


class Match:
    """Hands in sequence with running totals. Mutable; no I/O, no randomness."""

    def __init__(self, rules: Rules, seat_names: Sequence[str] | None = None) -> None:
        self.rules = rules
        self.seat_names = list(seat_names or [f"Seat {i + 1}" for i in range(rules.seats)])
        if len(self.seat_names) != rules.seats:
            raise ValueError(f"{len(self.seat_names)} names for {rules.seats} seats")
        self.totals = [0] * rules.sides
        self.results: list[HandResult] = []

    @property
    def winner(self) -> int | None:
        """The side that won the match, or None while it goes on."""
        if not self.results:
            return None
        target = self.rules.target
        best = max(self.totals)
        if best < target:
            return None
        leaders = [side for side, total in enumerate(self.totals) if total == best]
        if len(leaders) == 1:
            return leaders[0]
        last = self.results[-1].winner
        return last if last in leaders else None

    @property
    def over(self) -> bool:
        return self.winner is not None

    def lead_for_next_hand(self, hands: Sequence[Iterable[Tile]] | None) -> Lead:
        if not self.results:
            return first_lead(self.rules, hands)
        seats = next_lead(self.rules, self.results[-1])
        return Lead(seats)

    def new_hand(
        self,
        hands: Sequence[Iterable[Tile]] | None = None,
        boneyard: Sequence[Tile] | None = None,
        *,
        choose_leader: Callable[[frozenset[int]], int] | None = None,
    ) -> Hand:
        """The next hand. Where the rules let several seats lead (a drawn tile, the winning pair
        choosing), ``choose_leader`` picks one; otherwise the first move decides."""
        from controller.rules.hand import Hand

        if self.over:
            raise IllegalMoveError(f"the match is over: side {self.winner} won")
        lead = self.lead_for_next_hand(hands)
        seats = lead.seats
        if choose_leader is not None and len(seats) > 1:
            chosen = choose_leader(seats)
            if chosen not in seats:
                raise IllegalMoveError(f"seat {chosen} may not lead this hand")
            seats = frozenset({chosen})
        return Hand(
            self.rules,
            hands=hands,
            boneyard=boneyard,
            leaders=seats,
            lead_tile=lead.tile,
            lead_double_only=lead.double_only,
            scores_before=self.totals,
            number=len(self.results),
        )

    def record(self, result: HandResult) -> None:
        """Add a finished hand's points to the totals."""
        for side, points in enumerate(result.points):
            self.totals[side] += points
        self.results.append(result)
