"""Recognition on the fixture renderer's own frames at its default camera (1280x720, standard
table: tiles about 45 x 22 px, pips about 4.4 px), and tracking with the real recogniser.

Expected pips and places come from the renderer's truth (what it drew), never from a reading.
"""

import json
import math
from pathlib import Path
from typing import Any

import cv2
import pytest

from vision.devtools.fixture_writer import render_fixture
from vision.devtools.render.sample import LATIN_BLOCKED_HAND
from vision.devtools.render.scene import RenderParams
from vision.devtools.render.stills import render_stills
from vision.recognition import identify
from vision.tracking.replay import track_fixture
from vision.tracking.truth import added_tiles
from vision.types import SceneReading


def _problems(truth: dict[str, Any], reading: SceneReading) -> list[str]:
    """Every drawn tile read once with both pip counts right (half order free), nothing else."""
    problems: list[str] = []
    used: set[int] = set()
    for tile in truth["tiles"]:
        centres = [h["center"] for h in tile["halves"]]
        tol = 0.3 * math.dist(centres[0], centres[1])
        want = tuple(h["pips"] for h in tile["halves"])
        found = None
        for k, t in enumerate(reading.tiles):
            for order in ((0, 1), (1, 0)):
                if all(
                    math.dist(centres[i], t.halves[j].center) <= tol
                    for i, j in zip((0, 1), order, strict=True)
                ):
                    found = (k, (t.halves[order[0]].pips, t.halves[order[1]].pips))
        if found is None:
            problems.append(f"tile {tile['tile']} not read")
        elif found[1] != want:
            problems.append(f"tile {tile['tile']} read as {found[1]}")
        else:
            used.add(found[0])
    problems += [f"extra tile {t.center}" for k, t in enumerate(reading.tiles) if k not in used]
    return problems


@pytest.fixture(scope="module")
def stills(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("stills")
    render_stills(out, 6, seed=3, sweep=False)
    return out


@pytest.mark.parametrize("index", range(6))
def test_rendered_stills_at_1280x720_are_read_exactly(stills: Path, index: int) -> None:
    truth = json.loads((stills / f"{index:04d}.json").read_text())
    assert (truth["width"], truth["height"]) == (1280, 720)
    assert truth["pip_px"] < 4.6  # the small scale this is about
    image = cv2.imread(str(stills / f"{index:04d}.png"))
    assert _problems(truth, identify(image)) == []


def test_tracking_with_the_recogniser_equals_the_fixture_truth(tmp_path: Path) -> None:
    render_fixture(LATIN_BLOCKED_HAND, tmp_path, seed=4, params=RenderParams(fps=8.0))
    truth = json.loads((tmp_path / "truth.json").read_text())
    result = track_fixture(tmp_path, recognize=identify)
    plays = [m for m in truth["moves"] if m["kind"] == "play"]
    want = [((m["joined"], m["open"]), m["end"]) for m in plays]
    assert [(a.pips, a.end) for a in added_tiles(result.events)] == want
