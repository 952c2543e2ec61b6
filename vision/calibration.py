"""Table geometry and camera calibration: ArUco corner markers give image pixels -> table mm.

Table coordinates: millimetres, origin at the table's top-left corner as the camera sees it, x to
the right, y down (towards seat 0). Seats go counter-clockwise seen from above: seat 0 at the
bottom edge, seat 1 right, seat 2 top, seat 3 left (two seats: bottom and top).

The table file (``table.json``) is :meth:`TableGeometry.to_json`; :func:`load_table` validates it
and names the offending field in a :class:`~vision.errors.CalibrationError`.
"""

from __future__ import annotations

import json
import logging
import math
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.errors import CalibrationError
from vision.types import Point

log = logging.getLogger(__name__)

TABLE_FORMAT = "domino-table/1"
DEFAULT_DICTIONARY = "DICT_4X4_50"
_DICTIONARY_SIZES = {"DICT_4X4_50": 50, "DICT_4X4_100": 100, "DICT_5X5_50": 50}

Image = npt.NDArray[np.uint8]
Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle in table millimetres."""

    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, p: Point) -> bool:
        return self.x0 <= p[0] <= self.x1 and self.y0 <= p[1] <= self.y1

    @property
    def center(self) -> Point:
        return ((self.x0 + self.x1) / 2.0, (self.y0 + self.y1) / 2.0)

    @property
    def corners(self) -> tuple[Point, Point, Point, Point]:
        return ((self.x0, self.y0), (self.x1, self.y0), (self.x1, self.y1), (self.x0, self.y1))

    def inside(self, other: Rect) -> bool:
        return (
            other.x0 <= self.x0 <= self.x1 <= other.x1
            and other.y0 <= self.y0 <= self.y1 <= other.y1
        )

    def to_json(self) -> list[float]:
        return [self.x0, self.y0, self.x1, self.y1]


@dataclass(frozen=True, slots=True)
class MarkerPlacement:
    """A printed ArUco marker lying flat, upright in table coordinates (its top towards y=0)."""

    id: int
    center: Point
    size: float

    @property
    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Top-left, top-right, bottom-right, bottom-left: the order ArUco reports them in."""
        h = self.size / 2.0
        cx, cy = self.center
        return ((cx - h, cy - h), (cx + h, cy - h), (cx + h, cy + h), (cx - h, cy + h))


@dataclass(frozen=True, slots=True)
class LensCalibration:
    """Pinhole intrinsics and distortion from a ChArUco calibration (OpenCV conventions)."""

    camera_matrix: Matrix
    dist_coeffs: tuple[float, ...]
    image_size: tuple[int, int]
    rms_px: float = 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "camera_matrix": [list(row) for row in self.camera_matrix],
            "dist_coeffs": list(self.dist_coeffs),
            "image_size": list(self.image_size),
            "rms_px": self.rms_px,
        }


@dataclass(frozen=True, slots=True)
class TableGeometry:
    """Everything the vision needs to know about the table, in millimetres.

    ``homography`` maps (undistorted) image pixels to table millimetres; ``None`` until calibrated.
    ``reveal_zones[s]`` is where seat ``s`` lays its remaining tiles face up at the end of a hand.
    """

    width: float = 760.0
    height: float = 760.0
    tile_length: float = 50.0
    tile_width: float = 25.0
    play_area: Rect = field(default_factory=lambda: Rect(130.0, 130.0, 630.0, 630.0))
    reveal_zones: tuple[Rect, ...] = ()
    boneyard: Rect | None = None
    markers: tuple[MarkerPlacement, ...] = ()
    dictionary: str = DEFAULT_DICTIONARY
    homography: Matrix | None = None
    image_size: tuple[int, int] | None = None
    lens: LensCalibration | None = None

    @property
    def seats(self) -> int:
        return len(self.reveal_zones)

    @property
    def calibrated(self) -> bool:
        return self.homography is not None

    def zone_of(self, p: Point) -> tuple[str, int | None]:
        """``("reveal", seat)``, ``("boneyard", None)``, ``("play", None)`` or ``("off", None)``."""
        for seat, zone in enumerate(self.reveal_zones):
            if zone.contains(p):
                return ("reveal", seat)
        if self.boneyard is not None and self.boneyard.contains(p):
            return ("boneyard", None)
        if self.play_area.contains(p):
            return ("play", None)
        return ("off", None)

    def with_homography(
        self, h: npt.NDArray[np.float64], image_size: tuple[int, int]
    ) -> TableGeometry:
        return replace(self, homography=_matrix(h), image_size=image_size)

    def image_to_table(self, points: Sequence[Point]) -> list[Point]:
        """Image pixels -> table mm (undistorting first when a lens calibration is present)."""
        if self.homography is None:
            raise CalibrationError("the table is not calibrated: no homography")
        if not points:
            return []
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
        if self.lens is not None:
            import cv2

            k = np.asarray(self.lens.camera_matrix, dtype=np.float64)
            d = np.asarray(self.lens.dist_coeffs, dtype=np.float64)
            pts = np.asarray(cv2.undistortPoints(pts, k, d, P=k), dtype=np.float64)
        return _apply(np.asarray(self.homography, dtype=np.float64), pts)

    def table_to_image(self, points: Sequence[Point]) -> list[Point]:
        """Table mm -> image pixels (re-distorting when a lens calibration is present)."""
        if self.homography is None:
            raise CalibrationError("the table is not calibrated: no homography")
        if not points:
            return []
        inv = np.linalg.inv(np.asarray(self.homography, dtype=np.float64))
        undistorted = _apply(inv, np.asarray(points, dtype=np.float64).reshape(-1, 1, 2))
        if self.lens is None:
            return undistorted
        import cv2

        k = np.asarray(self.lens.camera_matrix, dtype=np.float64)
        d = np.asarray(self.lens.dist_coeffs, dtype=np.float64)
        norm = np.linalg.inv(k) @ np.vstack(
            [np.asarray(undistorted).T, np.ones((1, len(undistorted)))]
        )
        obj = np.vstack([norm[:2] / norm[2], np.ones((1, norm.shape[1]))]).T.reshape(-1, 1, 3)
        projected, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), k, d)
        return [(float(x), float(y)) for x, y in np.asarray(projected).reshape(-1, 2)]

    def to_json(self) -> dict[str, object]:
        return {
            "format": TABLE_FORMAT,
            "units": "mm",
            "table": {"width": self.width, "height": self.height},
            "tile": {"length": self.tile_length, "width": self.tile_width},
            "play_area": self.play_area.to_json(),
            "reveal_zones": [z.to_json() for z in self.reveal_zones],
            "boneyard": self.boneyard.to_json() if self.boneyard is not None else None,
            "markers": {
                "dictionary": self.dictionary,
                "placements": [
                    {"id": m.id, "center": list(m.center), "size": m.size} for m in self.markers
                ],
            },
            "homography": (
                [list(row) for row in self.homography] if self.homography is not None else None
            ),
            "image_size": list(self.image_size) if self.image_size is not None else None,
            "lens": self.lens.to_json() if self.lens is not None else None,
        }

    @classmethod
    def from_json(cls, data: object, *, source: str = "table.json") -> TableGeometry:
        return _parse_table(data, source)


def default_geometry(seats: int = 4, *, boneyard: bool | None = None) -> TableGeometry:
    """A 760 mm square table: 50 mm markers in the corners, a 500 mm square play area, one
    reveal strip along each seated edge. The boneyard takes a free edge strip when there is one
    (2-3 seats), else a corner of the play area (``boneyard=False`` for none)."""
    if not 2 <= seats <= 4:
        raise CalibrationError(f"seats must be 2-4, got {seats}")
    strips = {
        "bottom": Rect(130.0, 640.0, 630.0, 750.0),
        "right": Rect(640.0, 130.0, 750.0, 630.0),
        "top": Rect(130.0, 10.0, 630.0, 120.0),
        "left": Rect(10.0, 130.0, 120.0, 630.0),
    }
    sides = {
        2: ("bottom", "top"),
        3: ("bottom", "right", "top"),
        4: ("bottom", "right", "top", "left"),
    }
    used = sides[seats]
    yard: Rect | None = None
    if boneyard is not False:
        free = [s for s in ("right", "left") if s not in used]
        yard = strips[free[0]] if free else Rect(540.0, 540.0, 630.0, 630.0)
    markers = tuple(
        MarkerPlacement(i, c, 50.0)
        for i, c in enumerate([(35.0, 35.0), (725.0, 35.0), (725.0, 725.0), (35.0, 725.0)])
    )
    return TableGeometry(
        reveal_zones=tuple(strips[s] for s in used),
        boneyard=yard,
        markers=markers,
    )


# -- table file ------------------------------------------------------------------------------


MAX_TABLE_BYTES = 4 * 1024 * 1024
"""Longest table file read (a real one is a few kB)."""


def load_table(path: str | Path) -> TableGeometry:
    """Read and validate a table file."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            raw = f.read(MAX_TABLE_BYTES + 1)  # bounded, whatever the file is (/dev/zero)
        if len(raw) > MAX_TABLE_BYTES:
            raise CalibrationError(f"{p}: longer than {MAX_TABLE_BYTES} bytes, not a table file")
        data = json.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise CalibrationError(f"{p}: cannot be read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise CalibrationError(f"{p}: not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{p}: not JSON: {exc}") from exc
    except RecursionError:
        raise CalibrationError(f"{p}: JSON nested too deeply for a table file") from None
    return _parse_table(data, str(p))


def save_table(geometry: TableGeometry, path: str | Path) -> None:
    Path(path).write_text(json.dumps(geometry.to_json(), indent=2) + "\n", encoding="utf-8")


def _fail(source: str, where: str, what: str) -> CalibrationError:
    return CalibrationError(f"{source}: {where}: {what}")


def _number(source: str, where: str, value: object, *, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise _fail(source, where, f"must be a number, got {value!r}")
    if positive and value <= 0:
        raise _fail(source, where, f"must be positive, got {value!r}")
    return float(value)


def _rect(source: str, where: str, value: object, table: Rect) -> Rect:
    if not isinstance(value, list) or len(value) != 4:
        raise _fail(source, where, f"must be [x0, y0, x1, y1], got {value!r}")
    x0, y0, x1, y1 = (_number(source, f"{where}[{i}]", v) for i, v in enumerate(value))
    if not (x0 < x1 and y0 < y1):
        raise _fail(source, where, f"needs x0 < x1 and y0 < y1, got {value!r}")
    rect = Rect(x0, y0, x1, y1)
    if not rect.inside(table):
        raise _fail(source, where, f"{value!r} is not inside the table")
    return rect


def _matrix3(source: str, where: str, value: object) -> Matrix:
    if not (
        isinstance(value, list)
        and len(value) == 3
        and all(isinstance(r, list) and len(r) == 3 for r in value)
    ):
        raise _fail(source, where, "must be a 3x3 list of numbers")
    rows = [
        [_number(source, f"{where}[{i}][{j}]", v) for j, v in enumerate(r)]
        for i, r in enumerate(value)
    ]
    if abs(float(np.linalg.det(np.asarray(rows)))) < 1e-12:
        raise _fail(source, where, "is singular")
    return _matrix(np.asarray(rows))


def _size(source: str, where: str, value: object) -> tuple[int, int]:
    if not (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)
    ):
        raise _fail(source, where, f"must be [width, height] in pixels, got {value!r}")
    return (int(value[0]), int(value[1]))


def _obj(source: str, where: str, value: object) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise _fail(source, where, f"must be an object, got {type(value).__name__}")
    return value


def _parse_table(data: object, source: str) -> TableGeometry:
    root = _obj(source, "top level", data)
    if root.get("format") != TABLE_FORMAT:
        raise _fail(source, "format", f"must be {TABLE_FORMAT!r}, got {root.get('format')!r}")
    if root.get("units", "mm") != "mm":
        raise _fail(source, "units", f"must be 'mm', got {root.get('units')!r}")
    table = _obj(source, "table", root.get("table"))
    width = _number(source, "table.width", table.get("width"), positive=True)
    height = _number(source, "table.height", table.get("height"), positive=True)
    bounds = Rect(0.0, 0.0, width, height)
    tile = _obj(source, "tile", root.get("tile"))
    length = _number(source, "tile.length", tile.get("length"), positive=True)
    tile_w = _number(source, "tile.width", tile.get("width"), positive=True)
    if tile_w >= length:
        raise _fail(source, "tile", f"width {tile_w} must be less than length {length}")
    play = _rect(source, "play_area", root.get("play_area"), bounds)
    zones_raw = root.get("reveal_zones")
    if not isinstance(zones_raw, list) or not 2 <= len(zones_raw) <= 4:
        raise _fail(source, "reveal_zones", "must be a list of 2-4 rectangles (one per seat)")
    zones = tuple(_rect(source, f"reveal_zones[{i}]", z, bounds) for i, z in enumerate(zones_raw))
    yard_raw = root.get("boneyard")
    yard = None if yard_raw is None else _rect(source, "boneyard", yard_raw, bounds)
    markers_obj = _obj(source, "markers", root.get("markers"))
    dictionary = markers_obj.get("dictionary", DEFAULT_DICTIONARY)
    if dictionary not in _DICTIONARY_SIZES:
        raise _fail(
            source,
            "markers.dictionary",
            f"must be one of {sorted(_DICTIONARY_SIZES)}, got {dictionary!r}",
        )
    placements = markers_obj.get("placements")
    if not isinstance(placements, list) or not placements:
        raise _fail(source, "markers.placements", "must be a non-empty list")
    markers: list[MarkerPlacement] = []
    for i, m in enumerate(placements):
        where = f"markers.placements[{i}]"
        mo = _obj(source, where, m)
        mid = mo.get("id")
        if (
            not isinstance(mid, int)
            or isinstance(mid, bool)
            or not 0 <= mid < _DICTIONARY_SIZES[dictionary]
        ):
            raise _fail(source, f"{where}.id", f"must be a marker id of {dictionary}, got {mid!r}")
        if any(other.id == mid for other in markers):
            raise _fail(source, f"{where}.id", f"duplicate marker id {mid}")
        center = mo.get("center")
        if not isinstance(center, list) or len(center) != 2:
            raise _fail(source, f"{where}.center", f"must be [x, y], got {center!r}")
        cx = _number(source, f"{where}.center[0]", center[0])
        cy = _number(source, f"{where}.center[1]", center[1])
        size = _number(source, f"{where}.size", mo.get("size"), positive=True)
        markers.append(MarkerPlacement(mid, (cx, cy), size))
    h_raw = root.get("homography")
    homography = None if h_raw is None else _matrix3(source, "homography", h_raw)
    size_raw = root.get("image_size")
    image_size = None if size_raw is None else _size(source, "image_size", size_raw)
    lens_raw = root.get("lens")
    lens = None
    if lens_raw is not None:
        lo = _obj(source, "lens", lens_raw)
        k = _matrix3(source, "lens.camera_matrix", lo.get("camera_matrix"))
        dist = lo.get("dist_coeffs")
        if not isinstance(dist, list) or len(dist) not in (4, 5, 8, 12, 14):
            raise _fail(source, "lens.dist_coeffs", "must be a list of 4, 5, 8, 12 or 14 numbers")
        coeffs = tuple(_number(source, f"lens.dist_coeffs[{i}]", v) for i, v in enumerate(dist))
        lens = LensCalibration(
            k,
            coeffs,
            _size(source, "lens.image_size", lo.get("image_size")),
            _number(source, "lens.rms_px", lo.get("rms_px", 0.0)),
        )
    return TableGeometry(
        width=width,
        height=height,
        tile_length=length,
        tile_width=tile_w,
        play_area=play,
        reveal_zones=zones,
        boneyard=yard,
        markers=tuple(markers),
        dictionary=str(dictionary),
        homography=homography,
        image_size=image_size,
        lens=lens,
    )


def _matrix(m: npt.ArrayLike) -> Matrix:
    a = np.asarray(m, dtype=np.float64).reshape(3, 3)
    if a[2, 2] != 0:
        a = a / a[2, 2]
    r0, r1, r2 = ((float(a[i, 0]), float(a[i, 1]), float(a[i, 2])) for i in range(3))
    return (r0, r1, r2)


def _apply(h: npt.NDArray[np.float64], pts: npt.NDArray[np.float64]) -> list[Point]:
    import cv2

    out = np.asarray(cv2.perspectiveTransform(pts.reshape(-1, 1, 2), h)).reshape(-1, 2)
    return [(float(x), float(y)) for x, y in out]


# -- markers ---------------------------------------------------------------------------------


def _dictionary(name: str) -> Any:
    import cv2

    if name not in _DICTIONARY_SIZES:
        raise CalibrationError(f"unknown marker dictionary {name!r}")
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def marker_image(marker_id: int, side_px: int, dictionary: str = DEFAULT_DICTIONARY) -> Image:
    """The marker itself (black border included, no white margin), grey ``uint8``."""
    import cv2

    return np.asarray(
        cv2.aruco.generateImageMarker(_dictionary(dictionary), marker_id, side_px), dtype=np.uint8
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
    detector = cv2.aruco.ArucoDetector(_dictionary(dictionary), params)
    try:
        corners, ids, _rejected = detector.detectMarkers(grey)
    except cv2.error as exc:
        # OpenCV's contour refinement asserts on some candidates (a few pixels of contour
        # on a corner: "nContours.size() >= 2"); the corners as found are a pixel worse
        log.info("marker corner refinement failed (%s); corners unrefined", exc.err)
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        detector = cv2.aruco.ArucoDetector(_dictionary(dictionary), params)
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
    mapped = np.asarray(_apply(hm, src.reshape(-1, 1, 2)))
    rms = float(np.sqrt(np.mean(np.sum((mapped - np.asarray(tab_pts)) ** 2, axis=1))))
    if rms > max_rms_mm:
        raise CalibrationError(
            f"markers disagree by {rms:.1f} mm RMS (limit {max_rms_mm}): moved markers or the "
            "wrong table file?"
        )
    height, width = image.shape[:2]
    calibrated = replace(geometry, homography=_matrix(hm), image_size=(int(width), int(height)))
    missing = tuple(sorted(set(known) - {d.id for d in detections}))
    if missing:
        log.warning("markers not seen: %s; calibrated from %d", missing, len(detections))
    return Calibration(calibrated, tuple(detections), missing, rms)


def annotate_calibration(image: Image, calibration: Calibration) -> Image:
    """A copy of ``image`` with the markers, table outline, play area, reveal zones (with seat
    numbers) and boneyard drawn on, plus a 100 mm grid: to check a calibration by eye."""
    import cv2

    g = calibration.geometry
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)

    def poly(points: Iterable[Point], color: tuple[int, int, int], thick: int) -> None:
        px = np.asarray(g.table_to_image(list(points)), dtype=np.float64)
        cv2.polylines(out, [np.round(px).astype(np.int32)], True, color, thick, cv2.LINE_AA)

    for x in np.arange(100.0, g.width, 100.0):
        pts = np.asarray(g.table_to_image([(float(x), 0.0), (float(x), g.height)]))
        cv2.line(out, _ipt(pts[0]), _ipt(pts[1]), (160, 160, 160), 1, cv2.LINE_AA)
    for y in np.arange(100.0, g.height, 100.0):
        pts = np.asarray(g.table_to_image([(0.0, float(y)), (g.width, float(y))]))
        cv2.line(out, _ipt(pts[0]), _ipt(pts[1]), (160, 160, 160), 1, cv2.LINE_AA)
    poly(Rect(0, 0, g.width, g.height).corners, (255, 255, 255), 2)
    poly(g.play_area.corners, (0, 200, 0), 2)
    for seat, zone in enumerate(g.reveal_zones):
        poly(zone.corners, (255, 160, 0), 2)
        c = g.table_to_image([zone.center])[0]
        label = f"seat {seat}"
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, 0.7, 2)
        at = (round(c[0] - tw / 2), round(c[1] + th / 2))
        cv2.putText(out, label, at, cv2.FONT_HERSHEY_SIMPLEX, 0.7, (255, 160, 0), 2, cv2.LINE_AA)
    if g.boneyard is not None:
        poly(g.boneyard.corners, (0, 200, 255), 2)
    for d in calibration.detections:
        pts = np.asarray(d.corners)
        cv2.polylines(out, [np.round(pts).astype(np.int32)], True, (0, 0, 255), 2, cv2.LINE_AA)
        cv2.putText(
            out, str(d.id), _ipt(pts[0]), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 255), 2, cv2.LINE_AA
        )
    text = (
        f"markers {len(calibration.detections)}/{len(g.markers)}  rms {calibration.rms_mm:.2f} mm"
    )
    y = out.shape[0] - 14
    cv2.putText(out, text, (12, y), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (0, 0, 0), 4, cv2.LINE_AA)
    cv2.putText(out, text, (12, y), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (255, 255, 255), 2, cv2.LINE_AA)
    return np.asarray(out, dtype=np.uint8)


def _ipt(p: Any) -> tuple[int, int]:
    return (round(float(p[0])), round(float(p[1])))


# -- printable sheet -------------------------------------------------------------------------

A4_MM = (210.0, 297.0)


def marker_sheet(geometry: TableGeometry, *, dpi: int = 300) -> Image:
    """An A4 page (grey ``uint8``) with every table marker at its true size, with a white quiet
    zone, its id and its corner, and a 100 mm ruler to check the printer's scale."""
    import cv2

    px_per_mm = dpi / 25.4
    w, h = (round(A4_MM[0] * px_per_mm), round(A4_MM[1] * px_per_mm))
    page = np.full((h, w), 255, dtype=np.uint8)
    corner_names = _corner_names(geometry)
    cols = 2
    cell_w = A4_MM[0] / cols
    rows = max(1, math.ceil(len(geometry.markers) / cols))
    cell_h = (A4_MM[1] - 40.0) / rows
    for i, m in enumerate(geometry.markers):
        cx = (i % cols + 0.5) * cell_w
        cy = 20.0 + (i // cols + 0.5) * cell_h
        side = round(m.size * px_per_mm)
        x0 = round(cx * px_per_mm - side / 2)
        y0 = round(cy * px_per_mm - side / 2)
        page[y0 : y0 + side, x0 : x0 + side] = marker_image(m.id, side, geometry.dictionary)
        # cut guide: a dashed square 10 mm outside the marker (the quiet zone stays white)
        pad = round(10 * px_per_mm)
        cv2.rectangle(page, (x0 - pad, y0 - pad), (x0 + side + pad, y0 + side + pad), 180, 2)
        label = f"id {m.id}  {corner_names.get(m.id, '')}  {m.size:g} mm"
        cv2.putText(
            page,
            label,
            (x0 - pad, y0 + side + pad + round(8 * px_per_mm)),
            cv2.FONT_HERSHEY_SIMPLEX,
            px_per_mm * 0.45,
            0,
            max(1, round(px_per_mm * 0.35)),
            cv2.LINE_AA,
        )
        cv2.arrowedLine(
            page,
            (x0 + side // 2, y0 - pad - round(2 * px_per_mm)),
            (x0 + side // 2, y0 - pad - round(9 * px_per_mm)),
            0,
            max(1, round(px_per_mm * 0.3)),
            tipLength=0.3,
        )
    # ruler
    ry = h - round(12 * px_per_mm)
    rx0 = round(55 * px_per_mm)
    cv2.line(page, (rx0, ry), (rx0 + round(100 * px_per_mm), ry), 0, 2)
    for k in range(11):
        x = rx0 + round(k * 10 * px_per_mm)
        cv2.line(page, (x, ry), (x, ry - round((4 if k % 5 else 7) * px_per_mm)), 0, 2)
    cv2.putText(
        page,
        "100 mm: print at 100% (no scaling); arrows point to the far edge of the table (top)",
        (round(10 * px_per_mm), h - round(4 * px_per_mm)),
        cv2.FONT_HERSHEY_SIMPLEX,
        px_per_mm * 0.25,
        0,
        max(1, round(px_per_mm * 0.2)),
        cv2.LINE_AA,
    )
    return page


def _corner_names(geometry: TableGeometry) -> dict[int, str]:
    names: dict[int, str] = {}
    for m in geometry.markers:
        vertical = "top" if m.center[1] < geometry.height / 2 else "bottom"
        horizontal = "left" if m.center[0] < geometry.width / 2 else "right"
        names[m.id] = f"{vertical}-{horizontal}"
    return names


def write_marker_sheet(geometry: TableGeometry, path: str | Path, *, dpi: int = 300) -> Path:
    """Write the sheet as PNG (or any raster format OpenCV writes) or as a one-page PDF."""
    import cv2

    p = Path(path)
    page = marker_sheet(geometry, dpi=dpi)
    if p.suffix.lower() == ".pdf":
        p.write_bytes(_pdf_page(page, A4_MM))
        return p
    try:
        ok = cv2.imwrite(str(p), page)
    except cv2.error:
        ok = False
    if not ok:
        raise CalibrationError(f"{p}: cannot write an image in this format (use .png or .pdf)")
    return p


def _pdf_page(grey: Image, size_mm: tuple[float, float]) -> bytes:
    """A minimal one-page PDF holding ``grey`` scaled to the page (lossless, Flate)."""
    h, w = grey.shape
    pw, ph = (size_mm[0] / 25.4 * 72.0, size_mm[1] / 25.4 * 72.0)
    data = zlib.compress(np.ascontiguousarray(grey).tobytes(), 9)
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] "
            "/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>"
        ).encode(),
        (
            f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
            f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n"
        ).encode()
        + data
        + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    )
    return bytes(out)


# -- optional lens calibration (ChArUco) ------------------------------------------------------


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
            self.squares, self.square_mm, self.marker_mm, _dictionary(self.dictionary)
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
        _matrix(np.asarray(k)),
        tuple(float(v) for v in np.asarray(dist).reshape(-1)),
        size,
        float(rms),
    )
