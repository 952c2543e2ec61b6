"""Stage 2: the ink on the faces.

``face`` is the working image with pips and bars closed away (a grey-level closing as wide as
``close_d`` pips), so it shows the faces and the table only; ``contrast = face - grey`` is how
much darker than its surroundings each pixel is: pips, bars, seams between touching tiles and
a tile's shaded side. Ink is contrast above a share of the strongest; an opening as wide as
``thin_open_d`` pips keeps the round pips and leaves the thin lines (bars, seams, sides).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.stages.params import StagedParams

U8 = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class Ink:
    """Working-resolution images, all ``(H, W)`` uint8: ``face`` (the darkest channel closed
    over pips and bars), ``contrast`` (``face`` minus the darkest channel),
    ``mask`` (1 on ink), ``thin`` (255 on thin ink); ``threshold`` in grey levels; ``pip_px``
    in working pixels."""

    face: U8
    contrast: U8
    mask: U8
    thin: U8
    threshold: float
    pip_px: float


def _odd(x: float) -> int:
    return max(3, round(x) | 1)


def find(grey: U8, pip_px: float, p: StagedParams) -> Ink:
    """The ink of ``grey`` (the darkest channel, so coloured pips are ink) at working
    resolution with pip diameter ``pip_px``."""
    k = _odd(2 * p.close_d * pip_px)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    face = np.asarray(cv2.morphologyEx(grey, cv2.MORPH_CLOSE, kernel))
    contrast = np.asarray(cv2.subtract(face, grey))
    threshold = max(p.ink_floor, p.ink_share * float(np.percentile(contrast, 99.7)))
    ink = (contrast > threshold).astype(np.uint8)
    ko = _odd(p.thin_open_d * pip_px)
    thick = cv2.morphologyEx(
        ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ko, ko))
    )
    thin = ((ink > 0) & (thick == 0)).astype(np.uint8) * 255
    return Ink(face.astype(np.uint8), contrast.astype(np.uint8), ink, thin, threshold, pip_px)
