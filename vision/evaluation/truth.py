"""Ground-truth formats read by ``domino-table vision eval``.

**Generic truth** (rendered fixtures, synthetic sets): a directory holding images and one file
``recognition-truth.json``::

    {"format": "domino-table/recognition-truth", "version": 1,
     "images": [
        {"image": "scene_0000.png",                 # path relative to the directory
         "pip_diameter_px": 4.3,                    # optional, reported only
         "tiles": [
            {"halves": [{"center": [x, y], "pips": 3}, {"center": [x, y], "pips": 5}]},
            ...]},
        ...]}

Coordinates are pixels of that image (x right, y down, pixel centres at integers). The order of
the two halves does not matter. Every tile that is face up and fully visible must be listed;
tiles that are partly hidden may be listed under ``"ignore"`` (same shape as ``"tiles"``):
readings that match them count neither as right nor as false.

**ddd** (``../shared/datasets/ddd-dev``): ``index.json`` plus one truth JSON per image with
``grid_corners_px`` and per-cell labels, as described in that dataset's README.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.errors import TruthFormatError
from vision.evaluation.scoring import PredHalf, PredTile

GENERIC_NAME = "recognition-truth.json"
FORMAT_ID = "domino-table/recognition-truth"


@dataclass(frozen=True, slots=True)
class TruthImage:
    """One image to read and what should be read there."""

    name: str  # as listed (relative to the directory)
    path: Path
    kind: str  # "ddd" or "generic"
    raw: dict[str, Any]  # the truth object of this image
    tiles: tuple[PredTile, ...] = ()  # generic truth tiles
    ignore: tuple[PredTile, ...] = ()


def _load_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TruthFormatError(f"cannot read truth file {path}: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise TruthFormatError(f"truth file {path} is not JSON: {exc}") from exc


def _tiles(raw: object, where: str) -> tuple[PredTile, ...]:
    if not isinstance(raw, list):
        raise TruthFormatError(f"{where}: 'tiles' must be a list")
    out: list[PredTile] = []
    for i, t in enumerate(raw):
        halves = t.get("halves") if isinstance(t, dict) else None
        if not isinstance(halves, list) or len(halves) != 2:
            raise TruthFormatError(f"{where}: tile {i} needs exactly two halves")
        hs: list[PredHalf] = []
        for h in halves:
            try:
                x, y = (float(v) for v in h["center"])
                pips = h["pips"]
            except (TypeError, KeyError, ValueError) as exc:
                raise TruthFormatError(f"{where}: tile {i} has a malformed half: {h!r}") from exc
            if isinstance(pips, bool) or not isinstance(pips, int) or not 0 <= pips <= 9:
                raise TruthFormatError(f"{where}: tile {i} has pips {pips!r} (want 0..9)")
            hs.append(PredHalf((x, y), pips))
        out.append(PredTile(tuple(hs)))
    return tuple(out)


def load_truth_dir(directory: str | Path) -> list[TruthImage]:
    """The images of an evaluation directory, in order, with their truth."""
    root = Path(directory)
    if not root.is_dir():
        raise TruthFormatError(f"not a directory: {root}")
    generic = root / GENERIC_NAME
    if generic.exists():
        data = _load_json(generic)
        if not isinstance(data, dict) or data.get("format") != FORMAT_ID:
            raise TruthFormatError(f"{generic}: 'format' must be {FORMAT_ID!r}")
        images = data.get("images")
        if not isinstance(images, list):
            raise TruthFormatError(f"{generic}: 'images' must be a list")
        out: list[TruthImage] = []
        for k, entry in enumerate(images):
            if not isinstance(entry, dict) or not isinstance(entry.get("image"), str):
                raise TruthFormatError(f"{generic}: image {k} needs an 'image' path")
            where = f"{generic} [{entry['image']}]"
            out.append(
                TruthImage(
                    name=entry["image"],
                    path=root / entry["image"],
                    kind="generic",
                    raw=entry,
                    tiles=_tiles(entry.get("tiles"), where),
                    ignore=_tiles(entry.get("ignore", []), where),
                )
            )
        return out
    index = root / "index.json"
    if index.exists():
        data = _load_json(index)
        images = data.get("images") if isinstance(data, dict) else None
        if not isinstance(images, list):
            raise TruthFormatError(f"{index}: 'images' must be a list")
        out = []
        for entry in images:
            name = entry.get("image") if isinstance(entry, dict) else None
            if not isinstance(name, str):
                raise TruthFormatError(f"{index}: every image needs an 'image' name")
            truth_name = entry.get("truth", Path(name).with_suffix(".json").name)
            raw = _load_json(root / truth_name)
            if not isinstance(raw, dict) or "grid_corners_px" not in raw or "tiles" not in raw:
                raise TruthFormatError(f"{root / truth_name}: not a ddd truth file")
            out.append(TruthImage(name=name, path=root / name, kind="ddd", raw=raw))
        return out
    raise TruthFormatError(f"{root}: no {GENERIC_NAME} and no index.json (see `vision eval -h`)")
