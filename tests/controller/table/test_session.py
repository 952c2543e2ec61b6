"""The table session, case by case: what the table does when play goes right and when it does not.
Every bad input gives an alert and a wait, never a lost or invented move."""

from __future__ import annotations

import pytest

from controller.rules.record import parse_record, replay
from controller.rules.tiles import Tile
from controller.table import (
    ConfirmReveal,
    CorrectTile,
    CorrectVision,
    Emit,
    Link,
    SetLeader,
    UndoLast,
    result_json,
    snapshot,
)
from controller.table.leds import PROBLEM, TURN
from tests.controller.table.helpers import Table, play_fixture_hand, truth

RED = str(PROBLEM)
GREEN = str(TURN)


def test_a_legal_tile_is_the_turn_seat_s_move_and_the_turn_led_moves_on() -> None:
    table = Table(leader=1)
    assert table.leds() == ["off", GREEN, "off", "off"]
    table.lay("6-6")
    assert table.kinds()[0] == "tile_played"
    assert table.events("tile_played")[0]["seat"] == 1
    assert table.led_effects() == [["off", "off", GREEN, "off"]]
    table.lay("6-3", "left")
    assert table.hand.engine.line.open_ends == {"left": 3, "right": 6}
    assert table.leds() == ["off", "off", "off", GREEN]


def test_illegal_tile_blinks_the_seat_red_alerts_and_waits_until_taken_back() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.lay("2-3", "left")  # fits nothing
    assert table.moves() == 1
    assert table.blocking() == ["illegal_tile"]
    assert table.leds() == ["off", "off", RED, "off"]
    (alert,) = table.events("alert")
    assert alert["seat"] == 2 and "does not fit" in alert["message"]
    # nothing else counts while the table waits
    table.press(2)
    assert table.moves() == 1
    table.take("2-3")
    assert table.blocking() == []
    assert "alert_cleared" in table.kinds()
    assert table.leds() == ["off", "off", GREEN, "off"]
    table.lay("6-3", "left")
    assert table.moves() == 2


def test_a_misread_illegal_tile_corrected_through_the_api_becomes_the_move() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.lay("2-3", "left")  # really 6-3
    effects = table.feed(CorrectTile(table.tick(), "6-3"))
    assert table.moves() == 2
    assert table.blocking() == []
    assert CorrectVision((2, 3), (6, 3)) in effects
    assert table.events("tile_played")[0]["play"] == "3-6"


def test_two_tiles_at_once_are_neither_move_until_one_is_taken_back() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.lay_two(("6-3", "left"), ("6-2", "right"))
    assert table.moves() == 1
    assert table.blocking() == ["two_at_once", "two_at_once"]
    assert table.leds() == [RED] * 4
    table.take("6-2")  # seat 3 laid out of turn and takes it back
    assert table.moves() == 2
    assert table.events("tile_played")[0]["play"] == "3-6"
    assert table.hand.moves[-1].seat == 2
    assert table.blocking() == []


def test_a_tile_laid_after_the_hand_is_over_is_not_a_move() -> None:
    table = Table(leader=1)
    play_fixture_hand(table)
    assert table.hand.engine.over
    moves = table.moves()
    table.lay("2-2", "left")
    assert table.moves() == moves
    assert table.blocking() == ["out_of_turn"]


def test_a_button_pressed_by_the_wrong_seat_changes_nothing_and_says_whose_turn() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    before = table.hand.moves
    table.press(0)  # it is seat 2's turn
    assert table.hand.moves == before
    (alert,) = table.events("alert")
    assert alert["alert"] == "wrong_seat" and "Seat 3's turn" in alert["message"]
    assert not alert["blocking"]


def test_a_tile_taken_from_the_line_blocks_until_it_is_put_back() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.lay("6-3", "left")
    table.take("6-3")
    assert table.blocking() == ["removed_from_line"]
    assert table.moves() == 2  # nothing undone behind the players' backs
    table.lay("6-3", "left")  # the camera sees it back (it joins the line's left end again)
    assert table.blocking() == []
    assert table.moves() == 2
    assert "tile_restored" in table.kinds()


def test_double_press_undoes_the_own_last_pass_only() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.press(2)  # seat 2 passes (by mistake)
    assert table.moves() == 2
    table.press(1, "double")  # not seat 1's move
    assert table.moves() == 2
    table.press(2, "double")
    assert table.moves() == 1
    assert table.hand.engine.turn == 2
    assert table.events("undo")[0]["undone"] == {"seat": 2, "pass": True}


def test_api_undo_of_a_play_waits_for_the_tile_to_leave_the_line() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.lay("6-3", "left")
    table.feed(UndoLast(table.tick()))
    assert table.moves() == 1
    assert table.blocking() == ["take_back"]
    table.take("6-3")
    assert table.blocking() == []


def test_long_press_sets_the_last_tile_aside_until_it_is_laid_again() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.lay("6-4", "left")  # the camera read 6-4; seat 2 laid 6-3
    table.press(2, "long")
    assert table.moves() == 1
    assert table.blocking() == ["misread"]
    table.take("6-4")
    table.lay("6-3", "left")
    assert table.moves() == 2
    assert str(table.hand.moves[-1].tile) == "3-6"


def test_renuncio_is_flagged_when_the_false_pass_shows() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.lay("6-3", "left")
    table.press(3)  # seat 3 passes on 3 and 6
    table.lay("6-5", "right")
    table.lay("5-5", "right")
    table.lay("3-4", "left")
    table.lay("4-6", "left")  # seat 3 had a 6 after all
    (renuncio,) = table.events("renuncio")
    assert renuncio["seat"] == 3 and renuncio["number"] == 6
    assert renuncio["pass_move"] == 3 and renuncio["play_move"] == 7
    (alert,) = table.events("alert")  # shown to the table too, not blocking
    assert alert["alert"] == "renuncio" and alert["seat"] == 3 and not alert["blocking"]


def test_pase_corrido_is_flagged_and_scored() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    for seat in (2, 3, 0):
        table.press(seat)
    table.lay("6-5", "left")
    (bonus,) = table.events("pase_corrido")
    assert bonus["seat"] == 1 and bonus["points"] == 25
    assert snapshot(table.state)["hand"]["awarded"] == [0, 25]


def _reveal_truth(table: Table, skip: int | None = None) -> None:
    for seat, tiles in enumerate(truth()["record"]["hands"][0]["left"]):
        if seat != skip:
            table.reveal(seat, tiles)


def test_reveal_check_passes_and_the_hand_is_scored_as_replay_scores_it() -> None:
    table = Table(leader=1)
    play_fixture_hand(table)
    _reveal_truth(table)
    (end,) = table.events("hand_end")
    expected = replay(parse_record(truth()["record"])).to_json()
    assert end["points"] == expected["hands"][0]["points"]
    assert end["check"] == "passed"
    assert result_json(table.state) == expected
    assert table.state.match is not None and table.state.match.hand is not None
    assert table.state.match.hand.number == 1  # the next hand is ready


def test_reveal_check_failure_alerts_and_a_rejected_reading_is_read_again() -> None:
    table = Table(leader=1)
    play_fixture_hand(table)
    _reveal_truth(table, skip=3)
    table.reveal(3, ["0-2", "3-4"])  # 3-4 is seat 0's: misread
    assert table.blocking() == ["reveal_check"]
    assert "3-4 is shown twice" in table.events("alert")[0]["message"]
    assert table.events("hand_end") == []
    table.press(3, "double")  # reject seat 3's reading
    assert [e["seat"] for e in table.events("reveal_rejected")] == [3]
    assert table.blocking() == []
    table.reveal(3, ["0-2", "4-4"])
    assert table.events("hand_end")[0]["points"] == [36, 0]


def test_a_person_confirms_a_reading_the_check_cannot_pass() -> None:
    table = Table(leader=1)
    play_fixture_hand(table)
    _reveal_truth(table, skip=3)
    table.reveal(3, ["0-2"])  # 4-4 not seen
    assert table.events("hand_end") == []
    left = tuple(tuple(seat) for seat in truth()["record"]["hands"][0]["left"])
    table.feed(ConfirmReveal(table.tick(), left))
    (end,) = table.events("hand_end")
    assert end["points"] == [36, 0] and end["check"] == "passed"


def test_short_press_confirms_when_a_person_vouches_for_the_reading() -> None:
    table = Table(leader=1)
    play_fixture_hand(table)
    _reveal_truth(table, skip=3)
    table.reveal(3, ["0-2"])
    table.press(0)
    (end,) = table.events("hand_end")
    assert end["confirmed_by"] == "Seat 1"
    assert end["points"] == [28, 0]  # scored as read: 4-4 never shown
    assert table.state.match is not None
    assert table.state.match.records[0]["confirmed_by"] == "Seat 1"


def test_leader_unknown_is_settled_by_the_first_pass_press() -> None:
    table = Table(leader=None)
    assert table.hand.leader_known is False
    play_fixture_hand(table)
    assert table.hand.leader_known
    assert [m.seat for m in table.hand.moves[:4]] == [1, 2, 3, 0]
    assert table.events("tile_played")[0]["seat"] == 3


def test_leader_claimed_by_a_short_press_before_the_opening_tile() -> None:
    table = Table(leader=None)
    table.press(2)
    assert table.hand.leader_known and table.hand.engine.leader == 2
    table.lay("6-6")
    assert table.hand.moves[0].seat == 2


def test_leader_set_through_the_api_rotates_provisional_seats() -> None:
    table = Table(leader=None)
    table.lay("6-6")
    table.lay("6-3", "left")
    table.feed(SetLeader(table.tick(), 3))
    assert [m.seat for m in table.hand.moves] == [3, 0]
    assert table.hand.engine.turn == 1


def test_leader_found_from_the_reveal_when_nobody_pressed() -> None:
    table = Table(leader=None)
    hand = truth()["record"]["hands"][0]
    for move in hand["moves"]:
        if "play" in move:  # the two passes were never pressed
            table.lay(move["play"], move.get("end"))
    assert table.hand.engine.over  # every 1 is out and both ends show 1: a certain block
    assert table.hand.leader_known is False
    _reveal_truth(table)
    # only one seat order fits the tiles shown: seat 3 is short of one, so it played last
    (known,) = table.events("leader_known")
    assert known["leader"] == 3 and known["how"] == "reveal"
    assert table.events("hand_end")[0]["points"] == [36, 0]


def test_link_changes_are_published_as_device_state() -> None:
    table = Table(leader=1)
    table.feed(Link(table.tick(), True, "firmware 1.0"))
    assert table.events("device")[0]["link"] == "up"
    assert snapshot(table.state)["device"]["link"] == "up"
    table.feed(Link(table.tick(), False, "heartbeat timeout"))
    assert snapshot(table.state)["device"] == {
        "link": "down",
        "detail": "heartbeat timeout",
        "leds": table.leds(),
    }


def test_snapshot_has_the_agreed_fields_and_reads_the_line_left_to_right() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.lay("6-3", "left")
    table.lay("6-2", "right")
    snap = snapshot(table.state)
    assert set(snap) == {"schema", "seq", "table", "t", "match", "hand", "alerts", "device"}
    assert snap["seq"] == table.state.seq
    hand = snap["hand"]
    assert [x["pips"] for x in hand["line"]] == [[3, 6], [6, 6], [6, 2]]
    assert [x["seat"] for x in hand["line"]] == [2, 1, 3]
    assert hand["ends"] == {"left": 3, "right": 2}
    assert hand["turn"] == 0 and hand["phase"] == "play"
    assert snap["match"]["sides"][1]["seats"] == [1, 3]


def test_events_are_numbered_without_gaps_and_the_snapshot_carries_the_last_seq() -> None:
    table = Table(leader=1)
    seqs: list[int] = []
    for act in (
        lambda: table.lay("6-6"),
        lambda: table.press(0),
        lambda: table.lay("2-3", "left"),
        lambda: table.take("2-3"),
        lambda: table.press(2),
    ):
        for effect in act():
            if isinstance(effect, Emit):
                seqs.append(effect.event.seq)
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
    assert snapshot(table.state)["seq"] == seqs[-1]


@pytest.mark.parametrize("bad", ["7-7", "x"])
def test_a_malformed_correction_is_refused_with_an_alert(bad: str) -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.feed(CorrectTile(table.tick(), bad))
    assert table.moves() == 1
    assert table.events("alert")[0]["alert"] == "command_rejected"


def test_a_short_press_before_the_tiles_are_shown_does_not_score_the_hand() -> None:
    table = Table(leader=1)
    play_fixture_hand(table)
    table.press(0)  # a pass too many, or an eager confirm
    assert table.events("hand_end") == []
    assert "show the tiles left first" in table.events("alert")[0]["message"]


def test_clearing_the_line_during_the_reveal_is_no_problem() -> None:
    table = Table(leader=1)
    play_fixture_hand(table)
    table.take("1-1")
    table.take("1-2")
    assert table.blocking() == []
    _reveal_truth(table)
    assert table.events("hand_end")[0]["points"] == [36, 0]
    assert table.state.match is not None
    assert Tile.parse("1-1") not in table.state.match.clearing
    assert Tile.parse("6-6") in table.state.match.clearing


def test_a_seat_device_dropping_out_mid_hand_is_an_alert_until_it_is_back() -> None:
    table = Table(leader=1)
    table.feed(Link(table.tick(), True, "firmware 1.0"))
    table.lay("6-6")
    table.feed(Link(table.tick(), False, "heartbeat timeout"))
    (alert,) = table.events("alert")
    assert alert["alert"] == "device" and "heartbeat timeout" in alert["message"]
    table.feed(Link(table.tick(), True, "firmware 1.0"))
    assert [a["alert"] for a in table.events("alert_cleared")] == ["device"]


def test_the_right_tile_laid_before_the_wrong_one_is_lifted_becomes_the_move() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.lay("2-3", "left")  # illegal
    table.lay("6-3", "right")  # the tile seat 2 meant, laid before lifting the wrong one
    assert table.moves() == 1
    assert table.blocking() == ["illegal_tile", "laid_while_waiting"]
    table.take("2-3")
    assert table.moves() == 2 and table.blocking() == []
    assert table.hand.moves[-1].seat == 2


def test_tiles_shown_before_the_last_pass_score_the_hand_when_it_ends() -> None:
    table = Table(leader=1)
    hand = truth()["record"]["hands"][0]
    *moves, last = hand["moves"]
    for move in moves:
        if "play" in move:
            table.lay(move["play"], move.get("end"))
        else:
            table.press(move["seat"])
    left = [list(x) for x in hand["left"]]
    left[3] = [*left[3], "1-1"]  # seat 3 still holds 1-1 until it plays it
    for seat, tiles in enumerate(left):
        table.reveal(seat, tiles)
    assert table.events("hand_end") == []
    table.reveal(3, hand["left"][3])  # 1-1 goes to the line
    table.lay(last["play"], last["end"])
    assert table.events("hand_end")[0]["points"] == [36, 0]


def line_tiles(table: Table) -> list[str]:
    return [str(p.tile) for p in table.hand.engine.line.placements]


def test_correct_by_move_number_replays_the_hand_with_the_right_tile() -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.lay("6-4", "left")
    table.lay("4-2", "left")
    table.lay("6-1", "right")
    # move 3 was really 4-1: the hand is played again from move 1, move 4 still fits
    effects = table.feed(CorrectTile(table.tick(), "4-1", move=3))
    (event,) = table.events("correction")
    assert event == {**event, "read_as": "2-4", "actual": "1-4", "move": 3}
    assert CorrectVision((4, 2), (4, 1)) in effects
    assert table.moves() == 4 and table.hand.engine.line.open_ends == {"left": 1, "right": 1}
    assert sorted(line_tiles(table)) == ["1-4", "1-6", "4-6", "6-6"]
    assert [m.seat for m in table.hand.moves] == [1, 2, 3, 0]


@pytest.mark.parametrize(
    ("move", "tile", "why"),
    [
        (2, "6-3", "does not fit"),  # move 3 (4-2 on a 4) would then be illegal
        (3, "2-4", "already is"),
        (9, "1-1", "no 9"),
        (1, "9-9", "correction refused"),  # not a tile of this set
    ],
)
def test_a_correction_that_does_not_fit_the_hand_changes_nothing(
    move: int, tile: str, why: str
) -> None:
    table = Table(leader=1)
    table.lay("6-6")
    table.lay("6-4", "left")
    table.lay("4-2", "left")
    before = snapshot(table.state)
    table.feed(CorrectTile(table.tick(), tile, move=move))
    (alert,) = table.events("alert")
    assert why in alert["message"] and alert["message"].startswith("correction refused")
    assert table.events("correction") == []
    assert snapshot(table.state)["hand"]["line"] == before["hand"]["line"]
    assert table.moves() == 3


def test_a_correction_by_move_round_trips_through_the_journal_form() -> None:
    from controller.table import input_from_json, input_to_json

    inp = CorrectTile(3.0, "4-1", move=3)
    assert input_from_json(input_to_json(inp)) == inp
    assert "move" not in input_to_json(CorrectTile(3.0, "4-1"))  # older lines unchanged
