"""Helpers shared by the recognition and evaluation tests (not a test module)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vision.devtools.synthetic import SyntheticScene
from vision.types import SceneReading

REPO = Path(__file__).resolve().parents[2]
DDD_DEV = REPO.parent / "shared" / "datasets" / "ddd-dev"


def ddd_dev_dir() -> Path:
    """The real photos beside the repository. They are always there in CI; locally a test
    that needs them is skipped when the folder is absent."""
    if not (DDD_DEV / "index.json").is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{DDD_DEV} is missing (it is always present in CI)")
        pytest.skip(f"{DDD_DEV} not present")
    return DDD_DEV


def ddd_truth(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((ddd_dev_dir() / f"{name}.json").read_text())
    return data


def match_scene(
    scene: SyntheticScene,
    reading: SceneReading,
    tol_rel: float = 0.3,
    *,
    doubts_ok: bool = False,
) -> list[str]:
    """Problems of ``reading`` against the generator's own tiles: every drawn tile must be read
    once with both pip counts right (half order free), and nothing else may be read.
    ``doubts_ok``: a tile read unsure may be wrong or stand for a drawn tile within a tile's
    width of it (a tile read across the seam of two touching tiles asks the players, which is
    what an unsure tile is for); a tile read sure must still be right."""
    problems: list[str] = []
    used: set[int] = set()
    tol = tol_rel * scene.tile_width_px
    doubted = [k for k, t in enumerate(reading.tiles) if doubts_ok and not t.sure]
    for tile in scene.tiles:
        found = None
        for k, t in enumerate(reading.tiles):
            for order in ((0, 1), (1, 0)):
                if all(
                    math.dist(tile.centers[i], t.halves[j].center) <= tol
                    for i, j in zip((0, 1), order, strict=True)
                ):
                    found = (k, (t.halves[order[0]].pips, t.halves[order[1]].pips))
        if found is None:
            centre = np.mean(tile.centers, axis=0)
            width = scene.tile_width_px
            if not any(math.dist(reading.tiles[k].center, centre) <= width for k in doubted):
                problems.append(f"tile {tile.pips} at {tile.centers[0]} not found")
            continue
        k, pips = found
        if k in used:
            problems.append(f"tile {tile.pips} read twice")
        used.add(k)
        if pips != tile.pips and k not in doubted:
            problems.append(f"tile {tile.pips} read as {pips}")
    extra = len(set(range(len(reading.tiles))) - used - set(doubted))
    if extra:
        problems.append(f"{extra} tile(s) read that were not drawn")
    return problems
