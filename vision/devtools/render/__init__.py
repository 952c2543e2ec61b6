"""The fixture renderer: tiles, the line's layout, the virtual camera and frame composition;
and rendered photos of tiles in many looks (:mod:`vision.devtools.render.photos`, loaded on first
use: it needs OpenCV at import)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vision.devtools.render.looks import Look, sample_look
from vision.devtools.render.scene import RenderParams, SceneRenderer, sweep_params
from vision.devtools.render.tiles import PIP_LAYOUTS, PlacedTile, RenderError

if TYPE_CHECKING:
    from vision.devtools.render.photos import (
        FaceDown,
        TablePhoto,
        crop_look,
        render_crop,
        render_table,
        table_look,
    )

_PHOTOS = frozenset(
    {"FaceDown", "TablePhoto", "crop_look", "render_crop", "render_table", "table_look"}
)

__all__ = [
    "PIP_LAYOUTS",
    "FaceDown",
    "Look",
    "PlacedTile",
    "RenderError",
    "RenderParams",
    "SceneRenderer",
    "TablePhoto",
    "crop_look",
    "render_crop",
    "render_table",
    "sample_look",
    "sweep_params",
    "table_look",
]


def __getattr__(name: str) -> Any:
    if name in _PHOTOS:
        from vision.devtools.render import photos

        return getattr(photos, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
