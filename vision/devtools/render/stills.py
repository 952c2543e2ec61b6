"""Still scenes for recognition sweeps: many single frames, each with its truth.

Each scene is a line part-way through a greedy game (and, for some, tiles laid face up in the
reveal zones) under one point of the parameter sweep. Written as ``NNNN.png`` plus ``NNNN.json``
in the ``vision identify --json`` format of DESIGN.md (image pixels), with extra keys:
``"tile"`` per tile and, per image, ``"params"`` and ``"pip_px"`` (the smallest pip diameter
in the image, to bin results by scale); plus one ``recognition-truth.json`` for the whole
directory, the generic truth format ``vision eval DIR`` reads.

:func:`export_fixture_stills` does the same from a rendered fixture: one frame per still scene.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.calibration.geometry import default_geometry
from vision.devtools.render.layout import LineLayout, jittered, parse_tile, reveal_row
from vision.devtools.render.sample import sample_record
from vision.devtools.render.scene import RenderParams, SceneRenderer, sweep_params
from vision.devtools.render.tiles import PlacedTile, RenderError

#: (width, height) choices of a sweep: the default table gives pips of about 4.5, 5.6, 6.8 px
RESOLUTIONS = ((1280, 720), (1600, 900), (1920, 1080))


def _scene_tiles(seed: int, rng: np.random.Generator) -> list[PlacedTile]:
    geometry = default_geometry()
    record = sample_record(seed)
    hand = record["hands"][0]
    plays = [m for m in hand["moves"] if "play" in m]
    k = int(rng.integers(1, len(plays) + 1))
    layout = LineLayout(geometry, obstacles=[geometry.boneyard] if geometry.boneyard else [])
    tiles = []
    for m in plays[:k]:
        try:
            placed = layout.place(parse_tile(m["play"]), m.get("end"))
        except RenderError:
            # a long greedy game can outgrow the play area: the scene is the line so far
            break
        tiles.append(jittered(placed.tile, rng, shift=0.3, turn=1.0))
    if k == len(plays) or rng.random() < 0.3:
        for seat, left in enumerate(hand["left"]):
            if left:
                row = reveal_row(geometry, seat, [parse_tile(t) for t in left])
                tiles.extend(jittered(t, rng, shift=1.0, turn=2.0) for t in row)
    return tiles


@dataclass(frozen=True, slots=True)
class StillScene:
    """One still scene: the camera image and its truth."""

    image: npt.NDArray[np.uint8]
    params: RenderParams
    #: per tile, in ``vision identify --json`` form plus ``"tile"`` (its name)
    tiles: list[dict[str, Any]]
    #: the smallest pip diameter in the image (pixels)
    pip_px: float


def still_scene(
    index: int, *, seed: int, base: RenderParams | None = None, sweep: bool = True
) -> StillScene:
    """Scene ``index`` of the still set ``seed``: exactly what ``render_stills`` writes as
    ``{index:04d}.png`` and ``.json`` (each scene has its own random stream, so any one of them
    can be drawn alone)."""
    base = base or RenderParams()
    rng = np.random.default_rng([seed, index, 11])
    params = base
    if sweep:
        w, h = RESOLUTIONS[int(rng.integers(len(RESOLUTIONS)))]
        params = sweep_params(index, seed, replace(base, width=w, height=h))
    renderer = SceneRenderer(default_geometry(), params, rng, noise_frames=1)
    tiles = _scene_tiles(seed * 100_003 + index, rng)
    canvas = renderer.draw_tiles(renderer.background, tiles)
    image = renderer.finish(renderer.to_camera(canvas), rng)
    truth_tiles = []
    pip_px = math.inf
    for t in tiles:
        top = renderer.top_face(t)  # the visible top face, parallax included
        corners = renderer.project(list(top.corners))
        halves = renderer.project(list(top.half_centers))
        # a pip's diameter in the image: project a pip-sized segment at the tile's centre
        a, b = renderer.project(
            [t.center, (t.center[0] + renderer.style.pip_diameter, t.center[1])]
        )
        pip_px = min(pip_px, math.hypot(b[0] - a[0], b[1] - a[1]))
        truth_tiles.append(
            {
                "tile": t.name,
                "halves": [
                    {"center": [round(x, 2), round(y, 2)], "pips": n}
                    for (x, y), n in zip(halves, t.pips, strict=True)
                ],
                "corners": [[round(x, 2), round(y, 2)] for x, y in corners],
                "confidence": 1.0,
            }
        )
    return StillScene(np.asarray(image, dtype=np.uint8), params, truth_tiles, pip_px)


def render_stills(
    out_dir: Path,
    count: int,
    *,
    seed: int,
    base: RenderParams | None = None,
    sweep: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> list[Path]:
    """Render ``count`` still scenes into ``out_dir``; returns the image paths."""
    import cv2

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    entries: list[dict[str, Any]] = []
    for i in range(count):
        scene = still_scene(i, seed=seed, base=base, sweep=sweep)
        path = out_dir / f"{i:04d}.png"
        cv2.imwrite(str(path), scene.image)
        truth = {
            "tiles": scene.tiles,
            "image": path.name,
            "width": scene.params.width,
            "height": scene.params.height,
            "pip_px": round(scene.pip_px, 2),
            "params": scene.params.to_json(),
        }
        path.with_suffix(".json").write_text(json.dumps(truth) + "\n", encoding="utf-8")
        entries.append(_eval_entry(path.name, scene.tiles, scene.pip_px))
        paths.append(path)
        if progress is not None:
            progress(i + 1, count)
    write_recognition_truth(out_dir, entries)
    return paths


RECOGNITION_TRUTH = "recognition-truth.json"


def _eval_entry(name: str, tiles: Sequence[dict[str, Any]], pip_px: float | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"image": name, "tiles": [{"halves": t["halves"]} for t in tiles]}
    if pip_px is not None:
        entry["pip_diameter_px"] = round(pip_px, 2)
    return entry


def write_recognition_truth(out_dir: Path, entries: Sequence[dict[str, Any]]) -> Path:
    """``recognition-truth.json``: the generic truth of ``vision eval DIR``."""
    path = Path(out_dir) / RECOGNITION_TRUTH
    doc = {"format": "domino-table/recognition-truth", "version": 1, "images": list(entries)}
    path.write_text(json.dumps(doc) + "\n", encoding="utf-8")
    return path


def export_fixture_stills(fixture_dir: Path, out_dir: Path, *, after_s: float = 0.25) -> list[Path]:
    """One PNG per still scene of a rendered fixture (the frame ``after_s`` seconds after it
    settles), with ``recognition-truth.json``: recognition scored on the frames tracking reads."""
    import cv2

    fixture_dir, out_dir = Path(fixture_dir), Path(out_dir)
    truth = json.loads((fixture_dir / "truth.json").read_text(encoding="utf-8"))
    fps = float(truth["fps"])
    wanted: dict[int, dict[str, Any]] = {}
    for scene in truth["scenes"]:
        k = math.ceil((scene["t_settled"] + after_s) * fps - 1e-9)
        if k < int(truth["frames"]) and k / fps < scene["t_until"]:
            wanted[k] = scene
    out_dir.mkdir(parents=True, exist_ok=True)
    capture = cv2.VideoCapture(str(fixture_dir / truth["video"]))
    paths: list[Path] = []
    entries: list[dict[str, Any]] = []
    k = 0
    try:
        while wanted and k <= max(wanted):
            ok, frame = capture.read()
            if not ok:
                break
            if k in wanted:
                path = out_dir / f"scene_{wanted[k]['index']:04d}.png"
                cv2.imwrite(str(path), frame)
                entries.append(_eval_entry(path.name, wanted[k]["tiles"], None))
                paths.append(path)
            k += 1
    finally:
        capture.release()
    write_recognition_truth(out_dir, entries)
    return paths
