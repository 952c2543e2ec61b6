"""The fixture renderer: tiles, the line's layout, the virtual camera and frame composition."""

from vision.render.scene import RenderParams, SceneRenderer, sweep_params
from vision.render.tiles import PIP_LAYOUTS, PlacedTile, RenderError

__all__ = [
    "PIP_LAYOUTS",
    "PlacedTile",
    "RenderError",
    "RenderParams",
    "SceneRenderer",
    "sweep_params",
]
