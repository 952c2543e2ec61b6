"""Running the reader over an evaluation set.

``evaluate_set(DIR)`` scores a directory of any kind
(:func:`vision.devtools.evaluation.truth.detect_kind`): ddd and generic sets through
``evaluate_dir``, crops and scenes sets through ``evaluate_crops`` and ``evaluate_scenes``.
"""

from __future__ import annotations

import json
import multiprocessing
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.devtools.evaluation.label_report import CropReport, CropResult, SceneReport, SceneResult
from vision.devtools.evaluation.labels import ReadTile, read_tiles, score_crop, score_scene
from vision.devtools.evaluation.report import EvalReport, ImageResult
from vision.devtools.evaluation.scoring import parse_prediction, score_ddd, score_generic
from vision.devtools.evaluation.truth import (
    FORMAT_ID,
    GENERIC_NAME,
    LabelledImage,
    TruthImage,
    detect_kind,
    load_crops,
    load_scenes,
    load_truth_dir,
)
from vision.devtools.synthetic import render_scene
from vision.errors import ImageReadError, InvalidImageError
from vision.imageio import read_image
from vision.recognition import StagedParams, identify
from vision.types import SceneReading

#: ``progress(done, total, name)`` is called after each image.
Progress = Callable[[int, int, str], None]
Reader = Callable[[npt.NDArray[np.uint8]], SceneReading]
#: What ``evaluate_set`` returns: each has ``source``, ``kind``, ``summary()``, ``format_text()``.
Report = EvalReport | CropReport | SceneReport


def _reader(params: StagedParams | None, max_pips: int = 6) -> Reader:
    """The tile reader with ``params``, for a set whose largest half is ``max_pips`` (the
    sets evaluated here are double-six unless drawn otherwise)."""
    return lambda image: identify(image, params, max_pips=max_pips)


def _score(item: TruthImage, reading: SceneReading) -> ImageResult:
    pred = parse_prediction(reading.to_json())
    if item.kind == "ddd":
        score = score_ddd(item.raw, pred)
    else:
        score = score_generic(item.tiles, pred, item.ignore)
    low = sum(1 for t in reading.tiles if t.confidence < 0.5)
    return ImageResult(item.name, score, 0.0, low)


def evaluate_dir(
    directory: str | Path,
    *,
    params: StagedParams | None = None,
    max_pips: int = 6,
    progress: Progress | None = None,
    reader: Reader | None = None,
) -> EvalReport:
    """Read and score every image of ``directory`` (ddd layout or generic truth)."""
    items = load_truth_dir(directory)
    read = reader or _reader(params, max_pips)
    report = EvalReport(source=str(directory), kind=items[0].kind if items else "generic")
    for k, item in enumerate(items, 1):
        image = read_image(item.path)
        t0 = time.perf_counter()
        reading = read(image)
        seconds = time.perf_counter() - t0
        result = _score(item, reading)
        pip = item.raw.get("pip_diameter_px") if item.kind == "generic" else None
        report.images.append(
            ImageResult(
                item.name,
                result.score,
                seconds,
                result.low_confidence,
                pip_diameter_px=float(pip) if isinstance(pip, int | float) else None,
                size=f"{image.shape[1]}x{image.shape[0]}",
            )
        )
        if progress is not None:
            progress(k, len(items), item.name)
    return report


def evaluate_synthetic(
    count: int,
    *,
    seed: int = 0,
    pip_diameter_px: float | None = None,
    max_pips: int = 6,
    params: StagedParams | None = None,
    progress: Progress | None = None,
    reader: Reader | None = None,
) -> EvalReport:
    """Draw ``count`` scenes (seeds ``seed..seed+count-1``) of a set whose largest half is
    ``max_pips``, read and score them."""
    read = reader or _reader(params, max_pips)
    label = f"{count} scenes from seed {seed}" + (
        f", pip diameter {pip_diameter_px} px" if pip_diameter_px else ""
    )
    report = EvalReport(source=label, kind="synthetic")
    for k in range(count):
        scene = render_scene(seed + k, pip_diameter_px=pip_diameter_px, max_pips=max_pips)
        name = f"seed {seed + k}"
        report.images.append(_scored(name, scene.image, scene.truth_json(name), read))
        if progress is not None:
            progress(k + 1, count, name)
    return report


def _scored(
    name: str,
    image: npt.NDArray[np.uint8],
    truth: Mapping[str, object],
    read: Reader,
    *,
    pip_diameter_px: float | None = None,
) -> ImageResult:
    """``image`` read and scored against ``truth`` (``{"tiles": [...]}``, generic truth)."""
    item = TruthImage(
        name=name, path=Path(name), kind="generic", raw={}, tiles=tuple(parse_prediction(truth))
    )
    t0 = time.perf_counter()
    reading = read(image)
    seconds = time.perf_counter() - t0
    result = _score(item, reading)
    size = f"{image.shape[1]}x{image.shape[0]}"
    return ImageResult(
        name,
        result.score,
        seconds,
        result.low_confidence,
        pip_diameter_px=pip_diameter_px,
        size=size,
    )


def _read_still(
    seed: int,
    index: int,
    params: StagedParams | None,
    max_pips: int = 6,
    reader: Reader | None = None,
) -> ImageResult:
    from vision.devtools.render.stills import still_scene

    scene = still_scene(index, seed=seed)
    truth = {"tiles": scene.tiles}
    read = reader or _reader(params, max_pips)
    return _scored(f"{seed}/{index:04d}", scene.image, truth, read, pip_diameter_px=scene.pip_px)


def evaluate_sweep(
    seed: int,
    count: int,
    *,
    first: int = 0,
    jobs: int = 1,
    params: StagedParams | None = None,
    max_pips: int = 6,
    progress: Progress | None = None,
    reader: Reader | None = None,
) -> EvalReport:
    """Draw scenes ``first..first+count-1`` of the still sweep ``seed`` in memory, read and
    score them: the same images and scores as ``fixture render-stills --count N --seed S``
    followed by ``vision eval DIR``, without writing them (a 600-scene sweep is about 1.5 GB
    of PNGs). Images are named ``SEED/INDEX``. ``jobs`` > 1 reads in that many processes
    (not with a custom ``reader``, which need not pickle); the report keeps the scene order."""
    label = f"still sweep --seed {seed}, scenes {first}-{first + count - 1}"
    report = EvalReport(source=label, kind="generic")
    indices = range(first, first + count)
    if jobs <= 1 or reader is not None:
        results: Iterable[ImageResult] = (
            _read_still(seed, i, params, max_pips, reader) for i in indices
        )
        _collect(report, results, count, progress)
        return report
    context = multiprocessing.get_context("spawn")  # no fork of OpenCV's threads
    with ProcessPoolExecutor(max_workers=min(jobs, count), mp_context=context) as pool:
        results = pool.map(_read_still, repeat(seed), indices, repeat(params), repeat(max_pips))
        _collect(report, results, count, progress)
    return report


def _collect(
    report: EvalReport, results: Iterable[ImageResult], total: int, progress: Progress | None
) -> None:
    for k, result in enumerate(results, 1):
        report.images.append(result)
        if progress is not None:
            progress(k, total, result.name)


def evaluate_set(
    directory: str | Path,
    *,
    params: StagedParams | None = None,
    max_pips: int = 6,
    progress: Progress | None = None,
    reader: Reader | None = None,
) -> Report:
    """Takes an evaluation directory of any kind (ddd, generic, scenes, crops: told apart by
    :func:`~vision.devtools.evaluation.truth.detect_kind`); reads every image with ``reader``
    (default: :func:`vision.recognition.identify` with ``params`` and ``max_pips``) and
    returns its report.
    :class:`~vision.errors.TruthFormatError` when the directory is of no kind or its truth is
    malformed."""
    kind = detect_kind(directory)
    if kind == "crops":
        return evaluate_crops(
            directory, params=params, max_pips=max_pips, progress=progress, reader=reader
        )
    if kind == "scenes":
        return evaluate_scenes(
            directory, params=params, max_pips=max_pips, progress=progress, reader=reader
        )
    return evaluate_dir(
        directory, params=params, max_pips=max_pips, progress=progress, reader=reader
    )


def _read_labelled(
    item: LabelledImage, read: Reader
) -> tuple[tuple[ReadTile, ...], float, str | None]:
    """The tiles read in one photo, the seconds the reader took, and why the photo could not
    be read (then no tiles): a bad file is a result, not a crash."""
    try:
        image = read_image(item.path)
        t0 = time.perf_counter()
        reading = read(image)
        seconds = time.perf_counter() - t0
    except (ImageReadError, InvalidImageError) as exc:
        return (), 0.0, str(exc)
    return read_tiles(reading), seconds, None


def evaluate_crops(
    directory: str | Path,
    *,
    params: StagedParams | None = None,
    max_pips: int = 6,
    progress: Progress | None = None,
    reader: Reader | None = None,
) -> CropReport:
    """Takes a crops directory (photos of one tile in folders named like ``6x4``); reads and
    scores every photo (:func:`~vision.devtools.evaluation.labels.score_crop`) and returns the
    report. Photos that cannot be read are scored as missed, with the reason."""
    items = load_crops(directory)
    read = reader or _reader(params, max_pips)
    results: list[CropResult] = []
    for k, item in enumerate(items, 1):
        tiles, seconds, error = _read_labelled(item, read)
        truth = item.tiles[0]
        results.append(
            CropResult(item.name, truth, tiles, score_crop(truth, tiles), seconds, error)
        )
        if progress is not None:
            progress(k, len(items), item.name)
    return CropReport(str(directory), tuple(results))


def evaluate_scenes(
    directory: str | Path,
    *,
    params: StagedParams | None = None,
    max_pips: int = 6,
    progress: Progress | None = None,
    reader: Reader | None = None,
) -> SceneReport:
    """Takes a scenes directory (photos listed in ``truth.json`` with their tiles); reads and
    scores every photo (:func:`~vision.devtools.evaluation.labels.score_scene`) and returns the
    report. Photos that cannot be read have every labelled tile missed, with the reason."""
    items = load_scenes(directory)
    read = reader or _reader(params, max_pips)
    results: list[SceneResult] = []
    for k, item in enumerate(items, 1):
        tiles, seconds, error = _read_labelled(item, read)
        score = score_scene(item.tiles, tiles, item.uncertain)
        results.append(
            SceneResult(
                item.name, tiles, score, item.face_down, len(item.uncertain), seconds, error
            )
        )
        if progress is not None:
            progress(k, len(items), item.name)
    return SceneReport(str(directory), tuple(results))


def write_synthetic_set(
    out: str | Path, count: int, *, seed: int = 0, pip_diameter_px: float | None = None
) -> Path:
    """Write ``count`` synthetic scenes as PNGs plus ``recognition-truth.json`` into ``out``."""
    root = Path(out)
    root.mkdir(parents=True, exist_ok=True)
    images = []
    for k in range(count):
        scene = render_scene(seed + k, pip_diameter_px=pip_diameter_px)
        name = f"scene_{seed + k:04d}.png"
        if not cv2.imwrite(str(root / name), scene.image):
            raise ImageReadError(f"cannot write {root / name}")
        images.append(scene.truth_json(name))
    doc = {"format": FORMAT_ID, "version": 1, "images": images}
    path = root / GENERIC_NAME
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return path
