"""Calibration: markers found in synthetic views with known homographies; the table file."""

import copy
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.calibration.drawing import annotate_calibration, marker_sheet, write_marker_sheet
from vision.calibration.geometry import MarkerPlacement, Rect, TableGeometry, default_geometry
from vision.calibration.markers import calibrate, detect_markers
from vision.calibration.tablefile import load_table, save_table
from vision.devtools.render.camera import camera_homography
from vision.devtools.render.scene import RenderParams, SceneRenderer
from vision.errors import CalibrationError

DPI = 150
PPM = DPI / 25.4


def _page_geometry() -> TableGeometry:
    """The A4 marker sheet seen as a 'table': per its documented layout, 2 columns of 105 mm,
    rows of (297 - 40) / 2 mm below a 20 mm band, each marker centred in its cell."""
    cell_h = (297.0 - 40.0) / 2
    markers = tuple(
        MarkerPlacement(i, ((i % 2 + 0.5) * 105.0, 20.0 + (i // 2 + 0.5) * cell_h), 50.0)
        for i in range(4)
    )
    return TableGeometry(
        width=210.0,
        height=297.0,
        play_area=Rect(20, 20, 190, 277),
        reveal_zones=(Rect(0, 280, 210, 297), Rect(0, 0, 210, 15)),
        markers=markers,
    )


def _map(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)


def test_marker_sheet_seen_in_perspective_gives_back_the_homography() -> None:
    sheet = marker_sheet(default_geometry(), dpi=DPI)
    assert sheet.shape == (round(297 * PPM), round(210 * PPM))
    page_mm = np.array([[0, 0], [210, 0], [210, 297], [0, 297]], dtype=np.float32)
    image_px = np.array([[430, 40], [860, 75], [900, 690], [380, 660]], dtype=np.float32)
    h_true = cv2.getPerspectiveTransform(page_mm, image_px).astype(np.float64)
    sheet_px_to_mm = np.diag([1 / PPM, 1 / PPM, 1.0])
    view = cv2.warpPerspective(
        cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR),
        h_true @ sheet_px_to_mm,
        (1280, 720),
        borderValue=(90, 90, 90),
    )
    result = calibrate(view, _page_geometry())
    assert [d.id for d in result.detections] == [0, 1, 2, 3]
    assert result.missing_ids == ()
    assert result.rms_mm < 1.0
    grid = np.array([[x, y] for x in range(10, 210, 25) for y in range(10, 297, 25)], float)
    back = _map(np.asarray(result.geometry.homography), _map(h_true, grid))
    assert np.abs(back - grid).max() < 1.0  # mm, across the whole page


@pytest.mark.parametrize(
    ("tilt", "yaw", "width"),
    [(0.0, 0.0, 1280), (15.0, 4.0, 1280), (25.0, -8.0, 1280), (10, 3, 640)],
)
def test_rendered_table_view_calibrates_to_the_camera(tilt: float, yaw: float, width: int) -> None:
    geometry = default_geometry()
    height = width * 9 // 16
    params = RenderParams(
        width=width, height=height, tilt_deg=tilt, yaw_deg=yaw, noise=3.0, blur=0.8
    )
    rng = np.random.default_rng(5)
    renderer = SceneRenderer(geometry, params, rng)
    view = renderer.finish(renderer.to_camera(renderer.background), rng)
    result = calibrate(view, geometry)
    h_true = camera_homography(geometry, width, height, tilt_deg=tilt, yaw_deg=yaw)
    pa = geometry.play_area
    grid = np.array(
        [[x, y] for x in np.linspace(pa.x0, pa.x1, 6) for y in np.linspace(pa.y0, pa.y1, 6)]
    )
    back = _map(np.asarray(result.geometry.homography), _map(h_true, grid))
    assert np.abs(back - grid).max() < 2.0  # mm over the play area (a pip is 5 mm)
    g = result.geometry
    assert g.image_size == (width, height)
    pts = g.table_to_image([(100.0, 200.0), (500.0, 600.0)])
    assert g.image_to_table(pts) == [pytest.approx((100.0, 200.0)), pytest.approx((500.0, 600.0))]
    annotated = annotate_calibration(view, result)
    assert annotated.shape == view.shape
    assert np.any(annotated != view)


def test_no_markers_in_view_is_a_calibration_error() -> None:
    blank = np.full((720, 1280, 3), 128, np.uint8)
    with pytest.raises(CalibrationError, match="no table markers"):
        calibrate(blank, default_geometry())


def test_too_few_markers_is_a_calibration_error() -> None:
    geometry = default_geometry()
    rng = np.random.default_rng(0)
    renderer = SceneRenderer(geometry, RenderParams(noise=0), rng)
    view = renderer.to_camera(renderer.background)
    view[:, 640:] = 60  # only the left column of markers stays in view
    view[360:, :] = 60  # and only the top one of those
    assert [d.id for d in detect_markers(view)] == [0]
    with pytest.raises(CalibrationError, match="only 1"):
        calibrate(view, geometry)


def test_markers_that_disagree_with_the_table_file() -> None:
    geometry = default_geometry()
    rng = np.random.default_rng(0)
    view = SceneRenderer(geometry, RenderParams(noise=0), rng)
    img = view.to_camera(view.background)
    moved = list(geometry.markers)
    moved[2] = MarkerPlacement(2, (600.0, 600.0), 50.0)  # the file says marker 2 is elsewhere
    wrong = TableGeometry(**{**_fields(geometry), "markers": tuple(moved)})
    with pytest.raises(CalibrationError, match="disagree"):
        calibrate(img, wrong)


def _fields(g: TableGeometry) -> dict[str, Any]:
    return {name: getattr(g, name) for name in TableGeometry.__slots__}


def test_table_file_round_trip(tmp_path: Path) -> None:
    g = default_geometry(2)
    h = np.array([[1.1, 0.01, -300.0], [0.0, 1.05, -12.0], [1e-6, -1e-4, 1.0]])
    g = g.with_homography(h, (1280, 720))
    path = tmp_path / "table.json"
    save_table(g, path)
    assert load_table(path) == g
    assert g.seats == 2
    assert g.boneyard is not None  # two seats leave a free edge for the boneyard


def _valid() -> dict[str, Any]:
    return default_geometry().to_json()


def _set(data: dict[str, Any], path: str, value: object) -> None:
    keys = path.split(".")
    for k in keys[:-1]:
        data = data[int(k)] if k.isdigit() else data[k]  # type: ignore[index]
    last = keys[-1]
    if last.isdigit():
        data[int(last)] = value  # type: ignore[index]
    else:
        data[last] = value


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("format", "something/2", "format"),
        ("table.width", -760, "table.width"),
        ("table.height", "tall", "table.height"),
        ("tile.width", 60, "tile"),
        ("play_area", [0, 0, 900, 100], "play_area"),
        ("play_area", [300, 300, 100, 500], "play_area"),
        ("reveal_zones", [], "reveal_zones"),
        ("reveal_zones.1", [1, 2, 3], "reveal_zones\\[1\\]"),
        ("boneyard", [0, 0, 10, 1e9], "boneyard"),
        ("markers.dictionary", "DICT_NOPE", "markers.dictionary"),
        ("markers.placements.1.id", 0, "duplicate"),
        ("markers.placements.2.id", 50, "markers.placements\\[2\\].id"),
        ("markers.placements.0.size", 0, "size"),
        ("homography", [[1, 0, 0], [0, 1, 0]], "homography"),
        ("homography", [[1, 2, 3], [2, 4, 6], [0, 0, 0]], "singular"),
        ("image_size", [1280, -1], "image_size"),
        ("lens", {"camera_matrix": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "dist_coeffs": [1]}, "dist"),
    ],
)
def test_table_file_validation_names_the_field(path: str, value: object, message: str) -> None:
    data = _valid()
    _set(data, path, value)
    with pytest.raises(CalibrationError, match=message):
        TableGeometry.from_json(copy.deepcopy(data))


def test_table_file_that_is_not_json(tmp_path: Path) -> None:
    bad = tmp_path / "table.json"
    bad.write_text("{not json")
    with pytest.raises(CalibrationError, match="not JSON"):
        load_table(bad)
    with pytest.raises(CalibrationError, match="cannot be read"):
        load_table(tmp_path / "missing.json")


def test_marker_sheet_text_stays_in_its_column_and_on_the_page() -> None:
    """Each marker's label fits its half of the page: the band between the two columns and the
    page's side margins are blank (the ruler and its note at the bottom span the middle)."""
    sheet = marker_sheet(default_geometry(), dpi=DPI)
    above_ruler = sheet[: round((297 - 25) * PPM)]
    assert above_ruler[:, round(100 * PPM) : round(110 * PPM)].min() == 255
    assert sheet[:, : round(5 * PPM)].min() == 255
    assert sheet[:, round(205 * PPM) :].min() == 255
    # the labels are there: dark pixels below each marker's cut guide
    for cx in (52.5, 157.5):
        for cy in (20 + 257 / 4, 20 + 3 * 257 / 4):
            y0, y1 = round((cy + 36) * PPM), round((cy + 45) * PPM)
            x0, x1 = round((cx - 45) * PPM), round((cx + 45) * PPM)
            assert sheet[y0:y1, x0:x1].min() < 100, (cx, cy)


def test_marker_sheet_files(tmp_path: Path) -> None:
    png = write_marker_sheet(default_geometry(), tmp_path / "m.png", dpi=DPI)
    img = cv2.imread(str(png), cv2.IMREAD_GRAYSCALE)
    assert img.shape == (round(297 * PPM), round(210 * PPM))
    assert [d.id for d in detect_markers(img)] == [0, 1, 2, 3]
    with pytest.raises(CalibrationError):
        write_marker_sheet(default_geometry(), tmp_path / "m.unknown-format")


def test_marker_sheet_pdf_is_one_a4_page_holding_the_sheet_losslessly(tmp_path: Path) -> None:
    from PIL import PdfParser

    pdf = PdfParser.PdfParser(str(write_marker_sheet(default_geometry(), tmp_path / "m.pdf")))
    assert len(pdf.pages) == 1
    page = pdf.read_indirect(pdf.pages[0])
    box = [float(v) for v in page[b"MediaBox"]]
    assert box == pytest.approx([0, 0, 210 / 25.4 * 72, 297 / 25.4 * 72], abs=0.01)  # A4, pt
    image = pdf.read_indirect(page[b"Resources"][b"XObject"][b"image"]).dictionary
    sheet = marker_sheet(default_geometry(), dpi=300)
    assert (image[b"Width"], image[b"Height"]) == (sheet.shape[1], sheet.shape[0])
    # 1 bit per pixel, CCITT G4: lossless for the black and white markers
    assert image[b"BitsPerComponent"] == 1
    assert [bytes(f) for f in image[b"Filter"]] == [b"/CCITTFaxDecode"]
    pdf.close()


def test_marker_sheet_pdf_printed_at_100_percent_has_markers_of_their_true_size(
    tmp_path: Path,
) -> None:
    """Rendered by a real PDF renderer (poppler's pdftoppm) at 100 dpi: the four markers are
    found, each side 50 mm long."""
    if shutil.which("pdftoppm") is None:
        if os.environ.get("CI") == "true":
            pytest.fail("pdftoppm is missing under CI (scripts/test.sh installs poppler-utils)")
        pytest.skip("pdftoppm not installed (apt-get install poppler-utils)")
    pdf = write_marker_sheet(default_geometry(), tmp_path / "m.pdf")
    subprocess.run(
        ["pdftoppm", "-r", "100", "-gray", "-png", "-singlefile", str(pdf), str(tmp_path / "p")],
        check=True,
    )
    page = cv2.imread(str(tmp_path / "p.png"), cv2.IMREAD_GRAYSCALE)
    assert page.shape == pytest.approx((297 / 25.4 * 100, 210 / 25.4 * 100), abs=1)
    found = detect_markers(page)
    assert [d.id for d in found] == [0, 1, 2, 3]
    for d in found:
        c = np.asarray(d.corners)
        sides = np.hypot(*(np.roll(c, -1, axis=0) - c).T) / 100 * 25.4
        assert sides == pytest.approx([50.0] * 4, abs=0.5), d


def test_cli_calibrate_writes_table_and_annotation(tmp_path: Path) -> None:
    geometry = default_geometry()
    rng = np.random.default_rng(3)
    renderer = SceneRenderer(geometry, RenderParams(tilt_deg=10), rng)
    photo = tmp_path / "photo.png"
    cv2.imwrite(str(photo), renderer.finish(renderer.to_camera(renderer.background), rng))
    out, ann = tmp_path / "table.json", tmp_path / "check.png"
    assert main(["vision", "calibrate", str(photo), "--out", str(out), "--annotate", str(ann)]) == 0
    assert load_table(out).calibrated
    assert cv2.imread(str(ann)) is not None
    assert json.loads(out.read_text())["format"] == "domino-table/1"


def test_cli_calibrate_without_markers_exits_2(tmp_path: Path) -> None:
    photo = tmp_path / "blank.png"
    cv2.imwrite(str(photo), np.full((360, 640, 3), 100, np.uint8))
    assert main(["vision", "calibrate", str(photo), "--out", str(tmp_path / "t.json")]) == 2
    assert not (tmp_path / "t.json").exists()


def test_cli_markers(tmp_path: Path) -> None:
    assert main(["vision", "markers", "--out", str(tmp_path / "sheet.png"), "--dpi", "100"]) == 0
    assert cv2.imread(str(tmp_path / "sheet.png")) is not None


def _charuco_views(k: np.ndarray) -> list[np.ndarray]:
    """The printed ChArUco board seen by a pinhole camera ``k`` from six poses."""
    import math

    from vision.calibration.lens import CharucoSpec, charuco_board_image

    ppm, margin = 4.0, 10.0
    board = charuco_board_image(CharucoSpec(), px_per_mm=ppm)
    views = []
    for ax, ay in [(0.3, 0), (-0.3, 0), (0, 0.35), (0, -0.35), (0.25, 0.25), (-0.2, 0.3)]:
        rx = np.array(
            [[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]]
        )
        ry = np.array(
            [[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]]
        )
        r = rx @ ry
        h = k @ np.column_stack([r[:, 0], r[:, 1], [-105.0, -75.0, 420.0]])
        px_to_mm = np.array([[1 / ppm, 0, -margin], [0, 1 / ppm, -margin], [0, 0, 1]])
        views.append(cv2.warpPerspective(board, h @ px_to_mm, (1280, 720), borderValue=200))
    return views


def test_lens_calibration_from_charuco_views() -> None:
    from vision.calibration.lens import calibrate_lens

    k = np.array([[900.0, 0, 640], [0, 900, 360], [0, 0, 1]])
    lens = calibrate_lens(_charuco_views(k))
    fx, fy = lens.camera_matrix[0][0], lens.camera_matrix[1][1]
    assert fx == pytest.approx(900, rel=0.02) and fy == pytest.approx(900, rel=0.02)
    assert lens.rms_px < 1.0
    assert lens.image_size == (1280, 720)
    with pytest.raises(CalibrationError, match="at least 3 views"):
        calibrate_lens(_charuco_views(k)[:2])
