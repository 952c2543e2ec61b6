"""Pictures for people: the calibration drawn over the camera's view (to check it by eye) and
the printable marker sheet (PNG, or a one-page PDF written by Pillow at the sheet's true size)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.calibration.geometry import Rect, TableGeometry
from vision.calibration.markers import Calibration, marker_image
from vision.errors import CalibrationError
from vision.types import Point

Image = npt.NDArray[np.uint8]


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
        _put_text(
            page,
            label,
            (x0 + side / 2, y0 + side + pad + round(8 * px_per_mm)),
            (cell_w - 10.0) * px_per_mm,
            scale=px_per_mm * 0.45,
            thickness=px_per_mm * 0.35,
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
    _put_text(
        page,
        "100 mm: print at 100% (no scaling); arrows point to the far edge of the table (top)",
        (w / 2, h - round(4 * px_per_mm)),
        (A4_MM[0] - 20.0) * px_per_mm,
        scale=px_per_mm * 0.25,
        thickness=px_per_mm * 0.2,
    )
    return page


def _put_text(
    page: Image,
    text: str,
    centre: tuple[float, float],
    max_width: float,
    *,
    scale: float,
    thickness: float,
) -> None:
    """``text`` in black, centred on ``centre[0]`` with its baseline at ``centre[1]``, made
    smaller when it would be wider than ``max_width`` pixels (it never runs into its
    neighbour or off the page)."""
    import cv2

    font = cv2.FONT_HERSHEY_SIMPLEX
    thick = max(1, round(thickness))
    (width, _height), _ = cv2.getTextSize(text, font, scale, thick)
    if width > max_width:
        scale *= max_width / width
        thick = max(1, round(thickness * max_width / width))
        (width, _height), _ = cv2.getTextSize(text, font, scale, thick)
    at = (round(centre[0] - width / 2), round(centre[1]))
    cv2.putText(page, text, at, font, scale, 0, thick, cv2.LINE_AA)


def _corner_names(geometry: TableGeometry) -> dict[int, str]:
    names: dict[int, str] = {}
    for m in geometry.markers:
        vertical = "top" if m.center[1] < geometry.height / 2 else "bottom"
        horizontal = "left" if m.center[0] < geometry.width / 2 else "right"
        names[m.id] = f"{vertical}-{horizontal}"
    return names


def write_marker_sheet(geometry: TableGeometry, path: str | Path, *, dpi: int = 300) -> Path:
    """Write the sheet as PNG (or any raster format OpenCV writes) or as a one-page A4 PDF.

    The PDF (written by Pillow) holds the sheet as a 1-bit image (CCITT G4, lossless for the
    black-and-white markers; the grey cut guides come out dithered) sized to the page exactly,
    so a printer set to 100 % prints every marker at its true size."""
    import cv2

    p = Path(path)
    page = marker_sheet(geometry, dpi=dpi)
    if p.suffix.lower() == ".pdf":
        _write_pdf(page, A4_MM, p)
        return p
    try:
        ok = cv2.imwrite(str(p), page)
    except cv2.error:
        ok = False
    if not ok:
        raise CalibrationError(f"{p}: cannot write an image in this format (use .png or .pdf)")
    return p


def _write_pdf(grey: Image, size_mm: tuple[float, float], path: Path) -> None:
    """``grey`` as a one-page PDF of ``size_mm``, the image filling the page."""
    from PIL import Image as PILImage

    h, w = grey.shape
    dpi = (w / (size_mm[0] / 25.4), h / (size_mm[1] / 25.4))
    try:
        PILImage.fromarray(grey).convert("1").save(path, "PDF", dpi=dpi)
    except OSError as exc:
        raise CalibrationError(f"{path}: cannot be written: {exc.strerror or exc}") from exc
