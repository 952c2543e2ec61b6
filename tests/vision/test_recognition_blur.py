"""Recognition of blurred frames: tiles placed by the outline of their faces
(:mod:`vision.recognition.poses`), pips counted as dark peaks (:mod:`vision.recognition.peaks`)
and :func:`~vision.recognition.identify` on blurred rendered scenes.

Every expected place and pip count is what was drawn (the drawing code below, or the renderer's
truth), never a reading.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest

from vision.calibration.geometry import default_geometry
from vision.devtools.render.scene import RenderParams, SceneRenderer
from vision.devtools.render.stills import render_stills
from vision.devtools.render.tiles import PlacedTile
from vision.recognition import identify
from vision.recognition.layouts import layout
from vision.recognition.params import RecognitionParams
from vision.recognition.peaks import half_patch, half_peaks
from vision.recognition.poses import TilePose, dominant_angle, fit_poses
from vision.types import Point, SceneReading

U8 = npt.NDArray[np.uint8]

FACE, TABLE, INK = 230, 40, 25
#: pip spacing (centre to outer pip) and diameter, as fractions of the tile width
SPACING_REL, PIP_REL = 0.28, 0.17
_SHIFT = 4  # sub-pixel bits for OpenCV drawing


def _fixed(p: Point) -> tuple[int, int]:
    return round(p[0] * (1 << _SHIFT)), round(p[1] * (1 << _SHIFT))


# -- drawing: plain w x 2w faces with pips, no bars, no seams ---------------------------------


class Drawn:
    """A tile drawn by :func:`_draw`: centre, long axis (degrees), pips (a, b)."""

    def __init__(self, center: Point, angle: float, pips: tuple[int, int]) -> None:
        self.center, self.angle, self.pips = center, angle, pips

    @property
    def along(self) -> Point:
        r = math.radians(self.angle)
        return (math.cos(r), math.sin(r))

    def at(self, a: float, b: float, w: float) -> Point:
        """The point ``a`` widths along and ``b`` widths across from the centre."""
        (ux, uy), (cx, cy) = self.along, self.center
        return (cx + (a * ux - b * uy) * w, cy + (a * uy + b * ux) * w)


def _draw(tiles: list[Drawn], size: tuple[int, int], w: float, blur: float) -> U8:
    """Grey ``size`` (width, height) frame: dark table, white ``w x 2w`` faces touching with no
    seam or bar, black pips at the standard places; Gaussian blur ``blur`` px."""
    img = np.full((size[1], size[0]), TABLE, np.uint8)
    for t in tiles:
        corners = [t.at(a, b, w) for a, b in ((-1, -0.5), (1, -0.5), (1, 0.5), (-1, 0.5))]
        poly = np.array([_fixed(p) for p in corners], np.int32)
        cv2.fillPoly(img, [poly], FACE, cv2.LINE_AA, shift=_SHIFT)
    radius = round(PIP_REL * w / 2 * (1 << _SHIFT))
    for t in tiles:
        for sign, n in zip((-0.5, 0.5), t.pips, strict=True):
            for u, v in layout(n):
                p = t.at(sign + u * SPACING_REL, v * SPACING_REL, w)
                cv2.circle(img, _fixed(p), radius, INK, -1, cv2.LINE_AA, shift=_SHIFT)
    if blur > 0:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), blur), np.uint8)
    return img


PIPS = ((6, 2), (3, 5), (1, 4), (0, 6), (5, 5), (2, 3))


def _straight(n: int, w: float, angle: float, center: Point) -> list[Drawn]:
    """``n`` tiles end to end along ``angle``."""
    r = math.radians(angle)
    step = (2 * w * math.cos(r), 2 * w * math.sin(r))
    return [
        Drawn(
            (center[0] + (k - (n - 1) / 2) * step[0], center[1] + (k - (n - 1) / 2) * step[1]),
            angle,
            PIPS[k % len(PIPS)],
        )
        for k in range(n)
    ]


def _corner(w: float, angle: float, origin: Point) -> list[Drawn]:
    """An L: three tiles along ``angle``, then two at a right angle, the first of them with
    its end against the long side of the last one's far half."""
    local = [((2 * k * w, 0.0), 0.0) for k in range(3)] + [
        ((4 * w + w / 2, w / 2 + w + 2 * k * w), 90.0) for k in range(2)
    ]
    r = math.radians(angle)
    c, s = math.cos(r), math.sin(r)
    return [
        Drawn((origin[0] + c * x - s * y, origin[1] + s * x + c * y), a + angle, PIPS[i])
        for i, ((x, y), a) in enumerate(local)
    ]


def _pose_angle_error(pose: TilePose, tile: Drawn) -> float:
    """Degrees between the pose's axis and the tile's (axes, so modulo 180)."""
    d = math.degrees(math.atan2(pose.along[1], pose.along[0])) - tile.angle
    return abs((d + 90.0) % 180.0 - 90.0)


def _inside(p: Point, tile: Drawn, w: float) -> bool:
    (ux, uy), (cx, cy) = tile.along, tile.center
    dx, dy = p[0] - cx, p[1] - cy
    return abs(dx * ux + dy * uy) < w and abs(-dx * uy + dy * ux) < w / 2


def _assert_poses_match(poses: list[TilePose], tiles: list[Drawn], w: float) -> None:
    assert len(poses) == len(tiles)
    for tile in tiles:
        near = [p for p in poses if math.dist(p.center, tile.center) < 0.15 * w]
        assert len(near) == 1, f"tile at {tile.center}: poses {[p.center for p in poses]}"
        assert _pose_angle_error(near[0], tile) < 3.0
    for pose in poses:
        # both halves of the pose in one drawn tile: no pose straddles two tiles
        ux, uy = pose.along
        halves = [
            (pose.center[0] + s * w / 2 * ux, pose.center[1] + s * w / 2 * uy) for s in (-1, 1)
        ]
        assert any(all(_inside(h, t, w) for h in halves) for t in tiles), pose


def _fit(
    grey: U8,
    w: float,
    occupied: npt.NDArray[np.bool_] | None = None,
    *,
    closed: bool = True,
    aspect: float = 2.0,
) -> list[TilePose]:
    if occupied is None:
        occupied = np.zeros(grey.shape, np.bool_)
    return fit_poses(
        grey,
        width=w,
        threshold=(FACE + TABLE) // 2,
        occupied=occupied,
        angle=dominant_angle(grey),
        max_tiles=20,
        closed=closed,
        aspect=aspect,
    )


# -- 1, 2: fit_poses --------------------------------------------------------------------------


@pytest.mark.parametrize("blur", [1.0, 1.5])
@pytest.mark.parametrize("angle", [0.0, 17.0, 60.0])
@pytest.mark.parametrize("n", [3, 5])
def test_fit_poses_tiles_a_straight_line_without_bars(n: int, angle: float, blur: float) -> None:
    w = 24.0
    tiles = _straight(n, w, angle, (200.0, 200.0))
    grey = _draw(tiles, (400, 400), w, blur)
    _assert_poses_match(_fit(grey, w), tiles, w)


@pytest.mark.parametrize("blur", [1.0, 1.5])
@pytest.mark.parametrize("angle", [0.0, 17.0, 60.0])
def test_fit_poses_tiles_a_line_that_turns_a_corner(angle: float, blur: float) -> None:
    w = 24.0
    tiles = _corner(w, angle, (120.0, 120.0))
    grey = _draw(tiles, (420, 420), w, blur)
    _assert_poses_match(_fit(grey, w), tiles, w)


def test_dominant_angle_is_the_tiles_edge_direction_modulo_a_right_angle() -> None:
    w = 24.0
    for angle in (0.0, 17.0, 60.0, 105.0):
        grey = _draw(_straight(4, w, angle, (200.0, 200.0)), (400, 400), w, 1.5)
        got = math.degrees(dominant_angle(grey))
        assert 0.0 <= got < 90.0
        assert abs((got - angle + 45.0) % 90.0 - 45.0) < 3.0


def test_fit_poses_finds_nothing_in_a_frame_without_faces() -> None:
    rng = np.random.default_rng(5)
    dark = np.clip(rng.normal(TABLE, 6.0, (300, 400)), 0, 255).astype(np.uint8)
    assert _fit(dark, 24.0) == []
    assert _fit(np.zeros((300, 400), np.uint8), 24.0) == []


def _pose_mask(pose: TilePose, w: float, shape: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    """Pixels of the pose's ``w x 2w`` rectangle."""
    t = Drawn(pose.center, math.degrees(math.atan2(pose.along[1], pose.along[0])), (0, 0))
    corners = [t.at(a, b, w) for a, b in ((-1, -0.5), (1, -0.5), (1, 0.5), (-1, 0.5))]
    mask = np.zeros(shape, np.uint8)
    cv2.fillConvexPoly(mask, np.rint(np.array(corners)).astype(np.int32), 1)
    return mask > 0


def _tile_mask(tiles: list[Drawn], w: float, shape: tuple[int, ...]) -> npt.NDArray[np.bool_]:
    mask = np.zeros(shape, np.uint8)
    for t in tiles:
        corners = [t.at(a, b, w) for a, b in ((-1, -0.5), (1, -0.5), (1, 0.5), (-1, 0.5))]
        cv2.fillConvexPoly(mask, np.rint(np.array(corners)).astype(np.int32), 1)
    return mask > 0


@pytest.mark.parametrize("taken", [(0, 2), (0,), (1, 3)])
@pytest.mark.parametrize("angle", [0.0, 17.0, 60.0])
def test_fit_poses_places_nothing_on_occupied_tiles(angle: float, taken: tuple[int, ...]) -> None:
    w = 24.0
    tiles = _straight(5, w, angle, (200.0, 200.0))
    grey = _draw(tiles, (400, 400), w, 1.5)
    # every tile already read: nothing is left to place
    assert _fit(grey, w, _tile_mask(tiles, w, grey.shape)) == []
    # some of them read: no pose on them, and every pose on one tile that is free
    occupied = _tile_mask([tiles[k] for k in taken], w, grey.shape)
    poses = _fit(grey, w, occupied)
    free = [t for k, t in enumerate(tiles) if k not in taken]
    for pose in poses:
        # a rim of a pixel or so where a pose lies at whole pixels in a turned frame
        mask = _pose_mask(pose, w, grey.shape)
        assert (mask & occupied).sum() < 0.05 * mask.sum(), pose
        near = [t for t in free if math.dist(pose.center, t.center) < 0.15 * w]
        assert len(near) == 1, pose
        assert _pose_angle_error(pose, near[0]) < 3.0


@pytest.mark.parametrize(
    ("angle", "taken"),
    [
        (0.0, (0, 2)),
        (0.0, (1, 3)),
        (17.0, (0, 2)),
        (60.0, (1, 3)),
        # squeezed: the occupied mask (tile corners filled, edge pixels included) leaves less
        # than 2 w whole pixels for the free tile in the turned frame; the loose places
        # (overlapping the occupied ones a little) take it
        (17.0, (1, 3)),
        (60.0, (0, 2)),
        (60.0, (0,)),
    ],
)
def test_fit_poses_places_every_free_tile_beside_occupied_ones(
    angle: float, taken: tuple[int, ...]
) -> None:
    w = 24.0
    tiles = _straight(5, w, angle, (200.0, 200.0))
    grey = _draw(tiles, (400, 400), w, 1.5)
    poses = _fit(grey, w, _tile_mask([tiles[k] for k in taken], w, grey.shape))
    _assert_poses_match(poses, [t for k, t in enumerate(tiles) if k not in taken], w)


@pytest.mark.parametrize("reach", [0.5, 1.0])
@pytest.mark.parametrize("angle", [0.0, 8.0, 33.0])
def test_fit_poses_places_a_crosswise_double_that_tiles_read_reach_into(
    angle: float, reach: float
) -> None:
    # a crosswise double between two tiles read by their bars, as they come out of a blurred
    # frame: each a little too long, so that it reaches ``reach`` px into the double (and its
    # filled edge pixels a pixel more)
    w = 24.0
    r = math.radians(angle)
    u = (math.cos(r), math.sin(r))
    c = (200.0, 200.0)
    double = Drawn(c, angle + 90.0, (5, 5))
    left = Drawn((c[0] - 1.5 * w * u[0], c[1] - 1.5 * w * u[1]), angle, (6, 5))
    right = Drawn((c[0] + 1.5 * w * u[0], c[1] + 1.5 * w * u[1]), angle, (5, 2))
    grey = _draw([left, double, right], (400, 400), w, 1.5)
    longer = 1 + reach / w
    occupied = np.zeros(grey.shape, np.uint8)
    for t, sign in ((left, 1.0), (right, -1.0)):
        # grown at the end that touches the double only
        a0, a1 = (-1.0, longer) if sign > 0 else (-longer, 1.0)
        corners = [t.at(a, b, w) for a, b in ((a0, -0.5), (a1, -0.5), (a1, 0.5), (a0, 0.5))]
        cv2.fillConvexPoly(occupied, np.rint(np.array(corners)).astype(np.int32), 1)
    poses = fit_poses(
        grey,
        width=w,
        threshold=(FACE + TABLE) // 2,
        occupied=occupied > 0,
        angle=math.radians(angle) % (math.pi / 2),
        max_tiles=10,
    )
    _assert_poses_match(poses, [double], w)


def _line_with_crosswise(w: float, angle: float, center: Point) -> list[Drawn]:
    """Tile, crosswise double, tile, crosswise double, tile: end to end along ``angle``."""
    r = math.radians(angle)
    u = (math.cos(r), math.sin(r))
    at, out = -4.0 * w, []
    for k, crosswise in enumerate((False, True, False, True, False)):
        length = w if crosswise else 2 * w
        a = at + length / 2
        c = (center[0] + a * u[0], center[1] + a * u[1])
        pips = (k + 1, k + 1) if crosswise else PIPS[k]
        out.append(Drawn(c, angle + (90.0 if crosswise else 0.0), pips))
        at += length
    return out


@pytest.mark.parametrize(
    ("angle", "blur"),
    [
        (0.0, 1.0),
        (0.0, 1.5),
        (8.0, 1.0),
        (8.0, 1.5),
        (33.0, 1.0),
        pytest.param(
            33.0,
            1.5,
            marks=pytest.mark.xfail(
                strict=True,
                reason="known limit: at 33 degrees and 1.5 px the tile between the doubles is "
                "placed across the second one (whole pixels in the turned frame)",
            ),
        ),
    ],
)
def test_fit_poses_places_the_crosswise_doubles_of_a_line_without_bars(
    angle: float, blur: float
) -> None:
    # nothing read: each double's sides stand out of the line by half a tile, and a place
    # along the line, half on a double and half on its neighbour, must not take it
    w = 24.0
    tiles = _line_with_crosswise(w, angle, (200.0, 200.0))
    grey = _draw(tiles, (400, 400), w, blur)
    _assert_poses_match(_fit(grey, w), tiles, w)


@pytest.mark.parametrize("gap", [5.0, 8.0])
@pytest.mark.parametrize("angle", [0.0, 8.0, 33.0])
def test_fit_poses_places_tiles_a_few_pixels_apart_on_the_faces_with_holes_filled(
    angle: float, gap: float
) -> None:
    # two tiles side by side (revealed at the end of a hand): closing up the pips closes the
    # gap between them too, and a face 2 w square is no tile; with only holes filled (pips
    # are holes, the gap is open to the table at its ends) both are placed
    w = 24.0
    r = math.radians(angle)
    side = ((w + gap) / 2 * -math.sin(r), (w + gap) / 2 * math.cos(r))
    tiles = [
        Drawn((200.0 + s * side[0], 200.0 + s * side[1]), angle, PIPS[k])
        for k, s in enumerate((-1.0, 1.0))
    ]
    grey = _draw(tiles, (400, 400), w, 1.5)
    _assert_poses_match(_fit(grey, w, closed=False), tiles, w)


# -- 3: half_peaks ----------------------------------------------------------------------------


def _half(n: int, w: float, angle: float, *, at_end: bool) -> tuple[U8, Point, Point]:
    """A blurred half square of side ``w`` with layout ``n`` (spacing 0.56 half units):
    ``(grey, centre, along)``. ``at_end``: the half is a tile's end (table on three sides,
    the other half beyond the fourth), else it lies inside a larger face."""
    centre = (60.3, 59.7)
    t = Drawn(centre, angle, (0, 0))
    grey = np.full((120, 120), TABLE if at_end else FACE, np.uint8)
    if at_end:
        corners = [t.at(a, b, w) for a, b in ((-1.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-1.5, 0.5))]
        poly = np.array([_fixed(p) for p in corners], np.int32)
        cv2.fillPoly(grey, [poly], FACE, cv2.LINE_AA, shift=_SHIFT)
    radius = round(PIP_REL * w / 2 * (1 << _SHIFT))
    for u, v in layout(n):
        p = t.at(u * 0.56 / 2, v * 0.56 / 2, w)
        cv2.circle(grey, _fixed(p), radius, INK, -1, cv2.LINE_AA, shift=_SHIFT)
    grey = np.asarray(cv2.GaussianBlur(grey, (0, 0), 1.5), np.uint8)
    return grey, centre, t.along


@pytest.mark.parametrize("at_end", [False, True])
@pytest.mark.parametrize("angle", [0.0, 25.0, 90.0])
@pytest.mark.parametrize("n", range(10))
def test_half_peaks_counts_blurred_pips_of_every_layout(n: int, angle: float, at_end: bool) -> None:
    w = 22.0
    grey, centre, along = _half(n, w, angle, at_end=at_end)
    patch = half_patch(grey, centre, along, w)
    face = float(np.percentile(patch, 90))
    found = half_peaks(patch, face=face, contrast=RecognitionParams().peak_contrast_rel * face)
    assert found.points.shape == (n, 2)
    # each peak sits on a drawn pip (half units: x along the tile, sides at +-1)
    want = layout(n) * 0.56
    for x, y in found.points:
        assert min(math.hypot(x - a, y - b) for a, b in want) < 0.2


def test_half_patch_samples_the_half_turned_along_its_axis() -> None:
    # a half with one pip off-centre along the axis: it lands at the same patch place
    w = 22.0
    for angle in (0.0, 40.0, 90.0, 200.0):
        t = Drawn((50.0, 50.0), angle, (0, 0))
        grey = np.full((100, 100), FACE, np.uint8)
        pip = _fixed(t.at(0.28, 0.0, w))
        cv2.circle(grey, pip, 2 << _SHIFT, INK, -1, cv2.LINE_AA, shift=_SHIFT)
        patch = half_patch(grey, t.center, t.along, w)
        y, x = np.unravel_index(int(np.argmin(patch)), patch.shape)
        assert abs((x + 0.5) / patch.shape[1] - (0.5 + 0.28)) < 0.06, angle
        assert abs((y + 0.5) / patch.shape[0] - 0.5) < 0.06, angle


# -- 4: identify on blurred rendered scenes ---------------------------------------------------


def _problems(
    truth: list[tuple[Point, Point, tuple[int, int]]], reading: SceneReading
) -> list[str]:
    """Every drawn tile (half centres, pips) read once, centre within 0.3 w, with the same pip
    pair (unordered); no tile read where none was drawn."""
    problems: list[str] = []
    used: set[int] = set()
    for h0, h1, pips in truth:
        w = math.dist(h0, h1)
        centre = ((h0[0] + h1[0]) / 2, (h0[1] + h1[1]) / 2)
        near = [k for k, t in enumerate(reading.tiles) if math.dist(t.center, centre) < 0.3 * w]
        if len(near) != 1:
            problems.append(f"tile {pips} at {centre}: {len(near)} read")
            continue
        used.add(near[0])
        got = sorted(h.pips for h in reading.tiles[near[0]].halves)
        if got != sorted(pips):
            problems.append(f"tile {pips} at {centre} read as {got}")
    problems += [f"extra tile at {t.center}" for k, t in enumerate(reading.tiles) if k not in used]
    return problems


def _still_truth(doc: dict[str, Any]) -> list[tuple[Point, Point, tuple[int, int]]]:
    out: list[tuple[Point, Point, tuple[int, int]]] = []
    for t in doc["tiles"]:
        a, b = t["halves"]
        (ax, ay), (bx, by) = a["center"], b["center"]
        out.append(((ax, ay), (bx, by), (a["pips"], b["pips"])))
    return out


_STILLS: dict[tuple[int, int, float, int], Path] = {}


def _still(
    tmp_path_factory: pytest.TempPathFactory,
    size: tuple[int, int],
    blur: float,
    seed: int,
    index: int,
) -> tuple[U8, list[tuple[Point, Point, tuple[int, int]]]]:
    key = (*size, blur, seed)
    if key not in _STILLS:
        out = tmp_path_factory.mktemp("blur-stills")
        base = RenderParams(width=size[0], height=size[1], blur=blur)
        render_stills(out, 6, seed=seed, base=base, sweep=False)
        _STILLS[key] = out
    path = _STILLS[key] / f"{index:04d}.png"
    doc = json.loads(path.with_suffix(".json").read_text())
    assert (doc["width"], doc["height"]) == size and doc["params"]["blur"] == blur
    return np.asarray(cv2.imread(str(path)), np.uint8), _still_truth(doc)


#: (size, blur, seed, scene index) of still scenes (``render_stills``, no sweep) read fully
#: when these tests were written: regression tests for blurred frames.
FULLY_READ = [
    ((1920, 1080), 1.5, 0, 2),
    ((1920, 1080), 1.5, 0, 5),
    ((1920, 1080), 1.5, 1, 2),
    ((1920, 1080), 1.0, 1, 0),
    ((1920, 1080), 1.0, 1, 5),
    ((1600, 900), 1.0, 0, 3),
    ((1600, 900), 1.0, 0, 4),
    ((1600, 900), 1.5, 1, 5),
    ((1600, 900), 1.5, 1, 1),  # read without deconvolution too since session 9
    ((1600, 900), 1.5, 0, 4),  # and these two since session 13
    ((1280, 720), 1.5, 1, 5),
    ((1280, 720), 1.0, 1, 3),
    # at a turn, the blank halves of a 0-2 and a 1-0 side by side were read as a 0-0 across
    # the seam (a false tile), until the squares beyond a tile lay a scene tile apart
    ((1280, 720), 1.0, 2, 4),
    ((1280, 720), 1.5, 2, 4),  # read without deconvolution too since session 18
    ((1280, 720), 1.5, 1, 3),  # and this one since session 29
]


@pytest.mark.parametrize(("size", "blur", "seed", "index"), FULLY_READ)
def test_blurred_rendered_stills_are_read_exactly(
    tmp_path_factory: pytest.TempPathFactory,
    size: tuple[int, int],
    blur: float,
    seed: int,
    index: int,
) -> None:
    image, truth = _still(tmp_path_factory, size, blur, seed, index)
    assert len(truth) >= 10  # a scene with a line worth reading
    assert _problems(truth, identify(image)) == []


LINE_PIPS = ((5, 1), (6, 2), (3, 4), (0, 5), (2, 6), (1, 3))


def _render_line_without_bars(
    size: tuple[int, int], blur: float, angle: float, seed: int
) -> tuple[U8, list[tuple[Point, Point, tuple[int, int]]]]:
    """Six tiles end to end (0.6 mm apart), rendered with the divider in the body colour."""
    rng = np.random.default_rng(seed)
    renderer = SceneRenderer(
        default_geometry(),
        RenderParams(width=size[0], height=size[1], blur=blur),
        rng,
        noise_frames=1,
    )
    renderer.style = replace(renderer.style, divider=renderer.style.body)
    r = math.radians(angle)
    step = (50.6 * math.cos(r), 50.6 * math.sin(r))
    tiles = [
        PlacedTile(pips, (380 + (k - 2.5) * step[0], 380 + (k - 2.5) * step[1]), angle)
        for k, pips in enumerate(LINE_PIPS)
    ]
    image = renderer.finish(
        renderer.to_camera(renderer.draw_tiles(renderer.background, tiles)), rng
    )
    truth = []
    for t in tiles:
        h0, h1 = renderer.project(list(renderer.top_face(t).half_centers))
        truth.append((h0, h1, t.pips))
    return image, truth


@pytest.mark.parametrize(
    ("size", "blur", "angle"),
    [
        ((1920, 1080), 1.5, 0.0),
        ((1920, 1080), 1.5, 33.0),
        ((1920, 1080), 1.5, 90.0),
        ((1600, 900), 1.5, 0.0),
        ((1600, 900), 1.5, 33.0),
        ((1600, 900), 1.5, 90.0),
        ((1920, 1080), 1.0, 90.0),
        ((1600, 900), 1.0, 0.0),
        # a tile read across a seam is read again half a tile either way (lone squares). At
        # 1600x900 no bar is seen, or a first look reads a tile too small (25 px for 28.5):
        # the pips' spacing gives the width, and the tiles either side of a tile read across
        # a seam are placed a whole tile of that width away
        ((1920, 1080), 1.0, 0.0),
        ((1920, 1080), 1.0, 33.0),
        ((1600, 900), 1.0, 33.0),
        ((1600, 900), 1.0, 90.0),
    ],
)
def test_a_blurred_rendered_line_without_bars_is_read(
    size: tuple[int, int], blur: float, angle: float
) -> None:
    image, truth = _render_line_without_bars(size, blur, angle, seed=0)
    assert _problems(truth, identify(image)) == []


def _drawn_truth(tiles: list[Drawn], w: float) -> list[tuple[Point, Point, tuple[int, int]]]:
    return [(t.at(-0.5, 0, w), t.at(0.5, 0, w), t.pips) for t in tiles]


@pytest.mark.parametrize(
    ("angle", "blur"),
    [
        (0.0, 1.0),
        (17.0, 1.0),
        (60.0, 1.0),
        (0.0, 1.5),  # level: no bar, and a strip of faces; the pips' spacing gives the width
        (17.0, 1.5),
        (60.0, 1.5),
    ],
)
def test_a_drawn_line_without_bars_or_seams_is_read(angle: float, blur: float) -> None:
    w = 24.0
    tiles = _straight(5, w, angle, (300.0, 250.0))
    grey = _draw(tiles, (600, 500), w, blur)
    assert _problems(_drawn_truth(tiles, w), identify(grey)) == []


# -- 5: nothing to read -----------------------------------------------------------------------


@pytest.mark.parametrize("blur", [0.0, 1.5])
def test_a_large_blank_white_sheet_is_no_tile(blur: float) -> None:
    rng = np.random.default_rng(2)
    img = np.clip(rng.normal(TABLE + 20, 3.0, (720, 1280, 3)), 0, 255).astype(np.uint8)
    sheet = cv2.boxPoints(((640.0, 360.0), (520.0, 380.0), 12.0))
    cv2.fillConvexPoly(img, np.rint(sheet).astype(np.int32), (238, 240, 242), cv2.LINE_AA)
    if blur:
        img = np.asarray(cv2.GaussianBlur(img, (0, 0), blur), np.uint8)
    assert identify(img).tiles == ()


@pytest.mark.parametrize("smooth", [0.0, 1.5])
def test_noise_is_no_tile(smooth: float) -> None:
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (720, 1280, 3), dtype=np.uint8)
    if smooth:
        noise = np.asarray(cv2.GaussianBlur(noise, (0, 0), smooth), np.uint8)
        lo, hi = int(noise.min()), int(noise.max())
        noise = ((noise.astype(np.float32) - lo) * (255.0 / (hi - lo))).astype(np.uint8)
    assert identify(noise).tiles == ()


# -- 6: tiles far from a tilted camera ---------------------------------------------------------


@pytest.mark.parametrize("blur", [1.0, 1.5])
def test_fit_poses_tiles_a_line_of_shorter_tiles_at_their_shape(blur: float) -> None:
    # far from a tilted camera, tiles lying along its view look 1.78 times as long as wide:
    # a line of three drawn w x 2w and shrunk along it by 0.89
    w, k = 24.0, 0.89
    tiles = _straight(3, w, 0.0, (300.0, 100.0))
    grey = _draw(tiles, (600, 200), w, 0.0)
    grey = cv2.resize(grey, None, fx=k, fy=1.0, interpolation=cv2.INTER_AREA)
    grey = np.asarray(cv2.GaussianBlur(grey, (0, 0), blur), np.uint8)
    centres = [(t.center[0] * k, t.center[1]) for t in tiles]
    poses = _fit(grey, w, aspect=2 * k)
    assert len(poses) == len(centres)
    for c in centres:
        assert min(math.dist(c, q.center) for q in poses) < 0.15 * w
    # at the scene's shape the places are longer than the tiles: not one per tile
    longer = _fit(grey, w)
    assert len(longer) < len(centres) or any(
        min(math.dist(c, q.center) for q in longer) >= 0.15 * w for c in centres
    )
