"""Stage 2: the ink on the faces.

``face`` is the working image with pips and bars closed away (a grey-level closing as wide as
``close_d`` pips), so it shows the faces and the table only; ``contrast = face - grey`` is how
much darker than its surroundings each pixel is: pips, bars, seams between touching tiles and
a tile's shaded side. Ink is contrast above a share of the strongest. Pips are told from the
rest by shape, not thickness (a bar can be as thick as a pip, and a row of pips touching as thin
as a bar): a disc is cleared round every round dark blob of about a pip's size, and the ink left
("thin" ink: bars, seams, sides) is where bars are looked for.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.stages import scale
from vision.recognition.stages.params import StagedParams

U8 = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class Ink:
    """Working-resolution images, all ``(H, W)`` uint8: ``face`` (the darkest channel closed
    over pips and bars), ``contrast`` (``face`` minus the darkest channel),
    ``mask`` (1 on ink), ``thin`` (255 on thin ink); ``threshold``, the ink level in grey
    levels: ``ink_share`` of the strongest ink (99.7th percentile of ``contrast``) and at least
    ``bar_share`` of the pips' own contrast; ``pip_threshold``, the level a half's pips are read
    at: also ``ink_share`` of the pips' contrast where that is higher (a tile or two on a wide
    table are too few pixels to show in a percentile, which then measures the table's noise;
    a blurred tile's bar is fainter than its pips); ``pip_px`` in working pixels; ``lit``: the
    grey level from which a face counts as lit (``thin_lit_share`` of the brightest faces);
    ``table``: the median level of ``face``."""

    face: U8
    contrast: U8
    mask: U8
    thin: U8
    threshold: float
    pip_threshold: float
    pip_px: float
    lit: float
    table: float


def percentile(image: U8, q: float) -> float:
    """``np.percentile(image, q)`` (linear interpolation) of a uint8 image, from its
    histogram: some forty times faster on a whole frame."""
    counts = np.cumsum(cv2.calcHist([image], [0], None, [256], [0, 256]).ravel())
    n = image.size
    at = (n - 1) * q / 100.0
    lo = min(int(at), n - 1)
    t = at - lo
    a = float(np.searchsorted(counts, lo, side="right"))
    b = float(np.searchsorted(counts, min(lo + 1, n - 1), side="right"))
    return b - (b - a) * (1.0 - t) if t >= 0.5 else a + (b - a) * t


def _odd(x: float) -> int:
    return max(3, round(x) | 1)


def _pip_ink(image: U8, pips: npt.NDArray[np.float64], p: StagedParams) -> float:
    """The median of ``image`` at the pips' centres (0 with too few pips): the pips' contrast,
    or the face round them (the face image has them closed away)."""
    if len(pips) < p.min_pips_for_scale:
        return 0.0
    h, w = image.shape
    xs = np.clip(np.rint(pips[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.rint(pips[:, 1]).astype(int), 0, h - 1)
    return float(np.median(image[ys, xs]))


def find(
    grey: U8, pip_px: float, p: StagedParams, blobs: npt.NDArray[np.float64] | None = None
) -> Ink:
    """The ink of ``grey`` (the darkest channel, so coloured pips are ink) at working
    resolution with pip diameter ``pip_px``. ``blobs``: :func:`~.scale.round_blobs` of this
    very image when already found (working pixels), else they are looked for here."""
    k = _odd(2 * p.close_d * pip_px)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    face = np.asarray(cv2.morphologyEx(grey, cv2.MORPH_CLOSE, kernel), dtype=np.uint8)
    contrast = np.asarray(cv2.subtract(face, grey), dtype=np.uint8)
    found = scale.round_blobs(grey) if blobs is None else blobs
    lo, hi = p.pip_size_range[0] * pip_px, p.pip_size_range[1] * pip_px
    pips = found[(found[:, 2] >= lo) & (found[:, 2] <= hi)]
    pip_ink = _pip_ink(contrast, pips, p)
    threshold = max(p.ink_floor, p.ink_share * percentile(contrast, 99.7), p.bar_share * pip_ink)
    pip_threshold = max(threshold, p.ink_share * pip_ink)
    ink = (contrast > threshold).astype(np.uint8)
    discs = np.zeros_like(ink)
    for x, y, size in pips.tolist():
        radius = round(0.5 * size + p.pip_margin_d * pip_px)
        cv2.circle(discs, (round(x), round(y)), radius, 1, -1)
    # bars and seams lie on faces: thin ink on a darker table (its pattern, a board's print)
    # is left out, so it neither hides nor fakes bars
    # the brightest faces: the 99th percentile of the face image, or the face round the pips
    # where brighter (a tile or two on a wide table are too few pixels for the percentile)
    lit = p.thin_lit_share * max(percentile(face, 99), _pip_ink(face, pips, p))
    thin = ((ink > 0) & (discs == 0) & (face >= lit)).astype(np.uint8) * 255
    return Ink(
        face,
        contrast,
        ink,
        thin,
        threshold,
        pip_threshold,
        pip_px,
        lit,
        percentile(face, 50),
    )
