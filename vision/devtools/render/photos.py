"""Rendered photos of domino tiles, with their truth: single tiles and whole tables.

Two kinds of image, each deterministic from a seed (and an optional
:class:`~vision.devtools.render.looks.Look` that fixes everything but the tiles' places):

* :func:`render_crop`: one tile filling 40-70% of the long side of a 100-400 px photo, at any
  angle, like the crops of ``domibot-crops-dev``;
* :func:`render_table`: a table seen from above: a line of tiles end to end (doubles crosswise,
  turns), tiles touching side by side, loose tiles at any angle, and some tiles face down.

How a photo is drawn: the tiles are placed on a plane whose unit is the tile width; a similarity
(the tile width in pixels, the camera's roll) maps the plane into a flat frame of the image, a
keystone homography then into the image. Table, shadows, tiles and light are drawn on a canvas in
the flat frame (a translation of it, large enough to cover the image after the keystone), which is
warped once into the image; then the camera: blur, motion, noise and JPEG.

The truth (pips per half, half centres, corners of the top face) is the plane's poses mapped by
the same homography: it never comes from reading the image. A tile's visible side strip (tiles
are thick) lies outside its top face, so the corners are those of the face a reader sees.

This module holds the two kinds of photo, the looks of a seed and the truth; the plane and the
frame are in :mod:`vision.devtools.render.photo_plane`, placing a table's tiles in
:mod:`vision.devtools.render.photo_layout`, and the drawing (table, tiles, light, camera) in
:mod:`vision.devtools.render.photo_drawing`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, replace
from typing import Any, NamedTuple

import numpy as np

from vision.devtools.render.looks import Look, sample_look
from vision.devtools.render.photo_drawing import U8, render_photo
from vision.devtools.render.photo_layout import MAX_PIPS, TableLayout, arrange_tiles, default_count
from vision.devtools.render.photo_plane import (
    PhotoFrame,
    PlaneTile,
    apply_homography,
    face_corners,
    photo_frame,
)
from vision.devtools.synthetic import SyntheticTile
from vision.types import Point

#: Long side of a crop, pixels, and the share of it the tile's length takes.
CROP_SIDE = (100, 400)
CROP_FILL = (0.4, 0.7)
#: Tile widths (pixels) of tables drawn without a given look.
TABLE_TILE_PX = (20.0, 300.0)

# Stream tags: the look and the scene of one seed come from separate streams, so a fixed look
# leaves the scene as it is.
_LOOK_STREAM = 0x100C
_SCENE_STREAM = 0x5CE7
_CROP = 1
_TABLE = 2


@dataclass(frozen=True, slots=True)
class FaceDown:
    """A tile lying face down: no pips to read. ``center`` and the 4 ``corners`` of its top
    face (going round) in image pixels."""

    center: Point
    corners: tuple[Point, Point, Point, Point]


class TablePhoto(NamedTuple):
    """What :func:`render_table` draws: ``image`` (H, W, 3) uint8 BGR, the face-up ``tiles``
    (the truth) and the ``backs`` (face-down tiles, not tiles to read)."""

    image: U8
    tiles: tuple[SyntheticTile, ...]
    backs: tuple[FaceDown, ...]


# ---------------------------------------------------------------------------------------------
# looks of a seed


# ---------------------------------------------------------------------------------------------
# looks of a seed


def crop_look(seed: int) -> Look:
    """The look :func:`render_crop` draws for ``seed`` when given none."""
    rng = np.random.default_rng([seed, _LOOK_STREAM, _CROP])
    # The crop's long side and the tile's share of it give the tile width.
    side = math.exp(rng.uniform(math.log(CROP_SIDE[0]), math.log(CROP_SIDE[1])))
    fill = float(rng.uniform(*CROP_FILL))
    look = sample_look(rng, tile_width_px=(1.0, 1.0))
    width = side * fill / look.tile_length
    return replace(look, tile_width_px=width)


def table_look(seed: int, width: int = 1280, height: int = 720) -> Look:
    """The look :func:`render_table` draws for ``seed`` and that image size when given none:
    tiles mostly 20-70 px wide, sometimes up to 300 px (a close view of a few tiles)."""
    rng = np.random.default_rng([seed, _LOOK_STREAM, _TABLE])
    scale = min(width, height) / 720.0
    lo, hi = TABLE_TILE_PX[0], max(TABLE_TILE_PX[0] + 1, TABLE_TILE_PX[1] * min(1.0, scale))
    mid = min(70.0, hi)
    bounds = (lo, mid) if rng.random() < 0.7 else (mid, hi)
    return sample_look(rng, tile_width_px=bounds)


# ---------------------------------------------------------------------------------------------
# the truth of a photo: the plane's poses mapped into the image


def _truth(look: Look, frame: PhotoFrame, t: PlaneTile) -> SyntheticTile:
    assert t.pips is not None
    g = frame.to_image
    ax, ay = math.cos(t.angle), math.sin(t.angle)
    q = look.tile_length / 4
    halves = np.array(
        [(t.center[0] - ax * q, t.center[1] - ay * q), (t.center[0] + ax * q, t.center[1] + ay * q)]
    )
    c = apply_homography(g, halves)
    k = apply_homography(g, face_corners(t, look.tile_length))
    pts = [(float(x), float(y)) for x, y in k]
    return SyntheticTile(
        pips=t.pips,
        centers=((float(c[0, 0]), float(c[0, 1])), (float(c[1, 0]), float(c[1, 1]))),
        corners=(pts[0], pts[1], pts[2], pts[3]),
    )


def _back(look: Look, frame: PhotoFrame, t: PlaneTile) -> FaceDown:
    g = frame.to_image
    c = apply_homography(g, np.array([t.center]))[0]
    k = apply_homography(g, face_corners(t, look.tile_length))
    pts = [(float(x), float(y)) for x, y in k]
    return FaceDown((float(c[0]), float(c[1])), (pts[0], pts[1], pts[2], pts[3]))


# ---------------------------------------------------------------------------------------------
# the two kinds of photo


def render_crop(seed: int, look: Look | None = None) -> tuple[U8, SyntheticTile]:
    """A photo of one face-up tile: ``(image, truth)``, ``image`` (H, W, 3) uint8 BGR.

    The tile's length is 40-70% of the image's long side (100-400 px for the looks of
    :func:`crop_look`; a given look's ``tile_width_px`` sets the size), at any angle, wholly
    inside the image. Deterministic from ``seed`` and ``look`` (default ``crop_look(seed)``).
    """
    look = look if look is not None else crop_look(seed)
    rng = np.random.default_rng([seed, _SCENE_STREAM, _CROP])
    w, length = look.tile_width_px, look.tile_length
    tile_px = w * length
    lo = max(CROP_FILL[0], tile_px / CROP_SIDE[1])
    hi = min(CROP_FILL[1], tile_px / CROP_SIDE[0])
    # smaller shares are the commoner: most photos of one tile leave room around it
    fill = lo + (hi - lo) * float(rng.random()) ** 1.6 if lo < hi else min(lo, CROP_FILL[1])
    fill = min(max(fill, CROP_FILL[0]), CROP_FILL[1])
    side = max(16, round(tile_px / fill))
    angle = look.rotation
    a = math.radians(angle)
    # the tile's axis-aligned extent at that angle, with room for its side and shadow
    ext = (
        abs(math.cos(a)) * length * w + abs(math.sin(a)) * w,
        abs(math.sin(a)) * length * w + abs(math.cos(a)) * w,
    )
    room = 0.3 * w + 4
    short = side if rng.random() < 0.75 else round(side * float(rng.uniform(0.75, 1.0)))
    if rng.random() < 0.5:
        width, height = side, max(short, math.ceil(ext[1] + 2 * room))
    else:
        width, height = max(short, math.ceil(ext[0] + 2 * room)), side
    width = max(width, math.ceil(ext[0] + 2 * room))
    height = max(height, math.ceil(ext[1] + 2 * room))
    free_x = max(0.0, (width - ext[0]) / 2 - room)
    free_y = max(0.0, (height - ext[1]) / 2 - room)
    centre = (
        width / 2 + float(rng.uniform(-free_x, free_x)),
        height / 2 + float(rng.uniform(-free_y, free_y)),
    )
    frame = photo_frame(look, width, height, angle, centre)
    values = (int(rng.integers(0, MAX_PIPS + 1)), int(rng.integers(0, MAX_PIPS + 1)))
    tile = PlaneTile((0.0, 0.0), 0.0, values)
    image = render_photo(rng, look, frame, [tile])
    return image, _truth(look, frame, tile)


def render_table(
    seed: int,
    look: Look | None = None,
    width: int = 1280,
    height: int = 720,
    n_tiles: int | None = None,
) -> TablePhoto:
    """A photo of a table: ``TablePhoto(image, tiles, backs)``, ``image`` (height, width, 3)
    uint8 BGR.

    Up to ``n_tiles`` tiles (default: as many as cover 12-35% of the image, at most 40) that do
    not overlap and lie wholly inside the image: a line end to end (touching ends equal,
    doubles crosswise, right-angle turns), a row touching side by side, loose tiles at any
    angle; some face down (``backs``, not in ``tiles``). Tiles that find no room are left out.
    Deterministic from the arguments (``look`` default ``table_look(seed, width, height)``).
    """
    if width < 32 or height < 32:
        raise ValueError(f"image too small: {width}x{height}")
    if n_tiles is not None and n_tiles < 0:
        raise ValueError(f"n_tiles must be 0 or more, got {n_tiles}")
    look = look if look is not None else table_look(seed, width, height)
    rng = np.random.default_rng([seed, _SCENE_STREAM, _TABLE])
    frame = photo_frame(look, width, height, look.rotation, (width / 2, height / 2))
    table = TableLayout(rng, look, frame)
    n = n_tiles if n_tiles is not None else default_count(rng, look, width, height)
    arrange_tiles(rng, table, n)
    image = render_photo(rng, look, frame, table.placed)
    tiles = tuple(_truth(look, frame, t) for t in table.placed if t.pips is not None)
    backs = tuple(_back(look, frame, t) for t in table.placed if t.pips is None)
    return TablePhoto(image, tiles, backs)


def look_json(look: Look) -> dict[str, Any]:
    """``look`` as JSON-ready values (floats rounded to 4 places)."""

    def clean(v: Any) -> Any:
        if isinstance(v, float):
            return round(v, 4)
        if isinstance(v, tuple | list):
            return [clean(x) for x in v]
        return v

    return {k: clean(v) for k, v in asdict(look).items()}


def _tile_json(t: SyntheticTile) -> dict[str, Any]:
    r = 3
    return {
        "halves": [
            {"center": [round(c[0], r), round(c[1], r)], "pips": n}
            for c, n in zip(t.centers, t.pips, strict=True)
        ],
        "corners": [[round(x, r), round(y, r)] for x, y in t.corners],
    }


def tile_truth_json(tile: SyntheticTile, look: Look) -> dict[str, Any]:
    """A crop's truth, as one image of the generic truth format
    (:mod:`vision.devtools.evaluation.truth`)
    less its ``"image"`` key: the tile (half centres, pips, corners) and the look."""
    return {
        "pip_diameter_px": round(look.pip_diameter * look.tile_width_px, 3),
        "tiles": [_tile_json(tile)],
        "look": look_json(look),
    }


def table_truth_json(image_name: str, photo: TablePhoto, look: Look) -> dict[str, Any]:
    """One image of the generic truth format (:mod:`vision.devtools.evaluation.truth`): the face-up
    tiles with half centres, pips and corners; the face-down ones under ``"backs"`` (not
    tiles), and the look."""
    r = 3
    return {
        "image": image_name,
        "pip_diameter_px": round(look.pip_diameter * look.tile_width_px, r),
        "tiles": [_tile_json(t) for t in photo.tiles],
        "backs": [
            {
                "center": [round(b.center[0], r), round(b.center[1], r)],
                "corners": [[round(x, r), round(y, r)] for x, y in b.corners],
            }
            for b in photo.backs
        ],
        "look": look_json(look),
    }
