"""Bots that finish a match at a simulated table, for the demo: the shipped fixture films one
hand, and the hands after it are dealt and played by the rules engine's bots, then told to the
session as the table would tell it (tiles as the camera reports them, passes and draws as
presses, the tiles left as the reveal reads them).

Pure: :func:`bot_hand` plans the hand the session is on from the session's own match state
(its rules, scores and who leads), with randomness from a seed and the hand number only, so a
restarted demo plans the same hand again and goes on where the journal stood.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, cast

from controller.errors import ControllerError
from controller.rules.hand import Hand
from controller.rules.match import NoDoubleDealtError
from controller.rules.moves import Draw, Move, Pass, Play
from controller.rules.options import Boneyard
from controller.rules.simulate import deal, play_hand, random_bot
from controller.table.inputs import Laid, Pips, VisionEnd
from controller.table.state import MatchState, fresh_engine

StepKind = Literal["claim", "lay", "press", "reveal"]


class BotHandError(ControllerError, RuntimeError):
    """The hand in play is not one the bots can go on with (not theirs, or not playable)."""


@dataclass(frozen=True, slots=True)
class BotStep:
    """One thing a bot does at the table. ``claim``: a short press before the opening tile (says
    who leads); ``lay``: a tile joins the line (``laid`` as the camera reports it); ``press``: a
    short press (a pass, or a draw where the rules draw); ``reveal``: the tiles left, face up.
    ``move`` is how many moves of the hand come before the step."""

    kind: StepKind
    seat: int
    move: int
    laid: Laid | None = None
    tiles: tuple[Pips, ...] = ()


@dataclass(frozen=True, slots=True)
class BotHand:
    steps: tuple[BotStep, ...]
    moves: tuple[Move, ...]


def bot_hand(ms: MatchState, seed: int) -> BotHand:
    """Deal and play, with bots, the hand ``ms`` is on; :class:`BotHandError` when there is none
    or when the moves the session already holds are not the bots' (a hand the fixture began)."""
    hs = ms.hand
    if hs is None:
        raise BotHandError("the match is over: no hand to play")
    rng = random.Random(f"domino-demo/{seed}/{hs.number}")
    hand = _deal(ms, rng, hs.engine.leader if hs.leader_known else None)
    play_hand(hand, [random_bot] * ms.rules.seats, rng)
    moves = tuple(hand.moves) + _passes_to_show_the_block(ms, hand.moves)
    if not _same_moves(hs.moves, moves):
        raise BotHandError(
            f"hand {hs.number + 1} was begun by the fixture, not dealt by the bots: "
            "they cannot finish it"
        )
    steps: list[BotStep] = []
    if not hs.leader_known:
        steps.append(BotStep("claim", moves[0].seat, 0))
    placements = iter(hand.line.placements)
    for i, move in enumerate(moves):
        if isinstance(move, Play):
            p = next(placements)
            end = "first" if p.end is None else p.end.value
            laid = Laid((p.tile.other(p.outer), p.outer), cast(VisionEnd, end))
            steps.append(BotStep("lay", move.seat, i, laid))
        else:
            steps.append(BotStep("press", move.seat, i))
    left = hand.remaining() or []
    for seat, tiles in enumerate(left):
        if tiles:
            shown = tuple((t.low, t.high) for t in sorted(tiles))
            steps.append(BotStep("reveal", seat, len(moves), tiles=shown))
    return BotHand(tuple(steps), moves)


def _deal(ms: MatchState, rng: random.Random, leader: int | None) -> Hand:
    """A dealt hand for the match as the session has it (results, totals, who leads)."""
    match = ms.match()
    rules = ms.rules
    for _ in range(1000):
        hands, rest = deal(rules, rng)
        boneyard = rest if rules.boneyard is not Boneyard.NONE else None
        for turn in range(rules.seats):
            # a leader the session already knows: turn the deal until the rules agree
            dealt = hands[-turn:] + hands[:-turn] if turn else hands
            try:
                hand = match.new_hand(
                    dealt,
                    boneyard,
                    choose_leader=lambda seats: leader if leader in seats else min(seats),
                )
            except NoDoubleDealtError:
                break
            if leader is None or hand.leaders == frozenset({leader}):
                return hand
    raise BotHandError(f"no deal lets seat {leader} lead under these rules")


def _passes_to_show_the_block(ms: MatchState, moves: Sequence[Move]) -> tuple[Move, ...]:
    """With every hand known, a block is certain once nobody can play; a table that sees only
    the line knows it when every seat has passed in turn (RULES.md section 5). The passes it
    needs to see, pressed in turn after the bots' last move."""
    observed, _ = fresh_engine(ms, frozenset({moves[0].seat}))
    for move in moves:
        observed.push(Draw(move.seat, None) if isinstance(move, Draw) else move)
    passes: list[Move] = []
    while not observed.over and observed.turn is not None and len(passes) < ms.rules.seats:
        passes.append(observed.push(Pass(observed.turn)))
    return tuple(passes)


def _same_moves(done: Sequence[Move], planned: Sequence[Move]) -> bool:
    """The session's moves so far are the start of the bots' hand (a draw's tile is unseen)."""
    if len(done) > len(planned):
        return False
    for a, b in zip(done, planned, strict=False):
        if type(a) is not type(b) or a.seat != b.seat:
            return False
        if isinstance(a, Play) and isinstance(b, Play) and a.tile != b.tile:
            return False
    return True


__all__ = ["BotHand", "BotHandError", "BotStep", "bot_hand"]
