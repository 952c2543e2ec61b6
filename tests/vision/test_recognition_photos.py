"""Recognition on rendered photos of tables (the looks of ``fixture render-photos``: light and
dark tables, paper, cloth, wood; ivory, white and pinkish tiles; shine and shadows).

Expected pips and places come from the renderer's truth (what it drew), never from a reading.
"""

from dataclasses import replace

import numpy as np
import pytest

from tests.vision.recognition_support import match_scene
from vision.devtools.render.photos import render_table, table_look
from vision.devtools.synthetic import SyntheticScene
from vision.recognition import identify


@pytest.mark.parametrize("first", range(0, 60, 20))
def test_a_close_view_of_a_few_tiles_on_any_table_reads_every_tile(first: int) -> None:
    """One to three tiles 150-300 px wide, each look drawn from its seed (60 seeds, chosen
    before they were read). A few large pips are fewer than the blotches of a textured table,
    and on a table as light as the faces a tile's edge and its shadow read as a bar, with the
    table beyond for a blank half: every tile must still be read, and nothing else."""
    problems: list[str] = []
    for seed in range(first, first + 20):
        rng = np.random.default_rng(seed)
        look = replace(table_look(seed), tile_width_px=float(rng.uniform(150, 300)))
        photo = render_table(seed, look, n_tiles=int(rng.integers(1, 4)))
        scene = SyntheticScene(photo.image, photo.tiles, look.tile_width_px, 0.0)
        found = match_scene(scene, identify(photo.image), doubts_ok=True)
        problems += [f"seed {seed} ({look.table}): {p}" for p in found]
    assert not problems, problems
