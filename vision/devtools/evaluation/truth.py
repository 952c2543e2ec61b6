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

Two kinds name the tiles without saying where they lie (scored by
:mod:`vision.devtools.evaluation.labels`):

**crops** (``../shared/datasets/domibot-crops-dev``): subfolders named after a tile, ``6x4/``
(one digit, ``x``, one digit), each holding photos (jpg, jpeg, png, bmp, webp) that show that
tile and nothing else. Other files and folders are ignored.

**scenes** (``../shared/datasets/domibot-scenes-dev``): ``truth.json``::

    {"images": {"fotos_ur3/CADENA1.jpg": {          # path relative to the directory
        "tiles": ["2-2", "3-5", ...],               # every tile whose face is wholly in view
        "uncertain": [{"tile": "0-5", "why": "clipped"}],   # optional, scored neither way
        "face_down": 2},                            # optional, reported only
     ...}}

:func:`detect_kind` tells the four apart: ``recognition-truth.json`` (generic), ``index.json``
(ddd), ``truth.json`` with an ``"images"`` mapping (scenes), tile folders (crops), in that order.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.devtools.evaluation.scoring import PredHalf, PredTile
from vision.errors import TruthFormatError

GENERIC_NAME = "recognition-truth.json"
FORMAT_ID = "domino-table/recognition-truth"
SCENES_NAME = "truth.json"
DDD_INDEX = "index.json"
#: File name endings of the photos of a crops set (compared in lower case).
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
_CROP_DIR = re.compile(r"([0-9])x([0-9])")
_TILE_NAME = re.compile(r"\s*([0-9])\s*-\s*([0-9])\s*")


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


@dataclass(frozen=True, slots=True)
class LabelledImage:
    """One photo of a crops or scenes set and the tiles it shows (no positions)."""

    name: str  # relative to the set's directory, with "/" separators
    path: Path
    tiles: tuple[tuple[int, int], ...]  # as labelled (crops: the folder's one tile)
    uncertain: tuple[tuple[int, int], ...] = ()  # scenes: clipped tiles, scored neither way
    face_down: int = 0  # scenes: tiles lying face down


def _crop_dirs(root: Path) -> list[tuple[Path, tuple[int, int]]]:
    """The subfolders of ``root`` named like ``6x4``, sorted, with the tile they name."""
    out = []
    for sub in sorted(root.iterdir()):
        m = _CROP_DIR.fullmatch(sub.name)
        if m and sub.is_dir():
            out.append((sub, (int(m[1]), int(m[2]))))
    return out


def _is_scenes_truth(data: object) -> bool:
    return isinstance(data, dict) and isinstance(data.get("images"), dict)


def detect_kind(directory: str | Path) -> str:
    """Takes an evaluation directory; returns its kind: ``"generic"``, ``"ddd"``, ``"scenes"``
    or ``"crops"`` (see the module docstring). Raises :class:`TruthFormatError` with a one-line
    reason when it is none of them."""
    root = Path(directory)
    if not root.is_dir():
        raise TruthFormatError(f"not a directory: {root}")
    if (root / GENERIC_NAME).exists():
        return "generic"
    if (root / DDD_INDEX).exists():
        return "ddd"
    scenes = root / SCENES_NAME
    if scenes.exists() and _is_scenes_truth(_load_json(scenes)):
        return "scenes"
    try:
        crops = _crop_dirs(root)
    except OSError as exc:
        raise TruthFormatError(f"cannot list {root}: {exc}") from exc
    if crops:
        return "crops"
    if scenes.exists():
        raise TruthFormatError(f"{scenes}: 'images' must map each photo to its labelled tiles")
    raise TruthFormatError(
        f"{root}: no {GENERIC_NAME}, no {DDD_INDEX}, no {SCENES_NAME} and no tile folders "
        "named like 6x4 (see `vision eval -h`)"
    )


def load_crops(directory: str | Path) -> list[LabelledImage]:
    """Takes a crops directory; returns its photos (folders in name order, then files in name
    order), each labelled with its folder's tile. Raises :class:`TruthFormatError` when there
    is no tile folder or no photo in them."""
    root = Path(directory)
    out: list[LabelledImage] = []
    try:
        for sub, tile in _crop_dirs(root):
            for f in sorted(sub.iterdir()):
                if f.name.lower().endswith(IMAGE_SUFFIXES) and not f.name.startswith("."):
                    out.append(LabelledImage(f"{sub.name}/{f.name}", f, (tile,)))
    except OSError as exc:
        raise TruthFormatError(f"cannot list {root}: {exc}") from exc
    if not out:
        raise TruthFormatError(f"{root}: no photos in tile folders named like 6x4")
    return out


def _tile_names(raw: object, where: str) -> tuple[tuple[int, int], ...]:
    if not isinstance(raw, list):
        raise TruthFormatError(f'{where}: must be a list of tiles like "2-5"')
    out = []
    for item in raw:
        name = item.get("tile") if isinstance(item, dict) else item
        m = _TILE_NAME.fullmatch(name) if isinstance(name, str) else None
        if m is None:
            raise TruthFormatError(f'{where}: {item!r} is not a tile like "2-5"')
        out.append((int(m[1]), int(m[2])))
    return tuple(out)


def load_scenes(directory: str | Path) -> list[LabelledImage]:
    """Takes a scenes directory; returns its photos in name order with their labelled tiles,
    uncertain tiles and face-down count from ``truth.json``. Raises :class:`TruthFormatError`
    on a malformed file."""
    root = Path(directory)
    path = root / SCENES_NAME
    data = _load_json(path)
    if not _is_scenes_truth(data):
        raise TruthFormatError(f"{path}: 'images' must map each photo to its labelled tiles")
    out = []
    for name, label in sorted(data["images"].items()):
        where = f"{path} [{name}]"
        if not isinstance(label, dict):
            raise TruthFormatError(f"{where}: must be an object with 'tiles'")
        down = label.get("face_down", 0)
        if isinstance(down, bool) or not isinstance(down, int) or down < 0:
            raise TruthFormatError(f"{where}: 'face_down' must be a count, not {down!r}")
        out.append(
            LabelledImage(
                name,
                root / name,
                _tile_names(label.get("tiles"), f"{where} tiles"),
                _tile_names(label.get("uncertain", []), f"{where} uncertain"),
                down,
            )
        )
    return out


def load_truth_dir(directory: str | Path) -> list[TruthImage]:
    """The images of a ddd or generic evaluation directory, in order, with their truth.

    Crops and scenes sets (truth without positions) are loaded by :func:`load_crops` and
    :func:`load_scenes`; given one here, raises :class:`TruthFormatError`."""
    root = Path(directory)
    kind = detect_kind(root)
    if kind in ("crops", "scenes"):
        raise TruthFormatError(
            f"{root}: a {kind} set (tiles without positions): score it with evaluate_set"
        )
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
    index = root / DDD_INDEX
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
