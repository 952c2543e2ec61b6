"""Table geometry: the table, its zones and markers in millimetres, and the image->table mapping.

Table coordinates: millimetres, origin at the table's top-left corner as the camera sees it, x to
the right, y down (towards seat 0). Seats go counter-clockwise seen from above: seat 0 at the
bottom edge, seat 1 right, seat 2 top, seat 3 left (two seats: bottom and top).

The table file's content is :meth:`TableGeometry.to_json`; :func:`parse_table` validates it and
names the offending field in a :class:`~vision.errors.CalibrationError` (reading and writing the
file: :mod:`vision.calibration.tablefile`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.errors import CalibrationError
from vision.types import Point

TABLE_FORMAT = "domino-table/1"
DEFAULT_DICTIONARY = "DICT_4X4_50"
#: the ArUco dictionaries a table may use, and how many marker ids each has
DICTIONARY_SIZES = {"DICT_4X4_50": 50, "DICT_4X4_100": 100, "DICT_5X5_50": 50}

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
        return replace(self, homography=to_matrix(h), image_size=image_size)

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
        return apply_homography(np.asarray(self.homography, dtype=np.float64), pts)

    def table_to_image(self, points: Sequence[Point]) -> list[Point]:
        """Table mm -> image pixels (re-distorting when a lens calibration is present)."""
        if self.homography is None:
            raise CalibrationError("the table is not calibrated: no homography")
        if not points:
            return []
        inv = np.linalg.inv(np.asarray(self.homography, dtype=np.float64))
        undistorted = apply_homography(inv, np.asarray(points, dtype=np.float64).reshape(-1, 1, 2))
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
        return parse_table(data, source)


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
    return to_matrix(np.asarray(rows))


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


def parse_table(data: object, source: str) -> TableGeometry:
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
    if dictionary not in DICTIONARY_SIZES:
        raise _fail(
            source,
            "markers.dictionary",
            f"must be one of {sorted(DICTIONARY_SIZES)}, got {dictionary!r}",
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
            or not 0 <= mid < DICTIONARY_SIZES[dictionary]
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


def to_matrix(m: npt.ArrayLike) -> Matrix:
    a = np.asarray(m, dtype=np.float64).reshape(3, 3)
    if a[2, 2] != 0:
        a = a / a[2, 2]
    r0, r1, r2 = ((float(a[i, 0]), float(a[i, 1]), float(a[i, 2])) for i in range(3))
    return (r0, r1, r2)


def apply_homography(h: npt.NDArray[np.float64], pts: npt.NDArray[np.float64]) -> list[Point]:
    import cv2

    out = np.asarray(cv2.perspectiveTransform(pts.reshape(-1, 1, 2), h)).reshape(-1, 2)
    return [(float(x), float(y)) for x, y in out]
