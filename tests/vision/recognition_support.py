"""Helpers shared by the recognition and evaluation tests (not a test module)."""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from vision.devtools.render.stills import still_scene
from vision.recognition import identify
from vision.recognition.synthetic import SyntheticScene
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


def match_scene(scene: SyntheticScene, reading: SceneReading, tol_rel: float = 0.3) -> list[str]:
    """Problems of ``reading`` against the generator's own tiles: every drawn tile must be read
    once with both pip counts right (half order free), and nothing else may be read."""
    problems: list[str] = []
    used: set[int] = set()
    tol = tol_rel * scene.tile_width_px
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
            problems.append(f"tile {tile.pips} at {tile.centers[0]} not found")
            continue
        k, pips = found
        if k in used:
            problems.append(f"tile {tile.pips} read twice")
        used.add(k)
        if pips != tile.pips:
            problems.append(f"tile {tile.pips} read as {pips}")
    extra = len(reading.tiles) - len(used)
    if extra:
        problems.append(f"{extra} tile(s) read that were not drawn")
    return problems


#: the seed of the rendered still sweep (``fixture render-stills --count 600 --seed 1``)
SWEEP_SEED = 1


def sweep_scene(
    index: int, seed: int = SWEEP_SEED
) -> tuple[npt.NDArray[np.uint8], list[tuple[str, tuple[int, int], tuple[float, float], float]]]:
    """Scene ``index`` of the sweep (``render-stills --seed seed``), rendered again exactly as
    the sweep drew it: the image and, per tile, its name, pips, centre and width (pixels)."""
    scene = still_scene(index, seed=seed)
    truth = []
    for t in scene.tiles:
        a, b = (tuple(h["center"]) for h in t["halves"])
        centre = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        pips = (t["halves"][0]["pips"], t["halves"][1]["pips"])
        truth.append((t["tile"], pips, centre, math.dist(a, b)))
    return scene.image, truth


def sweep_misses(
    index: int, seed: int = SWEEP_SEED, read: Callable[[Any], SceneReading] = identify
) -> tuple[list[str], int]:
    """The tiles of sweep scene ``index`` not read right (by ``read``), and how many tiles
    read match none."""
    image, truth = sweep_scene(index, seed)
    reading = read(image)
    missed, used = [], set()
    for name, pips, centre, width in truth:
        near = [k for k, t in enumerate(reading.tiles) if math.dist(t.center, centre) < 0.3 * width]
        if len(near) == 1 and sorted(h.pips for h in reading.tiles[near[0]].halves) == sorted(pips):
            used.add(near[0])
        else:
            missed.append(name)
    return missed, len(reading.tiles) - len(used)
