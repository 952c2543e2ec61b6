"""Bad input: a clear VisionError or an empty reading, never a crash or an invented tile."""

from __future__ import annotations

import numpy as np
import pytest

from vision.devtools.synthetic import degraded, face_down_pile
from vision.errors import InvalidImageError, VisionError
from vision.recognition import identify


@pytest.mark.parametrize(
    "image",
    [
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((0, 640), np.uint8),
        np.zeros((480, 640, 3), np.float32),
        np.zeros((480, 640, 3), np.uint16),
        np.zeros((480, 640, 2), np.uint8),
        np.zeros((2, 480, 640, 3), np.uint8),
        np.zeros((480,), np.uint8),
        np.zeros((4, 4, 3), np.uint8),
    ],
    ids=["empty", "empty-grey", "float", "uint16", "two-channels", "4d", "1d", "tiny"],
)
def test_arrays_that_are_not_images_raise(image: np.ndarray) -> None:
    with pytest.raises(InvalidImageError) as exc:
        identify(image)
    assert isinstance(exc.value, VisionError) and isinstance(exc.value, ValueError)
    assert str(exc.value)


def test_non_arrays_raise() -> None:
    with pytest.raises(InvalidImageError):
        identify([[0, 1], [2, 3]])  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [0, 128, 255])
def test_blank_images_read_nothing(value: int) -> None:
    reading = identify(np.full((720, 1280, 3), value, np.uint8))
    assert reading.tiles == ()
    assert reading.tile_length_px == 0.0


@pytest.mark.parametrize("seed", range(3))
def test_noise_reads_nothing(seed: int) -> None:
    rng = np.random.default_rng(seed)
    noise = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    assert identify(noise).tiles == ()
    speckle = np.where(rng.random((720, 1280)) < 0.03, 0, 235).astype(np.uint8)
    assert identify(speckle).tiles == ()


@pytest.mark.parametrize("back", [(235, 235, 235), (20, 20, 20), (30, 30, 160)])
def test_face_down_tiles_are_not_invented(back: tuple[int, int, int]) -> None:
    assert identify(face_down_pile(back)).tiles == ()


def test_non_contiguous_view_is_accepted_and_untouched() -> None:
    from vision.devtools.synthetic import render_scene

    scene = render_scene(1, n_tiles=8)
    view = scene.image[:, ::-1]  # mirrored, not contiguous
    before = view.copy()
    reading = identify(view)
    assert len(reading.tiles) == 8
    assert np.array_equal(before, view)


@pytest.mark.parametrize("region", [[], [(0, 0), (1, 1)], [(0, 0), (1, float("nan")), (2, 2)]])
def test_bad_region_raises(region: list[tuple[float, float]]) -> None:
    with pytest.raises(InvalidImageError):
        identify(np.zeros((64, 64, 3), np.uint8), region=region)


# Light backs are the hard case: where one back lies over another, its edge looks like a bar and
# squares of the backs either side like blank halves; where three edges meet, JPEG's ringing
# makes dark dots of a pip's size. Each pile as drawn, blurred and noisy (JPEG 55).
_LIGHT_PILES = [
    (1, 0.0, 55),
    (1, 0.7, 0),
    (1, 1.5, 0),
    (1, 1.5, 55),
    (2, 0.0, 55),
    (2, 1.0, 55),
    (3, 0.0, 55),
    (5, 0.0, 0),
    (5, 0.7, 0),
    (5, 1.0, 0),
    (6, 0.7, 55),
    (7, 0.0, 0),
    (8, 0.7, 55),
    (11, 1.0, 55),
    (11, 1.5, 55),
    (12, 1.5, 55),
]


@pytest.mark.parametrize(("seed", "sigma", "jpeg"), _LIGHT_PILES)
def test_a_pile_of_light_backs_reads_no_tile_sure(seed: int, sigma: float, jpeg: int) -> None:
    """A tile may be read there only unsure (the players are asked), never sure: the learned
    half reader refutes such halves, a double blank must show both sides of each half (a
    back lying across another, its edge for a bar, runs on past them), and one whose end does
    not show is unsure (a back lying over another's end)."""
    image = degraded(face_down_pile((235, 235, 235), seed), sigma, jpeg)
    assert [t.pips for t in identify(image).tiles if t.sure] == []
