"""What the demo's terminal says: seats by name (Seat 1-4 or the match's names), sides by their
seats, and, while nobody knows who led, moves told by their place after the leader, never by a
seat that may be wrong (the old label said "Seat 1?" for the 6-6 that Seat 2 played)."""

from __future__ import annotations

import re

import pytest

from controller.cli import main
from controller.rules.names import side_label
from controller.runtime.narrate import Narrator, place_after_leader
from tests.controller.table.helpers import truth


def _started(seats: list[str], rules: str = "latin") -> Narrator:
    n = Narrator()
    n.line({"kind": "match_started", "rules": rules, "options": {}, "seats": seats, "target": 50})
    return n


def test_sides_and_winners_are_named_by_their_seats() -> None:
    n = _started([f"Seat {i}" for i in range(1, 5)])
    end = {"kind": "hand_end", "hand": 1, "result": "block", "winner": 1, "points": [0, 36]}
    line = n.line({**end, "totals": [10, 36]})
    assert (
        line == "hand 1 scored: block, Seats 2 & 4 win 36; totals: Seats 1 & 3 10, Seats 2 & 4 36"
    )
    assert n.line({"kind": "match_end", "winner": 0, "totals": [54, 36]}) == (
        "match over: Seats 1 & 3 win, 54-36"
    )
    named = _started(["Ana", "Beto", "Carla", "Dani"])
    assert named.line({"kind": "match_end", "winner": 0, "totals": [1, 0]}) == (
        "match over: Ana & Carla win, 1-0"
    )
    alone = _started(["Seat 1", "Seat 2"], rules="draw")
    assert alone.line({"kind": "match_end", "winner": 1, "totals": [3, 50]}) == (
        "match over: Seat 2 wins, 3-50"
    )
    assert side_label(["A", "B", "C", "D"], (1, 3)) == "B & D"
    assert n.line({"kind": "reveal", "seat": 0, "tiles": ["0-0"]}) == "  Seat 1 shows 0-0"


def test_moves_before_the_leader_is_known_are_told_by_place_then_settled() -> None:
    n = _started([f"Seat {i}" for i in range(1, 5)])
    n.line({"kind": "hand_started", "hand": 1, "leaders": [0, 1, 2, 3]})
    # the session attributes them provisionally from seat 0; the narrator names no seat
    lines = [
        n.line(
            {"kind": "tile_played", "move": i + 1, "seat": i % 4, "seat_known": False, "play": tile}
        )
        for i, tile in enumerate(["6-6", "3-6", "3-3", "1-3", "1-5"])
    ]
    assert lines[0] == "  move  1: the leader plays 6-6 (seats not known yet)"
    assert [line.split(": ")[1].split(" plays")[0] for line in lines if line] == [
        "the leader",
        "the leader's right",
        "the leader's partner",
        "the leader's left",
        "the leader",
    ]
    assert not any(re.search(r"Seat \d", line or "") for line in lines)
    settled = n.line({"kind": "leader_known", "hand": 1, "leader": 1, "how": "a press"})
    assert settled == (
        "  Seat 2 led this hand (a press): the leader is Seat 2, the leader's right is Seat 3, "
        "the leader's partner is Seat 4, the leader's left is Seat 1"
    )
    after = n.line({"kind": "pass", "move": 6, "seat": 2, "seat_known": True})
    assert after == "  move  6: Seat 3 passes"


@pytest.mark.parametrize(
    ("k", "seats", "label"),
    [
        (0, 4, "the leader"),
        (1, 4, "the leader's right"),
        (2, 4, "the leader's partner"),
        (3, 4, "the leader's left"),
        (1, 2, "the leader's opponent"),
        (2, 3, "the leader's left"),
    ],
)
def test_places_after_the_leader(k: int, seats: int, label: str) -> None:
    assert place_after_leader(k, seats) == label


def test_the_demo_terminal_gets_the_filmed_hand_seats_right(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The shipped hand: the terminal names no seat before the leader is known, then names the
    one the fixture's record says led (0-based seat 1 in the JSON: Seat 2)."""
    argv = ["demo", "--fixture-only", "--exit-when-done", "--no-live", "--speed", "1000"]
    assert main([*argv, "--buttons", "direct", "--recogniser", "oracle"]) == 0
    err = capsys.readouterr().err
    record = truth()["record"]
    first = record["hands"][0]["moves"][0]
    leader = f"Seat {first['seat'] + 1}"
    assert f"  move  1: the leader plays {first['play']} (seats not known yet)" in err
    assert f"{leader} led this hand ({leader} pressed on its turn): the leader is {leader}," in err
    before = err.split("led this hand")[0]
    assert not re.search(r"Seat \d\??( plays| passes)", before)
    for line in err.splitlines():  # seats are never numbered from 0 for people
        assert not re.search(r"\b(seat|side) \d", line), line
