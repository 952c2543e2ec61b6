"""A bot kernel: random and greedy bots playing known hands, fast.

The checked engine (:class:`~controller.rules.hand.Hand`) validates every move and tracks what an
observed table needs; bot play needs neither. This kernel plays the same rules on integer tiles
and bitmasks and scores through the same :func:`~controller.rules.scoring.score_hand`. It covers
the rules without a boneyard, end sums, a spinner or optional passing (latin, international,
colombian, cuban, block); :func:`supports` says which. Its games are checked move by move by
replaying their records through the engine (tests/controller/test_fastsim.py).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from controller.rules.line import End
from controller.rules.match import Lead
from controller.rules.moves import HandEnd, HandResult, Move, Pass, Play
from controller.rules.options import Boneyard, EndScoring, Rules
from controller.rules.scoring import FinishedHand, Tally, score_hand
from controller.rules.tiles import Tile

_new = tuple.__new__
LEFT, RIGHT = End.LEFT, End.RIGHT


def supports(rules: Rules) -> bool:
    return (
        rules.boneyard is Boneyard.NONE
        and rules.end_scoring is EndScoring.NONE
        and not rules.spinner
        and not rules.pass_when_able
    )


@dataclass(frozen=True, slots=True)
class Tables:
    tiles: tuple[Tile, ...]
    index: dict[Tile, int]
    low: tuple[int, ...]
    high: tuple[int, ...]
    pips: tuple[int, ...]
    #: Bitmask of the tiles carrying each number.
    fits: tuple[int, ...]
    doubles: int


@cache
def tables(max_pip: int) -> Tables:
    from controller.rules.tiles import domino_set

    tiles = domino_set(max_pip).tiles
    fits = [0] * (max_pip + 1)
    doubles = 0
    for i, t in enumerate(tiles):
        fits[t.low] |= 1 << i
        fits[t.high] |= 1 << i
        if t.is_double:
            doubles |= 1 << i
    return Tables(
        tiles,
        {t: i for i, t in enumerate(tiles)},
        tuple(t.low for t in tiles),
        tuple(t.high for t in tiles),
        tuple(t.pips for t in tiles),
        tuple(fits),
        doubles,
    )


def _kth_bit(mask: int, k: int) -> int:
    """Index of the k-th (from 0) set bit of ``mask``."""
    while k:
        mask &= mask - 1
        k -= 1
    return (mask & -mask).bit_length() - 1


def _heaviest(mask: int, pips: tuple[int, ...]) -> int:
    best = -1
    best_pips = -1
    while mask:
        bit = mask & -mask
        i = bit.bit_length() - 1
        if pips[i] > best_pips:
            best, best_pips = i, pips[i]
        mask ^= bit
    return best


def play_hand(
    rules: Rules,
    hands: list[int],
    lead: Lead,
    greedy: Sequence[bool],
    rng: random.Random,
    *,
    number: int,
    scores_before: Sequence[int],
    seat_pips: list[int] | None = None,
) -> tuple[list[int], HandResult]:
    """Play one hand from dealt bitmasks (changed in place: they end as the tiles left).
    ``seat_pips`` (pips dealt per seat, changed in place too) saves recounting them."""
    tab = tables(rules.max_pip)
    low, high, pips, fits = tab.low, tab.high, tab.pips, tab.fits
    n = rules.seats
    rand = rng.random
    if seat_pips is None:
        seat_pips = [sum(pips[j] for j in _bits(m)) for m in hands]
    after = [(s + 1) % n for s in range(n)]
    in_hands = 0  # every tile still held by someone: the hand is blocked when none fits
    for m in hands:
        in_hands |= m
    tally = Tally.start(rules, scores_before)
    moves: list[int] = []  # compact: see decode_moves

    # The opening tile.
    leader = min(lead.seats) if len(lead.seats) == 1 else -1
    assert leader >= 0, "the caller picks the leader"
    held = hands[leader]
    if lead.tile is not None:
        choice = 1 << tab.index[lead.tile]
    else:
        choice = held
        if (rules.lead_double_if_held or lead.double_only) and held & tab.doubles:
            choice = held & tab.doubles
    if greedy[leader]:
        i = _heaviest(choice, pips)
    else:
        i = _kth_bit(choice, int(rand() * choice.bit_count()))
    hands[leader] = held & ~(1 << i)
    in_hands &= ~(1 << i)
    seat_pips[leader] -= pips[i]
    left_end, right_end = low[i], high[i]
    moves.append(leader | i << 3 | _OPEN)

    seat = leader
    turn = after[leader]
    pase_seat, pase_passes = leader, 0
    outcome: HandEnd | None = None
    if not (fits[left_end] | fits[right_end]) & in_hands:
        outcome = HandEnd.BLOCK  # nobody can answer the opening tile (tiles out of play)
    capicua = False
    while outcome is None:
        held = hands[turn]
        on_left = held & fits[left_end]
        on_right = held & fits[right_end]
        if not (on_left or on_right):
            moves.append(turn)
            pase_passes += 1
            turn = after[turn]
            continue
        seat = turn
        if greedy[seat]:
            i = _heaviest(on_left | on_right, pips)
            bit = 1 << i
            end = LEFT if on_left & bit else RIGHT
        else:
            count_left = on_left.bit_count()
            k = int(rand() * (count_left + on_right.bit_count()))
            if k < count_left:
                mask, end = on_left, LEFT
            else:
                mask, end = on_right, RIGHT
                k -= count_left
            while k:
                mask &= mask - 1
                k -= 1
            bit = mask & -mask
            i = bit.bit_length() - 1
        if pase_passes == n - 1 and pase_seat == seat:
            tally.bonus("pase_corrido", seat, rules.pase_corrido_bonus, len(moves))
        pase_seat, pase_passes = seat, 0
        held ^= bit
        hands[seat] = held
        in_hands ^= bit
        seat_pips[seat] -= pips[i]
        a, b = low[i], high[i]
        if end is LEFT:
            if not held:
                capicua = left_end != right_end and (a == right_end or b == right_end)
            left_end = b if a == left_end else a
            moves.append(seat | i << 3 | _LEFT)
        else:
            if not held:
                capicua = left_end != right_end and (a == left_end or b == left_end)
            right_end = b if a == right_end else a
            moves.append(seat | i << 3 | _RIGHT)
        turn = after[seat]
        if not held:
            outcome = HandEnd.DOMINO
            break
        if not (fits[left_end] | fits[right_end]) & in_hands:
            outcome = HandEnd.BLOCK
            break
    finished = FinishedHand(
        number=number,
        outcome=outcome,
        outcome_seat=seat,
        leader=leader,
        last_player=seat,
        seat_pips=seat_pips,
        capicua=capicua,
        moves=len(moves),
    )
    return moves, score_hand(finished, tally)


# A compact move: seat in bits 0-2, tile index from bit 3, what it is in bits 12-13.
_PASS, _OPEN, _LEFT, _RIGHT = 0, 1 << 12, 2 << 12, 3 << 12


def decode_moves(codes: Sequence[int], max_pip: int) -> tuple[Move, ...]:
    """The moves of :func:`play_hand` as :data:`~controller.rules.moves.Move` values."""
    tiles_ = tables(max_pip).tiles
    out: list[Move] = []
    for code in codes:
        seat, kind, tile = code & 7, code & (3 << 12), tiles_[(code >> 3) & 511]
        if kind == _PASS:
            out.append(Pass(seat))
        elif kind == _OPEN:
            out.append(Play(seat, tile, None, tile.low))
        else:
            out.append(Play(seat, tile, LEFT if kind == _LEFT else RIGHT))
    return tuple(out)


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit.bit_length() - 1)
        mask ^= bit
    return out


def mask_of(tiles_: Sequence[Tile], index: dict[Tile, int]) -> int:
    mask = 0
    for t in tiles_:
        mask |= 1 << index[t]
    return mask


def tiles_of(mask: int, tiles_: tuple[Tile, ...]) -> tuple[Tile, ...]:
    return tuple(tiles_[i] for i in _bits(mask))
