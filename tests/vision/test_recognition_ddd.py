"""A few real photos of ddd-dev, read against their hand-made truth (read from
../shared/datasets, never copied into the repository)."""

from __future__ import annotations

import pytest
from recognition_support import ddd_dev_dir, ddd_truth

from vision.devtools.evaluation.runner import read_image
from vision.devtools.evaluation.scoring import parse_prediction, score_ddd
from vision.recognition import identify

# Early and late moves of different games; 5_01 and 1_20 have tiles on the printed logo.
PHOTOS = ["1_20", "2_07", "3_13", "4_10", "5_01", "5_20"]


@pytest.mark.parametrize("name", PHOTOS)
def test_every_tile_on_the_grid_is_read(name: str) -> None:
    truth = ddd_truth(name)
    image = read_image(ddd_dev_dir() / f"{name}.jpg")
    reading = identify(image)
    score = score_ddd(truth, parse_prediction(reading.to_json()))
    assert score.wrong == []
    assert score.tiles_correct == len(truth["tiles"])
    assert score.halves_correct == 2 * len(truth["tiles"])
    assert score.false_pos == 0 and score.false_tiles == 0 and score.duplicates == 0
    assert (reading.width, reading.height) == (truth["width"], truth["height"])


def test_tile_scale_is_found_from_the_photo() -> None:
    truth = ddd_truth("1_20")
    reading = identify(read_image(ddd_dev_dir() / "1_20.jpg"))
    # Cells are about 54 px; a tile covers two cells (raised tiles look a little larger,
    # the printed border pictures a little smaller).
    assert reading.tile_length_px == pytest.approx(2 * truth["cell_px"], rel=0.12)


def test_a_play_area_keeps_the_printed_border_pictures_out() -> None:
    # The printed domino pictures on the border look like flat tiles from above and are read
    # as tiles; a play area (here the board's grid, as calibration would give it) drops them.
    truth = ddd_truth("2_10")
    image = read_image(ddd_dev_dir() / "2_10.jpg")
    everything = identify(image)
    on_grid = identify(image, region=[tuple(c) for c in truth["grid_corners_px"]])
    assert len(everything.tiles) > len(truth["tiles"])
    assert len(on_grid.tiles) == len(truth["tiles"])
    score = score_ddd(truth, parse_prediction(on_grid.to_json()))
    assert score.tiles_correct == len(truth["tiles"]) and score.outside == 0
