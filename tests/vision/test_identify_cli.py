"""``vision identify`` on directories and bad files, ``vision.imageio.read_image``'s limits, and
what ``annotate`` draws."""

from __future__ import annotations

import json
import os
import struct
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.recognition
from controller.cli import main
from vision.devtools.synthetic import render_scene
from vision.errors import ImageFileError, ImageReadError, ImageTooLargeError
from vision.imageio import MAX_FILE_BYTES, image_header, read_image
from vision.types import HalfReading, SceneReading, TileReading


def scene_png(seed: int, n_tiles: int = 3) -> bytes:
    ok, data = cv2.imencode(".png", render_scene(seed, n_tiles=n_tiles, max_pips=6).image)
    assert ok
    return data.tobytes()


def png_claiming(width: int, height: int) -> bytes:
    """A valid small PNG whose IHDR (CRC fixed) says ``width`` x ``height``."""
    ok, data = cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))
    assert ok
    small = data.tobytes()
    ihdr = struct.pack(">II", width, height) + small[24:29]
    crc = struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    return small[:16] + ihdr + crc + small[33:]


def lines(text: str) -> list[str]:
    return text.strip().splitlines()


# --- read_image ------------------------------------------------------------------------------


def test_runner_reads_through_imageio() -> None:
    from vision.devtools.evaluation import runner

    assert runner.read_image is read_image


def test_a_good_png_is_read_as_bgr(tmp_path: Path) -> None:
    image = render_scene(1, n_tiles=2).image
    path = tmp_path / "scene.png"
    path.write_bytes(cv2.imencode(".png", image)[1].tobytes())
    got = read_image(path)
    assert got.dtype == np.uint8 and got.shape == image.shape
    assert np.array_equal(got, image)


@pytest.mark.parametrize(
    "array",
    [
        np.full((30, 40), 200, np.uint8),
        np.full((30, 40, 4), 100, np.uint8),
        np.full((30, 40), 40000, np.uint16),
        np.full((30, 40, 3), 65535, np.uint16),
    ],
    ids=["grey", "alpha", "grey-16bit", "colour-16bit"],
)
def test_grey_alpha_and_16_bit_become_8_bit_bgr(tmp_path: Path, array: np.ndarray) -> None:
    path = tmp_path / "x.png"
    path.write_bytes(cv2.imencode(".png", array)[1].tobytes())
    got = read_image(path)
    assert got.shape == (30, 40, 3) and got.dtype == np.uint8
    assert got.max() > 0


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda p: None, "no such file"),
        (lambda p: p.mkdir(), "is a directory"),
        (lambda p: p.write_bytes(b""), "empty file"),
        (lambda p: p.write_bytes(b"hello, not a picture\n"), "not a PNG image"),
        (lambda p: p.write_bytes(scene_png(2)[:3000]), "corrupt or truncated PNG data"),
    ],
    ids=["missing", "directory", "empty", "text", "truncated"],
)
def test_bad_files_are_refused_with_one_line(tmp_path: Path, make: object, reason: str) -> None:
    path = tmp_path / "bad.png"
    make(path)  # type: ignore[operator]
    with pytest.raises(ImageFileError) as exc:
        read_image(path)
    assert isinstance(exc.value, ImageReadError)
    assert exc.value.reason.startswith(reason)
    assert str(exc.value).count("\n") == 0 and "bad.png" in str(exc.value)
    assert exc.value.exit_code == 2


def test_a_corrupt_jpeg_is_refused_quietly(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    # libjpeg decodes this with only a warning printed on the process's stderr
    data = bytearray(cv2.imencode(".jpg", render_scene(3, n_tiles=4).image)[1].tobytes())
    middle = len(data) // 3
    data[middle : middle + 200] = bytes(b ^ 0x55 for b in data[middle : middle + 200])
    path = tmp_path / "corrupt.jpg"
    path.write_bytes(bytes(data))
    with pytest.raises(ImageFileError, match="corrupt JPEG data"):
        read_image(path)
    assert capfd.readouterr().err == ""


def test_a_truncated_jpeg_is_refused(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    data = cv2.imencode(".jpg", render_scene(3, n_tiles=4).image)[1].tobytes()
    path = tmp_path / "cut.jpg"
    path.write_bytes(data[: len(data) * 9 // 10])
    with pytest.raises(ImageFileError, match="JPEG data"):
        read_image(path)
    assert capfd.readouterr().err == ""


def test_a_huge_header_is_refused_before_decoding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = png_claiming(30000, 30000)
    assert len(data) < 3_000_000
    assert image_header(data) == ("PNG", (30000, 30000))
    path = tmp_path / "huge.png"
    path.write_bytes(data)

    def no_decoding(*args: object) -> None:
        raise AssertionError("decoded")

    monkeypatch.setattr(cv2, "imdecode", no_decoding)
    with pytest.raises(ImageTooLargeError) as exc:
        read_image(path)
    assert "30000x30000 pixels" in str(exc.value) and "50 megapixels" in str(exc.value)


@pytest.mark.parametrize("ext", [".jpg", ".bmp", ".webp", ".tif"])
def test_other_headers_give_the_size(ext: str) -> None:
    data = cv2.imencode(ext, np.zeros((30, 50, 3), np.uint8))[1].tobytes()
    kind, size = image_header(data)
    assert kind is not None and size == (50, 30)


def test_a_file_over_the_cap_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "sparse.png"
    with path.open("wb") as f:
        f.truncate(1 << 30)  # sparse: no real bytes on disk
    with pytest.raises(ImageTooLargeError, match="longer than 64 MB"):
        read_image(path)
    path.write_bytes(scene_png(1))
    with pytest.raises(ImageTooLargeError, match="longer than 1000 bytes"):
        read_image(path, max_bytes=1000)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_dev_zero_is_refused() -> None:
    with pytest.raises(ImageTooLargeError, match="longer than 64 MB"):
        read_image("/dev/zero")
    assert MAX_FILE_BYTES == 64 * 2**20


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_a_fifo_nobody_writes_to_reads_as_empty(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.png"
    os.mkfifo(fifo)
    with pytest.raises(ImageFileError, match="empty file"):
        read_image(fifo)


# --- the command -----------------------------------------------------------------------------


def test_a_directory_is_read_recursively_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "photos"
    (root / "b").mkdir(parents=True)
    (root / ".cache").mkdir()
    (root / "b" / "z.PNG").write_bytes(scene_png(4))
    (root / "a.png").write_bytes(scene_png(5))
    (root / "c.jpg").write_bytes(
        cv2.imencode(".jpg", render_scene(6, n_tiles=3, max_pips=6).image)[1]
    )
    (root / ".cache" / "x.png").write_bytes(b"hidden: never read")
    (root / "notes.txt").write_text("not an image")
    out_dir = tmp_path / "out"
    assert main(["vision", "identify", str(root), "--json", "--annotate", str(out_dir)]) == 0
    out, err = capsys.readouterr()
    docs = [json.loads(line) for line in lines(out)]
    names = [os.path.relpath(d["image"], root) for d in docs]
    assert names == ["a.png", os.path.join("b", "z.PNG"), "c.jpg"]
    assert all(len(d["tiles"]) == 3 for d in docs)
    assert err == ""
    written = sorted(p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*.png"))
    assert written == ["a.annotated.png", "b/z.annotated.png", "c.annotated.png"]


def test_one_image_in_a_directory_still_names_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "only.png").write_bytes(scene_png(7))
    assert main(["vision", "identify", str(tmp_path / "d"), "--json"]) == 0
    (line,) = lines(capsys.readouterr().out)
    assert json.loads(line)["image"] == str(tmp_path / "d" / "only.png")


def test_same_names_get_different_annotated_copies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "x.png").write_bytes(scene_png(8))
    (tmp_path / "d" / "x.jpg").write_bytes(cv2.imencode(".jpg", render_scene(8).image)[1])
    out_dir = tmp_path / "out"
    assert main(["vision", "identify", str(tmp_path / "d"), "--annotate", str(out_dir)]) == 0
    assert sorted(p.name for p in out_dir.iterdir()) == ["x.annotated.png", "x.png.annotated.png"]


def test_a_bad_file_among_good_ones_is_reported_and_skipped(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    good = [tmp_path / "1.png", tmp_path / "3.png"]
    for k, path in enumerate(good):
        path.write_bytes(scene_png(10 + k))
    bad = tmp_path / "2.png"
    bad.write_bytes(scene_png(12)[:5000])
    args = [str(good[0]), str(bad), str(good[1])]
    assert main(["vision", "identify", "--json", *args]) == 1
    out, err = capfd.readouterr()
    assert [json.loads(line)["image"] for line in lines(out)] == [str(p) for p in good]
    (line,) = lines(err)
    assert line.startswith(f"domino-table: {bad}: corrupt or truncated PNG data")


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty file"),
        (png_claiming(30000, 30000), "30000x30000 pixels (900.0 megapixels), more than the limit"),
        (b"GIF89a\x10\x00\x10\x00 then garbage", "corrupt or truncated GIF data"),
    ],
    ids=["empty", "huge", "gif"],
)
def test_bad_files_give_one_stderr_line_and_exit_1(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], content: bytes, reason: str
) -> None:
    good = tmp_path / "good.png"
    good.write_bytes(scene_png(13))
    bad = tmp_path / "bad.png"
    bad.write_bytes(content)
    assert main(["vision", "identify", str(good), str(bad)]) == 1
    out, err = capfd.readouterr()
    assert out.startswith(f"{good}: 3 tiles")
    assert str(bad) not in out
    (line,) = lines(err)
    assert line.startswith(f"domino-table: {bad}: {reason}")


def test_sparse_file_and_dev_zero_from_the_command(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    sparse = tmp_path / "big.jpg"
    with sparse.open("wb") as f:
        f.truncate(1 << 30)
    args = [str(sparse)] + (["/dev/zero"] if os.path.exists("/dev/zero") else [])
    assert main(["vision", "identify", *args]) == 1
    out, err = capfd.readouterr()
    assert out == ""
    reason = "file longer than 64 MB (the limit of an image)"
    assert lines(err) == [f"domino-table: {a}: {reason}" for a in args]


def test_a_directory_without_images_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.png"
    good.write_bytes(scene_png(14))
    empty = tmp_path / "nothing"
    (empty / "sub").mkdir(parents=True)
    (empty / "readme.txt").write_text("no photos here")
    assert main(["vision", "identify", str(good), str(empty)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    (line,) = lines(err)
    assert line.startswith("domino-table: error: no image files") and str(empty) in line


def test_an_unwritable_annotate_dir_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.png"
    good.write_bytes(scene_png(15))
    blocker = tmp_path / "file"
    blocker.write_text("a file where the directory should be")
    assert main(["vision", "identify", str(good), "--annotate", str(blocker / "out")]) == 2
    (line,) = lines(capsys.readouterr().err)
    assert line.startswith("domino-table: error: cannot make directory")


@pytest.mark.parametrize("region", ["0,0,nan,0,1,1", "0,0,inf,0,1,1"])
def test_a_region_must_be_finite(tmp_path: Path, region: str) -> None:
    good = tmp_path / "good.png"
    good.write_bytes(scene_png(15))
    with pytest.raises(SystemExit) as exc:
        main(["vision", "identify", str(good), "--region", region])
    assert exc.value.code == 2


def tile(x: float, y: float, pips: tuple[int, int], confidence: float) -> TileReading:
    """A horizontal tile 60x30 px centred on (x, y)."""
    corners = ((x - 30, y - 15), (x - 30, y + 15), (x + 30, y + 15), (x + 30, y - 15))
    halves = (HalfReading((x - 15, y), pips[0]), HalfReading((x + 15, y), pips[1]))
    return TileReading(corners, halves, confidence)  # type: ignore[arg-type]


def test_text_marks_unsure_tiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    reading = SceneReading(
        (tile(100, 100, (6, 4), 0.93), tile(300, 100, (2, 5), 0.31)), 640, 480, 60.0
    )
    monkeypatch.setattr(vision.recognition, "identify", lambda *a, **k: reading)
    path = tmp_path / "x.png"
    path.write_bytes(scene_png(16))
    assert main(["vision", "identify", str(path)]) == 0
    head, sure, unsure = lines(capsys.readouterr().out)
    assert head == f"{path}: 2 tiles (tile length 60 px), 1 unsure (marked ?)"
    assert sure.startswith("    6-4  at (100, 100)") and "UNSURE" not in sure
    assert unsure.startswith("  ? 2-5  at (300, 100)") and unsure.endswith("UNSURE")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file names")
def test_a_newline_in_a_name_stays_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "two\nlines.png"
    assert main(["vision", "identify", str(path)]) == 1
    (line,) = lines(capsys.readouterr().err)
    assert line.endswith("two\\nlines.png: no such file")


# --- annotate --------------------------------------------------------------------------------


def noise(height: int, width: int, seed: int = 0) -> np.ndarray:
    """A table no drawing colour occurs in (values 70..190), so every drawn pixel shows."""
    rng = np.random.default_rng(seed)
    return rng.integers(70, 190, (height, width, 3), dtype=np.uint8)


def standing(x: float, y: float, pips: tuple[int, int], confidence: float) -> TileReading:
    """A vertical tile 40x80 px centred on (x, y), top half first."""
    corners = ((x - 20, y - 40), (x + 20, y - 40), (x + 20, y + 40), (x - 20, y + 40))
    halves = (HalfReading((x, y - 20), pips[0]), HalfReading((x, y + 20), pips[1]))
    return TileReading(corners, halves, confidence)  # type: ignore[arg-type]


def interior(t: TileReading, shape: tuple[int, int], inset: int = 5) -> np.ndarray:
    """Pixels inside the (upright) tile's outline moved ``inset`` px in on every side, less a
    band round the line where its halves meet."""
    corners = np.array(t.corners)
    centre = corners.mean(axis=0)
    mask = np.zeros(shape, np.uint8)
    cv2.fillPoly(mask, [np.rint(corners - np.sign(corners - centre) * inset).astype(np.int32)], 1)
    (ax, ay), (bx, by) = t.halves[0].center, t.halves[1].center
    across = abs(bx - ax) >= abs(by - ay)
    cx, cy = t.center
    if across:
        mask[:, int(cx) - 6 : int(cx) + 7] = 0
    else:
        mask[int(cy) - 6 : int(cy) + 7, :] = 0
    return mask.astype(bool)


def label_boxes(out: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Bounding boxes (x, y, w, h) of the areas filled with the label colour."""
    from vision.annotate import LABEL_BACKGROUND

    filled = np.all(out == LABEL_BACKGROUND, axis=2).astype(np.uint8)
    # closed over the thin lines inside a box (between figures, round a legend sample)
    filled = cv2.morphologyEx(filled, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(filled)
    return [tuple(int(v) for v in stats[k, :4]) for k in range(1, count) if stats[k, 4] > 60]


def near(out: np.ndarray, colour: tuple[int, int, int], tolerance: int = 8) -> np.ndarray:
    return np.all(np.abs(out.astype(int) - colour) <= tolerance, axis=2)


SCENE = SceneReading(
    (
        tile(300, 300, (6, 4), 0.95),
        tile(700, 420, (2, 5), 0.2),
        standing(1000, 300, (1, 3), 0.9),
        standing(500, 560, (0, 6), 0.35),
    ),
    1280,
    720,
    60.0,
)


def test_annotate_returns_a_new_image_and_leaves_the_input_alone() -> None:
    from vision.annotate import annotate

    image = noise(720, 1280)
    before = image.copy()
    image.flags.writeable = False
    out = annotate(image, SCENE)
    assert out.shape == image.shape and out.dtype == np.uint8
    assert np.array_equal(image, before)
    assert not np.shares_memory(out, image)
    grey = annotate(np.full((720, 1280), 128, np.uint8), SCENE)
    assert grey.shape == (720, 1280, 3)


def test_annotate_never_draws_over_a_tile_but_its_outline_and_middle_line() -> None:
    from vision.annotate import annotate

    image = noise(720, 1280, seed=1)
    out = annotate(image, SCENE)
    for t in SCENE.tiles:
        inside = interior(t, image.shape[:2])
        assert inside.sum() > 500
        assert np.array_equal(out[inside], image[inside]), t.pips
    # ... but the figures are drawn: one box per tile, beside it, shaped like it
    boxes = label_boxes(out)
    legend = max(boxes, key=lambda b: b[2] * b[3])
    labels = [b for b in boxes if b != legend]
    assert len(labels) == len(SCENE.tiles)
    for t in SCENE.tiles:
        corners = np.array(t.corners)
        (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
        mine = min(
            labels,
            key=lambda b: np.hypot(b[0] + b[2] / 2 - t.center[0], b[1] + b[3] / 2 - t.center[1]),
        )
        bx, by, bw, bh = mine
        assert bx >= x1 or bx + bw <= x0 or by >= y1 or by + bh <= y0, (t.pips, mine)
        assert (bw > bh) == (x1 - x0 > y1 - y0), (t.pips, mine)


def test_annotate_tells_unsure_tiles_apart() -> None:
    from vision.annotate import SURE_COLOUR, UNSURE_COLOUR, annotate

    image = noise(720, 1280, seed=2)
    sure_tile, unsure_tile = tile(300, 300, (6, 4), 0.95), tile(900, 300, (6, 4), 0.2)
    out = annotate(image, SceneReading((sure_tile, unsure_tile), 1280, 720, 60.0))

    def around(t: TileReading, colour: tuple[int, int, int]) -> int:
        x, y = t.center
        return int(near(out[int(y) - 60 : int(y) + 60, int(x) - 80 : int(x) + 80], colour).sum())

    assert around(sure_tile, SURE_COLOUR) > 200 and around(sure_tile, UNSURE_COLOUR) == 0
    assert around(unsure_tile, UNSURE_COLOUR) > 100 and around(unsure_tile, SURE_COLOUR) == 0
    # along the top edge (y = 285): the sure colour all the way, the unsure one comes and goes
    solid = near(out[284:287, 275:326], SURE_COLOUR).any(axis=0)
    dashed = near(out[284:287, 875:926], UNSURE_COLOUR).any(axis=0)
    assert solid.all()
    assert 0.3 < dashed.mean() < 0.9


def test_annotate_draws_a_legend_with_both_colours() -> None:
    from vision.annotate import LABEL_BACKGROUND, SURE_COLOUR, UNSURE_COLOUR, annotate

    image = noise(720, 1280, seed=3)
    for reading in (SCENE, SceneReading((), 1280, 720)):
        out = annotate(image, reading)
        legend = max(label_boxes(out), key=lambda b: b[2] * b[3])
        x, y, w, h = legend
        assert w > 150 and h > 40
        assert x < 40 or x + w > 1240  # in a corner
        part = out[y : y + h, x : x + w]
        assert near(part, SURE_COLOUR, 5).sum() > 20 and near(part, UNSURE_COLOUR, 5).sum() > 10
        assert near(part, (255, 255, 255), 5).sum() > 200  # its text
        assert near(part, LABEL_BACKGROUND, 0).mean() > 0.5


def test_a_small_crop_is_scaled_up_to_stay_legible() -> None:
    from vision.annotate import MIN_SIDE, annotate

    crop = noise(100, 100, seed=4)
    t = standing(50, 50, (5, 2), 0.3)
    t = TileReading(
        tuple((30 + (x - 30) * 0.5, 10 + (y - 10) * 0.5) for x, y in t.corners),  # type: ignore[arg-type]
        t.halves,
        t.confidence,
    )
    out = annotate(crop, SceneReading((t,), 100, 100, 40.0))
    factor = out.shape[0] // 100
    assert out.shape == (100 * factor, 100 * factor, 3) and 100 * factor >= MIN_SIDE
    assert len(label_boxes(out)) == 2  # the legend and the tile's label


def test_a_tile_filling_the_image_gets_a_border_for_its_label() -> None:
    from vision.annotate import annotate

    image = noise(480, 480, seed=5)
    big = TileReading(
        ((20, 16), (460, 16), (460, 464), (20, 464)),
        (HalfReading((240, 128), 3), HalfReading((240, 352), 3)),
        0.9,
    )
    out = annotate(image, SceneReading((big,), 480, 480, 448.0))
    assert out.shape[0] > 480 and out.shape[1] > 480
    left = (out.shape[1] - 480) // 2
    inside = interior(big, (480, 480))
    assert np.array_equal(out[left : left + 480, left : left + 480][inside], image[inside])
    assert len(label_boxes(out)) == 2
