"""ArUco corner markers: drawn, found in an image, and fitted to the table's homography."""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.calibration.geometry import (
    DEFAULT_DICTIONARY,
    DICTIONARY_SIZES,
    TableGeometry,
    apply_homography,
    to_matrix,
)
from vision.errors import CalibrationError
from vision.types import Point

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]


def aruco_dictionary(name: str) -> Any:
    import cv2

    if name not in DICTIONARY_SIZES:
        raise CalibrationError(f"unknown marker dictionary {name!r}")
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def marker_image(marker_id: int, side_px: int, dictionary: str = DEFAULT_DICTIONARY) -> Image:
    """The marker itself (black border included, no white margin), grey ``uint8``."""
    import cv2

    return np.asarray(
        cv2.aruco.generateImageMarker(aruco_dictionary(dictionary), marker_id, side_px),
        dtype=np.uint8,
    )


@dataclass(frozen=True, slots=True)
class MarkerDetection:
    """One marker found in an image: corners TL, TR, BR, BL in image pixels."""

    id: int
    corners: tuple[Point, Point, Point, Point]


def detect_markers(
    image: Image, dictionary: str = DEFAULT_DICTIONARY, *, expected: int = 4
) -> list[MarkerDetection]:
    """Every marker of ``dictionary`` in a BGR or grey image, sorted by id (duplicates dropped).

    When fewer than ``expected`` markers are found, a second pass on a 2x upscaled copy looks
    for small or blurred ones (a 640-pixel-wide view of the table has 25-pixel markers).
    """
    import cv2

    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    found = _detect(grey, dictionary, 1)
    if len(found) < expected:
        bigger = cv2.resize(grey, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
        for mid, det in _detect(bigger, dictionary, 2).items():
            found.setdefault(mid, det)
    return [found[k] for k in sorted(found)]


def _detect(grey: Any, dictionary: str, scale: int) -> dict[int, MarkerDetection]:
    import cv2

    params = cv2.aruco.DetectorParameters()
    # contour refinement: on small, blurred markers it found as many markers as sub-pixel
    # refinement with corners twice as accurate (AprilTag refinement lost markers)
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_CONTOUR
    detector = cv2.aruco.ArucoDetector(aruco_dictionary(dictionary), params)
    try:
        corners, ids, _rejected = detector.detectMarkers(grey)
    except cv2.error as exc:
        # OpenCV's contour refinement asserts on some candidates (a few pixels of contour
        # on a corner: "nContours.size() >= 2"); the corners as found are a pixel worse
        log.info("marker corner refinement failed (%s); corners unrefined", exc.err)
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        detector = cv2.aruco.ArucoDetector(aruco_dictionary(dictionary), params)
        corners, ids, _rejected = detector.detectMarkers(grey)
    found: dict[int, MarkerDetection] = {}
    id_list = [] if ids is None else [int(v) for v in np.asarray(ids).reshape(-1)]
    for c, mid in zip(corners, id_list, strict=True):
        if mid in found:
            log.warning("marker id %d seen twice; keeping the first", mid)
            continue
        pts = _outer_edge(np.asarray(c, dtype=np.float64).reshape(4, 2))
        # pixel centres: (p + 0.5) / scale - 0.5 maps the upscaled image back
        pts = (pts + 0.5) / scale - 0.5
        found[mid] = MarkerDetection(
            mid,
            tuple((float(x), float(y)) for x, y in pts),  # type: ignore[arg-type]
        )
    return found


def _outer_edge(quad: npt.NDArray[np.float64], d: float = 0.5) -> npt.NDArray[np.float64]:
    """Contour refinement fits the marker's sides through the centres of its outermost dark
    pixels, half a pixel inside the printed edge: move every side out by ``d`` pixels and return
    the new corners (a bias of about 1 mm per corner in a 640-pixel view, measured)."""
    centre = quad.mean(axis=0)
    normals = []
    for i in range(4):
        e = quad[(i + 1) % 4] - quad[i]
        n = np.array([e[1], -e[0]]) / (np.hypot(*e) or 1.0)
        mid = (quad[i] + quad[(i + 1) % 4]) / 2.0
        if np.dot(n, mid - centre) < 0:
            n = -n
        normals.append(n)
    out = np.empty_like(quad)
    for i in range(4):
        n1, n2 = normals[i - 1], normals[i]  # the sides before and after corner i
        a = np.vstack([n1, n2])
        shift = np.linalg.solve(a, [d, d]) if abs(np.linalg.det(a)) > 1e-6 else (n1 + n2) * d
        out[i] = quad[i] + shift
    return out


@dataclass(frozen=True, slots=True)
class Calibration:
    """The outcome of :func:`calibrate`: the calibrated geometry and how well the markers agree."""

    geometry: TableGeometry
    detections: tuple[MarkerDetection, ...]
    missing_ids: tuple[int, ...]
    rms_mm: float


def calibrate(
    image: Image,
    geometry: TableGeometry,
    *,
    min_markers: int = 3,
    max_rms_mm: float = 8.0,
) -> Calibration:
    """Find the table's markers in ``image`` and fit the image->table homography.

    Raises :class:`CalibrationError` when fewer than ``min_markers`` known markers are seen (two
    markers fit a homography exactly, with nothing left to check it: three is the least that can
    be trusted), or when the markers disagree by more than ``max_rms_mm`` (a marker moved since
    the table file was made, or a wrong table file).
    """
    if image is None or image.size == 0:
        raise CalibrationError("calibration image is empty")
    known = {m.id: m for m in geometry.markers}
    detections = [
        d for d in detect_markers(image, geometry.dictionary, expected=len(known)) if d.id in known
    ]
    if not detections:
        raise CalibrationError(
            f"no table markers ({geometry.dictionary}, ids {sorted(known)}) found in the image: "
            "check that all four corners are in view and well lit"
        )
    if len(detections) < min_markers:
        raise CalibrationError(
            f"only {len(detections)} table marker(s) found (ids {[d.id for d in detections]}), "
            f"need at least {min_markers}"
        )
    img_pts: list[Point] = [p for d in detections for p in d.corners]
    tab_pts: list[Point] = [p for d in detections for p in known[d.id].corners]
    src = np.asarray(img_pts, dtype=np.float64)
    if geometry.lens is not None:
        import cv2

        k = np.asarray(geometry.lens.camera_matrix, dtype=np.float64)
        dist = np.asarray(geometry.lens.dist_coeffs, dtype=np.float64)
        src = np.asarray(
            cv2.undistortPoints(src.reshape(-1, 1, 2), k, dist, P=k), dtype=np.float64
        ).reshape(-1, 2)
    import cv2

    h, _mask = cv2.findHomography(src, np.asarray(tab_pts, dtype=np.float64), 0)
    if h is None:
        raise CalibrationError("markers found but no homography fits them (degenerate view?)")
    hm = np.asarray(h, dtype=np.float64)
    mapped = np.asarray(apply_homography(hm, src.reshape(-1, 1, 2)))
    rms = float(np.sqrt(np.mean(np.sum((mapped - np.asarray(tab_pts)) ** 2, axis=1))))
    if rms > max_rms_mm:
        raise CalibrationError(
            f"markers disagree by {rms:.1f} mm RMS (limit {max_rms_mm}): moved markers or the "
            "wrong table file?"
        )
    height, width = image.shape[:2]
    calibrated = replace(geometry, homography=to_matrix(hm), image_size=(int(width), int(height)))
    missing = tuple(sorted(set(known) - {d.id for d in detections}))
    if missing:
        log.warning("markers not seen: %s; calibrated from %d", missing, len(detections))
    return Calibration(calibrated, tuple(detections), missing, rms)
