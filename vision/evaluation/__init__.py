"""Scoring recognition against ground truth: ``domino-table vision eval``.

``evaluate_dir(DIR)`` reads every image of an evaluation directory (ddd layout or the generic
``recognition-truth.json``, see :mod:`vision.evaluation.truth`) and sums per-image scores
(:mod:`vision.evaluation.scoring`) into an :class:`EvalReport`. ``evaluate_synthetic(N)`` does
the same on scenes drawn by :mod:`vision.recognition.synthetic`, and ``write_synthetic_set``
writes such scenes with their generic truth (the format a fixture renderer can emit).
``evaluate_sweep(SEED, N)`` reads the rendered still sweep ``fixture render-stills --seed SEED``
in memory, in parallel if asked.
"""

from vision.evaluation.report import EvalReport, ImageResult
from vision.evaluation.runner import (
    evaluate_dir,
    evaluate_sweep,
    evaluate_synthetic,
    write_synthetic_set,
)
from vision.evaluation.truth import GENERIC_NAME, load_truth_dir

__all__ = [
    "GENERIC_NAME",
    "EvalReport",
    "ImageResult",
    "evaluate_dir",
    "evaluate_sweep",
    "evaluate_synthetic",
    "load_truth_dir",
    "write_synthetic_set",
]
