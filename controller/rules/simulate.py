"""Bot play, for tests, benchmarks and rendered fixtures. Deterministic for a seed: all
randomness comes from the ``random.Random`` passed in."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from controller.errors import RulesError
from controller.rules import fastsim
from controller.rules.match import Lead, Match, NoDoubleDealtError
from controller.rules.moves import Draw, HandResult, Move, Pass, Play
from controller.rules.options import Boneyard, FirstLead, Rules
from controller.rules.tiles import Tile

if TYPE_CHECKING:  # the bot kernel does not need the checked engine
    from controller.rules.hand import Hand

TileHands = tuple[tuple[Tile, ...], ...]
Bot = Callable[["Hand", list[Move], random.Random], Move]


def random_bot(hand: Hand, moves: list[Move], rng: random.Random) -> Move:
    """Any legal move, uniformly."""
    return moves[int(rng.random() * len(moves))]


def greedy_bot(hand: Hand, moves: list[Move], rng: random.Random) -> Move:
    """The heaviest legal tile; draws or passes only when it cannot play."""
    best: Move | None = None
    best_pips = -1
    for move in moves:
        if isinstance(move, Play) and move.tile.pips > best_pips:
            best, best_pips = move, move.tile.pips
    if best is not None:
        return best
    for move in moves:
        if isinstance(move, Draw):
            return move
    return moves[0]


BOTS: dict[str, Bot] = {"random": random_bot, "greedy": greedy_bot}


def find_bot(name: str) -> Bot:
    try:
        return BOTS[name]
    except KeyError:
        raise RulesError(f"unknown bot {name!r}: choose one of {', '.join(BOTS)}") from None


class SimulatedHand:
    """One simulated hand: the deal, the moves, the tiles left and the result.

    The bot kernel keeps hands as bitmasks and moves as small integers; they become tiles and
    moves only when asked for."""

    __slots__ = ("_dealt", "_left", "_max_pip", "_moves", "result")

    def __init__(
        self,
        dealt: Sequence[Sequence[Tile]] | Sequence[int],
        moves: Sequence[Move] | Sequence[int],
        left: Sequence[Sequence[Tile]] | Sequence[int],
        result: HandResult,
        max_pip: int | None = None,
    ) -> None:
        self._dealt = dealt
        self._left = left
        self._moves = moves
        self._max_pip = max_pip
        self.result = result

    def _decode(self, hands: Sequence[Sequence[Tile]] | Sequence[int]) -> TileHands:
        out = []
        for h in hands:
            if isinstance(h, int):
                assert self._max_pip is not None
                out.append(fastsim.tiles_of(h, fastsim.tables(self._max_pip).tiles))
            else:
                out.append(tuple(h))
        return tuple(out)

    @property
    def dealt(self) -> TileHands:
        return self._decode(self._dealt)

    @property
    def left(self) -> TileHands:
        return self._decode(self._left)

    @property
    def moves(self) -> tuple[Move, ...]:
        if self._max_pip is None:
            return tuple(self._moves)  # type: ignore[arg-type]
        return fastsim.decode_moves(self._moves, self._max_pip)  # type: ignore[arg-type]

    def to_json(self) -> dict[str, Any]:
        from controller.rules.record import hand_to_json

        return hand_to_json(self.dealt, self.moves, self.left)


@dataclass(frozen=True, slots=True)
class SimulatedMatch:
    rules: Rules
    seats: tuple[str, ...]
    hands: tuple[SimulatedHand, ...]
    totals: tuple[int, ...]
    winner: int | None

    @property
    def results(self) -> tuple[HandResult, ...]:
        return tuple(h.result for h in self.hands)

    def to_record(self) -> dict[str, Any]:
        from controller.rules.record import record_to_json

        return record_to_json(self.rules, self.seats, [h.to_json() for h in self.hands])


def deal(rules: Rules, rng: random.Random) -> tuple[list[list[Tile]], list[Tile]]:
    """Shuffle and deal: each seat's hand, and the rest (boneyard or out of play)."""
    tiles = list(rules.tileset.tiles)
    rng.shuffle(tiles)
    size = rules.hand_size
    hands = [tiles[i * size : (i + 1) * size] for i in range(rules.seats)]
    return hands, tiles[rules.seats * size :]


def _start_hand(match: Match, rng: random.Random) -> tuple[Hand, list[list[Tile]]]:
    rules = match.rules
    while True:
        hands, rest = deal(rules, rng)
        try:
            hand = match.new_hand(
                hands,
                rest if rules.boneyard is not Boneyard.NONE else None,
                choose_leader=lambda seats: _choose_leader(match, seats, rng),
            )
        except NoDoubleDealtError:
            continue
        return hand, hands


def _choose_leader(match: Match, seats: frozenset[int], rng: random.Random) -> int:
    if match.results:
        # The winning side chooses: the player who won the hand leads.
        winning_seat = match.results[-1].winning_seat
        return winning_seat if winning_seat in seats else min(seats)
    if match.rules.first_lead is FirstLead.DRAWN_TILE:
        # Everyone draws a tile; the highest leads (then the tiles go back for the deal).
        drawn = rng.sample(match.rules.tileset.tiles, match.rules.seats)
        return max(range(match.rules.seats), key=lambda s: (drawn[s].pips, drawn[s]))
    return min(seats)


def play_hand(hand: Hand, bots: Sequence[Bot], rng: random.Random) -> None:
    """Play a known hand to its end."""
    while hand.outcome is None:
        moves = hand.legal_moves()
        seat = moves[0].seat
        hand.push_legal(bots[seat](hand, moves, rng))


def simulate(
    rules: Rules,
    *,
    hands: int,
    seed: int,
    bots: Sequence[Bot] | None = None,
    seat_names: Sequence[str] | None = None,
    fast: str = "auto",
) -> Iterator[SimulatedMatch]:
    """Play ``hands`` hands as consecutive matches (a new match starts when one is won).

    ``fast="auto"`` uses the bot kernel (:mod:`controller.rules.fastsim`) where the rules and
    bots allow it; ``"full"`` always plays through the checked engine. Both are deterministic for
    a seed, but they draw random numbers differently, so their games differ.
    """
    if hands < 0:
        raise RulesError("the number of hands cannot be negative")
    rng = random.Random(seed)
    players = list(bots or [random_bot] * rules.seats)
    if len(players) != rules.seats:
        raise RulesError(f"{len(players)} bots for {rules.seats} seats")
    use_kernel = (
        fast == "auto"
        and fastsim.supports(rules)
        and all(b in (random_bot, greedy_bot) for b in players)
    )
    greedy = [b is greedy_bot for b in players]
    played = 0
    while played < hands:
        match = Match(rules, seat_names)
        done: list[SimulatedHand] = []
        while not match.over and played < hands:
            if use_kernel:
                done.append(_kernel_hand(match, greedy, rng))
            else:
                hand, dealt = _start_hand(match, rng)
                play_hand(hand, players, rng)
                result = hand.finish()
                left = hand.remaining()
                assert left is not None
                done.append(SimulatedHand(dealt, hand.moves, left, result))
            match.record(done[-1].result)
            played += 1
        yield SimulatedMatch(
            rules, tuple(match.seat_names), tuple(done), tuple(match.totals), match.winner
        )


def _kernel_deal(match: Match, rng: random.Random) -> tuple[list[int], list[int], Lead]:
    rules = match.rules
    tab = fastsim.tables(rules.max_pip)
    size = rules.hand_size
    rand = rng.random
    indexes = range(len(tab.tiles))
    pips = tab.pips
    while True:
        # A uniform permutation: sort by random keys (random.shuffle's exact integer draws
        # cost several times more here).
        keys = [rand() for _ in indexes]
        order = sorted(indexes, key=keys.__getitem__)
        masks = [0] * rules.seats
        seat_pips = [0] * rules.seats
        for seat in range(rules.seats):
            m = p = 0
            for i in order[seat * size : (seat + 1) * size]:
                m |= 1 << i
                p += pips[i]
            masks[seat] = m
            seat_pips[seat] = p
        if match.results:
            return masks, seat_pips, match.lead_for_next_hand(None)
        try:
            hands = [fastsim.tiles_of(m, tab.tiles) for m in masks]
            return masks, seat_pips, match.lead_for_next_hand(hands)
        except NoDoubleDealtError:
            continue


def _kernel_hand(match: Match, greedy: list[bool], rng: random.Random) -> SimulatedHand:
    masks, seat_pips, lead = _kernel_deal(match, rng)
    if len(lead.seats) > 1:
        chosen = _choose_leader(match, lead.seats, rng)
        lead = Lead(frozenset({chosen}), lead.tile, lead.double_only)
    dealt = list(masks)
    moves, result = fastsim.play_hand(
        match.rules,
        masks,
        lead,
        greedy,
        rng,
        number=len(match.results),
        scores_before=match.totals,
        seat_pips=seat_pips,
    )
    return SimulatedHand(dealt, moves, masks, result, match.rules.max_pip)


__all__ = [
    "BOTS",
    "Bot",
    "Pass",
    "SimulatedHand",
    "SimulatedMatch",
    "deal",
    "find_bot",
    "greedy_bot",
    "play_hand",
    "random_bot",
    "simulate",
]
