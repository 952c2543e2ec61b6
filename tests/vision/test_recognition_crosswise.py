"""A double laid crosswise in the line, both long sides touched by its neighbours' ends (a gap
of about a millimetre): its dividing bar can run into the seams with them, so its dark region
is no bar of its own. The line and the look are those of a rendered sweep scene whose double
was missed; expected pips are what the renderer drew, never a reading.
"""

import math

import numpy as np
import pytest

from vision.calibration.geometry import default_geometry
from vision.devtools.render.scene import RenderParams, SceneRenderer
from vision.devtools.render.tiles import PlacedTile
from vision.recognition import identify

#: (pips, centre mm, angle deg): 5-1, 6-5 | 6-6 crosswise | 6-4, 4-3
LINE = (
    ((6, 6), (379.84, 379.73), 89.54),
    ((6, 4), (418.68, 380.04), -0.53),
    ((4, 3), (469.26, 380.05), -0.26),
    ((6, 5), (341.37, 379.72), 179.25),
    ((5, 1), (290.52, 380.22), 180.38),
)

LOOK = RenderParams(
    width=1600,
    height=900,
    light=0.754,
    light_gradient=0.28,
    shadow=0.291,
    blur=0.6,
    noise=1.97,
    jpeg_quality=90,
    tilt_deg=11.18,
    yaw_deg=-4.28,
    surface="blue",
    tile_look="white",
)


@pytest.mark.parametrize("seed", range(4))
def test_a_crosswise_double_between_touching_tiles_is_read(seed: int) -> None:
    rng = np.random.default_rng(seed)
    renderer = SceneRenderer(default_geometry(), LOOK, rng, noise_frames=1)
    tiles = [PlacedTile(pips, centre, angle) for pips, centre, angle in LINE]
    image = renderer.finish(
        renderer.to_camera(renderer.draw_tiles(renderer.background, tiles)), rng
    )
    reading = identify(image)
    assert len(reading.tiles) == len(tiles)
    for tile in tiles:
        halves = renderer.project(list(renderer.top_face(tile).half_centers))
        centre = ((halves[0][0] + halves[1][0]) / 2, (halves[0][1] + halves[1][1]) / 2)
        near = [t for t in reading.tiles if math.dist(t.center, centre) < 0.3 * math.dist(*halves)]
        assert len(near) == 1, tile.name
        assert sorted(h.pips for h in near[0].halves) == sorted(tile.pips), tile.name
