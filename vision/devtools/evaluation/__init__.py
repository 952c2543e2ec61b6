"""Scoring recognition against ground truth: ``domino-table vision eval``.

``evaluate_set(DIR)`` scores a directory of any of the four kinds of truth (see
:mod:`vision.devtools.evaluation.truth`). ``evaluate_dir(DIR)`` reads every image of a ddd or
generic
evaluation directory and sums per-image scores (:mod:`vision.devtools.evaluation.scoring`) into an
:class:`EvalReport`. ``evaluate_synthetic(N)`` does
the same on scenes drawn by :mod:`vision.devtools.synthetic`, and ``write_synthetic_set``
writes such scenes with their generic truth (the format a fixture renderer can emit).
``evaluate_sweep(SEED, N)`` reads the rendered still sweep ``fixture render-stills --seed SEED``
in memory, in parallel if asked. ``evaluate_crops(DIR)`` scores photos of single tiles
labelled by their folder (``6x4/``) and ``evaluate_scenes(DIR)`` photos of scenes whose tiles
are listed in ``truth.json`` (:mod:`vision.devtools.evaluation.labels`).
"""

from vision.devtools.evaluation.label_report import CropReport, SceneReport
from vision.devtools.evaluation.report import EvalReport, ImageResult
from vision.devtools.evaluation.runner import (
    Report,
    evaluate_crops,
    evaluate_dir,
    evaluate_scenes,
    evaluate_set,
    evaluate_sweep,
    evaluate_synthetic,
    write_synthetic_set,
)
from vision.devtools.evaluation.truth import GENERIC_NAME, detect_kind, load_truth_dir

__all__ = [
    "GENERIC_NAME",
    "CropReport",
    "EvalReport",
    "ImageResult",
    "Report",
    "SceneReport",
    "detect_kind",
    "evaluate_crops",
    "evaluate_dir",
    "evaluate_scenes",
    "evaluate_set",
    "evaluate_sweep",
    "evaluate_synthetic",
    "load_truth_dir",
    "write_synthetic_set",
]
