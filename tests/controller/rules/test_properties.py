"""Property tests over thousands of random simulated hands per preset, for both the checked engine
and the bot kernel: tiles are conserved, nothing is played twice, every move is legal (the record
replays through the checked engine), points add up to the totals, and replay equals live play."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.rules.moves import Draw, HandEnd, Play
from controller.rules.options import PRESETS, build_rules
from controller.rules.record import parse_record, replay
from controller.rules.simulate import BOTS, SimulatedMatch, simulate

HANDS_PER_EXAMPLE = 25
EXAMPLES = 40  # x 25 hands x 2 engines = 2,000 hands per preset

SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)


def _check_match(m: SimulatedMatch) -> None:
    rules = m.rules
    full = set(rules.tileset.tiles)
    for h in m.hands:
        dealt = [t for seat in h.dealt for t in seat]
        assert len(dealt) == len(set(dealt)) == rules.seats * rules.hand_size
        assert all(len(seat) == rules.hand_size for seat in h.dealt)
        assert set(dealt) <= full
        played = [mv.tile for mv in h.moves if isinstance(mv, Play)]
        drawn = [mv.tile for mv in h.moves if isinstance(mv, Draw)]
        assert len(played) == len(set(played)), "a tile was played twice"
        assert len(drawn) == len(set(drawn))
        assert not set(drawn) & set(dealt)
        left = [t for seat in h.left for t in seat]
        # Conservation: what was dealt or drawn is now on the table or in a hand.
        assert Counter(dealt + drawn) == Counter(played + left)
        if h.result.remaining is not None:
            assert list(h.result.remaining) == [sum(t.pips for t in seat) for seat in h.left]
        if h.result.result is HandEnd.DOMINO:
            assert h.result.winning_seat is not None
            assert not h.left[h.result.winning_seat]
    totals = [sum(h.result.points[side] for h in m.hands) for side in range(rules.sides)]
    assert totals == list(m.totals)
    if m.winner is not None:
        assert m.totals[m.winner] >= rules.target
        if rules.exact_target:
            assert m.totals[m.winner] == rules.target
    # Replay equals live play, hand by hand.
    replayed = replay(parse_record(m.to_record()))
    assert [r.to_json() for r in replayed.results] == [h.result.to_json() for h in m.hands]
    assert replayed.totals == m.totals
    assert replayed.winner == m.winner


@pytest.mark.parametrize("engine", ["auto", "full"])
@pytest.mark.parametrize("preset", list(PRESETS))
@SETTINGS
@given(
    seed=st.integers(0, 2**32 - 1),
    bots=st.lists(st.sampled_from(sorted(BOTS)), min_size=4, max_size=4),
)
def test_simulated_hands_keep_the_rules(
    preset: str, engine: str, seed: int, bots: list[str]
) -> None:
    rules = build_rules(preset)
    players = [BOTS[b] for b in bots[: rules.seats]]
    hands = 0
    for m in simulate(rules, hands=HANDS_PER_EXAMPLE, seed=seed, bots=players, fast=engine):
        _check_match(m)
        hands += len(m.hands)
    assert hands == HANDS_PER_EXAMPLE


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("all_fives", {"spinner": True}),
        ("block", {"seats": 3}),
        ("block", {"seats": 2}),
        ("latin", {"capicua_bonus": 10, "count_by": 10, "target": 30}),
        ("fives_and_threes", {"seats": 4}),
        ("draw", {"boneyard": "draw_one"}),
        ("draw", {"boneyard": "optional", "pass_when_able": True}),
        ("international", {"max_pip": 9, "hand_size": 10, "first_lead": "highest_double"}),
        ("block", {"max_pip": 12, "hand_size": 15, "partnerships": False}),
    ],
)
@settings(max_examples=10, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1))
def test_option_mixes_keep_the_rules(preset: str, options: dict[str, object], seed: int) -> None:
    rules = build_rules(preset, options)
    for m in simulate(rules, hands=20, seed=seed):
        _check_match(m)
