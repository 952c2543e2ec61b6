"""Example payloads (written to ``schemas/examples/``) and a tiny deterministic game generator
used by the simulator, the tests and the benchmarks."""

from __future__ import annotations

from controller.live.models import (
    AlertView,
    BonusView,
    DevicePayload,
    DeviceView,
    EventPayload,
    HandScoreView,
    HandView,
    MatchView,
    MoveView,
    PassView,
    PlacedTile,
    RevealView,
    SeatView,
    SideView,
    StateBody,
    StatePayload,
)

EXAMPLE_TS = 1_780_000_000.0


def _placed(a: int, b: int, end: str, seat: int, move: int) -> PlacedTile:
    return PlacedTile.model_validate(
        {
            "tile": f"{a}-{b}",
            "pips": (a, b),
            "end": end,
            "seat": seat,
            "double": a == b,
            "move": move,
        }
    )


def _finished_hands(scores: tuple[int, int], hand_no: int) -> list[HandScoreView]:
    """Hand 1 won by seat 0 with a capicua, hand 2 a block won by seats 2 & 4 after a pase
    corrido by seat 4, hand 3 a block nobody won (as many as ``hand_no`` says are over)."""
    first = HandScoreView(
        hand=1,
        result="domino",
        winner=0,
        winning_seat=0,
        points=[scores[0], 0],
        bonuses=[BonusView(kind="capicua", seat=0, side=0, points=25, move=21)],
        pips=[0, 19, 5, 13],
        revealed=[[], ["6-5", "4-4"], ["3-1", "1-0"], ["6-6", "1-0"]],
    )
    second = HandScoreView(
        hand=2,
        result="block",
        winner=1,
        winning_seat=3,
        points=[0, scores[1]],
        bonuses=[BonusView(kind="pase_corrido", seat=3, side=1, points=25, move=9)],
        pips=[30, 12, 26, 2],
        revealed=[["6-6", "5-3"], ["4-2", "3-3"], ["6-5", "5-4", "1-0"], ["1-1"]],
    )
    third = HandScoreView(
        hand=3, result="block", winner=None, points=[0, 0], pips=[9, 9, 9, 9], revealed=[]
    )
    return [first, second, third][: max(hand_no - 1, 0)]


def example_body(*, hand_no: int = 3, scores: tuple[int, int] = (57, 81)) -> StateBody:
    """A latin match, mid-hand: six tiles down, a pass by seat 3, a renuncio alert."""
    line = [
        _placed(1, 6, "left", 2, 5),
        _placed(6, 6, "first", 0, 0),
        _placed(6, 2, "right", 1, 1),
        _placed(2, 2, "right", 2, 2),
        _placed(2, 5, "right", 0, 4),
        _placed(5, 3, "right", 1, 6),
    ]
    match = MatchView(
        rules="latin",
        options={"target": 100, "pase_corrido_bonus": 25},
        target=100,
        sides=[
            SideView(name="Ana & Carla", seats=[0, 2], score=scores[0]),
            SideView(name="Beto & Dani", seats=[1, 3], score=scores[1]),
        ],
        seats=[
            SeatView(name="Ana", side=0),
            SeatView(name="Beto", side=1),
            SeatView(name="Carla", side=0),
            SeatView(name="Dani", side=1),
        ],
        hand_no=hand_no,
        winner=None,
        score_history=[[scores[0], 0], [0, scores[1]], [0, 0]][: max(hand_no - 1, 0)],
        hands=_finished_hands(scores, hand_no),
    )
    hand = HandView(
        phase="playing",
        leader=0,
        turn=2,
        line=line,
        ends=(1, 3),
        counts=[5, 5, 5, 7],
        boneyard=0,
        passes=[PassView(seat=3, move=3)],
        last_move=MoveView(seat=1, kind="play", move=6, tile="5-3", end="right"),
        lacks=[[], [], [], [2, 6]],
    )
    alerts = [AlertView(kind="renuncio", seat=3, message="seat 3 passed on a 2 at move 3", move=3)]
    return StateBody(
        match=match, hand=hand, alerts=alerts, device=DeviceView(link="up", firmware="1.0.0")
    )


#: a 20-tile line (reading order, halves as laid) opened with the 6-6, and the 8 tiles left
_LONG_LINE = [
    (0, 1), (1, 1), (1, 6), (6, 6), (6, 2), (2, 2), (2, 5), (5, 5), (5, 3), (3, 3),
    (3, 0), (0, 0), (0, 6), (6, 5), (5, 4), (4, 4), (4, 2), (2, 1), (1, 5), (5, 0),
]  # fmt: skip
_OPENING = 3
_LEFT_IN_HANDS = [[], ["3-6", "4-6"], ["1-4", "1-3"], ["2-3", "3-4", "0-2", "0-4"]]


def example_reveal_body(*, shown: int = 3) -> StateBody:
    """Hand 3 is over: seat 3 went out with a capicua (the 5-0 fitted the 0 and the 5) on a
    20-tile line; the first ``shown`` seats have shown their tiles, face up. Two hands were
    scored before it."""
    line = []
    for i, (a, b) in enumerate(_LONG_LINE):
        # the left arm was laid first, outwards from the 6-6, then the right arm
        move = 1 + (_OPENING - i if i <= _OPENING else i)
        end = "first" if i == _OPENING else "left" if i < _OPENING else "right"
        line.append(_placed(a, b, end, (move - 1) % 4, move))
    body = example_body(hand_no=3, scores=(57, 81))
    assert body.match is not None
    reveal = RevealView(
        status="passed" if shown >= 4 else "incomplete",
        message=None if shown >= 4 else f"{4 - shown} more hand(s) to be shown",
        tiles=[tiles if seat < shown else None for seat, tiles in enumerate(_LEFT_IN_HANDS)],
    )
    hand = HandView(
        phase="reveal",
        leader=0,
        turn=None,
        line=line,
        ends=(0, 0),
        counts=[len(t) for t in _LEFT_IN_HANDS],
        boneyard=0,
        passes=[PassView(seat=2, move=7)],
        last_move=MoveView(seat=(len(line) - 1) % 4, kind="play", move=len(line), tile="5-0"),
        lacks=[[], [], [5], []],
        outcome="domino",
        bonuses=[BonusView(kind="capicua", seat=3, side=1, points=25, move=len(line))],
        reveal=reveal,
    )
    return body.model_copy(update={"hand": hand, "alerts": []})


def example_state() -> StatePayload:
    body = example_body()
    return StatePayload(
        seq=42, session="s-1780000000", table="table-1", ts=EXAMPLE_TS, **body.model_dump()
    )


def example_event() -> EventPayload:
    return EventPayload(
        seq=42,
        session="s-1780000000",
        table="table-1",
        ts=EXAMPLE_TS,
        type="tile_played",
        data={"seat": 1, "tile": "5-3", "end": "right", "move": 6},
    )


def example_device() -> DevicePayload:
    return DevicePayload(
        table="table-1", ts=EXAMPLE_TS, link="up", firmware="1.0.0", last_heartbeat=EXAMPLE_TS - 0.4
    )


#: the key of the example command (documentation only; never a real table's key)
EXAMPLE_CMD_KEY = b"example-key-not-a-secret"


def example_command() -> dict[str, object]:
    from controller.live.commands import signed_command

    cmd = signed_command(
        EXAMPLE_CMD_KEY,
        table="table-1",
        name="correct",
        ts=EXAMPLE_TS,
        args={"move": 4, "tile": "2-4"},
        cmd_id="c-0123456789ab",
    )
    return cmd.model_dump(mode="json", by_alias=True)
