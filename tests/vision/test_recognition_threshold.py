"""The face threshold on a bright, unevenly lit table (few tiles, a light gradient)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition import identify
from vision.recognition.params import RecognitionParams

U8 = npt.NDArray[np.uint8]


def _scene(seed: int) -> tuple[U8, list[tuple[tuple[float, float], tuple[int, int]]]]:
    """1280x720: dark surroundings, a table lit from one side (grey 55-95 with texture) and
    two tiles (w = 24 px) with bars and standard pips. Returns the image and (centre, pips)."""
    rng = np.random.default_rng(seed)
    h, w = 720, 1280
    img = np.full((h, w), 38.0)
    ramp = np.linspace(55.0, 95.0, 1000)[None, :].repeat(560, axis=0)
    texture = cv2.GaussianBlur(rng.normal(0, 6, (560, 1000)), (0, 0), 3.0)
    img[80:640, 140:1140] = ramp + texture
    img += rng.normal(0, 2.0, img.shape)
    tiles = [((900.0, 300.0), (6, 2)), ((420.0, 420.0), (3, 5))]
    s = 24
    spots = {
        2: [(-1, -1), (1, 1)],
        3: [(-1, -1), (0, 0), (1, 1)],
        5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
        6: [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)],
    }
    for (cx, cy), pips in tiles:
        x0, y0 = int(cx - s), int(cy - s / 2)
        img[y0 : y0 + s, x0 : x0 + 2 * s] = 225.0
        img[y0 + 2 : y0 + s - 2, x0 + s - 1 : x0 + s + 1] = 50.0  # the bar
        for k, n in enumerate(pips):
            hx = x0 + s / 2 + k * s
            for u, v in spots[n]:
                centre = (round(hx + u * 0.28 * s), round(cy + v * 0.28 * s))
                cv2.circle(img, centre, 2, 30.0, -1, cv2.LINE_AA)
    grey = np.clip(cv2.GaussianBlur(img, (0, 0), 0.7), 0, 255).astype(np.uint8)
    return cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), tiles


def _read(
    image: U8, params: RecognitionParams | None = None
) -> list[tuple[tuple[float, float], tuple[int, int]]]:
    reading = identify(image, params)
    return [(t.center, (t.halves[0].pips, t.halves[1].pips)) for t in reading.tiles]


def test_a_lit_table_is_no_face_and_the_tiles_are_read() -> None:
    for seed in range(3):
        image, truth = _scene(seed)
        read = _read(image)
        assert len(read) == len(truth), read
        for (centre, pips), (want_centre, want_pips) in zip(
            sorted(read), sorted(truth), strict=True
        ):
            assert np.hypot(centre[0] - want_centre[0], centre[1] - want_centre[1]) < 6
            assert sorted(pips) == sorted(want_pips)


def test_the_scene_needs_the_threshold_above_the_table() -> None:
    """Otsu alone splits this table in two: without the rule, table texture becomes face."""
    image, truth = _scene(0)
    plain = _read(image, RecognitionParams(white_above_table_rel=0.0))
    assert sorted(tuple(sorted(p)) for _, p in plain) != sorted(tuple(sorted(p)) for _, p in truth)
