"""A tiny, deterministic game-record generator for fixtures, tests and benchmarks.

Not the rules engine (that lives in ``controller.rules``): it plays greedy bots just well enough to
produce a *legal* record (RULES.md section 6) of one hand of ``latin`` (4 seats, all 28 tiles
dealt, the holder of 6-6 opens with it) or ``draw`` (2 seats, 14 in the boneyard, the highest
double opens, draw until a tile fits).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.devtools.render.tiles import RenderError


def _fits(tile: tuple[int, int], ends: tuple[int, int]) -> list[str]:
    out = []
    if ends[0] in tile:
        out.append("left")
    if ends[1] in tile:
        out.append("right")
    return out


def _name(t: tuple[int, int]) -> str:
    return f"{t[0]}-{t[1]}"


def sample_record(seed: int, *, rules: str = "latin", max_pip: int = 6) -> dict[str, Any]:
    """One hand, played by greedy random bots, as a game record dict."""
    if rules not in ("latin", "draw"):
        raise RenderError(f"sample records exist for 'latin' and 'draw', not {rules!r}")
    rng = np.random.default_rng(seed)
    tiles = [(a, b) for a in range(max_pip + 1) for b in range(a, max_pip + 1)]
    order = [tiles[i] for i in rng.permutation(len(tiles))]
    seats = 4 if rules == "latin" else 2
    per_hand = 7
    hands = [
        [(b, a) if rng.random() < 0.5 else (a, b) for a, b in order[s * 7 : s * 7 + 7]]
        for s in range(seats)
    ]
    yard = order[seats * per_hand :] if rules == "draw" else []
    dealt = [[_name(t) for t in h] for h in hands]
    moves: list[dict[str, Any]] = []
    top = (max_pip, max_pip)
    if rules == "latin":
        leader = next(s for s, h in enumerate(hands) if top in h)
        first = top
    else:
        doubles = [(t[0], s) for s, h in enumerate(hands) for t in h if t[0] == t[1]]
        if not doubles:
            raise RenderError(f"seed {seed}: nobody holds a double (redeal); try another seed")
        pip, leader = max(doubles)
        first = (pip, pip)
    hands[leader].remove(first)
    moves.append({"seat": leader, "play": _name(first)})
    ends = first
    seat = leader
    passes = 0
    while True:
        seat = (seat + 1) % seats
        hand = hands[seat]
        playable = [t for t in hand if _fits(t, ends)]
        while not playable and yard:
            drawn = yard.pop(0)
            hand.append(drawn)
            moves.append({"seat": seat, "draw": _name(drawn)})
            playable = [t for t in hand if _fits(t, ends)]
        if not playable:
            moves.append({"seat": seat, "pass": True})
            passes += 1
            if passes >= seats:
                break
            continue
        passes = 0
        tile = playable[int(rng.integers(len(playable)))]
        options = _fits(tile, ends)
        end = options[int(rng.integers(len(options)))]
        hand.remove(tile)
        moves.append({"seat": seat, "play": _name(tile), "end": end})
        a, b = tile
        if end == "left":
            ends = (b if a == ends[0] else a, ends[1])
        else:
            ends = (ends[0], b if a == ends[1] else a)
        if not hand:
            break
    return {
        "format": "domino-record/1",
        "rules": rules,
        "options": {},
        "seats": [f"Seat {i}" for i in range(seats)],
        "hands": [
            {
                "dealt": dealt,
                "moves": moves,
                "left": [[_name(t) for t in h] for h in hands],
            }
        ],
    }


#: A short legal ``latin`` hand written out in full (28 tiles dealt, seat 2 holds 6-6 and opens):
#: 13 plays, then the 1s are all on the table with 1 at both ends, so all four seats pass (a
#: certain block) and every seat lays its remaining tiles face up.
LATIN_BLOCKED_HAND: dict[str, Any] = {
    "format": "domino-record/1",
    "rules": "latin",
    "options": {},
    "seats": ["Ana", "Beto", "Carla", "Dani"],
    "hands": [
        {
            "dealt": [
                ["5-3", "2-0", "0-0", "3-1", "4-6", "0-5", "4-0"],
                ["2-5", "0-1", "4-1", "5-4", "2-3", "2-2", "4-2"],
                ["1-1", "5-5", "6-6", "1-6", "4-4", "1-2", "3-0"],
                ["0-6", "4-3", "3-3", "6-2", "3-6", "5-1", "6-5"],
            ],
            "moves": [
                {"seat": 2, "play": "6-6"},
                {"seat": 3, "play": "6-5", "end": "left"},
                {"seat": 0, "play": "4-6", "end": "right"},
                {"seat": 1, "play": "4-1", "end": "right"},
                {"seat": 2, "play": "1-6", "end": "right"},
                {"seat": 3, "play": "5-1", "end": "left"},
                {"seat": 0, "play": "3-1", "end": "left"},
                {"seat": 1, "play": "2-3", "end": "left"},
                {"seat": 2, "play": "1-2", "end": "left"},
                {"seat": 3, "play": "0-6", "end": "right"},
                {"seat": 0, "play": "0-0", "end": "right"},
                {"seat": 1, "play": "0-1", "end": "right"},
                {"seat": 2, "play": "1-1", "end": "right"},
                {"seat": 3, "pass": True},
                {"seat": 0, "pass": True},
                {"seat": 1, "pass": True},
                {"seat": 2, "pass": True},
            ],
            "left": [
                ["5-3", "2-0", "0-5", "4-0"],
                ["2-5", "5-4", "2-2", "4-2"],
                ["5-5", "4-4", "3-0"],
                ["4-3", "3-3", "6-2", "3-6"],
            ],
        }
    ],
}
