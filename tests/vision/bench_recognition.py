"""pytest-benchmark figures for recognition (not collected by default: run
``pytest tests/vision/bench_recognition.py``). No assertions on time."""

from __future__ import annotations

from collections.abc import Iterator

import cv2
import pytest
from recognition_support import ddd_dev_dir, match_scene

from vision.devtools.evaluation.runner import read_image
from vision.devtools.synthetic import render_scene
from vision.recognition import identify


@pytest.fixture(autouse=True)
def one_thread() -> Iterator[None]:
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    yield
    cv2.setNumThreads(threads)


def test_bench_28_tile_scene_1280x720(benchmark) -> None:  # type: ignore[no-untyped-def]
    scene = render_scene(0, n_tiles=28)
    reading = benchmark(identify, scene.image)
    assert match_scene(scene, reading) == []


def test_bench_28_tile_scene_pip_4px(benchmark) -> None:  # type: ignore[no-untyped-def]
    scene = render_scene(1, n_tiles=28, pip_diameter_px=4.0)
    reading = benchmark(identify, scene.image)
    assert match_scene(scene, reading) == []


def test_bench_ddd_photo_1536x2040(benchmark) -> None:  # type: ignore[no-untyped-def]
    image = read_image(ddd_dev_dir() / "1_20.jpg")
    reading = benchmark(identify, image)
    assert len(reading.tiles) >= 20
