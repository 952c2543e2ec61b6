"""The bots that finish the demo's match, against the pure session: for every preset, hands they
deal and play, told to the session as the table tells it, score hand after hand to the match's
end; the plan is a function of the seed and the session's match state only."""

from __future__ import annotations

import pytest

from controller.rules.options import PRESETS
from controller.runtime.bots import BotHandError, BotStep, bot_hand
from controller.table import Button, NewMatch, Revealed, TableState, TilesLaid, initial_state, step


def _feed(state: TableState, s: BotStep, t: float) -> TableState:
    if s.kind == "lay":
        assert s.laid is not None
        inp: object = TilesLaid(t, (s.laid,))
    elif s.kind == "reveal":
        inp = Revealed(t, s.seat, s.tiles)
    else:
        inp = Button(t, s.seat, "short")
    new, _ = step(state, inp)  # type: ignore[arg-type]
    return new


def _play_match(preset: str, seed: int, target: int) -> tuple[TableState, int]:
    state, _ = step(initial_state(), NewMatch(0.0, preset, {"target": target}))
    t = 0.0
    hands = 0
    while state.match is not None and state.match.hand is not None:
        before = len(state.match.results)
        plan = bot_hand(state.match, seed)
        for s in plan.steps:
            t += 1.0
            state = _feed(state, s, t)
        assert state.match is not None
        assert len(state.match.results) == before + 1, (preset, hands, state.match.hand)
        hands += 1
        assert hands < 200
    return state, hands


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_bots_play_every_preset_to_the_end_of_a_match(preset: str) -> None:
    state, hands = _play_match(preset, seed=3, target=40)
    assert state.match is not None and state.match.winner is not None
    assert hands >= 1
    assert max(state.match.totals) >= 40


def test_the_plan_depends_on_the_seed_and_the_match_only() -> None:
    state, _ = step(initial_state(), NewMatch(0.0, "latin", {"target": 50}))
    assert state.match is not None
    a = bot_hand(state.match, 7)
    assert bot_hand(state.match, 7) == a
    assert bot_hand(state.match, 8) != a
    # hand 1 of latin: nobody knows who leads, so the leader claims it before the opening tile
    assert a.steps[0].kind == "claim" and a.steps[1].kind == "lay"
    assert a.steps[0].seat == a.steps[1].seat


def test_a_hand_the_bots_did_not_deal_is_refused() -> None:
    state, _ = step(initial_state(), NewMatch(0.0, "latin", {"target": 50}))
    plan = bot_hand(state.match, 1)  # type: ignore[arg-type]
    lay = next(s for s in plan.steps if s.kind == "lay")
    assert lay.laid is not None
    other = (6, 6) if lay.laid.pips != (6, 6) else (5, 5)
    state, _ = step(state, Button(1.0, lay.seat, "short"))
    state, _ = step(state, TilesLaid(2.0, (type(lay.laid)(other, "first"),)))
    assert state.match is not None and state.match.hand is not None
    if state.match.hand.moves:  # the tile was taken as a move: not the bots' hand
        with pytest.raises(BotHandError, match="begun by the fixture"):
            bot_hand(state.match, 1)
