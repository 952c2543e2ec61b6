"""Bot play, for tests, benchmarks and rendered fixtures. Deterministic for a seed: all
randomness comes from the ``random.Random`` passed in."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from controller.errors import RulesError
from controller.rules.hand import Hand
from controller.rules.match import Match, NoDoubleDealtError
from controller.rules.moves import Draw, HandResult, Move, Pass, Play
from controller.rules.options import Boneyard, FirstLead, Rules
from controller.rules.record import hand_to_json, record_to_json
from controller.rules.tiles import Tile

Bot = Callable[[Hand, list[Move], random.Random], Move]


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


@dataclass(frozen=True, slots=True)
class SimulatedHand:
    dealt: tuple[tuple[Tile, ...], ...]
    moves: tuple[Move, ...]
    left: tuple[tuple[Tile, ...], ...]
    result: HandResult

    def to_json(self) -> dict[str, Any]:
        return hand_to_json(self.dealt, self.moves, self.left)


@dataclass(frozen=True, slots=True)
class SimulatedMatch:
    rules: Rules
    seats: tuple[str, ...]
    hands: tuple[SimulatedHand, ...]
    totals: tuple[int, ...]
    winner: int | None

    def to_record(self) -> dict[str, Any]:
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
            hand = match.new_hand(hands, rest if rules.boneyard is not Boneyard.NONE else None)
        except NoDoubleDealtError:
            continue
        break
    if len(hand.leaders) > 1:
        hand.leaders = frozenset({_choose_leader(match, hand.leaders, rng)})
        hand.leader = hand.turn = next(iter(hand.leaders))
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
) -> Iterator[SimulatedMatch]:
    """Play ``hands`` hands as consecutive matches (a new match starts when one is won)."""
    if hands < 0:
        raise RulesError("the number of hands cannot be negative")
    rng = random.Random(seed)
    players = list(bots or [random_bot] * rules.seats)
    if len(players) != rules.seats:
        raise RulesError(f"{len(players)} bots for {rules.seats} seats")
    played = 0
    while played < hands:
        match = Match(rules, seat_names)
        done: list[SimulatedHand] = []
        while not match.over and played < hands:
            hand, dealt = _start_hand(match, rng)
            play_hand(hand, players, rng)
            result = hand.finish()
            match.record(result)
            left = hand.remaining()
            assert left is not None
            done.append(
                SimulatedHand(
                    tuple(tuple(h) for h in dealt),
                    tuple(hand.moves),
                    tuple(map(tuple, left)),
                    result,
                )
            )
            played += 1
        yield SimulatedMatch(
            rules, tuple(match.seat_names), tuple(done), tuple(match.totals), match.winner
        )


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
