"""A simulated table: plays plausible double-six partnership hands and yields what a table session
would publish. Drives the tests, the benchmarks and ``domino-table live simulate``; it is not the
rules engine (``controller.rules``), just a seeded source of realistic payloads."""

from __future__ import annotations

import argparse
import logging
import random
import signal
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from controller.live.models import (
    AlertView,
    DeviceView,
    HandView,
    MatchView,
    MoveView,
    PassView,
    PlacedTile,
    SeatView,
    SideView,
    StateBody,
)

SEATS = 4
NAMES = ("Ana", "Beto", "Carla", "Dani")


@dataclass
class SimTable:
    seed: int = 0
    target: int = 100
    rng: random.Random = field(init=False)
    scores: list[int] = field(default_factory=lambda: [0, 0])
    history: list[list[int]] = field(default_factory=list)
    hand_no: int = 0
    winner: int | None = None
    hands: list[list[tuple[int, int]]] = field(default_factory=list)
    line: list[PlacedTile] = field(default_factory=list)
    passes: list[PassView] = field(default_factory=list)
    lacks: list[set[int]] = field(default_factory=list)
    alerts: list[AlertView] = field(default_factory=list)
    turn: int = 0
    leader: int = 0
    move: int = 0
    consecutive_passes: int = 0
    last_move: MoveView | None = None
    phase: str = "waiting"

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def _deal(self) -> None:
        tiles = [(a, b) for a in range(7) for b in range(a, 7)]
        self.rng.shuffle(tiles)
        self.hands = [tiles[i * 7 : (i + 1) * 7] for i in range(SEATS)]
        self.line, self.passes, self.alerts = [], [], []
        self.lacks = [set() for _ in range(SEATS)]
        self.move = 0
        self.consecutive_passes = 0
        self.last_move = None
        self.hand_no += 1
        holder = next(s for s in range(SEATS) if (6, 6) in self.hands[s])
        self.leader = self.turn = holder if self.hand_no == 1 else (self.leader + 1) % SEATS
        self.phase = "playing"

    def ends(self) -> tuple[int, int] | None:
        if not self.line:
            return None
        return self.line[0].pips[0], self.line[-1].pips[1]

    def step(self) -> tuple[str, dict[str, Any]]:
        """Advance one move; returns the event (type, data)."""
        if self.winner is not None:
            self.scores, self.history, self.hand_no, self.winner = [0, 0], [], 0, None
            self.phase = "waiting"
            return "new_match", {"rules": "latin", "target": self.target}
        if self.phase in ("waiting", "scored"):
            self._deal()
            return "hand_start", {"hand_no": self.hand_no, "leader": self.leader}
        seat = self.turn
        hand = self.hands[seat]
        ends = self.ends()
        choice = None
        for candidate in sorted(hand, key=lambda t: -(t[0] + t[1])):
            if ends is None or ends[0] in candidate or ends[1] in candidate:
                choice = candidate
                break
        self.move += 1
        if choice is None:
            assert ends is not None
            self.passes.append(PassView(seat=seat, move=self.move))
            self.lacks[seat] |= {ends[0], ends[1]}
            self.last_move = MoveView(seat=seat, kind="pass", move=self.move)
            self.consecutive_passes += 1
            self.turn = (seat + 1) % SEATS
            if self.consecutive_passes >= SEATS:
                return self._score(blocked=True)
            return "pass", {"seat": seat, "move": self.move}
        self.consecutive_passes = 0
        hand.remove(choice)
        a, b = choice
        end: Literal["left", "right", "first"]
        if ends is None:
            placed, end = (a, b), "first"
        elif ends[1] in choice:
            placed, end = ((a, b) if a == ends[1] else (b, a)), "right"
        else:
            placed, end = ((a, b) if b == ends[0] else (b, a)), "left"
        tile = PlacedTile(
            tile=f"{a}-{b}", pips=placed, end=end, seat=seat, double=a == b, move=self.move
        )
        if end == "left":
            self.line.insert(0, tile)
        else:
            self.line.append(tile)
        self.last_move = MoveView(seat=seat, kind="play", move=self.move, tile=tile.tile, end=end)
        self.turn = (seat + 1) % SEATS
        if not hand:
            return self._score(blocked=False, seat=seat)
        return "tile_played", {"seat": seat, "tile": tile.tile, "end": end, "move": self.move}

    def _score(self, *, blocked: bool, seat: int | None = None) -> tuple[str, dict[str, Any]]:
        pips = [sum(a + b for a, b in h) for h in self.hands]
        side_pips = [pips[0] + pips[2], pips[1] + pips[3]]
        if seat is not None:
            won = seat % 2
        else:
            won = (
                0
                if side_pips[0] < side_pips[1]
                else 1
                if side_pips[1] < side_pips[0]
                else (self.leader % 2)
            )
        points = side_pips[1 - won]
        gained = [0, 0]
        gained[won] = points
        self.scores[won] += points
        self.history.append(gained)
        self.phase = "scored"
        self.turn = self.leader
        if self.scores[won] >= self.target:
            self.winner = won
        return "hand_end", {"side": won, "points": points, "blocked": blocked}

    def body(self, *, device_link: Literal["up", "down", "absent"] = "up") -> StateBody:
        match = MatchView(
            rules="latin",
            options={"target": self.target},
            target=self.target,
            sides=[
                SideView(name="Ana & Carla", seats=[0, 2], score=self.scores[0]),
                SideView(name="Beto & Dani", seats=[1, 3], score=self.scores[1]),
            ],
            seats=[SeatView(name=n, side=i % 2) for i, n in enumerate(NAMES)],
            hand_no=self.hand_no,
            winner=self.winner,
            score_history=[list(h) for h in self.history],
        )
        hand = None
        if self.phase != "waiting":
            hand = HandView.model_validate(
                {
                    "phase": self.phase,
                    "leader": self.leader,
                    "turn": None if self.phase == "scored" else self.turn,
                    "line": self.line,
                    "ends": self.ends(),
                    "counts": [len(h) for h in self.hands],
                    "boneyard": 0,
                    "passes": self.passes,
                    "last_move": self.last_move,
                    "lacks": [sorted(s) for s in self.lacks],
                }
            )
        return StateBody(
            match=match, hand=hand, alerts=list(self.alerts), device=DeviceView(link=device_link)
        )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m controller.live.sim --broker URL --table ID``: one simulated table."""
    from controller.live.publisher import MqttPublisher
    from controller.live.settings import MqttSettings, TableSettings
    from domino_common.clock import SystemClock

    parser = argparse.ArgumentParser(prog="python -m controller.live.sim")
    parser.add_argument("--broker", required=True)
    parser.add_argument("--table", default="table-1")
    parser.add_argument("--interval", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--moves", type=int, default=0, help="stop after N moves (0: never)")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    pub = MqttPublisher(
        MqttSettings(url=args.broker), TableSettings(table=args.table), clock=SystemClock()
    )
    sim = SimTable(seed=args.seed)
    pub.publish_state(sim.body())
    pub.start()
    moves = 0
    try:
        while not stop.wait(args.interval):
            kind, data = sim.step()
            pub.publish_event(kind, data)
            pub.publish_state(sim.body())
            moves += 1
            if args.moves and moves >= args.moves:
                break
    except KeyboardInterrupt:
        pass
    finally:
        pub.stop()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
