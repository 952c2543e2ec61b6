"""Every preset, a whole simulated match played at an observed table: tiles as the camera reports
them, passes and draws by button, the tiles left read at the reveal. The session's result must be
exactly what ``replay`` gives for the bots' record (where every hand was known)."""

from __future__ import annotations

import pytest

from controller.rules.moves import Play
from controller.rules.options import build_rules, preset_names
from controller.rules.record import parse_record, replay
from controller.rules.simulate import simulate
from controller.table import match_record, result_json
from tests.controller.table.helpers import Table


def _laid(table: Table, move: Play) -> tuple[tuple[int, int], str]:
    if move.end is None:
        first = move.first_half if move.first_half is not None else move.tile.low
        return (first, move.tile.other(first)), "first"
    number = table.hand.engine.line.open_ends[move.end]
    return (number, move.tile.other(number)), move.end.value


@pytest.mark.parametrize("preset", preset_names())
def test_a_simulated_match_scores_the_same_at_an_observed_table(preset: str) -> None:
    from controller.table import Laid, TilesLaid

    rules = build_rules(preset)
    match = next(simulate(rules, hands=12, seed=7))
    table = Table(preset, leader=None)
    for hand in match.hands:
        assert table.state.match is not None
        assert table.hand.number == len(table.state.match.results)
        if not table.hand.leader_known:
            first = hand.moves[0]
            table.press(first.seat)  # the leader says so before laying the opening tile
        for move in hand.moves:
            if isinstance(move, Play):
                pips, end = _laid(table, move)
                table.feed(TilesLaid(table.tick(), (Laid(pips, end),)))  # type: ignore[arg-type]
            else:
                table.press(move.seat)  # a pass, or a draw where the rules draw
            assert table.blocking() == [], (preset, move, table.state.notices)
        presses = 0
        while not table.hand.engine.over:
            # the bots' record stops where a block became certain with known hands: at the
            # table, the players press their passes
            turn = table.hand.engine.turn
            assert turn is not None and presses < rules.seats
            table.press(turn)
            presses += 1
        number = table.hand.number
        if table.state.match.results and len(table.state.match.results) > number:
            continue  # scored already (a target reached during the hand)
        for seat, tiles in enumerate(hand.left):
            if tiles:
                table.reveal(seat, [str(t) for t in tiles])
        assert not table.blocking(), table.state.notices
    expected = replay(parse_record(match.to_record())).to_json()
    assert result_json(table.state) == expected
    exported = replay(parse_record(match_record(table.state))).to_json()
    assert exported["totals"] == expected["totals"]
    assert exported["winner"] == expected["winner"]
