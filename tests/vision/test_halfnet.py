"""The half classifier (vision.recognition.halfnet): the shipped net, half_patch's geometry, bad
input."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.devtools.render.looks import Look
from vision.devtools.render.photos import crop_look, render_crop
from vision.recognition.halfnet import (
    HALF_PX,
    N_CLASSES,
    NOT_A_HALF,
    classify,
    half_patch,
    half_patches,
)
from vision.recognition.stages.scale import darkest_channel


def _clean(look: Look) -> Look:
    return replace(look, defocus=0.0, blur_px=0.0, motion=0.0, noise=0.0, jpeg_quality=None)


def _halves(corners: tuple[tuple[float, float], ...]) -> list[np.ndarray]:
    """Both halves of a tile (corners as SyntheticTile lists them), corners 0 and 1 on the
    bar side."""
    c = np.asarray(corners, dtype=np.float64)
    mid_lo, mid_hi = (c[0] + c[1]) / 2, (c[3] + c[2]) / 2
    return [np.array([mid_lo, mid_hi, c[3], c[0]]), np.array([mid_hi, mid_lo, c[1], c[2]])]


def test_classify_gives_probabilities() -> None:
    rng = np.random.default_rng(0)
    patches = rng.integers(0, 256, (5, HALF_PX, HALF_PX), dtype=np.uint8)
    probs = classify(patches)
    assert probs.shape == (5, N_CLASSES)
    assert probs.dtype == np.float32
    assert np.all(probs >= 0)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    assert classify(np.zeros((0, HALF_PX, HALF_PX), np.uint8)).shape == (0, N_CLASSES)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7, 8])
def test_rendered_halves_are_read(seed: int) -> None:
    image, tile = render_crop(seed, _clean(crop_look(seed)))
    grey = darkest_channel(image)
    patches = np.stack([half_patch(grey, q) for q in _halves(tile.corners)])
    probs = classify(patches)
    assert probs.argmax(axis=1).tolist() == list(tile.pips)


def test_plain_table_is_not_a_half() -> None:
    rng = np.random.default_rng(3)
    table = np.clip(rng.normal(90, 4, (200, 200)), 0, 255).astype(np.uint8)
    table = cv2.GaussianBlur(table, (0, 0), 1.5)
    corners = np.array([(60.0, 60.0), (120.0, 60.0), (120.0, 120.0), (60.0, 120.0)])
    probs = classify(half_patch(table, corners)[None])
    assert int(probs.argmax()) == NOT_A_HALF


def test_half_patch_maps_the_corners_as_documented() -> None:
    # a square half of side 64 turned by 90 degrees: corner 0 at (164, 50), 1 at (164, 114)...
    quad = np.array([(164.0, 50.0), (164.0, 114.0), (100.0, 114.0), (100.0, 50.0)])
    grey = np.full((200, 260), 200, np.uint8)
    # patch pixel (r, c) = (8, 24) lies at fractions u = 24.5/32 along 0->1, v = 8.5/32 along 0->3
    u, v = 24.5 / HALF_PX, 8.5 / HALF_PX
    p = quad[0] + u * (quad[1] - quad[0]) + v * (quad[3] - quad[0])
    cv2.circle(grey, (round(p[0]), round(p[1])), 2, 0, -1)
    patch = half_patch(grey, quad)
    assert patch.shape == (HALF_PX, HALF_PX)
    assert patch.dtype == np.uint8
    r, c = np.unravel_index(int(np.argmin(patch)), patch.shape)
    assert abs(int(r) - 8) <= 1
    assert abs(int(c) - 24) <= 1
    # a large half is area-averaged: a 1-px checkerboard comes out flat grey
    board = (np.indices((400, 400)).sum(axis=0) % 2 * 255).astype(np.uint8)
    big = half_patch(board, np.array([(10.0, 10.0), (330.0, 10.0), (330.0, 330.0), (10.0, 330.0)]))
    assert abs(float(big.mean()) - 127.5) < 3
    assert int(big.max()) - int(big.min()) < 16


def test_half_patches_are_half_patch_at_once() -> None:
    # squares of 5 to 300 px at any angle, some off the image (its edge repeats), some
    # oversampled: the pipeline's batch is the patches the net was trained on, to a grey level
    rng = np.random.default_rng(0)
    grey = np.asarray(cv2.GaussianBlur(rng.integers(0, 256, (300, 400), np.uint8), (0, 0), 2))
    quads = []
    for _ in range(600):
        c, w, a = rng.uniform(-20, 420, 2), rng.uniform(5, 300), rng.uniform(0, 2 * np.pi)
        u = np.array([np.cos(a), np.sin(a)])
        n = np.array([-u[1], u[0]]) * rng.choice([1, -1])
        quads.append([c - u * w / 2, c + u * w / 2, c + u * w / 2 + n * w, c - u * w / 2 + n * w])
    together = half_patches(grey, np.array(quads))
    alone = np.stack([half_patch(grey, np.array(q)) for q in quads])
    assert together.shape == (600, HALF_PX, HALF_PX)
    assert np.abs(together.astype(int) - alone).max() <= 1
    assert half_patches(grey, np.zeros((0, 4, 2))).shape == (0, HALF_PX, HALF_PX)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: classify(np.zeros((2, HALF_PX, HALF_PX), np.float32)), "uint8"),
        (lambda: classify(np.zeros((2, 16, 16), np.uint8)), "shape"),
        (lambda: classify(np.zeros((HALF_PX, HALF_PX), np.uint8)), "shape"),
        (lambda: half_patch(np.zeros((50, 50), np.float32), np.zeros((4, 2))), "uint8"),
        (lambda: half_patch(np.zeros((50, 50, 3), np.uint8), np.zeros((4, 2))), "grey"),
        (lambda: half_patch(np.zeros((50, 50), np.uint8), np.zeros((3, 2))), r"\(4, 2\)"),
        (lambda: half_patch(np.zeros((50, 50), np.uint8), np.zeros((4, 2))), "degenerate"),
        (lambda: half_patch(np.zeros((50, 50), np.uint8), np.full((4, 2), np.nan)), "finite"),
    ],
)
def test_bad_input_raises(call: object, match: str) -> None:
    assert callable(call)
    with pytest.raises(ValueError, match=match):
        call()
