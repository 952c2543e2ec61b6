"""Stage 2: the ink on the faces (working resolution). Pips are told from other ink by shape,
not thickness (a bar can be as thick as a pip): the ink left after clearing a disc round each
pip-sized round blob ("thin" ink: bars, seams, shaded sides) is where bars are looked for.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.recognition.stages import scale
from vision.recognition.stages.arrays import F32, F64, U8, sample
from vision.recognition.stages.params import StagedParams


@dataclass(frozen=True, slots=True)
class Ink:
    """``(H, W)`` uint8 images ``face`` (the darkest channel closed over pips and bars),
    ``contrast`` (``face`` minus the darkest channel), ``mask`` (1 on ink), ``thin`` (255 on thin
    ink); grey levels ``threshold`` (ink), ``pip_threshold`` (pips are read at), ``lit`` (a face
    is lit from), ``table`` (the median face); ``pip_px``, the pip diameter in working pixels;
    ``faces``, 1 where ``face`` is at a face's level (:func:`faces`), None where no level tells;
    ``lines``: :func:`line_images`."""

    face: U8
    contrast: U8
    mask: U8
    thin: U8
    threshold: float
    pip_threshold: float
    pip_px: float
    lit: float
    table: float
    faces: U8 | None
    lines: tuple[F32, F32]


def line_images(face: U8, contrast: U8, thin: U8) -> tuple[F32, F32]:
    """``face`` and the seams (``contrast`` on ``thin`` ink) in float32, as outlines sample them."""
    return face.astype(np.float32), np.where(thin > 0, contrast, 0).astype(np.float32)


def percentile(image: U8, q: float) -> float:
    """``np.percentile(image, q)`` of a uint8 image, from its histogram (much faster)."""
    counts = np.cumsum(cv2.calcHist([image], [0], None, [256], [0, 256]).ravel())
    n = image.size
    at = (n - 1) * q / 100.0
    lo = min(int(at), n - 1)
    t = at - lo
    a = float(np.searchsorted(counts, lo, side="right"))
    b = float(np.searchsorted(counts, min(lo + 1, n - 1), side="right"))
    return b - (b - a) * (1.0 - t) if t >= 0.5 else a + (b - a) * t


def _pip_ink(image: U8, pips: F64, p: StagedParams) -> float:
    """The median of ``image`` at the pips' centres, or 0 with too few pips."""
    if len(pips) < p.min_pips_for_scale:
        return 0.0
    return float(np.median(sample(image, pips[:, :2])))


def find(grey: U8, pip_px: float, p: StagedParams, blobs: F64 | None = None) -> Ink:
    """The ink of ``grey`` (the darkest channel, so coloured pips are ink) with pip diameter
    ``pip_px``; ``blobs``: :func:`~.scale.round_blobs` of ``grey`` if already found. A tile or
    two on a wide table are too few pixels for a percentile, hence the levels from the pips."""
    k = max(3, round(2 * p.close_d * pip_px) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    face = np.asarray(cv2.morphologyEx(grey, cv2.MORPH_CLOSE, kernel), dtype=np.uint8)
    contrast = np.asarray(cv2.subtract(face, grey), dtype=np.uint8)
    found = scale.round_blobs(grey, p) if blobs is None else blobs
    lo, hi = p.pip_size_range[0] * pip_px, p.pip_size_range[1] * pip_px
    pips = found[(found[:, 2] >= lo) & (found[:, 2] <= hi)]
    pip_ink = _pip_ink(contrast, pips, p)
    threshold = max(p.ink_floor, p.ink_share * percentile(contrast, 99.7), p.bar_share * pip_ink)
    pip_threshold = max(threshold, p.ink_share * pip_ink)
    ink = (contrast > threshold).astype(np.uint8)
    discs = np.zeros_like(ink)
    for x, y, size in pips.tolist():
        cv2.circle(discs, (round(x), round(y)), round(0.5 * size + p.pip_margin_d * pip_px), 1, -1)
    # thin ink on lit faces only, so a patterned table neither hides nor fakes bars
    lit = p.thin_lit_share * max(percentile(face, 99), _pip_ink(face, pips, p))
    thin = ((ink > 0) & (discs == 0) & (face >= lit)).astype(np.uint8) * 255
    table = percentile(face, 50)
    seen = faces(face, (lit, table), pips, pip_px / p.pip_width_ratio, p)
    lines = line_images(face, contrast, thin)
    return Ink(face, contrast, ink, thin, threshold, pip_threshold, pip_px, lit, table, seen, lines)


def faces(
    face: U8, levels: tuple[float, float], pips: F64, width: float, p: StagedParams
) -> U8 | None:
    """1 where ``face`` is at a face's level; None on a table as light as the faces. On a
    darker table: lit. On a lighter one (white paper under ivory tiles), faces reflect a share
    of the light the table round them does (light and shadow scale both): the share found at
    the ``pips`` (``x, y, d``), give or take half its distance to the table's. ``levels``: the
    lit level and the median face; ``width``: the tile width (px)."""
    lit, median = levels
    if median < lit:
        return (face >= lit).astype(np.uint8)
    if len(pips) < p.min_pips_for_scale:
        return None
    table = _table_round_faces(face, width)
    at = pips[:, :2]
    level = float(np.median(sample(face, at) / np.maximum(sample(table, at), 1.0)))
    if level > 1.0 - p.face_step_share:
        return None
    lo, hi = (
        cv2.convertScaleAbs(table, alpha=max(0.0, level + k * (1 - level) / 2)) for k in (-1, 1)
    )
    return ((face > lo) & (face < hi)).astype(np.uint8)


def _table_round_faces(face: U8, width: float) -> U8:
    """The table's level round faces darker than it: ``face`` closed over two tile ``width``s,
    on a view reduced to some 8 px a width, then enlarged back."""
    s = min(1.0, 8.0 / width)
    k = max(3, round(2 * width * s) | 1)
    h, w = face.shape
    size = (max(1, round(w * s)), max(1, round(h * s)))  # a sliver of a frame stays a pixel
    small = face if s == 1.0 else cv2.resize(face, size, interpolation=cv2.INTER_AREA)
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
    closed = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel)
    return np.asarray(cv2.resize(closed, (w, h), interpolation=cv2.INTER_LINEAR), dtype=np.uint8)
