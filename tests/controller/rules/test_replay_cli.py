"""``domino-table replay`` and ``simulate``: output, exit codes and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from controller.cli import main
from tests.controller.rules.helpers import pas, play, record
from tests.controller.rules.test_worked_examples import (
    EXAMPLE_1_DEALT,
    EXAMPLE_1_MOVES,
    TRANQUE_LEFT,
    TRANQUE_MOVES,
)


def _write(tmp_path: Path, data: Any, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = [{"moves": TRANQUE_MOVES, "left": TRANQUE_LEFT}]
    path = _write(tmp_path, record("latin", hands, target=40))
    code, out, err = _run(capsys, "replay", path, "--json")
    assert code == 0, err
    data = json.loads(out)
    (hand,) = data["hands"]
    assert (hand["result"], hand["winner"], hand["points"], hand["bonuses"]) == (
        "block",
        0,
        [45, 0],
        [],
    )
    assert data["totals"] == [45, 0]
    assert data["winner"] == 0  # target 40 from the record's options


def test_replay_rules_and_target_override(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hands = [{"moves": TRANQUE_MOVES, "left": TRANQUE_LEFT}]
    path = _write(tmp_path, record("latin", hands, target=40))
    code, out, _ = _run(
        capsys, "replay", path, "--json", "--rules", "international", "--target", "500"
    )
    data = json.loads(out)
    assert code == 0
    assert data["rules"] == "international"
    assert data["hands"][0]["winner"] is None
    assert data["winner"] is None


def test_replay_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = {"dealt": EXAMPLE_1_DEALT, "moves": EXAMPLE_1_MOVES}
    path = _write(tmp_path, {**record("draw", [hand]), "seats": ["Ana", "Beto"]})
    code, out, _ = _run(capsys, "replay", path)
    assert code == 0
    assert "hand 1: domino (Ana), Ana wins; Ana +11" in out
    assert "not finished, 11-0" in out


ILLEGAL = [
    # (hand moves, expected message part)
    ([play(0, "6-6"), play(2, "6-1", "right")], "hand 1, move 2.*out of turn"),
    ([play(0, "6-6"), play(1, "1-2")], "hand 1, move 2.*does not fit"),
    ([play(0, "6-6"), play(1, "6-1"), play(2, "1-6")], "hand 1, move 3.*already on the table"),
    ([play(1, "5-5")], "hand 1, move 1.*must open with 6-6"),
    ([play(0, "6-6"), play(1, "6-1", "up")], "hand 1, move 2.*up end"),
]


@pytest.mark.parametrize(("moves", "message"), ILLEGAL)
def test_illegal_record_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], moves: list[Any], message: str
) -> None:
    path = _write(tmp_path, record("latin", [{"moves": moves}]))
    code, out, err = _run(capsys, "replay", path)
    assert code == 1
    assert out == ""
    assert err.count("\n") == 1
    assert path in err
    import re

    assert re.search(message, err), err


def test_pass_while_a_known_hand_could_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = [*EXAMPLE_1_MOVES[:9], {"seat": 1, "pass": True}]
    path = _write(tmp_path, record("draw", [{"dealt": EXAMPLE_1_DEALT, "moves": moves}]))
    code, _, err = _run(capsys, "replay", path)
    assert code == 1
    assert "hand 1, move 10" in err and "must draw" in err


def test_tile_dealt_twice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dealt = [list(EXAMPLE_1_DEALT[0]), list(EXAMPLE_1_DEALT[1])]
    dealt[1][0] = "6-6"
    path = _write(tmp_path, record("draw", [{"dealt": dealt, "moves": []}]))
    code, _, err = _run(capsys, "replay", path)
    assert code == 1 and "dealt twice" in err


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "JSON object"),
        (record("martian", []), "unknown rules preset"),
        (record("latin", [], colour="blue"), "unknown option"),
        (record("latin", [{"moves": [play(0, "6-x")]}]), "hand 1, move 1.*not a tile"),
        (record("latin", [{"moves": [play(0, "7-7")]}]), "hand 1, move 1.*not in the double-6 set"),
        (record("latin", [{"moves": [{"seat": 0}]}]), "exactly one of"),
        (record("latin", [{"moves": [{"seat": "0", "pass": True}]}]), "seat number"),
        (record("latin", [{"moves": [{"seat": 9, "pass": True}]}]), "no seat 9"),
        (record("latin", [{"moves": [play(0, "6-6", "middle")]}]), "'end'"),
        ({**record("latin", []), "format": "other/2"}, "not supported"),
        ({**record("latin", []), "hands": {}}, "'hands' must be a list"),
        (record("latin", [{"dealt": [["6-6"]], "moves": []}]), "list of 4 lists"),
        ({**record("latin", []), "seats": list("abcde")}, "seats must be 2, 3 or 4"),
    ],
)
def test_unusable_record_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any, message: str
) -> None:
    path = _write(tmp_path, data)
    code, _out, err = _run(capsys, "replay", path)
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    import re

    assert re.search(message, err), err


def test_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "replay", str(tmp_path / "nope.json"))
    assert code == 2 and "cannot read" in err


def test_hand_that_stops_early(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = [{"moves": [play(0, "6-6"), pas(1)]}, {"moves": []}]
    path = _write(tmp_path, record("latin", hands, pass_when_able=True))
    code, _, err = _run(capsys, "replay", path)
    assert code == 1 and "stops before the hand is over" in err


def test_simulate_json_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "simulate", "--rules", "colombian", "--hands", "12", "--seed", "3", "--json"
    )
    assert code == 0
    lines = out.splitlines()
    assert lines
    hands = 0
    for line in lines:
        rec = json.loads(line)
        hands += len(rec["hands"])
        path = _write(tmp_path, line)
        code, replayed, _ = _run(capsys, "replay", path, "--json")
        assert code == 0
        assert json.loads(replayed)["totals"] == rec["result"]["totals"]
    assert hands == 12


def test_replay_reads_the_json_lines_simulate_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = _run(
        capsys, "simulate", "--rules", "latin", "--hands", "30", "--seed", "3", "--json"
    )
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert len(records) >= 2  # several matches: several lines
    path = _write(tmp_path, out, "matches.jsonl")
    code, replayed, err = _run(capsys, "replay", path, "--json")
    assert code == 0, err
    results = [json.loads(line) for line in replayed.splitlines()]
    assert [r["totals"] for r in results] == [r["result"]["totals"] for r in records]
    assert [r["winner"] for r in results] == [r["result"]["winner"] for r in records]
    # the same through a pipe, as text: one block per match, each naming its line
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(out))
    code, text, err = _run(capsys, "replay", "-")
    assert code == 0, err
    assert [line for line in text.splitlines() if line.startswith("match on line")] == [
        f"match on line {n}:" for n in range(1, len(records) + 1)
    ]
    assert text.count(" win, ") == sum(r["result"]["winner"] is not None for r in records)


def test_replay_still_reads_one_pretty_printed_document(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hands = [{"moves": TRANQUE_MOVES, "left": TRANQUE_LEFT}]
    path = _write(tmp_path, json.dumps(record("latin", hands, target=40), indent=2))
    code, out, err = _run(capsys, "replay", path, "--json")
    assert code == 0, err
    assert json.loads(out)["totals"] == [45, 0]


@pytest.mark.parametrize(
    ("second", "message"),
    [
        ('{"format": oops', r"line 3: not valid JSON \(column 12"),
        ("[1, 2]", "line 3: a game record is a JSON object, not list"),
        ("BAD_TILE", "line 3: hand 1, dealt, seat 0: 7-7 is not in the double-6 set"),
        ("ILLEGAL", "line 3: hand 1, move 2"),
    ],
)
def test_a_bad_json_line_is_one_error_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], second: str, message: str
) -> None:
    _, out, _ = _run(
        capsys, "simulate", "--rules", "latin", "--hands", "1", "--seed", "4", "--json"
    )
    good = out.strip()
    rec = json.loads(good)
    if second == "BAD_TILE":
        rec["hands"][0]["dealt"][0][0] = "7-7"
        second = json.dumps(rec)
    elif second == "ILLEGAL":
        rec["hands"][0]["moves"][1] = {"seat": rec["hands"][0]["moves"][1]["seat"], "play": "0-0"}
        rec["hands"][0].pop("dealt")
        rec["hands"][0].pop("left", None)
        second = json.dumps(rec)
    path = _write(tmp_path, f"{good}\n\n{second}\n{good}\n", "matches.jsonl")
    code, printed, err = _run(capsys, "replay", path)
    assert code in (1, 2)
    assert printed == ""  # nothing is printed for the good lines either
    assert err.count("\n") == 1 and "Traceback" not in err
    import re

    assert re.search(message, err), err


def test_simulate_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    runs = [
        _run(capsys, "simulate", "--rules", "draw", "--hands", "30", "--seed", "9")[1] for _ in "ab"
    ]
    assert runs[0] == runs[1]
    other = _run(capsys, "simulate", "--rules", "draw", "--hands", "30", "--seed", "10")[1]
    assert other != runs[0]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["simulate", "--rules", "nope", "--hands", "3"], "unknown rules preset"),
        (["simulate", "--rules", "latin", "--hands", "3", "--bots", "smart"], "unknown bot"),
        (["simulate", "--rules", "latin", "--hands", "3", "-o", "target"], "KEY=VALUE"),
        (["simulate", "--rules", "latin", "--hands", "3", "--bots", "random,greedy"], "2 bots"),
    ],
)
def test_simulate_bad_arguments(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, _, err = _run(capsys, *argv)
    assert code == 2 and message in err


def test_simulate_negative_hands_is_a_usage_error() -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--rules", "latin", "--hands", "-1"])
    assert exc.value.code == 2


def test_rules_listing(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "rules", "--json")
    assert code == 0
    assert set(json.loads(out)) == {
        "latin",
        "international",
        "colombian",
        "cuban",
        "draw",
        "block",
        "all_fives",
        "fives_and_threes",
    }
    code, out, _ = _run(capsys, "rules", "cuban", "--target", "150", "--json")
    assert json.loads(out)["target"] == 150
