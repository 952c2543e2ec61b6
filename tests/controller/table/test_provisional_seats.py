"""While nobody knows who led (latin's first hand: whoever holds 6-6), the session attributes
moves provisionally; nothing a person reads may name that guess as a seat. The demo once showed
"Seat 1?" for the 6-6 the second seat played, on the terminal and on the page."""

from __future__ import annotations

from controller.live.models import StateBody
from controller.table import snapshot
from controller.table.snapshot import live_state_body
from tests.controller.table.helpers import Table, truth


def test_the_live_state_names_no_seat_for_a_move_until_the_leader_is_known() -> None:
    table = Table(leader=None)
    hand = truth()["record"]["hands"][0]
    plays = [m for m in hand["moves"] if "play" in m]
    table.lay(plays[0]["play"])
    body = live_state_body(snapshot(table.state))
    StateBody.model_validate(body)  # still a valid state for the scoreboard
    assert body["hand"]["last_move"] is None and body["hand"]["turn"] is None
    # once a press settles who led, the last move is named, and rightly
    for move in hand["moves"][1:]:
        if "play" in move:
            table.lay(move["play"], move.get("end"))
        else:
            table.press(move["seat"])
            break
    body = live_state_body(snapshot(table.state))
    last = body["hand"]["last_move"]
    assert last is not None
    assert last["kind"] == "pass" and last["seat"] == hand["moves"][16]["seat"]
    assert table.state.match is not None and table.state.match.hand is not None
    assert table.state.match.hand.moves[0].seat == hand["moves"][0]["seat"]
