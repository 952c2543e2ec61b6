"""Is a hand over the table? The skin-colour check the stream shell runs on settled frames."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from vision.calibration.geometry import TableGeometry

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]


@dataclass(slots=True)
class SkinOcclusion:
    """Is a hand over the table? Counts skin-coloured *patches* over the play area and the reveal
    zones of a calibrated table (on a quarter-size copy of the frame).

    Only patches 3 pixels of that copy (12 of the frame) and ``min_width_mm`` across count (a
    morphological opening): a hand's palm and forearm are several centimetres wide, while where a
    light tile meets a brown table the blend of the two is skin-coloured too, but only in a rim a
    few pixels wide around each tile (anti-aliasing, blur); those rims add up as tiles are laid
    and must never pass for a hand.

    What counts is the skin-coloured share *above* the least seen so far (a skin-coloured knot in
    the wood stays out of it). A table that is itself mostly skin-coloured (more than
    ``max_background`` of the area in the first frame checked, e.g. light wood) cannot be checked
    this way: the check then switches itself off (logged).
    """

    geometry: TableGeometry
    min_fraction: float = 0.01
    max_background: float = 0.2
    #: narrower skin-coloured patches are not counted (a forearm is 60 mm wide or more, a finger
    #: about 17 mm)
    min_width_mm: float = 8.0
    _masks: dict[tuple[int, int], tuple[npt.NDArray[np.uint8], int]] = field(default_factory=dict)
    _baseline: float | None = None
    disabled: bool = False

    def _mask(self, w: int, h: int, full: tuple[int, int]) -> tuple[npt.NDArray[np.uint8], int]:
        """The checked area at ``(w, h)`` and the opening's width in pixels there."""
        import cv2

        if (w, h) not in self._masks:
            mask = np.zeros((h, w), dtype=np.uint8)
            sx, sy = w / full[0], h / full[1]
            for rect in (self.geometry.play_area, *self.geometry.reveal_zones):
                pts = np.asarray(self.geometry.table_to_image(list(rect.corners)))
                pts = np.round(pts * np.array([sx, sy])).astype(np.int32)
                cv2.fillConvexPoly(mask, pts, 255)
            play = self.geometry.play_area
            corners = np.asarray(self.geometry.table_to_image(list(play.corners)))
            px_area = abs(float(cv2.contourArea(corners.astype(np.float32)))) * sx * sy
            mm_area = (play.x1 - play.x0) * (play.y1 - play.y0)
            px_per_mm = math.sqrt(px_area / mm_area) if mm_area > 0 else 0.0
            self._masks[(w, h)] = (mask, opening_width(px_per_mm, self.min_width_mm))
        return self._masks[(w, h)]

    def __call__(self, image: Image) -> bool:
        import cv2

        if self.disabled:
            return False
        h, w = image.shape[:2]
        small = np.asarray(
            cv2.resize(image, (w // 4, h // 4), interpolation=cv2.INTER_AREA), dtype=np.uint8
        )
        mask, width = self._mask(small.shape[1], small.shape[0], (w, h))
        share = skin_share(small, mask, width)
        if self._baseline is None and share > self.max_background:
            self.disabled = True
            log.warning(
                "the table looks skin-coloured (%.0f%% of the play area): no hand check",
                100 * share,
            )
        if self.disabled:
            return False
        if self._baseline is None or share < self._baseline:
            self._baseline = share
        return share - self._baseline >= self.min_fraction


def opening_width(px_per_mm: float, min_width_mm: float) -> int:
    """Odd width (pixels, 3 or more) of the opening that drops patches under ``min_width_mm``."""
    n = max(3, round(px_per_mm * min_width_mm))
    return n if n % 2 else n + 1


def skin_share(image: Image, mask: npt.NDArray[np.uint8], width: int) -> float:
    """The share of ``mask`` covered by skin-coloured patches of ``image`` (BGR) at least
    ``width`` pixels across (thinner ones, e.g. the rims of light tiles on brown wood, dropped)."""
    import cv2

    area = int(np.count_nonzero(mask))
    if area == 0:
        return 0.0
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    skin = cv2.bitwise_or(
        cv2.inRange(hsv, (0, 48, 80), (25, 210, 255)),
        cv2.inRange(hsv, (165, 48, 80), (180, 210, 255)),
    )
    skin = cv2.bitwise_and(skin, mask)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (width, width))
    skin = cv2.morphologyEx(skin, cv2.MORPH_OPEN, kernel)
    return int(np.count_nonzero(skin)) / area
