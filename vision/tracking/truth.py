"""Truth of rendered fixtures: the oracle that reads a scene as ``truth.json`` has it (a perfect
recogniser, to run tracking apart from recognition, and the demo's stand-in when no recogniser is
built), and the comparison of tracked events with that truth (tests, sweeps, benchmarks)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from domino_common.clock import Clock
from vision.events import SceneEvent, TileAdded
from vision.types import HalfReading, SceneReading, TileReading

Image = npt.NDArray[np.uint8]


class TruthOracle:
    """A perfect recogniser for rendered fixtures: returns what ``truth.json`` says lies on the
    table at ``clock.monotonic()`` (set it to each frame's time). Stands in for
    ``vision.recognition.identify`` to test tracking apart from recognition."""

    def __init__(self, truth: dict[str, Any], clock: Clock) -> None:
        self._scenes = truth["scenes"]
        self._times = [float(s["t_change"]) for s in self._scenes]
        self._size = (int(truth["width"]), int(truth["height"]))
        self._clock = clock
        self._cache: dict[int, SceneReading] = {}

    def __call__(self, image: Image, /) -> SceneReading:
        t = self._clock.monotonic()
        index = max(0, int(np.searchsorted(self._times, t + 1e-9, side="right")) - 1)
        if index not in self._cache:
            self._cache[index] = self._reading(self._scenes[index])
        return self._cache[index]

    def _reading(self, scene: dict[str, Any]) -> SceneReading:
        tiles = []
        lengths = []
        for tile in scene["tiles"]:
            corners = tuple((float(x), float(y)) for x, y in tile["corners"])
            halves = tuple(
                HalfReading((float(h["center"][0]), float(h["center"][1])), int(h["pips"]))
                for h in tile["halves"]
            )
            tiles.append(TileReading(corners, halves, 1.0))  # type: ignore[arg-type]
            (ax, ay), (bx, by) = halves[0].center, halves[1].center
            lengths.append(2.0 * math.hypot(ax - bx, ay - by))
        return SceneReading(
            tuple(tiles),
            self._size[0],
            self._size[1],
            float(np.median(lengths)) if lengths else 0.0,
        )


def added_tiles(events: Sequence[SceneEvent]) -> list[TileAdded]:
    return [e for e in events if isinstance(e, TileAdded)]


@dataclass(frozen=True, slots=True)
class TruthComparison:
    """The added tiles of a rendered fixture as ``truth.json`` has them and as tracking
    reported them, in order: ``(tile, end)`` with the tile's halves sorted (``"3-6"``), plus
    each add's time (truth: when the scene settled; tracking: the event's time).

    The two are equal when the tiles, their order and their ends are (times are not compared).
    """

    expected: tuple[tuple[str, str], ...]
    got: tuple[tuple[str, str], ...]
    expected_t: tuple[float, ...]
    got_t: tuple[float, ...]

    @property
    def equal(self) -> bool:
        return self.expected == self.got

    def first_difference(self) -> str | None:
        """The first add where the two part, in words; ``None`` when they are equal."""
        n_exp, n_got = len(self.expected), len(self.got)
        for i in range(max(n_exp, n_got)):
            want = self.expected[i] if i < n_exp else None
            have = self.got[i] if i < n_got else None
            if want == have:
                continue
            truth = (
                f"truth {want[0]} at {want[1]} (t={self.expected_t[i]:.2f})"
                if want
                else "truth has no more adds"
            )
            tracked = (
                f"tracked {have[0]} at {have[1]} (t={self.got_t[i]:.2f})"
                if have
                else "tracked nothing more"
            )
            return f"add {i + 1} of {n_exp}: {truth}, {tracked} ({n_got} adds tracked)"
        return None


def compare_with_truth(truth: dict[str, Any], events: Sequence[SceneEvent]) -> TruthComparison:
    """Compare tracked events with a rendered fixture's ``truth.json`` (see
    :class:`TruthComparison`): every truth move with an ``end`` against every :class:`TileAdded`."""
    moves = [m for m in truth["moves"] if "end" in m]
    adds = added_tiles(events)
    return TruthComparison(
        expected=tuple(("-".join(sorted(m["tile"].split("-"))), m["end"]) for m in moves),
        got=tuple(("-".join(sorted(str(p) for p in a.pips)), a.end) for a in adds),
        expected_t=tuple(float(m.get("t_settled", m.get("t_placed", 0.0))) for m in moves),
        got_t=tuple(a.t for a in adds),
    )
