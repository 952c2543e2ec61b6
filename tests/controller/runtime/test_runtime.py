"""The runtime shell: journal first, then effects to the publisher, the LEDs and the tracker;
a new runtime on the same journal resumes where the old one stood."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.journal import Journal, JournalError
from controller.runtime import FakePublisher, TableRuntime
from controller.runtime.adapters import (
    device_input,
    led_state,
    led_states,
    scene_inputs,
    set_recogniser,
)
from controller.table import (
    Button,
    CorrectTile,
    CorrectVision,
    Laid,
    Link,
    NewMatch,
    Revealed,
    TilesLaid,
    TileTaken,
    snapshot,
)
from controller.table.lights import Glow, Light
from domino_common.clock import FakeClock
from firmware_bridge.types import ButtonGesture, Gesture, LedState, LinkDown, Pattern
from vision.events import SceneSettled, TileAdded, TileRemoved, Unsure

CORNERS = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))


def test_runtime_publishes_journals_and_drives_the_leds(tmp_path: Path) -> None:
    publisher = FakePublisher("t7", clock=FakeClock())
    leds: list[tuple[LedState, ...]] = []
    fixes: list[CorrectVision] = []
    with Journal(tmp_path / "j.sqlite", table="t7") as journal:
        runtime = TableRuntime(
            table="t7",
            journal=journal,
            publisher=publisher,
            leds=leds.append,
            vision_fix=fixes.append,
        )
        runtime.start()
        assert len(publisher.states) == 1 and publisher.states[0].match is None
        runtime.feed(NewMatch(0.0, "latin", {}, None, 1), "api")
        runtime.feed(TilesLaid(1.0, (Laid((6, 6), "first"),)), "vision")
        runtime.feed(TilesLaid(2.0, (Laid((6, 4), "left"),)), "vision")
        runtime.feed(CorrectTile(3.0, "6-3"), "api")
        runtime.stop()
        kinds = [e.type for e in publisher.events]
        assert kinds[:4] == ["match_started", "hand_started", "tile_played", "tile_played"]
        assert "correction" in kinds
        assert [e.seq for e in publisher.events] == list(range(1, len(publisher.events) + 1))
        # each event goes out with the table's own data, without the journal's envelope
        journaled = journal.events()
        assert [e.data for e in publisher.events] == [
            {k: v for k, v in e.items() if k not in ("seq", "t", "kind")} for e in journaled
        ]
        last = publisher.last_state
        assert last is not None and last.table == "t7" and last.seq == len(journaled)
        assert last.hand is not None and last.hand.line[0].tile == "3-6"
        assert fixes == [CorrectVision((6, 4), (6, 3))]
        assert len(leds[-1]) == 4
        assert all(isinstance(led, LedState) for led in leds[-1])
        assert [str(led) for led in leds[-1]] == snapshot(runtime.state)["device"]["leds"]
        assert journal.delivered("vision") == 2 and journal.delivered("api") == 2
        assert len(journaled) == len(publisher.events)
    with Journal(tmp_path / "j.sqlite", table="t7") as journal:
        again = TableRuntime(table="t7", journal=journal)
        assert snapshot(again.state) == snapshot(runtime.state)  # Hand compares by identity
        assert again.restored_inputs == 4


def test_the_tables_lights_become_the_devices_led_states() -> None:
    assert led_state(Light(1, 2, 3, Glow.PULSE)) == LedState(1, 2, 3, Pattern.PULSE)
    assert led_state(Light(255, 0, 0, Glow.BLINK)) == LedState(255, 0, 0, Pattern.BLINK)
    assert led_state(Light(0, 200, 0, Glow.SOLID)) == LedState(0, 200, 0, Pattern.SOLID)
    assert led_state(Light()) == LedState()
    for glow in Glow:
        light = Light(16, 32, 48, glow)
        assert str(led_state(light)) == str(light)  # the snapshot and the device say the same
    assert led_states([Light(), Light(9, 9, 9, Glow.SOLID)]) == (
        LedState(),
        LedState(9, 9, 9, Pattern.SOLID),
    )
    with pytest.raises(ValueError, match=r"light r=256 is outside 0\.\.255"):
        Light(256, 0, 0, Glow.SOLID)


def test_a_journal_keeps_tables_apart(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal(path, table="a") as a:
        TableRuntime(table="a", journal=a).feed(NewMatch(0.0, "draw"), "api")
    with Journal(path, table="b") as b:
        assert b.inputs() == [] and b.restore().match is None


def test_a_file_that_is_not_a_journal_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    path.write_bytes(b"not sqlite at all" * 100)
    try:
        Journal(path)
    except JournalError as exc:
        assert "not a table journal" in str(exc)
    else:
        raise AssertionError("a garbage file was taken for a journal")


def test_tiles_added_in_one_scene_become_one_input_in_order() -> None:
    events = [
        SceneSettled(5.0, 3),
        TileRemoved(5.0, (1, 2), CORNERS, "mm"),
        TileAdded(5.0, (6, 3), "left", CORNERS, 0.0, False, "mm"),
        TileAdded(5.0, (6, 2), "right", CORNERS, 0.0, False, "mm"),
        Unsure(5.0, "2 tiles joined the line at once: their order is a guess"),
    ]
    inputs = scene_inputs(events)
    assert inputs[0] == TileTaken(5.0, (1, 2))
    assert inputs[1] == TilesLaid(5.0, (Laid((6, 3), "left"), Laid((6, 2), "right")))
    assert type(inputs[2]).__name__ == "VisionUnsure"


def test_device_events_become_inputs() -> None:
    assert device_input(ButtonGesture(2, Gesture.LONG, 9, 1), 3.0) == Button(3.0, 2, "long")
    assert device_input(LinkDown("heartbeat timeout"), 4.0) == Link(4.0, False, "heartbeat timeout")


def test_the_recogniser_is_told_the_set_each_match_plays() -> None:
    """At each frame the reader gets the set of the match on: double-six (latin) and
    double-nine (cuban) by their rules, the reader's own default with no match; a set above
    the reader's limit (double-twelve) leaves its default too (no layout has more than 9).
    A window asked for is passed on."""
    seen: list[tuple[object, object, object, object]] = []

    class Stages:  # vision.recognition.stages with identify recorded
        @staticmethod
        def identify(
            frame: object, *, region: object, window: object, max_pips: object = "default"
        ) -> object:
            seen.append((frame, max_pips, region, window))
            return frame

    runtime = TableRuntime(table="t1")
    read = set_recogniser(Stages, "play area", runtime.max_pip)
    assert read("no match") == "no match"
    runtime.feed(NewMatch(0.0, "latin"), "test")
    read("latin", window=(1, 2, 3, 4))
    runtime.feed(NewMatch(1.0, "cuban"), "test")
    read("cuban")
    runtime.feed(NewMatch(2.0, "latin", {"max_pip": 12}), "test")
    read("double twelve")
    runtime.feed(NewMatch(3.0, "latin"), "test")
    read("latin again")
    assert seen == [
        ("no match", "default", "play area", None),
        ("latin", 6, "play area", (1, 2, 3, 4)),
        ("cuban", 9, "play area", None),
        ("double twelve", "default", "play area", None),
        ("latin again", 6, "play area", None),
    ]


def test_bench_rows_have_the_shared_shape() -> None:
    from controller.bench.runtime import _session_steps

    (row,) = _session_steps(quick=True)
    assert set(row) == {"name", "value", "unit", "target", "note"}
    assert isinstance(row["value"], float) and row["value"] > 0


def test_live_commands_become_table_inputs() -> None:
    import pytest

    from controller.runtime.adapters import command_input
    from controller.table import ConfirmReveal, SetLeader, UndoLast
    from controller.table.inputs import InputError

    made = command_input("new_match", {"preset": "latin", "target": 100, "leader": 1}, 2.0)
    assert made == NewMatch(2.0, "latin", {"target": 100}, None, 1)
    assert command_input("correct", {"actual": "6-3"}, 1.0) == CorrectTile(1.0, "6-3")
    assert command_input("undo", {}, 1.0) == UndoLast(1.0)
    assert command_input("set_leader", {"seat": 2}, 1.0) == SetLeader(1.0, 2)
    assert command_input("confirm_reveal", {"left": ["0-0 2-2", "", "1-1", "3-4"]}, 1.0) == (
        ConfirmReveal(1.0, (("0-0", "2-2"), (), ("1-1",), ("3-4",)))
    )
    for name, args in [
        ("new_match", {"colour": "red"}),
        ("correct", {}),
        ("set_leader", {"seat": "two"}),
        ("launch", {}),
    ]:
        with pytest.raises(InputError):
            command_input(name, args, 1.0)


def test_export_record_from_a_journal_is_accepted_by_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from controller.cli import main
    from tests.controller.table.helpers import Table, play_fixture_hand

    table = Table(leader=1)
    play_fixture_hand(table)
    table_inputs = table.inputs
    path = tmp_path / "j.sqlite"
    with Journal(path) as journal:
        runtime = TableRuntime(journal=journal)
        for inp in table_inputs:
            runtime.feed(inp, "test")
    out = tmp_path / "record.json"
    assert main(["export-record", str(path), "--out", str(out)]) == 0
    assert main(["replay", str(out), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["hands"] == [] and replayed["unfinished_hand"] is None
    record = json.loads(out.read_text())
    assert len(record["pending_hand"]["moves"]) == 19  # over, tiles not shown yet: kept apart
    with Journal(path) as journal:
        runtime = TableRuntime(journal=journal)
        for seat, tiles in enumerate(truth_left()):
            runtime.feed(Revealed(30.0 + seat, seat, tiles), "test")
    assert main(["export-record", str(path), "--out", str(out)]) == 0
    assert main(["replay", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"] == [36, 0]
    assert main(["export-record", str(tmp_path / "none.sqlite")]) == 2


def truth_left() -> list[tuple[tuple[int, int], ...]]:
    from tests.controller.table.helpers import truth

    left = truth()["record"]["hands"][0]["left"]
    return [tuple((int(t[0]), int(t[2])) for t in seat) for seat in left]
