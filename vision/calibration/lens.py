"""Optional lens calibration from views of a ChArUco board (OpenCV conventions)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.calibration.geometry import LensCalibration, to_matrix
from vision.calibration.markers import aruco_dictionary
from vision.errors import CalibrationError

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class CharucoSpec:
    """A ChArUco board (its markers use a different dictionary from the table's corners)."""

    squares: tuple[int, int] = (7, 5)
    square_mm: float = 30.0
    marker_mm: float = 22.0
    dictionary: str = "DICT_5X5_50"

    def board(self) -> Any:
        import cv2

        return cv2.aruco.CharucoBoard(
            self.squares, self.square_mm, self.marker_mm, aruco_dictionary(self.dictionary)
        )


def charuco_board_image(spec: CharucoSpec, *, px_per_mm: float = 4.0) -> Image:
    """The board to print (grey ``uint8``), 10 mm white margin."""
    board = spec.board()
    size = (
        round(spec.squares[0] * spec.square_mm * px_per_mm),
        round(spec.squares[1] * spec.square_mm * px_per_mm),
    )
    return np.asarray(board.generateImage(size, marginSize=round(10 * px_per_mm)), dtype=np.uint8)


def calibrate_lens(images: Sequence[Image], spec: CharucoSpec | None = None) -> LensCalibration:
    """Intrinsics and distortion from several views of a ChArUco board (at least 3 usable)."""
    import cv2

    spec = spec or CharucoSpec()
    board = spec.board()
    detector = cv2.aruco.CharucoDetector(board)
    obj_points: list[Any] = []
    img_points: list[Any] = []
    size: tuple[int, int] | None = None
    for image in images:
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        size = (int(grey.shape[1]), int(grey.shape[0]))
        corners, ids, _mc, _mi = detector.detectBoard(grey)
        if ids is None or len(ids) < 6:
            continue
        obj, img = board.matchImagePoints(corners, ids)
        obj_points.append(obj)
        img_points.append(img)
    if size is None or len(obj_points) < 3:
        raise CalibrationError(
            f"lens calibration needs at least 3 views of the ChArUco board, got {len(obj_points)}"
        )
    rms, k, dist, _r, _t = cv2.calibrateCamera(obj_points, img_points, size, None, None)
    return LensCalibration(
        to_matrix(np.asarray(k)),
        tuple(float(v) for v in np.asarray(dist).reshape(-1)),
        size,
        float(rms),
    )
