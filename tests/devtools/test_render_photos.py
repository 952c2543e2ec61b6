"""Rendered photos (vision.devtools.render.photos): deterministic, truth that matches the pixels,
tiles apart, backs blank, every look reachable, and the `fixture render-photos` CLI."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.cli import main
from vision.devtools.evaluation.truth import load_truth_dir
from vision.devtools.render.looks import (
    BAR_KINDS,
    PIP_KINDS,
    SHADOW_KINDS,
    TABLE_GROUPS,
    TABLE_KINDS,
    TILE_KINDS,
    Look,
    sample_look,
)
from vision.devtools.render.photos import (
    CROP_FILL,
    CROP_SIDE,
    crop_look,
    render_crop,
    render_table,
    table_look,
)
from vision.devtools.synthetic import SyntheticTile


def _clean(look: Look, **changes: object) -> Look:
    """``look`` with no blur, motion, noise or JPEG (unless ``changes`` say otherwise): pixels
    a blob count can read exactly."""
    clean: dict[str, object] = {
        "defocus": 0.0,
        "blur_px": 0.0,
        "motion": 0.0,
        "noise": 0.0,
        "jpeg_quality": None,
    }
    return replace(look, **{**clean, **changes})


def _grey(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float64)


def _tile_frame(tile: SyntheticTile, length: float) -> np.ndarray:
    """Homography image -> tile frame (u along the axis from half a, v across; tile widths)."""
    src = np.array(tile.corners, dtype=np.float32)
    hl = length / 2
    dst = np.array([(-hl, -0.5), (hl, -0.5), (hl, 0.5), (-hl, 0.5)], dtype=np.float32)
    return cv2.getPerspectiveTransform(src, dst)


def _to_frame(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)


def _poly_mask(shape: tuple[int, ...], corners: tuple, shrink: float = 0.0) -> np.ndarray:
    """Mask of the quadrilateral ``corners`` moved ``shrink`` (share) towards its centre."""
    pts = np.array(corners, dtype=np.float64)
    c = pts.mean(axis=0)
    pts = pts + (c - pts) * shrink
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.rint(pts).astype(np.int32)], 255)
    return mask


def _count_pips(image: np.ndarray, tile: SyntheticTile, look: Look) -> tuple[int, int]:
    """Dark blobs on each half of ``tile``, the bar's strip and the rim left out."""
    grey = _grey(image)
    h = _tile_frame(tile, look.tile_length)
    face = _poly_mask(image.shape, tile.corners)
    ys, xs = np.nonzero(face)
    uv = _to_frame(h, np.column_stack([xs, ys]))
    hl = look.tile_length / 2
    dark = np.zeros(grey.shape, np.uint8)
    for sign in (-1, 1):
        inside = (
            (uv[:, 0] * sign > 0.13) & (uv[:, 0] * sign < hl - 0.06) & (np.abs(uv[:, 1]) < 0.44)
        )
        values = grey[ys[inside], xs[inside]]
        level = np.median(values)
        # halfway from the face to the pips' cores: the pixels between close pips stay out
        threshold = min(0.8 * level, (level + np.percentile(values, 1)) / 2)
        sel = inside & (grey[ys, xs] < threshold)
        dark[ys[sel], xs[sel]] = 255
    n, _, stats, centroids = cv2.connectedComponentsWithStats(dark, connectivity=8)
    pip_area = math.pi * (look.pip_diameter * look.tile_width_px / 2) ** 2
    counts = [0, 0]
    for k in range(1, n):
        if stats[k, cv2.CC_STAT_AREA] < 0.2 * pip_area:
            continue
        u = _to_frame(h, centroids[k : k + 1])[0, 0]
        counts[0 if u < 0 else 1] += 1
    return counts[0], counts[1]


# ---------------------------------------------------------------------------------------------


def test_same_seed_same_bytes_and_seeds_differ() -> None:
    a, ta = render_crop(5)
    b, tb = render_crop(5)
    assert a.tobytes() == b.tobytes() and ta == tb
    c, _ = render_crop(6)
    assert a.shape != c.shape or a.tobytes() != c.tobytes()
    p = render_table(3, width=640, height=480)
    q = render_table(3, width=640, height=480)
    assert p.image.tobytes() == q.image.tobytes()
    assert p.tiles == q.tiles and p.backs == q.backs
    assert p.image.shape == (480, 640, 3) and p.image.dtype == np.uint8
    assert render_table(4, width=640, height=480).image.tobytes() != p.image.tobytes()


def test_the_package_exports_the_photos() -> None:
    import vision.devtools.render as vr

    assert vr.render_crop is render_crop and vr.render_table is render_table
    assert vr.Look is Look and vr.sample_look is sample_look


def test_the_global_random_state_is_neither_used_nor_moved() -> None:
    np.random.seed(1)
    before = np.random.get_state()[1].copy()
    render_crop(2)
    render_table(2, width=320, height=240)
    assert (np.random.get_state()[1] == before).all()


def test_a_given_look_is_drawn_and_keeps_the_scene() -> None:
    look = table_look(9, 640, 480)
    other = replace(look, table="green_felt", table_bgr=(40.0, 110.0, 30.0), tile="pink")
    p = render_table(9, look, 640, 480)
    q = render_table(9, other, 640, 480)
    assert p.tiles == q.tiles  # the placement comes from the scene's own stream
    assert p.image.tobytes() != q.image.tobytes()
    assert render_table(9, None, 640, 480).image.tobytes() == p.image.tobytes()


@pytest.mark.parametrize("seed", range(0, 60, 3))
def test_crop_size_fill_and_truth_inside(seed: int) -> None:
    image, tile = render_crop(seed)
    h, w = image.shape[:2]
    assert CROP_SIDE[0] <= max(h, w) <= CROP_SIDE[1] + 1
    pts = np.array(tile.corners)
    assert (pts >= 0).all() and (pts[:, 0] < w).all() and (pts[:, 1] < h).all()
    length = (math.dist(pts[0], pts[1]) + math.dist(pts[3], pts[2])) / 2
    fill = length / max(h, w)
    lo, hi = CROP_FILL
    assert lo * 0.85 <= fill <= hi * 1.15  # the keystone scales by up to 12%
    assert all(0 <= n <= 6 for n in tile.pips)
    # the half centres are the midpoints of each half, between the corners
    mid_a = (pts[0] + pts[3]) / 2
    mid_b = (pts[1] + pts[2]) / 2
    centre = (mid_a + mid_b) / 2
    np.testing.assert_allclose(tile.centers[0], (mid_a + centre) / 2, atol=0.02 * length)
    np.testing.assert_allclose(tile.centers[1], (mid_b + centre) / 2, atol=0.02 * length)


def _face_mask(seed: int, look: Look, crop: bool) -> tuple[np.ndarray, list[SyntheticTile]]:
    """Pixels of the tiles' faces: where drawing red faces and green faces differ (the scene
    is the same; the sides are left out of the look)."""
    look = _clean(look, side_size=0.0, side_radial=0.0, shine=0.0)
    red = replace(look, tile_bgr=(20.0, 20.0, 230.0))
    green = replace(look, tile_bgr=(20.0, 230.0, 20.0))
    if crop:
        a, t = render_crop(seed, red)
        b, _ = render_crop(seed, green)
        tiles = [t]
    else:
        pa = render_table(seed, red, 800, 600)
        a, tiles = pa.image, list(pa.tiles)
        b = render_table(seed, green, 800, 600).image
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2)
    return (diff > 60).astype(np.uint8) * 255, tiles


@pytest.mark.parametrize("seed", [0, 1, 2, 5, 8, 13])
def test_truth_outlines_are_the_drawn_faces(seed: int) -> None:
    for crop in (True, False):
        look = crop_look(seed) if crop else table_look(seed, 800, 600)
        if not crop:
            look = replace(look, tile_width_px=min(look.tile_width_px, 90.0))
        faces, tiles = _face_mask(seed, look, crop)
        assert tiles
        # pips and bar are holes in the faces: fill them
        contours, _ = cv2.findContours(faces, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        filled = np.zeros_like(faces)
        cv2.drawContours(filled, contours, -1, 255, -1)
        polys = [_poly_mask(faces.shape, t.corners) for t in tiles]
        for k, t in enumerate(tiles):
            others = np.zeros_like(faces)
            for j, q in enumerate(polys):
                if j != k:
                    others |= q
            near = filled & _poly_mask(faces.shape, t.corners, -0.2) & ~others
            inter = np.count_nonzero(polys[k] & near)
            union = np.count_nonzero(polys[k] | near)
            assert inter / union > 0.85, (seed, crop, t)
            for c in t.centers:
                x, y = round(c[0]), round(c[1])
                r = max(2, round(0.3 * look.tile_width_px))
                disc = np.zeros_like(faces)
                cv2.circle(disc, (x, y), r, 255, -1)
                # a half's centre lies on its face (its pips are face colour in neither)
                assert np.count_nonzero(disc & faces) > 0.5 * np.count_nonzero(disc)


@pytest.mark.parametrize("seed", range(12))
def test_dark_blobs_on_each_half_are_the_truth_pips(seed: int) -> None:
    rng = np.random.default_rng(seed)
    # Below ~35 px wide, the 2 px between the pips of a six darken once anti-aliased and
    # resampled: a reader sees them apart, a threshold does not.
    width = float(rng.uniform(36, 120))
    look = _clean(crop_look(seed), tile_width_px=width)
    image, tile = render_crop(seed, look)
    assert _count_pips(image, tile, look) == tile.pips
    table = _clean(table_look(seed, 960, 720), tile_width_px=float(rng.uniform(36, 80)))
    photo = render_table(seed, table, 960, 720)
    assert photo.tiles
    for t in photo.tiles:
        assert _count_pips(photo.image, t, table) == t.pips, (seed, t)


def test_blob_count_sees_a_wrong_truth() -> None:
    look = _clean(crop_look(3), tile_width_px=60.0)
    for seed in range(40):
        image, tile = render_crop(seed, look)
        if tile.pips[0] != tile.pips[1]:
            break
    swapped = replace(tile, pips=(tile.pips[1], tile.pips[0]))
    assert _count_pips(image, swapped, look) != swapped.pips


def _overlap_area(a: tuple, b: tuple) -> float:
    area, _ = cv2.intersectConvexConvex(np.array(a, np.float32), np.array(b, np.float32))
    return float(area)


@pytest.mark.parametrize("seed", range(0, 40, 2))
def test_tiles_and_backs_do_not_overlap_and_lie_inside(seed: int) -> None:
    photo = render_table(seed, width=1280, height=720)
    polys = [t.corners for t in photo.tiles] + [b.corners for b in photo.backs]
    assert polys
    h, w = photo.image.shape[:2]
    for p in polys:
        pts = np.array(p)
        assert (pts >= 0).all() and (pts[:, 0] < w).all() and (pts[:, 1] < h).all()
    for p, q in itertools.combinations(polys, 2):
        area = cv2.contourArea(np.array(p, np.float32))
        assert _overlap_area(p, q) < 0.002 * area


def _touching_kinds(tiles: list[SyntheticTile]) -> set[str]:
    """How pairs of tiles touch: "ends" (in line), "side" (side by side), "cross" (at right
    angles: doubles crosswise and turns)."""
    kinds: set[str] = set()
    for a, b in itertools.combinations(tiles, 2):
        pa, pb = np.array(a.corners), np.array(b.corners)
        width = math.dist(pa[0], pa[3])
        gap = min(
            cv2.pointPolygonTest(pb.astype(np.float32), (float(x), float(y)), True) for x, y in pa
        )
        if gap < -0.08 * width:  # a's nearest corner is outside b by more than a hair
            d = min(math.dist(p, q) for p in pa for q in pb)
            if d > 0.08 * width:
                continue
        ua = pa[1] - pa[0]
        ub = pb[1] - pb[0]
        cos = abs(float(ua @ ub)) / (np.linalg.norm(ua) * np.linalg.norm(ub))
        if cos < 0.1:
            kinds.add("cross")
        elif cos > 0.99:
            ca, cb = pa.mean(axis=0), pb.mean(axis=0)
            along = abs(float((cb - ca) @ ua)) / float(np.linalg.norm(ua))
            kinds.add("ends" if along > 1.5 * width else "side")
    return kinds


def test_tables_have_lines_doubles_across_rows_and_backs() -> None:
    kinds: set[str] = set()
    backs = 0
    for seed in range(30):
        photo = render_table(seed, width=1280, height=720)
        kinds |= _touching_kinds(list(photo.tiles))
        backs += len(photo.backs)
    assert kinds == {"ends", "side", "cross"}
    assert backs > 0


def test_line_tiles_touching_end_to_end_show_equal_pips() -> None:
    matched = total = 0
    for seed in range(20):
        photo = render_table(seed, width=1280, height=720)
        for a, b in itertools.combinations(photo.tiles, 2):
            for i, j in itertools.product(range(2), range(2)):
                width = math.dist(a.corners[0], a.corners[3])
                if math.dist(a.centers[i], b.centers[j]) < 1.1 * width and a.pips[0] != a.pips[1]:
                    total += 1
                    matched += a.pips[i] == b.pips[j]
    assert total > 20
    assert matched > 0.6 * total  # loose tiles may lie near a line by chance


@pytest.mark.parametrize("seed", range(0, 30, 3))
def test_backs_are_blank(seed: int) -> None:
    base = table_look(seed, 960, 720)
    look = _clean(base, tile_width_px=float(np.clip(base.tile_width_px, 25, 80)))
    photo = render_table(seed, look, 960, 720, n_tiles=24)
    grey = _grey(photo.image)
    for b in photo.backs:
        inner = _poly_mask(grey.shape, b.corners, 0.22) > 0
        values = grey[inner]
        assert values.size > 10
        assert values.min() > 0.8 * np.median(values), b
    # the same test does see the pips and bar of tiles lying face up
    marked = 0
    for t in photo.tiles:
        values = grey[_poly_mask(grey.shape, t.corners, 0.22) > 0]
        marked += int(values.min() < 0.8 * np.median(values))
    assert marked >= 0.8 * len(photo.tiles)


def test_some_tables_have_backs_and_their_truth_lists_none() -> None:
    for seed in range(40):
        photo = render_table(seed, width=1280, height=720)
        if photo.backs:
            break
    else:
        pytest.fail("no face-down tile in 40 tables")
    centres = [c for t in photo.tiles for c in t.centers]
    for b in photo.backs:
        assert all(math.dist(b.center, c) > 1.0 for c in centres)


def test_n_tiles_is_a_limit_and_zero_draws_a_bare_table() -> None:
    photo = render_table(1, width=1280, height=720, n_tiles=0)
    assert photo.tiles == () and photo.backs == ()
    few = render_table(1, width=1280, height=720, n_tiles=3)
    assert 1 <= len(few.tiles) + len(few.backs) <= 3
    with pytest.raises(ValueError, match="n_tiles"):
        render_table(1, n_tiles=-1)


def test_every_look_option_is_reachable() -> None:
    rng = np.random.default_rng(0)
    looks = [sample_look(rng) for _ in range(3000)]

    def seen(field: str) -> set[object]:
        return {getattr(lk, field) for lk in looks}

    assert seen("table") == set(TABLE_KINDS)
    assert set(itertools.chain(*TABLE_GROUPS.values())) == set(TABLE_KINDS)
    assert seen("tile") == set(TILE_KINDS)
    assert seen("pips") == set(PIP_KINDS)
    assert seen("bar") == set(BAR_KINDS)
    assert seen("shadow") == set(SHADOW_KINDS)
    assert seen("spinner") == {True, False}
    assert {lk.bar_length == 1.0 for lk in looks} == {True, False}
    assert {lk.pip_gloss > 0 for lk in looks} == {True, False}
    assert {lk.motion > 0 for lk in looks} == {True, False}
    assert {lk.shine > 0 for lk in looks} == {True, False}
    assert {lk.defocus > 0 for lk in looks} == {True, False}

    def span(field: str) -> tuple[float, float]:
        v = [float(getattr(lk, field)) for lk in looks]
        return min(v), max(v)

    lo, hi = span("pip_diameter")
    assert 0.13 <= lo < 0.135 and 0.215 < hi <= 0.22
    lo, hi = span("tile_width_px")
    assert lo < 22 and hi > 270
    lo, hi = span("jpeg_quality")
    assert lo <= 41 and hi >= 94
    lo, hi = span("rotation")
    assert lo < 5 and hi > 355
    lo, hi = span("side_size")
    assert lo < 0.005 and hi > 0.08
    lo, hi = span("perspective")
    assert hi > 0.1
    # mixed sets paint each pip value its own colour; others one colour for all
    for lk in looks:
        colours = set(lk.pip_bgr[1:])
        assert len(colours) == (6 if lk.pips == "mixed" else 1)
    # every pip of a half fits in its square, apart from its neighbours
    for lk in looks:
        assert lk.pip_spacing - lk.pip_diameter >= 0.06
        assert lk.pip_spacing + lk.pip_diameter / 2 <= 0.42


@pytest.mark.parametrize(
    ("field", "off", "on"),
    [
        ("motion", 0.0, 0.04),
        ("defocus", 0.0, 0.02),
        ("noise", 0.0, 8.0),
        ("jpeg_quality", None, 40),
        ("shine", 0.0, 0.4),
        ("perspective", 0.0, 0.1),
        ("side_size", 0.0, 0.08),
        ("pip_gloss", 0.0, 0.4),
        ("spinner", False, True),
        ("shadow_strength", 0.0, 0.7),
        ("vignette", 0.0, 0.4),
        ("bar_length", 0.6, 1.0),
        ("texture_contrast", 0.0, 1.0),
    ],
)
def test_each_look_option_shows_in_the_pixels(field: str, off: object, on: object) -> None:
    base = _clean(
        crop_look(4),
        tile_width_px=60.0,
        table="light_wood",
        table_bgr=(128.0, 176.0, 214.0),
        table_bgr2=(95.0, 140.0, 182.0),
        shine_offset=0.0,
        shine_width=0.5,
        shadow_offset=0.06,
        side_radial=0.0,
        blur_px=0.5,
    )
    a, ta = render_crop(4, replace(base, **{field: off}))
    b, tb = render_crop(4, replace(base, **{field: on}))
    assert a.shape == b.shape
    diff = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=2)
    assert np.count_nonzero(diff > 12) >= 12, field
    if field in ("motion", "defocus"):  # blur: fewer fine details
        assert cv2.Laplacian(_grey(b), cv2.CV_64F).var() < cv2.Laplacian(_grey(a), cv2.CV_64F).var()
    if field != "perspective":
        assert ta == tb  # the truth moves with the geometry only


def test_looks_of_tables_and_crops_fit_their_images() -> None:
    widths = [table_look(s, 1280, 720).tile_width_px for s in range(400)]
    assert min(widths) < 25 and max(widths) > 200 and np.median(widths) < 70
    for s in range(200):
        lk = crop_look(s)
        assert 20 * 0.9 < lk.tile_width_px < 150


_CROPS_12 = ("fixture", "render-photos", "--kind", "crops", "--count", "12", "--seed", "3")


def test_the_cli_writes_crops_by_tile_and_a_truth_file(tmp_path: Path) -> None:
    out = tmp_path / "crops"
    code = main([*_CROPS_12, "--out", str(out), "--quiet"])
    assert code == 0
    jpgs = sorted(out.glob("*/*.jpg"))
    assert len(jpgs) == 12
    for p in jpgs:
        a, b = (int(v) for v in p.parent.name.split("x"))
        assert a >= b and 0 <= b <= a <= 6
        image = cv2.imread(str(p))
        assert image is not None and CROP_SIDE[0] <= max(image.shape[:2]) <= CROP_SIDE[1] + 1
    images = load_truth_dir(out)
    assert len(images) == 12
    for im in images:
        assert im.path.exists()
        (tile,) = im.tiles
        pips = sorted(h.pips for h in tile.halves)
        assert im.path.parent.name == f"{pips[1]}x{pips[0]}"
    # the same set again is the same bytes
    again = tmp_path / "again"
    assert main([*_CROPS_12, "--out", str(again), "--quiet"]) == 0
    for p in jpgs:
        assert (again / p.relative_to(out)).read_bytes() == p.read_bytes()


def test_the_cli_writes_tables_with_truth(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "tables"
    args = ("--kind", "tables", "--count", "3", "--seed", "1", "--width", "640", "--height", "480")
    code = main(["fixture", "render-photos", *args, "--out", str(out)])
    assert code == 0
    assert "3/3" in capsys.readouterr().err  # progress
    assert sorted(p.name for p in out.iterdir()) == [
        "00000.jpg",
        "00001.jpg",
        "00002.jpg",
        "recognition-truth.json",
    ]
    images = load_truth_dir(out)
    raw = json.loads((out / "recognition-truth.json").read_text())
    for k, im in enumerate(images):
        seed = 1 * 1_000_000 + k
        photo = render_table(seed, width=640, height=480)
        assert len(im.tiles) == len(photo.tiles)
        assert len(raw["images"][k]["backs"]) == len(photo.backs)
        for got, want in zip(im.tiles, photo.tiles, strict=True):
            assert [h.pips for h in got.halves] == list(want.pips)
            np.testing.assert_allclose(got.halves[0].center, want.centers[0], atol=0.01)
        assert cv2.imread(str(im.path)).shape == (480, 640, 3)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--kind", "crops", "--count", "0"], "--count"),
        (["--kind", "crops", "--count", "many"], "--count"),
        (["--kind", "boards"], "--kind"),
        (["--kind", "tables", "--width", "10"], "--width"),
        (["--kind", "tables", "--seed", "-1"], "--seed"),
    ],
)
def test_the_cli_refuses_bad_arguments_in_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["fixture", "render-photos", "--out", str(tmp_path / "x"), *argv])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1].count(message) == 1
    assert not (tmp_path / "x").exists()
