"""Example payloads (written to ``schemas/examples/``) and a tiny deterministic game generator
used by the simulator, the tests and the benchmarks."""

from __future__ import annotations

from controller.live.models import (
    AlertView,
    DevicePayload,
    DeviceView,
    EventPayload,
    HandView,
    MatchView,
    MoveView,
    PassView,
    PlacedTile,
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


def example_command() -> dict[str, object]:
    return {
        "schema": "domino-table/cmd/1",
        "id": "c-1",
        "token": "<token>",
        "ts": EXAMPLE_TS,
        "args": {"move": 4, "tile": "2-4"},
    }
