"""Drawing what was read onto a copy of the frame (``vision identify --annotate``)."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.types import SceneReading

U8 = npt.NDArray[np.uint8]


def annotate(image: U8, reading: SceneReading) -> U8:
    """A BGR copy of ``image`` with each tile's outline, dividing line, pip counts and
    confidence drawn (green when sure, orange below 0.8, red below 0.5)."""
    if image.ndim == 2:
        out = np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
    else:
        out = np.ascontiguousarray(image[:, :, :3]).copy()
    scale = max(reading.tile_length_px / 100.0, 0.35)
    thick = max(1, round(2 * scale))
    for tile in reading.tiles:
        colour = (0, 200, 0) if tile.confidence >= 0.8 else (0, 140, 255)
        if tile.confidence < 0.5:
            colour = (0, 0, 255)
        corners = np.rint(np.array(tile.corners)).astype(np.int32)
        cv2.polylines(out, [corners], True, colour, thick, cv2.LINE_AA)
        mid_a = (corners[0] + corners[1]) / 2
        mid_b = (corners[2] + corners[3]) / 2
        a, b = np.rint(mid_a).astype(int), np.rint(mid_b).astype(int)
        cv2.line(out, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), colour, thick, cv2.LINE_AA)
        for half in tile.halves:
            text = str(half.pips)
            (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
            org = (int(half.center[0] - tw / 2), int(half.center[1] + th / 2))
            cv2.putText(
                out,
                text,
                org,
                cv2.FONT_HERSHEY_SIMPLEX,
                scale,
                (255, 255, 255),
                thick + 2,
                cv2.LINE_AA,
            )
            cv2.putText(
                out, text, org, cv2.FONT_HERSHEY_SIMPLEX, scale, (200, 0, 0), thick, cv2.LINE_AA
            )
        x, y = corners.min(axis=0)
        cv2.putText(
            out,
            f"{tile.confidence:.2f}",
            (int(x), int(y) - 2),
            cv2.FONT_HERSHEY_SIMPLEX,
            scale * 0.5,
            colour,
            1,
            cv2.LINE_AA,
        )
    return out
