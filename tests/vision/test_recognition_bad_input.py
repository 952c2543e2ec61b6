"""Bad input: a clear VisionError or an empty reading, never a crash or an invented tile."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.errors import InvalidImageError, VisionError
from vision.recognition import identify
from vision.recognition.synthetic import degraded, face_down_pile


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


@pytest.mark.parametrize(("sigma", "jpeg"), [(0.7, 0), (0.7, 55), (1.5, 0), (1.5, 55)])
def test_a_blurred_pile_of_light_backed_face_down_tiles_reads_no_double_blank(
    sigma: float, jpeg: int
) -> None:
    """Blurred (and with ``jpeg`` > 0, noisy and JPEG-compressed), the edge where one light
    back lies over another reads as a double blank's bar, a square of each back for its
    halves; those backs run on past the "tile's" sides, which a double blank's face never
    does (blurred 0.7 px with noise and JPEG 55, this pile gave six such tiles)."""
    image = degraded(face_down_pile((235, 235, 235)), sigma, jpeg)
    assert identify(image).tiles == ()


@pytest.mark.parametrize(("seed", "sigma"), [(2, 1.0), (3, 0.0), (6, 0.7)])
def test_a_pile_of_light_backed_face_down_tiles_reads_no_pips(seed: int, sigma: float) -> None:
    """Noisy and JPEG-compressed, a pile of light backs is read deconvolved, and where
    three backs' edges meet the ringing makes dark dots a 3's size and spacing: a "0-3"
    read at 0.47-0.57 on the pip lattice. In the frame as it was those dots are darker
    than the face by 0.21-0.31 of it, where pips read right are 0.88 at the median; with no
    other pips in the scene to measure them by, they are measured against that."""
    image = degraded(face_down_pile((235, 235, 235), seed), sigma, 55)
    assert [t.pips for t in identify(image).tiles if sum(t.pips)] == []


def test_non_contiguous_view_is_accepted_and_untouched() -> None:
    from vision.recognition.synthetic import render_scene

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


@pytest.mark.parametrize(("seed", "index"), [(1, 5), (2, 8)])
def test_tiles_too_small_to_report_are_not_placed_by_their_outline(
    seed: int, index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A camera too far or too coarse: a plain still shrunk to 40% has tiles about 9 px wide,
    # under min_tile_width_px, so none can be reported. The outline stage placed and read
    # them as dark peaks at every guess of their width all the same, which took 2-18 s a
    # frame of a 480x270 fixture; a width whose tiles cannot be reported is no longer tried.
    from vision.devtools.render.stills import still_scene
    from vision.recognition import RecognitionParams, reader

    tried: list[float] = []
    outline_tiles = reader._outline_tiles

    def spy(*args: object, **kwargs: object) -> object:
        tried.append(float(kwargs["width"]))  # type: ignore[arg-type]
        return outline_tiles(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "_outline_tiles", spy)
    scene = still_scene(index, seed=seed, sweep=False)
    small = cv2.resize(scene.image, None, fx=0.4, fy=0.4, interpolation=cv2.INTER_AREA)
    reading = identify(small)
    p = RecognitionParams()
    assert reading.tiles == ()
    assert all(1.08 * w >= p.min_tile_width_px for w in tried), tried
    # the same scene at full size is read through and through (the stage itself still runs)
    assert len(identify(scene.image).tiles) == len(scene.tiles)


@pytest.mark.parametrize(("seed", "sigma", "jpeg"), [(1, 0.0, 55), (2, 0.7, 0), (12, 1.5, 55)])
def test_a_pile_of_light_backs_reads_no_double_blank_where_a_back_runs_on(
    seed: int, sigma: float, jpeg: int
) -> None:
    """Where one light back's edge crosses another, a "double blank" a back wide can have
    each look out of it meet some other back's edge, 0.7-0.85 of a width out. A double
    blank's own edges lie 0.5 out (every look of 647 read right in sweeps and on ddd-dev
    found one by 0.6): the face running on to 0.7 out is open."""
    image = degraded(face_down_pile((235, 235, 235), seed), sigma, jpeg)
    assert [t.pips for t in identify(image).tiles if sum(t.pips) == 0] == []


@pytest.mark.parametrize(("seed", "sigma", "jpeg"), [(2, 0.0, 55), (7, 0.0, 0), (11, 1.0, 55)])
def test_a_pile_of_light_backs_reads_no_double_blank_whose_bar_runs_on_as_an_edge(
    seed: int, sigma: float, jpeg: int
) -> None:
    """Where a light back lies over the end of another, the end and a square of the back
    over it read as a double blank, the upper back's edge for its bar, open only where the
    upper back runs on past one side. A tile's bar ends at its sides; this "bar" runs on past
    that side as the upper back's edge, its face beside it."""
    image = degraded(face_down_pile((235, 235, 235), seed), sigma, jpeg)
    assert [t.pips for t in identify(image).tiles if sum(t.pips) == 0] == []


@pytest.mark.parametrize(
    ("seed", "sigma", "jpeg"), [(5, 1.0, 0), (7, 0.0, 55), (8, 0.7, 55), (9, 1.0, 0)]
)
def test_a_pile_of_light_backs_reads_no_tile_among_backs_no_tile_explains(
    seed: int, sigma: float, jpeg: int
) -> None:
    """A back half covered by another, or an end lying over one, can read as a double blank
    bounded at each look (its edges, another back's edge), its bar the upper back's edge,
    not running on; two gaps between backs, where the table shows, as a 2 (pile 9 blurred
    1 px: a "0-2"). What lies beyond it tells: more backs, face that no tile read explains,
    where a tile on a table meets the table or the tiles it is laid against."""
    image = degraded(face_down_pile((235, 235, 235), seed), sigma, jpeg)
    assert [t.pips for t in identify(image).tiles] == []
