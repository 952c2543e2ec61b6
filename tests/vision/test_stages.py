"""The staged tile reader (vision.recognition.stages): each stage on small images, the whole
on rendered tiles, on images with no tiles, and from the command line."""

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
from vision.devtools.synthetic import render_scene
from vision.errors import InvalidImageError
from vision.recognition import halfnet
from vision.recognition.stages import (
    StagedParams,
    arbitrate,
    bars,
    halves,
    identify,
    ink,
    outline,
    pipeline,
    scale,
)
from vision.recognition.stages.arrays import U8
from vision.types import HalfReading, TileReading

P = StagedParams()


def _single(a: int, b: int, width: int) -> np.ndarray:
    scene = render_scene(
        a * 10 + b + width,
        width=width * 5,
        height=width * 4,
        n_tiles=1,
        tiles=((a, b),),
        tile_width_px=width,
    )
    return scene.image


def test_clean_rendered_tiles_are_read_and_never_misread() -> None:
    right = wrong = 0
    for width in (30, 40, 60):
        for a in range(7):
            for b in range(a, 7):
                got = [tuple(sorted(t.pips)) for t in identify(_single(a, b, width)).tiles]
                if got == [(a, b)]:
                    right += 1
                elif got:
                    wrong += 1
    assert wrong == 0
    assert right >= 80  # of 84


def test_the_scale_is_the_pip_diameter() -> None:
    width = 60
    image = _single(4, 5, width)
    found = scale.measure(scale.darkest_channel(image), P)
    assert found is not None
    drawn = 0.17 * width  # the generator's pip diameter
    assert drawn * 0.8 <= found.pip_px <= drawn * 1.4
    working = found.pip_px * found.factor
    assert working == pytest.approx(P.work_pip_px, rel=P.view_snap + 0.01) or found.factor == 1.0


def test_a_reduced_working_image_takes_the_blobs_of_a_view_as_fine() -> None:
    # 24 px pips on a 700 px frame: measured in a view 640 px wide, read at 8 px; that view's
    # blobs, brought to the working image, are the ones found there anew
    image = cv2.resize(_single(3, 6, 80), None, fx=1.75, fy=1.75, interpolation=cv2.INTER_CUBIC)
    grey = scale.darkest_channel(image)
    found = scale.measure(grey, P)
    assert found is not None and found.factor < 1.0 and found.blobs is not None
    working = scale.round_blobs(scale.resized(grey, found.factor), P)
    given = found.blobs * found.factor
    pips = given[given[:, 2] >= P.pip_size_range[0] * found.pip_px * found.factor]
    assert len(pips) >= 8  # of 9
    gaps = np.hypot(*(pips[:, None, :2] - working[None, :, :2]).transpose(2, 0, 1)).min(axis=1)
    assert gaps.max() < 1.0


def _nine_pips(
    shape: tuple[int, int], corner: tuple[int, int], side: int, radius: int, blur: float
) -> U8:
    """A frame of 40 with a square face of 220 (``side`` px, top left at ``corner``) holding
    nine pips of 30 in a grid a fifth of the side in from its edges, blurred by ``blur``."""
    image = np.full(shape, 40, np.uint8)
    (x0, y0), at = corner, [round(side * f) for f in (0.2, 0.5, 0.8)]
    cv2.rectangle(image, (x0, y0), (x0 + side, y0 + side), 220, -1)
    for dx, dy in itertools.product(at, at):
        cv2.circle(image, (x0 + dx, y0 + dy), radius, 30, -1)
    return np.asarray(cv2.GaussianBlur(image, (0, 0), blur), dtype=np.uint8)


def test_a_working_scale_near_the_finest_views_is_that_view() -> None:
    # nine 13.4 px pips on a 2133 px frame: too small in the 640 px view (4 px), measured in
    # the 1280 px one (8.0 px), within view_snap of the 8 px wanted: that view is read as it is
    grey = _nine_pips((1600, 2133), (900, 600), 100, 6, 1.0)
    found = scale.measure(grey, P)
    assert found is not None and found.view is not None
    assert found.factor == pytest.approx(1280 / 2133) and found.view.shape == (960, 1280)
    assert found.pip_px * found.factor == pytest.approx(P.work_pip_px, rel=P.view_snap)
    far = scale.measure(grey, replace(P, view_snap=0.0))
    assert far is not None and far.view is None and far.factor != found.factor


def test_a_small_frame_is_read_in_the_view_enlarged_to_measure_it() -> None:
    # nine 5 px pips on a 200 px frame: enlarged to 320 px (1.6 times) to be measured, and
    # read at that scale (8 px pips), in that view as it is, not enlarged a second time
    grey = _nine_pips((200, 200), (80, 80), 40, 2, 0.6)
    found = scale.measure(grey, P)
    assert found is not None and found.factor == pytest.approx(P.min_side_px / 200)
    assert found.view is not None and found.view.shape == (320, 320)
    assert found.blobs is not None and len(found.blobs) >= 9


def _blotched_table(table: int) -> tuple[U8, list[tuple[int, int]]]:
    """A 640x480 table of ``table`` grey with 60 round blotches darker than it, and a face of
    200 with six 10 px pips (their centres), the rims of the four at its corners 7 px from its
    edges."""
    rng = np.random.default_rng(3)
    image = np.full((480, 640), table, np.uint8)
    for x, y in rng.uniform((20, 20), (620, 460), (60, 2)).astype(int).tolist():
        if not (250 <= x <= 410 and 170 <= y <= 290):
            cv2.circle(image, (x, y), 5, max(0, table - 45), -1)
    cv2.rectangle(image, (270, 190), (390, 270), 200, -1)
    pips = [(282, 202), (282, 258), (310, 230), (350, 230), (378, 202), (378, 258)]
    for x, y in pips:
        cv2.circle(image, (x, y), 5, 30, -1)
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 1.0), dtype=np.uint8), pips


def test_round_blobs_are_looked_for_on_the_faces_of_a_darker_table_only() -> None:
    image, pips = _blotched_table(70)
    found = scale.round_blobs(image, P)
    gaps = np.hypot(*(found[:, None, :2] - np.array(pips)[None]).transpose(2, 0, 1))
    assert (gaps.min(axis=0) < 1.5).all()  # every pip, those near the face's edges too
    assert (gaps.min(axis=1) < 1.5).all()  # and none of the table's blotches
    assert found[:, 2] == pytest.approx(10, rel=0.2)
    # on a table as light as the face, the image is searched whole: its blotches are found
    light, _ = _blotched_table(200)
    assert scale.table_cleared(light, P) is light
    assert len(scale.round_blobs(light, P)) > len(pips) + 30


def test_a_light_table_lit_unevenly_is_searched_whole() -> None:
    # white paper lit from one side, 235 falling to 150 across the frame, and an ivory face of
    # 185 with six pips where it is darkest: Otsu's split parts the paper, the face falls on
    # its darker side, and clearing that side would clear the pips
    ramp = np.linspace(235, 150, 640)[None, :].repeat(480, axis=0)
    image = ramp.astype(np.uint8)
    cv2.rectangle(image, (450, 190), (570, 270), 185, -1)
    pips = [(462, 202), (462, 258), (490, 230), (530, 230), (558, 202), (558, 258)]
    for x, y in pips:
        cv2.circle(image, (x, y), 5, 30, -1)
    image = np.asarray(cv2.GaussianBlur(image, (0, 0), 1.0), dtype=np.uint8)
    assert scale.table_cleared(image, P) is image
    found = scale.round_blobs(image, P)
    gaps = np.hypot(*(found[:, None, :2] - np.array(pips)[None]).transpose(2, 0, 1))
    assert (gaps.min(axis=0) < 1.5).all()


def test_the_bar_of_a_tiny_double_blank_sets_the_scale() -> None:
    # a 13 px wide double blank in a 100 px photo: its bar, its only mark, is seen 10 px long,
    # a pip of 2.2 px by bar_length_d (the segment falls short of the bar's faint ends)
    image = np.full((100, 100), 20, np.uint8)
    cv2.rectangle(image, (44, 37), (56, 62), 200, -1)
    cv2.line(image, (45, 49), (55, 49), 40, 1)
    grey = np.asarray(cv2.GaussianBlur(image, (0, 0), 0.6), dtype=np.uint8)
    sizes = [s.pip_px for s in scale.candidates(grey, P)]
    assert sizes, "no scale"
    assert P.bar_seen_share * P.min_pip_px <= sizes[0] < P.min_pip_px


def test_a_bar_is_found_along_a_dark_line_on_a_face() -> None:
    image = np.full((120, 160), 40, np.uint8)
    cv2.rectangle(image, (40, 30), (120, 90), 220, -1)
    cv2.line(image, (80, 36), (80, 84), 30, 2)
    seen = ink.find(image, 7.0, P)
    found = bars.find(seen, P)
    assert found, "no bar"
    bar = found[0]
    assert abs(bar.center[0] - 80) < 2 and abs(bar.center[1] - 60) < 4
    assert abs(bar.direction[0]) < 0.1  # vertical
    assert 40 <= bar.length <= 56


def test_a_patterned_table_does_not_crowd_a_short_bar_out() -> None:
    # a mesh of dark strokes on a light table gives a thousand straight segments, all longer
    # than the bar of the tile beside it
    rng = np.random.default_rng(0)
    image = np.full((480, 960), 200, np.uint8)
    for _ in range(300):
        x, y, a = rng.uniform(380, 950), rng.uniform(10, 470), rng.uniform(0, np.pi)
        length = rng.uniform(40, 90)
        end = (int(x + length * np.cos(a)), int(y + length * np.sin(a)))
        cv2.line(image, (int(x), int(y)), end, 60, 2)
    cv2.rectangle(image, (100, 180), (200, 300), 235, -1)
    cv2.line(image, (140, 240), (160, 240), 30, 2)
    seen = ink.find(image, 7.0, P)
    assert len(bars._hough_pieces(seen.thin, 7.0, replace(P, piece_segments=10**6))) > 600
    found = bars.find(seen, P)
    assert any(abs(b.center[0] - 150) < 5 and abs(b.center[1] - 240) < 5 for b in found)


@pytest.mark.parametrize(
    "image",
    [
        np.zeros((100, 100, 3), np.uint8),
        np.full((200, 300, 3), 200, np.uint8),
        np.random.default_rng(0).integers(0, 256, (240, 320, 3), dtype=np.uint8),
        np.random.default_rng(1).integers(100, 140, (480, 640), dtype=np.uint8),
    ],
    ids=["black", "plain", "noise", "grey-noise"],
)
def test_no_tile_is_invented_where_there_is_none(image: np.ndarray) -> None:
    assert identify(image).tiles == ()


def test_a_face_down_tile_is_not_read() -> None:
    image = np.full((200, 240, 3), 30, np.uint8)
    box = cv2.boxPoints(((120, 100), (120, 60), 20.0)).astype(np.int32)
    cv2.fillConvexPoly(image, box, (210, 225, 230))
    assert identify(image).tiles == ()


@pytest.mark.parametrize(
    "bad",
    [np.zeros((4, 4, 3), np.uint8), np.zeros((50, 50), np.float32), np.zeros((5,), np.uint8)],
    ids=["tiny", "float", "1-d"],
)
def test_bad_images_are_refused(bad: np.ndarray) -> None:
    with pytest.raises(InvalidImageError):
        identify(bad)


def test_coordinates_are_in_the_input_pixels_and_region_filters() -> None:
    width = 40
    scene = render_scene(7, width=200, height=160, n_tiles=1, tiles=((3, 5),), tile_width_px=width)
    reading = identify(scene.image)
    assert len(reading.tiles) == 1
    tile, truth = reading.tiles[0], scene.tiles[0]
    for half in tile.halves:
        nearest = min(math.dist(half.center, c) for c in truth.centers)
        assert nearest < 0.25 * width
    assert {h.pips for h in tile.halves} == {3, 5}
    x, y = tile.center
    far = [(0.0, 0.0), (20.0, 0.0), (20.0, 20.0), (0.0, 20.0)]
    near = [(x - 5, y - 5), (x + 5, y - 5), (x + 5, y + 5), (x - 5, y + 5)]
    assert identify(scene.image, region=far).tiles == ()
    assert len(identify(scene.image, region=near).tiles) == 1


def test_identify_cli_reads_a_single_tile(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tile.png"
    cv2.imwrite(str(path), _single(2, 6, 40))
    assert main(["vision", "identify", "--json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [sorted(h["pips"] for h in t["halves"]) for t in doc["tiles"]] == [[2, 6]]


def _read(cx: float, pips: tuple[int, int], confidence: float = 1.0) -> arbitrate.Read:
    """A horizontal tile 20 px wide and 40 px long centred at (cx, 50), already read."""
    prop = outline.Proposal((cx, 50.0), (0.0, 1.0), (1.0, 0.0), 20.0, (20.0, 20.0))
    a = halves.Half(pips[0], confidence, (cx + 10, 50.0))
    b = halves.Half(pips[1], confidence, (cx - 10, 50.0))
    return arbitrate.Read(prop, (a, b))


def test_a_double_blank_is_sure_only_where_the_learned_reader_is() -> None:
    # no pip vouches for a double blank: a table's square beside a tile's edge reads as one
    blank, tile = _read(40.0, (0, 0)), _read(40.0, (0, 3))
    for agree, doubted in ((0.6, True), (0.95, False)):
        assert pipeline._doubted(replace(blank, agree=agree), [], P) is doubted
    assert not pipeline._doubted(replace(tile, agree=0.6), [], P)


def test_arbitration_keeps_the_two_tiles_a_seam_read_as_a_bar_straddles() -> None:
    left, right = _read(40.0, (1, 2)), _read(80.0, (3, 4))
    straddle = _read(60.0, (6, 6))  # more pips and as sure: it is taken first
    kept = arbitrate.keep([straddle, left, right], P)
    assert sorted(r.proposal.center[0] for r in kept) == [40.0, 80.0]


def test_arbitration_reads_a_line_of_touching_tiles_as_a_whole() -> None:
    # five tiles end to end; each seam between them proposes a tile across two neighbours,
    # surer than they are: only a choice over the whole line keeps the five
    pips = [(1, 6), (6, 2), (2, 6), (6, 3), (3, 6)]
    line = [_read(40.0 + 40 * k, ab, 0.6) for k, ab in enumerate(pips)]
    seams = [_read(60.0 + 40 * k, (pips[k][1], pips[k + 1][0]), 1.0) for k in range(4)]
    kept = arbitrate.keep(seams + line, P)
    assert sorted(r.proposal.center[0] for r in kept) == [40.0, 80.0, 120.0, 160.0, 200.0]


def test_arbitration_solves_a_long_line_within_its_budget() -> None:
    # sixty doubles end to end and the fifty-nine seams between them read as doubles, each
    # surer than the tiles: the clashes are one chain, which the search solves within 300
    # steps (mutually clashing reads bound the weight together, one of them at most)
    n = 60
    line = [_read(40.0 + 40 * k, (6, 6), 0.9) for k in range(n)]
    seams = [_read(60.0 + 40 * k, (6, 6), 1.0) for k in range(n - 1)]
    kept = arbitrate.keep(seams + line, replace(P, arbitration_budget=300))
    assert sorted(r.proposal.center[0] for r in kept) == [40.0 + 40 * k for k in range(n)]


def test_the_arbitration_search_finds_the_heaviest_clash_free_set() -> None:
    # random clash graphs of up to 12 reads, with ties of weight, against every subset
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(1, 13))
        weight = [float(w) for w in rng.choice([1.0, 1.5, 2.0, 2.5], n)]
        near: list[set[int]] = [set() for _ in range(n)]
        for i, j in itertools.combinations(range(n), 2):
            if rng.random() < 0.35:
                near[i].add(j)
                near[j].add(i)
        free = [
            sum(weight[i] for i in s)
            for k in range(n + 1)
            for s in itertools.combinations(range(n), k)
            if not any(near[i] & set(s) for i in s)
        ]
        for group in arbitrate._groups(near):
            chosen = arbitrate._best_set(group, near, weight, 10_000)
            assert chosen <= group and not any(near[i] & chosen for i in chosen)
        whole = set().union(
            *(arbitrate._best_set(g, near, weight, 10_000) for g in arbitrate._groups(near))
        )
        assert sum(weight[i] for i in whole) == pytest.approx(max(free))


def test_a_contest_is_won_by_a_rival_reading_that_weighs_nearly_as_much() -> None:
    # two tiles side by side and the seam between them read as one tile: without either tile
    # kept, its rival (the seam and the other tile cannot both stand) explains far less
    left, right = _read(40.0, (5, 5)), _read(80.0, (5, 5))
    kept = arbitrate.keep([left, right, _read(60.0, (5, 5), 0.9)], P)
    assert sorted(r.proposal.center[0] for r in kept) == [40.0, 80.0]
    assert not any(r.contested for r in kept)
    # another reading of the same place, one pip less: the reading kept is contested by it
    twin = _read(40.0, (5, 5))
    kept = arbitrate.keep(
        [left, replace(twin, halves=(twin.halves[0], replace(twin.halves[1], pips=4)))], P
    )
    assert [r.contested for r in kept] == [True]


def _seen(face: U8, lit: float, table: float, d: float, thin: U8 | None = None) -> ink.Ink:
    """Ink of the face image ``face`` with pip diameter ``d``, no ink but ``thin`` (then its
    contrast is ``face``); faces where it is ``lit`` on a darker ``table``, none on a lighter."""
    faces = (face >= lit).astype(np.uint8) if table < lit else None
    contrast = np.zeros_like(face) if thin is None else face
    thin = np.zeros_like(face) if thin is None else thin
    lines = ink.line_images(face, contrast, thin)
    return ink.Ink(face, contrast, thin // 255, thin, 20.0, 20.0, d, lit, table, faces, lines)


def _faces(lit_from: int, lit_to: int) -> ink.Ink:
    """A dark table (40) with a lit band of faces (200) along y 40-60, x ``lit_from``-``lit_to``."""
    face = np.full((100, 300), 40, np.uint8)
    face[40:61, lit_from:lit_to] = 200
    lit, table = P.thin_lit_share * ink.percentile(face, 99), ink.percentile(face, 50)
    return _seen(face, lit, table, 4.0)


def test_a_tile_read_lies_on_the_faces_of_a_darker_table() -> None:
    # a lit face 80 x 40 (x 100-179, y 30-69) on a dark table: a tile outlined on it stays; one
    # outlined half a tile along, mostly on the table, does not; on a lighter table, both
    face = np.full((100, 300), 40, np.uint8)
    face[30:70, 100:180] = 200
    on = outline.Proposal((140.0, 50.0), (0.0, 1.0), (1.0, 0.0), 40.0, (40.0, 40.0))
    off = replace(on, center=(190.0, 50.0))
    assert pipeline._on_faces([on, off], _seen(face, 120.0, 40.0, 6.0), P) == [on]
    assert pipeline._on_faces([on, off], _seen(face, 120.0, 220.0, 6.0), P) == [on, off]


def test_the_bars_of_tiles_side_by_side_are_found_apart() -> None:
    # two tiles side by side on a band of faces (y 20-80): their bars (x 20-49 and 53-83 at
    # y 50, pips 6 px) are collinear with a gap at the seam narrow enough to merge the two
    # pieces into one run too long for a bar, and the seam does not show
    face = np.full((100, 120), 40, np.uint8)
    face[20:81, 10:94] = 200
    thin = np.zeros_like(face)
    thin[49:51, 20:50] = thin[49:51, 53:84] = 255
    found = bars.find(_seen(face, 120.0, 40.0, 6.0, thin), P)
    centres = sorted(b.center[0] for b in found)
    assert centres == [pytest.approx(34.5, abs=1.0), pytest.approx(68.0, abs=1.0)]
    assert all(abs(b.center[1] - 49.5) < 1 and abs(b.direction[1]) < 0.05 for b in found)
    assert all(28 <= b.length <= 32 for b in found)


def test_a_bar_beside_pips_the_face_image_kept_lies_inside_a_face() -> None:
    # a vertical bar at x 150 across a band of faces (y 40-60); the face image of a blurred
    # six beside it keeps its two rows of pips a little darker (y 42-47 and 53-58), as the
    # closing cannot take away pips blurred into one another
    seen = _faces(0, 300)
    face = seen.face.copy()
    face[42:48, 152:170] = face[53:59, 152:170] = 170
    bar = bars.Bar((150.0, 50.0), (0.0, 1.0), 20.0)
    assert bars._face_both_sides([bar], replace(seen, face=face), P).tolist() == [True]
    # a tile's side has the table on one side
    assert bars._face_both_sides([bar, bar], _faces(150, 300), P).tolist() == [False, False]
    assert bars._face_both_sides([bar], _faces(0, 151), P).tolist() == [False]
    assert bars._face_both_sides([], _faces(0, 151), P).tolist() == []


def test_the_histogram_percentile_is_numpys() -> None:
    rng = np.random.default_rng(5)
    for shape, top in (((1, 1), 255), ((7, 3), 4), ((64, 48), 255), ((101, 33), 90)):
        image = rng.integers(0, top + 1, shape).astype(np.uint8)
        for q in (0.0, 10.0, 50.0, 90.0, 99.0, 99.7, 100.0):
            assert ink.percentile(image, q) == pytest.approx(float(np.percentile(image, q)))


def test_a_double_with_tiles_beyond_both_ends_is_an_inline_double() -> None:
    # a horizontal double at x 130-170 (halves 20 px), in a line of faces or standing alone
    double, other = _read(150.0, (4, 4)), _read(150.0, (4, 2))
    in_line, alone = _faces(0, 300), _faces(128, 172)
    assert arbitrate.inline_double(double, in_line, P)
    assert not arbitrate.inline_double(double, alone, P)
    assert not arbitrate.inline_double(double, _faces(0, 172), P)  # table beyond one end
    assert not arbitrate.inline_double(other, in_line, P)


def test_on_a_light_table_a_double_between_two_tiles_read_is_an_inline_double() -> None:
    # faces and table alike (200): the faces beyond the double cannot be told by their level,
    # the tiles read there can
    dark = _faces(0, 300)
    light = replace(dark, face=np.full_like(dark.face, 200), lit=P.thin_lit_share * 200, table=200)
    double = _read(150.0, (4, 4))
    left, right = _read(110.0, (4, 2)), _read(190.0, (4, 1))

    def outlines(*reads: arbitrate.Read) -> list[np.ndarray]:
        return [r.proposal.corners().astype(np.float32) for r in reads]

    assert arbitrate.inline_double(double, light, P, outlines(left, double, right))
    assert not arbitrate.inline_double(double, light, P, outlines(left, double))
    assert not arbitrate.inline_double(double, light, P)


def _wedge(angle: float, gap: int) -> tuple[ink.Ink, np.ndarray, list[tuple[int, int]]]:
    """Two light tiles on a dark table, one's corner ``gap`` px from the other's side, turned
    by ``angle``, with seven pips: the ink, the spots shaped like pips, the pips drawn."""
    image = np.full((300, 400, 3), 45, np.uint8)
    upright = cv2.boxPoints(((150.0, 150.0), (48.0, 96.0), 0.0))
    cv2.fillConvexPoly(image, upright.astype(np.int32), (215, 215, 215))
    turned = cv2.boxPoints(((0.0, 0.0), (48.0, 96.0), angle))
    corner = turned[np.argmin(turned[:, 0])]
    centre = (174 + gap - float(corner[0]), 130 - float(corner[1]))
    turned = cv2.boxPoints((centre, (48.0, 96.0), angle))
    cv2.fillConvexPoly(image, turned.astype(np.int32), (215, 215, 215))
    drawn = [(140, 120), (160, 120), (140, 180), (160, 180), (150, 150)]
    drawn += [(round(centre[0] + k), round(centre[1])) for k in (-12, 12)]
    for x, y in drawn:
        cv2.circle(image, (x, y), 4, (30, 30, 30), -1)
    grey = scale.darkest_channel(cv2.GaussianBlur(image, (0, 0), 1.0))
    found = scale.candidates(grey, P)[0]
    seen = ink.find(grey, found.pip_px, P, found.blobs)
    return seen, arbitrate.pip_spots(arbitrate.spots(seen), seen.pip_px), drawn


@pytest.mark.parametrize(("angle", "gap"), [(30, 12), (45, 4), (45, 12), (60, 12)])
def test_the_table_in_a_wedge_between_two_tiles_is_no_loose_pip(angle: float, gap: int) -> None:
    # the closing that makes the face image fills the wedge of table between the tiles,
    # which then reads as spots of ink shaped like pips; only the pips drawn are loose
    seen, spots, drawn = _wedge(angle, gap)
    assert len(spots) > len(drawn)  # the wedge's spots
    loose, _ = arbitrate.unexplained_pips([], spots, seen, P)
    assert sorted((round(x), round(y)) for x, y in loose) == sorted(drawn)


@pytest.mark.parametrize("gap", [4, 12])
def test_beside_a_double_a_wedge_with_no_ink_round_it_still_counts(gap: int) -> None:
    # counting only ink round a spot (as for doubles, which a seam read as a bar gives), a
    # wedge at 45 degrees, open to the table, stays a loose pip
    seen, spots, drawn = _wedge(45, gap)
    _, by_ink = arbitrate.unexplained_pips([], spots, seen, P)
    assert len(by_ink) > len(drawn)


def test_arbitration_keeps_one_of_two_readings_of_one_tile() -> None:
    kept = arbitrate.keep([_read(40.0, (1, 2), 0.6), _read(41.0, (1, 3), 0.9)], P)
    assert [r.halves[1].pips for r in kept] == [3]


def test_a_double_nine_set_is_read_with_max_pips_9_and_its_high_halves_are_never_sure() -> None:
    scene = render_scene(3, width=240, height=200, n_tiles=1, tiles=((8, 2),), tile_width_px=50)
    reading = identify(scene.image, max_pips=9)
    assert [sorted(t.pips) for t in reading.tiles] == [[2, 8]]
    assert not reading.tiles[0].sure  # the learned half reader knows 0-6 only


@pytest.mark.parametrize("seed", range(4))
def test_a_few_tiles_on_a_wide_table_are_read_whole(seed: int) -> None:
    # three tiles fill a sliver of a 1280x720 frame: a percentile of the contrast measures the
    # table's noise there, so the ink thresholds are set from the pips' own contrast
    scene = render_scene(seed, n_tiles=3, max_pips=6)
    read = sorted(sorted(t.pips) for t in identify(scene.image).tiles)
    assert read == sorted(sorted(t.pips) for t in scene.tiles)


def test_the_ink_thresholds_follow_the_pips_on_a_mostly_empty_frame() -> None:
    scene = render_scene(1, n_tiles=3, max_pips=6)
    grey = scale.darkest_channel(scene.image)
    found = scale.measure(grey, P)
    assert found is not None and found.factor == 1.0
    seen = ink.find(grey, found.pip_px, P, found.blobs)
    noise = ink.percentile(seen.contrast, 99.7)  # on this mostly empty frame: the table's
    assert seen.threshold > noise  # ink (bars, seams) stands above the table's noise
    assert seen.pip_threshold > seen.threshold  # pips are read at a higher share of their own


def _six_one(turned: bool) -> U8:
    """A tile 44 px wide on a dark table, upright: a 6 above its bar (rows of three along the
    tile, or ``turned`` a quarter, as a half read across a seam of tiles side by side), a 1."""
    image = np.full((200, 160), 40, np.uint8)
    cv2.rectangle(image, (58, 56), (101, 143), 220, -1)
    cv2.line(image, (62, 100), (97, 100), 30, 2)
    for along, across in itertools.product((-1, 0, 1), (-1, 1)):
        dy, dx = (across, along) if turned else (along, across)
        cv2.circle(image, (80 + 12 * dx, 78 + 12 * dy), 4, 30, -1)
    cv2.circle(image, (80, 122), 4, 30, -1)
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 0.8), dtype=np.uint8)


def test_a_six_is_read_only_with_its_rows_along_the_tile() -> None:
    upright = identify(_six_one(turned=False)).tiles
    assert [(sorted(t.pips), t.sure) for t in upright] == [([1, 6], True)]
    assert not any(t.sure for t in identify(_six_one(turned=True)).tiles)


def test_a_blank_half_is_a_lit_face_not_the_darker_table() -> None:
    # a dark table (40) with a lit band of faces (200) along y 40-60 from x 128 to 172: a
    # tile's outline on the faces reads two blank halves; the same outline on the bare table
    # (or along its border) reads nothing
    faces = _faces(128, 172)
    on_faces = _read(150.0, (0, 0)).proposal
    on_table = _read(240.0, (0, 0)).proposal
    assert [h.pips for h in halves.read(on_faces, faces, P)] == [0, 0]
    assert [h.pips for h in halves.read(on_table, faces, P)] == [None, None]


def test_faces_on_a_lighter_table_are_told_by_their_share_of_its_light() -> None:
    # white paper lit from the left (250 falling to 150 across) under two ivory tiles that
    # reflect 0.75 of the light there: the lit tile (187) is lighter than the paper in the
    # shade, so no one level tells faces from paper; a shadow (60) lies beside the right tile
    light = np.linspace(250.0, 150.0, 400)[None, :].repeat(200, axis=0)
    share = np.ones_like(light)
    share[60:100, 30:110] = share[60:100, 290:370] = 0.75
    face = np.rint(light * share).astype(np.uint8)
    face[100:106, 290:370] = 60
    pips = np.array([[50.0, 80.0, 8.0], [90.0, 80.0, 8.0], [310.0, 80.0, 8.0], [350.0, 80.0, 8.0]])
    lit = P.thin_lit_share * ink.percentile(face, 99)
    mask = ink.faces(face, (lit, ink.percentile(face, 50)), pips, 40.0, P)
    assert mask is not None
    tiles = share < 1
    assert mask[tiles].all()
    assert not mask[~tiles].any()  # neither paper nor shadow
    # tiles as light as the paper: no level tells them apart
    plain = np.rint(light).astype(np.uint8)
    assert ink.faces(plain, (lit, ink.percentile(plain, 50)), pips, 40.0, P) is None
    # a darker table: faces are what is lit
    dark = np.where(tiles, 200, 40).astype(np.uint8)
    assert (ink.faces(dark, (120.0, 40.0), pips, 40.0, P) == tiles).all()
    # a sliver of a frame, reduced to under a pixel across, is still read
    sliver = face[79:81, :]
    assert ink.faces(sliver, (lit, 220.0), pips, 40.0, P) is not None


def test_a_blank_half_darker_than_a_lighter_table_is_a_face() -> None:
    # ivory on white paper: in the darkest channel the faces (110) are darker than the table
    # (220), under the share of the brightest that counts as lit on a darker table
    face = np.full((100, 300), 220, np.uint8)
    face[40:61, 128:172] = 110
    lit, table = P.thin_lit_share * ink.percentile(face, 99), ink.percentile(face, 50)
    assert 110 < lit < table
    seen = _seen(face, lit, table, 4.0)
    assert [h.pips for h in halves.read(_read(150.0, (0, 0)).proposal, seen, P)] == [0, 0]


def test_a_lone_small_tile_beside_four_markers_sets_the_scale() -> None:
    # the first tile of a hand on a 1600x900 frame: in the reduced view its pips vanish and the
    # markers' four round cells are all the blobs seen; they are too few to trust, so the scale
    # is measured again in a wider view, where the tile's twelve pips outnumber them
    scene = render_scene(5, width=1600, height=900, n_tiles=1, tiles=((6, 6),), tile_width_px=24)
    image = scene.image.copy()
    for x, y in ((60, 60), (1540, 60), (60, 840), (1540, 840)):
        cv2.rectangle(image, (x - 45, y - 45), (x + 45, y + 45), (255, 255, 255), -1)
        cv2.circle(image, (x, y), 28, (0, 0, 0), -1)
    found = scale.candidates(scale.darkest_channel(image), P)
    assert found and found[0].pip_px < 2 * scene.pip_diameter_px
    assert [sorted(t.pips) for t in identify(image).tiles] == [[6, 6]]


@pytest.mark.parametrize("seed", [5, 6])
def test_a_lone_blurred_tile_among_round_blotches_is_read_from_closer(seed: int) -> None:
    # ten dark round blotches on the table outnumber the pips of one small blurred double,
    # which are too small to see in the reduced view and too blurred to count as round in
    # the whole frame: with no tile read, the scale is looked for again closer, where the
    # tile's lone face suggests it
    scene = render_scene(seed, width=1280, height=720, n_tiles=1, tiles=((6, 6),), tile_width_px=20)
    image = scene.image.copy()
    for k in range(10):
        cv2.circle(image, (80 + 120 * k, 120 if k % 2 else 600), 20, (20, 20, 20), -1)
    image = np.asarray(cv2.GaussianBlur(image, (0, 0), 1.5), dtype=np.uint8)
    grey = scale.darkest_channel(image)
    assert all(c.pip_px > 2 * scene.pip_diameter_px for c in scale.candidates(grey, P))
    closer = [c.pip_px for c in scale.candidates(grey, P, closer=True)]
    assert any(abs(d - scene.pip_diameter_px) < 0.25 * scene.pip_diameter_px for d in closer)
    assert [sorted(t.pips) for t in identify(image).tiles] == [[6, 6]]


def test_the_closer_scales_offer_each_common_size_less_the_detectors_bias() -> None:
    # twenty pips 6 px wide on a light face, slightly blurred: the blob detector's contour runs
    # round the light pixels just outside each, so it measures them some 7 px wide; the closer
    # look offers the size less that bias too
    rng = np.random.default_rng(3)
    image = np.full((720, 1280), 215, np.uint8)
    big = np.full((720 * 8, 1280 * 8), 0, np.uint8)
    for k in range(20):
        x, y = 300 + 40 * (k % 10) + rng.uniform(0, 1), 300 + 60 * (k // 10) + rng.uniform(0, 1)
        cv2.circle(big, (round(x * 8), round(y * 8)), 24, 255, -1)
    disc = cv2.resize(big, (1280, 720), interpolation=cv2.INTER_AREA).astype(np.float64) / 255
    image = np.asarray(image - disc * (215 - 35), dtype=np.uint8)
    image = np.asarray(cv2.GaussianBlur(image, (0, 0), 0.7), dtype=np.uint8)  # the lens
    first = scale.candidates(image, P)
    assert first and first[0].pip_px > 1.15 * 6
    closer = [c.pip_px for c in scale.candidates(image, P, closer=True)]
    assert any(abs(d - 6) < 0.1 * 6 for d in closer)


def _reading(n: int) -> tuple[TileReading, ...]:
    """``n`` 1-1 tiles in a row."""
    half = HalfReading((10.0, 10.0), 1, 1.0)
    return tuple(
        TileReading(((x, 0), (x + 20, 0), (x + 20, 40), (x, 40)), (half, half), 1.0)
        for x in range(0, 30 * n, 30)
    )


@pytest.mark.parametrize(
    ("side", "first", "closer", "read_closer", "kept"),
    [
        (1280, (2, 0.1), (3, 0.05), False, 2),  # the first reading explains the pips: no look
        (1280, (2, 0.6), (3, 0.2), True, 3),  # a closer reading with more tiles, explaining more
        (1280, (2, 0.6), (3, 0.7), True, 2),  # more tiles, more pips left out: a scale too small
        (1280, (2, 0.6), (2, 0.1), True, 2),  # no more tiles
        (1280, (0, 0.0), (1, 0.9), True, 1),  # nothing read at first: any tile read closer
        (200, (0, 0.0), (1, 0.9), True, 1),  # so in a frame no wider than the scale view
        (200, (2, 0.6), (3, 0.2), False, 2),  # but there only where nothing was read
    ],
)
def test_a_reading_that_leaves_many_pips_unexplained_is_replaced_only_by_a_better_closer_one(
    monkeypatch: pytest.MonkeyPatch,
    side: int,
    first: tuple[int, float],
    closer: tuple[int, float],
    read_closer: bool,
    kept: int,
) -> None:
    far, near = scale.Scale(8.0, 1.0), scale.Scale(6.0, 1.0)
    monkeypatch.setattr(scale, "candidates", lambda _g, _p, closer=False: [near if closer else far])
    read: list[float] = []

    def read_at(grey: U8, found: scale.Scale, p: StagedParams, max_pips: int) -> object:
        read.append(found.pip_px)
        n, share = first if found is far else closer
        return _reading(n), share

    monkeypatch.setattr(pipeline, "_read_at", read_at)
    tiles = identify(np.full((side * 9 // 16, side), 200, np.uint8)).tiles
    assert read == ([8.0, 6.0] if read_closer else [8.0])
    assert len(tiles) == kept


def test_a_reading_tells_the_share_of_the_pips_seen_outside_its_tiles() -> None:
    # one 4-5 tile read whole (nine pips), and nine more dots of a pip's size on a light card
    image = _single(4, 5, 60)
    grey = scale.darkest_channel(image)
    found = scale.measure(grey, P)
    assert found is not None
    tiles, share = pipeline._read_at(grey, found, P, 6)
    assert [sorted(t.pips) for t in tiles] == [[4, 5]] and share == 0.0
    d = round(found.pip_px / 2)
    far = image.copy()
    cv2.rectangle(far, (5, 168), (95, 236), (215, 215, 215), -1)
    for k in range(9):
        cv2.circle(far, (22 + 28 * (k % 3), 182 + 21 * (k // 3)), d, (30, 30, 30), -1)
    tiles, share = pipeline._read_at(scale.darkest_channel(far), found, P, 6)
    assert [sorted(t.pips) for t in tiles] == [[4, 5]] and share == pytest.approx(0.5, abs=0.1)


def _pips_on_a_face(rough_rim: bool) -> np.ndarray:
    """Six round pips 36-52 px wide on a light face in a 1280x720 frame; ``rough_rim``: each
    pip's outer rim is a 1 px checkerboard, round only where a reduced view averages it."""
    h, w = 720, 1280
    yy, xx = np.mgrid[0:h, 0:w]
    image = np.full((h, w), 200, np.uint8)
    for cx, cy in ((400, 300), (520, 300), (640, 300), (400, 430), (520, 430), (640, 430)):
        r = np.hypot(xx - cx, yy - cy)
        image[r < 18] = 30
        if rough_rim:
            image[(r >= 18) & (r < 26) & ((yy + xx) % 2 == 0)] = 30
    return image


def test_large_pips_a_reduced_view_measures_set_the_scale_where_the_wide_view_loses_them() -> None:
    # six pips are too few to trust in the reduced view, so the blobs are looked for again in
    # the whole frame, where the pips' rough outlines are not round: the reduced view's stand
    blobs, own, seen_at, _ = scale._round_blobs_seen(_pips_on_a_face(rough_rim=True), P)
    assert len(blobs) == 6 and len(own) == 0 and seen_at == 1.0
    assert np.median(blobs[:, 2]) == pytest.approx(52, rel=0.1)
    # where the wide view sees them too, each pip is counted once, as the wide view sees it
    blobs, own, seen_at, _ = scale._round_blobs_seen(_pips_on_a_face(rough_rim=False), P)
    assert len(blobs) == len(own) == 6 and seen_at == 1.0
    assert np.median(blobs[:, 2]) == pytest.approx(36, rel=0.1)


def test_a_tables_fine_grain_does_not_set_the_scale_of_a_reduced_view() -> None:
    # twelve pips 17 px wide on a 1536 x 2040 frame whose table has dark 1 px grain (2% of the
    # pixels): a reduced view that samples pixels turns the grain into round specks the size
    # of a small pip, one that averages them does not
    rng = np.random.default_rng(0)
    image = np.full((2040, 1536), 200, np.uint8)
    image[rng.random(image.shape) < 0.02] = 60
    for k in range(12):
        cv2.circle(image, (200 + 100 * k, 1000 + 40 * (k % 3)), 8, 40, -1)
    found = scale.measure(image, P)
    assert found is not None and found.pip_px == pytest.approx(17, rel=0.15)


def test_only_lone_faces_wholly_in_view_suggest_a_pip_size() -> None:
    # a light tile 20 x 40 on a dark table, and a light strip of the same shape cut by the
    # frame's edge
    image = np.full((400, 600), 50, np.uint8)
    image[100:140, 300:320] = 210
    image[0:40, 100:120] = 210
    assert scale._face_sizes(image, P, 1280) == pytest.approx([20 * P.pip_width_ratio], rel=0.1)
    # a table as light as the tile shows no face
    assert scale._face_sizes(np.full((400, 600), 210, np.uint8), P, 1280) == []


def _probs(*classes: dict[int, float]) -> np.ndarray:
    """``(2, 8)`` learned half reader probabilities, the rest of each row spread evenly."""
    rows = []
    for given in classes:
        rest = (1.0 - sum(given.values())) / (8 - len(given))
        rows.append([given.get(k, rest) for k in range(8)])
    return np.array(rows, dtype=np.float32)


def test_a_half_misread_on_the_grid_takes_the_learned_readers_count() -> None:
    pair = _read(40.0, (1, 5)).halves
    settled = pipeline.settle(pair, _probs({3: 0.97}, {5: 0.95}), P, 6)
    assert settled is not None
    got, agree, learned = settled
    assert [h.pips for h in got] == [3, 5] and learned
    assert agree == pytest.approx(0.95)
    # where the learned reader allows the grid's count, the grid's count stands
    settled = pipeline.settle(pair, _probs({1: 0.3, 3: 0.6}, {5: 0.95}), P, 6)
    assert settled is not None and [h.pips for h in settled[0]] == [1, 5] and not settled[2]


def test_a_half_the_grid_cannot_read_is_taken_blank_only() -> None:
    # a small tile's blank half whose outline's edges reach the grid's outer positions
    pair = (replace(_read(40.0, (1, 5)).halves[0], pips=None), _read(40.0, (1, 5)).halves[1])
    settled = pipeline.settle(pair, _probs({0: 0.97}, {5: 0.95}), P, 6)
    assert settled is not None
    got, agree, learned = settled
    assert [h.pips for h in got] == [0, 5] and learned
    assert agree == pytest.approx(0.95)
    # any other count the learned reader gives it is no tile: pips need the grid
    assert pipeline.settle(pair, _probs({3: 0.97}, {5: 0.95}), P, 6) is None
    assert pipeline.settle(pair, _probs({0: 0.6}, {5: 0.95}), P, 6) is None


def test_a_half_neither_reader_reads_makes_no_tile() -> None:
    pair = _read(40.0, (1, 5)).halves
    unsure = _probs({3: 0.6, 4: 0.39}, {5: 0.95})  # refutes 1, is not sure of its own count
    not_a_half = _probs({7: 0.99}, {5: 0.95})
    assert pipeline.settle(pair, unsure, P, 6) is None
    assert pipeline.settle(pair, not_a_half, P, 6) is None
    assert pipeline.settle(pair, _probs({6: 0.99}, {5: 0.95}), P, 5) is None  # past the set


def test_a_count_of_the_learned_reader_is_sure_only_where_the_pips_seen_agree(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    image = _single(2, 5, 50)
    assert [(sorted(t.pips), t.sure) for t in identify(image).tiles] == [([2, 5], True)]
    grid = halves.read_all

    def misread_fives(*args: object, **kwargs: object) -> list[tuple[halves.Half, halves.Half]]:
        return [
            (
                (replace(pair[0], pips=1) if pair[0].pips == 5 else pair[0]),
                (replace(pair[1], pips=1) if pair[1].pips == 5 else pair[1]),
            )
            for pair in grid(*args, **kwargs)  # type: ignore[arg-type]
        ]

    monkeypatch.setattr(halves, "read_all", misread_fives)
    # the grid reads 1 where the learned reader reads 5, and five spots like pips lie there
    assert [(sorted(t.pips), t.sure) for t in identify(image).tiles] == [([2, 5], True)]
    # with no spot seen to back it, the learned reader's 5 is reported unsure
    no_spots = np.zeros((0, 2))
    monkeypatch.setattr(arbitrate, "pip_spots", lambda *args: no_spots)
    assert [(sorted(t.pips), t.sure) for t in identify(image).tiles] == [([2, 5], False)]


_SPOTS = {
    0: [],
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def _draw_pips(
    image: np.ndarray, centre: tuple[float, float], n: int, w: int, *, along_x: bool = False
) -> None:
    """The standard layout of ``n`` pips of a half ``w`` wide centred at ``centre``, of a tile
    lying along y (``_SPOTS`` are ``across, along``), or along x."""
    for across, along in _SPOTS[n]:
        dx, dy = (along, across) if along_x else (across, along)
        at = (round(centre[0] + dx * 0.27 * w), round(centre[1] + dy * 0.27 * w))
        cv2.circle(image, at, round(0.085 * w), (30, 30, 30), -1)


def _drawn_tile(pips: tuple[int, int], *, bar: bool, w: int = 40, table: int = 45) -> np.ndarray:
    """A light tile (215) ``w`` wide standing alone on a table (``table``), blurred, its bar
    drawn or not."""
    image = np.full((240, 320, 3), table, np.uint8)
    x0, y0 = 140, 80
    cv2.rectangle(image, (x0, y0), (x0 + w - 1, y0 + 2 * w - 1), (215, 215, 215), -1)
    for k, n in enumerate(pips):
        _draw_pips(image, (x0 + w / 2, y0 + w / 2 + k * w), n, w)
    if bar:
        cv2.line(image, (x0 + 4, y0 + w), (x0 + w - 5, y0 + w), (30, 30, 30), 1)
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 1.0), dtype=np.uint8)


@pytest.mark.parametrize("pips", [(6, 6), (2, 5), (0, 3)])
def test_a_lone_tile_whose_bar_does_not_show_is_read_by_its_face(pips: tuple[int, int]) -> None:
    for bar in (True, False):
        read = [sorted(t.pips) for t in identify(_drawn_tile(pips, bar=bar)).tiles]
        assert read == [sorted(pips)], f"bar drawn: {bar}"


def test_a_lone_face_without_pips_or_bar_is_no_tile() -> None:
    # a tile lying face down looks like a double blank whose bar does not show
    assert [sorted(t.pips) for t in identify(_drawn_tile((0, 0), bar=True)).tiles] == [[0, 0]]
    assert identify(_drawn_tile((0, 0), bar=False)).tiles == ()


@pytest.mark.parametrize("pips", [(6, 6), (2, 5), (3, 5)])
def test_a_tile_whose_edges_do_not_show_is_read_by_its_bar_and_pips(pips: tuple[int, int]) -> None:
    # a white tile on white paper: face and table alike, only the bar and the pips show
    image = _drawn_tile(pips, bar=True, table=215)
    assert [sorted(t.pips) for t in identify(image).tiles] == [sorted(pips)]


def test_a_blank_half_is_not_guessed_where_the_edges_do_not_show() -> None:
    # the blank half of a 0-3 is as much the paper beside the three as the tile's own half
    assert identify(_drawn_tile((0, 3), bar=True, table=215)).tiles == ()


def _drawn_line(
    tiles: list[tuple[int, int]], bars: list[bool], w: int = 40, gap: int = 3, table: int = 45
) -> np.ndarray:
    """Light tiles (215) ``w`` wide laid end to end on a table (``table``, dark by default) with
    ``gap`` px between them, blurred, each tile's bar drawn or not."""
    image = np.full((200, 80 + 2 * w * len(tiles), 3), table, np.uint8)
    y0 = 80
    for k, (pips, bar) in enumerate(zip(tiles, bars, strict=True)):
        x0 = 40 + 2 * w * k
        x1 = x0 + 2 * w - 1 - (gap - gap // 2)
        cv2.rectangle(image, (x0 + gap // 2, y0), (x1, y0 + w - 1), (215, 215, 215), -1)
        for h, n in enumerate(pips):
            _draw_pips(image, (x0 + w / 2 + h * w, y0 + w / 2), n, w, along_x=True)
        if bar:
            cv2.line(image, (x0 + w, y0 + 4), (x0 + w, y0 + w - 5), (30, 30, 30), 1)
    return np.asarray(cv2.GaussianBlur(image, (0, 0), 1.0), dtype=np.uint8)


@pytest.mark.parametrize(
    "bars",
    [[True] * 5, [True, False, True, True, True], [False, True, False, True, True]],
    ids=["all", "second", "first-and-third"],
)
def test_a_line_is_read_whole_where_bars_do_not_show(bars: list[bool]) -> None:
    # where a bar does not show, the seams either side of it look like bars: a line read
    # across its seams is shifted by a half, and reads tiles that are not there
    tiles = [(1, 3), (5, 4), (2, 1), (6, 6), (3, 2)]
    got = identify(_drawn_line(tiles, bars)).tiles
    assert [t.pips for t in sorted(got, key=lambda t: t.center[0])] == tiles


def _recorded_guesses(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bars.Bar, tuple[int, ...]]]:
    """Every bar the pipeline reads a tile round as a guess (working pixels), with the shape of
    the working image, as ``identify`` goes on."""
    guessed: list[tuple[bars.Bar, tuple[int, ...]]] = []
    read_guesses = pipeline._guessed

    def recording(
        found: list[bars.Bar], view: pipeline._View, *args: object
    ) -> list[arbitrate.Read]:
        guessed.extend((b, view.grey.shape) for b in found)
        return read_guesses(found, view, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "_guessed", recording)
    return guessed


def _loose_spot(image: np.ndarray) -> None:
    """A pip on a scrap of light card at the bottom left corner, far from the tiles, blurred as
    they are: a pip no tile explains, so the lines of the tiles read are followed."""
    corner = image[-40:, :40]
    corner[:] = 215
    cv2.circle(corner, (20, 20), 3, (30, 30, 30), -1)
    corner[:] = cv2.GaussianBlur(corner, (0, 0), 1.0)


def test_lines_are_followed_only_from_tiles_in_a_line_or_beside_pips_left_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a lone tile that explains every pip: a guess could only read its pips again
    image = _drawn_tile((2, 5), bar=True, table=215)
    guessed = _recorded_guesses(monkeypatch)
    assert [sorted(t.pips) for t in identify(image).tiles] == [[2, 5]]
    assert guessed == []
    _loose_spot(image)
    assert [sorted(t.pips) for t in identify(image).tiles] == [[2, 5]]
    assert guessed
    # two tiles end to end may be a line whose bars do not all show: it is followed
    guessed.clear()
    got = identify(_drawn_line([(1, 3), (5, 4)], [True, True], table=215)).tiles
    assert [t.pips for t in sorted(got, key=lambda t: t.center[0])] == [(1, 3), (5, 4)]
    assert guessed


def test_a_line_is_followed_only_to_tiles_inside_the_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    # two tiles on white paper, the photo's edge 45 px past the line's end: a tile guessed end
    # to end there would reach past the edge and a half of it could not be read
    tiles = [(1, 3), (5, 4)]
    image = np.ascontiguousarray(_drawn_line(tiles, [True, True], table=215)[:, :245])
    guessed = _recorded_guesses(monkeypatch)
    assert [t.pips for t in sorted(identify(image).tiles, key=lambda t: t.center[0])] == tiles
    assert guessed  # a double crosswise beyond each end fits in the frame
    for bar, (h, w) in guessed:
        c, u = np.array(bar.center), np.array(bar.direction)
        n = np.array([-u[1], u[0]])
        width = bar.length / P.bar_width_share
        corners = [c + a * u * width / 2 + b * n * width for a in (-1, 1) for b in (-1, 1)]
        assert all(0 <= x <= w and 0 <= y <= h for x, y in corners), bar


def test_a_line_is_followed_only_to_tiles_lying_on_faces(monkeypatch: pytest.MonkeyPatch) -> None:
    # two tiles on a dark table; going on from the line's left end, a light face a tile's size
    # (a tile face down); from its right end, a light strip a fifth as wide (a ruler, a lit
    # edge of the board): a tile guessed there is mostly table
    tiles = [(1, 3), (5, 4)]
    table = np.full((200, 120, 3), 45, np.uint8)
    image = np.hstack([table, _drawn_line(tiles, [True, True]), table])
    cv2.rectangle(image, (80, 80), (158, 119), (215, 215, 215), -1)
    cv2.rectangle(image, (325, 96), (image.shape[1] - 1, 104), (215, 215, 215), -1)
    guessed = _recorded_guesses(monkeypatch)
    got = identify(image).tiles
    assert [t.pips for t in sorted(got, key=lambda t: t.center[0])] == tiles
    # centres' x in the input's pixels (the bars are in the working image's)
    xs = [bar.center[0] / w * image.shape[1] for bar, (_, w) in guessed]
    assert any(x < 160 for x in xs)  # onto the face
    assert all(x < 325 for x in xs)  # not onto the strip


def test_a_chain_of_touching_tiles_is_read_where_no_bar_shows() -> None:
    # a line of matching tiles pushed together, no bar showing: the faces are one piece, and
    # nothing but the pips tells where one tile ends
    tiles = [(1, 3), (3, 5), (5, 2), (2, 6)]
    got = identify(_drawn_line(tiles, [False] * 4, gap=0)).tiles
    assert [t.pips for t in sorted(got, key=lambda t: t.center[0])] == tiles


def test_tiles_clash_where_they_overlap_more_than_the_clash_share() -> None:
    # tiles 20 wide, 40 long: a half's area is 400
    a = _read(40.0, (1, 2))
    touching, over = _read(80.0, (3, 4)), _read(60.0, (2, 3))  # none, 400 in common
    nudged = _read(40.0 + 40.0 - 0.15 * 20.0, (3, 4))  # 3 px over: 60 in common
    assert arbitrate.clashing([touching, over, nudged], [a], P) == [False, True, False]
    assert arbitrate.clashing([a], [], P) == [False]


def test_guesses_along_a_chain_of_faces_fall_on_its_bars() -> None:
    # four tiles 30 wide end to end along x from 20 to 260 at y 35-65, turned 10 degrees
    face = np.full((300, 300), 40, np.uint8)
    rect = ((140.0, 150.0), (240.0, 30.0), 10.0)
    cv2.fillPoly(face, [np.int32(np.rint(cv2.boxPoints(rect)))], 200)
    seen = _seen(face, 120.0, 40.0, 5.0)
    p = replace(P, line_shifts=(0.0,))
    guessed = bars.along_chains(seen, p, width=30.0)
    a = np.array([np.cos(np.deg2rad(10.0)), np.sin(np.deg2rad(10.0))])
    along = sorted(float((np.array(b.center) - (140.0, 150.0)) @ a) for b in guessed)
    # every half width from either end but the ends themselves: -90, -75, ..., 90
    assert along == pytest.approx([-90.0 + 15.0 * k for k in range(13)], abs=1.5)
    # all across the chain, as long as the bar of a tile 30 wide
    assert all(abs(float(np.array(b.direction) @ a)) < 0.05 for b in guessed)
    assert all(b.length == pytest.approx(30.0 * P.bar_width_share) for b in guessed)
    # the faces the tiles read hold are left out; a table as light as the faces has no chains
    held = np.zeros_like(face)
    held[:, :150] = 1
    assert all(b.center[0] > 150 for b in bars.along_chains(seen, p, width=30.0, held=held))
    # a chain that tiles read explain all but a tile's area of is not looked at
    mostly = np.zeros_like(face)
    mostly[:, :230] = 1
    assert bars.along_chains(seen, p, width=30.0, explained=mostly) == []
    assert bars.along_chains(seen, p, width=30.0, explained=held) == guessed
    assert bars.along_chains(replace(seen, faces=None), p, width=30.0) == []
    # nor on a table lighter than the faces, told from it by their share of the light
    assert bars.along_chains(replace(seen, table=200.0), p, width=30.0) == []


def test_a_tile_where_a_line_of_faces_turns_gets_its_bar_guessed() -> None:
    # two tiles 30 wide end to end along x 20-140 (y 100-130), and a tile standing at the
    # right end, x 140-170, y 100-160: its bar runs along the line at y 130, half a width in
    # from the chain's end
    face = np.full((300, 300), 40, np.uint8)
    face[100:130, 20:140] = 200
    face[100:160, 140:170] = 200
    seen = _seen(face, 120.0, 40.0, 5.0)
    guessed = bars.along_chains(seen, replace(P, line_shifts=(0.0,)), width=30.0)
    assert any(
        abs(b.center[0] - 155) < 2 and abs(b.center[1] - 130) < 2 and abs(b.direction[0]) > 0.99
        for b in guessed
    )
    # a lone tile measured a pixel short of two widths still gets its bar
    lone = np.full((300, 300), 40, np.uint8)
    lone[100:130, 100:159] = 200
    alone = bars.along_chains(
        _seen(lone, 120.0, 40.0, 5.0), replace(P, line_shifts=(0.0,)), width=30.0
    )
    assert [b.center for b in alone] == [pytest.approx((129.0, 114.5), abs=1.0)]


def test_guessed_bars_go_on_from_a_tiles_ends_and_a_doubles_sides() -> None:
    # a horizontal tile 20 wide centred at (100, 50), its ends 20 from the centre
    prop = outline.Proposal((100.0, 50.0), (0.0, 1.0), (1.0, 0.0), 20.0, (20.0, 20.0))
    p = replace(P, line_shifts=(0.0,))
    at = {
        (round(b.center[0]), round(b.center[1]), abs(round(b.direction[0])))
        for b in outline.beyond([(prop, False)], 20.0, p)
    }
    # end to end: the next bar a width past each end, across; a double crosswise: half a
    # width past, along the line
    assert at == {(140, 50, 0), (60, 50, 0), (130, 50, 1), (70, 50, 1)}
    double = {
        (round(b.center[0]), round(b.center[1])) for b in outline.beyond([(prop, True)], 20.0, p)
    }
    assert {(100, 80), (100, 20), (100, 70), (100, 30)} <= double  # beyond its sides too
    shifted = outline.beyond([(prop, False)], 20.0, replace(P, line_shifts=(-0.2, 0.0, 0.2)))
    assert len(shifted) == 3 * 4
    assert all(b.length == pytest.approx(20.0 * P.bar_width_share) for b in shifted)


def test_points_inside_outlines_going_round_either_way() -> None:
    square = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]])
    turned = np.array([[20.0, 5.0], [25.0, 0.0], [30.0, 5.0], [25.0, 10.0]])[::-1]
    points = np.array([[5.0, 5.0], [10.0, 3.0], [11.0, 5.0], [25.0, 5.0], [21.0, 1.0]])
    got = outline.inside(points, [square, turned])
    assert got.tolist() == [True, True, False, True, False]
    assert outline.inside(points, []).tolist() == [False] * 5


def test_outline_steps_measured_together_are_those_measured_alone() -> None:
    # rows of different lengths share one resampling; each must see only its own samples,
    # reflected at its own end as the smoothing reflects a row alone; and shares measured
    # together are each those measured alone
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (120, 120), np.uint8)
    face = np.asarray(cv2.GaussianBlur(noise, (0, 0), 2), dtype=np.uint8)
    thin = ((face > 140) * 255).astype(np.uint8)
    seen = _seen(face, 100.0, 80.0, 6.0, thin)
    starts = rng.uniform(40, 80, (8, 2))
    angles = rng.uniform(0, 2 * np.pi, 8)
    vs = np.stack([np.cos(angles), np.sin(angles)], axis=1)
    t0 = rng.uniform(1, 8, 8)
    t1 = t0 + np.array([0.3, 2.0, 5.5, 9.0, 14.0, 20.0, 0.7, 11.0])
    together = outline._Profiles(seen, (0.35, 0.2)).strongest_steps(starts, vs, t0, t1)
    assert together.shape == (2, 8)
    for share, got in zip((0.35, 0.2), together, strict=True):
        prof = outline._Profiles(seen, (share,))
        alone = [
            prof.strongest_steps(starts[i : i + 1], vs[i : i + 1], t0[i : i + 1], t1[i : i + 1])
            for i in range(8)
        ]
        assert got.tolist() == [float(a[0, 0]) for a in alone]
        assert np.all((got >= t0 - 1e-6) & (got <= t1 + 1e-6))
    assert (together[0] != together[1]).any()  # the shares find different steps somewhere


def test_distinct_outlines_are_those_kept_one_by_one() -> None:
    # each outline is kept unless it lies within tol (centre, width and both ends) of one held
    # or kept before it: compared with that rule applied naively
    rng = np.random.default_rng(11)
    base = rng.uniform(0, 60, (40, 5))
    keys = np.concatenate([base, base[rng.integers(0, 40, 80)] + rng.normal(0, 1.5, (80, 5))])
    props = [
        outline.Proposal((k[0], k[1]), (0.0, 1.0), (1.0, 0.0), k[2], (k[3], k[4])) for k in keys
    ]
    held, rest, tol = props[:10], props[10:], 2.0

    def key(q: outline.Proposal) -> list[float]:
        return [*q.center, q.width, *q.ends]

    naive: list[outline.Proposal] = []
    for q in rest:
        if not any(
            all(abs(a - b) < tol for a, b in zip(key(q), key(o), strict=True))
            for o in [*held, *naive]
        ):
            naive.append(q)
    got = outline._distinct(rest, tol, held)
    assert got == naive
    assert 40 <= len(got) < len(rest) - 10  # near copies were dropped, the others kept
    assert outline._distinct([], tol, held) == []


def test_components_are_opencvs_default_labelling() -> None:
    rng = np.random.default_rng(7)
    for sigma, share in ((0.0, 0.6), (2.0, 0.5), (4.0, 0.3)):
        noise = rng.random((240, 320))
        smooth = cv2.GaussianBlur(noise, (0, 0), sigma) if sigma else noise
        binary = (smooth > np.quantile(smooth, 1 - share)).astype(np.uint8)
        n, labels, stats, centres = cv2.connectedComponentsWithStats(binary, connectivity=8)
        got = scale.components(binary)
        assert got[0] == n > 2
        for mine, theirs in zip(got[1:], (labels, stats, centres), strict=True):
            assert np.array_equal(mine, theirs)


def test_halves_read_together_are_those_read_alone() -> None:
    # every proposal of a rendered scene, at three widths (so the pip's core is averaged over
    # squares of different sizes) and enough of them to be resampled in several chunks
    grey = scale.darkest_channel(render_scene(3, n_tiles=12, max_pips=6).image)
    found = scale.measure(grey, P)
    assert found is not None and found.factor == 1.0
    seen = ink.find(grey, found.pip_px, P, found.blobs)
    props = outline.propose(bars.find(seen, P), seen, P)
    props = [replace(q, width=q.width * k) for k in (0.6, 1.0, 1.4) for q in props] * 4
    assert 2 * len(props) > 512
    together = halves.read_all(props, seen, P)
    assert together == [halves.read(q, seen, P) for q in props]
    assert any(h.pips for pair in together for h in pair)


def test_a_half_is_resampled_as_an_affine_warp_of_its_square() -> None:
    rng = np.random.default_rng(5)
    image = np.asarray(cv2.GaussianBlur(rng.integers(0, 256, (90, 120), np.uint8), (0, 0), 1.5))
    s = 32
    for _ in range(5):
        origin = rng.uniform(-10, 100, 2)
        along = rng.normal(0, 1, 2)
        across = np.array([-along[1], along[0]]) * rng.uniform(0.5, 1.5)
        got = halfnet.resampled([image], [(origin, along, across)], s)[0][0]
        src = np.array([origin, origin + s * along, origin + s * (along + across)], np.float32)
        dst = np.array([[0, 0], [s, 0], [s, s]], np.float32)
        warp = cv2.warpAffine(image, cv2.getAffineTransform(src, dst), (s, s))
        assert np.abs(got.astype(int) - warp).max() <= 1


def test_a_double_blank_needs_its_bar_and_the_learned_readers_word() -> None:
    # it has no pips to confirm it: a back, the table or paper read between two lines is none
    seen = _faces(0, 300)
    plain = _read(40.0, (0, 0))
    bar = bars.Bar((40.0, 50.0), (0.0, 1.0), 16.0)
    read = replace(plain, proposal=replace(plain.proposal, bar=bar))
    assert pipeline._believable(replace(read, agree=0.9), seen, P)
    assert not pipeline._believable(replace(read, agree=0.3), seen, P)
    no_bar = replace(read.proposal, bar=None)
    assert not pipeline._believable(replace(read, proposal=no_bar, agree=0.9), seen, P)
    # its outline guessed from the bar alone: the learned reader must be all but certain
    guessed = replace(read, proposal=replace(read.proposal, measured=False))
    assert pipeline._believable(replace(guessed, agree=P.blank_guess_p), seen, P)
    assert not pipeline._believable(replace(guessed, agree=0.9), seen, P)
    # so too where a half was not read on the grid (squares of face-down backs read so)
    assert pipeline._believable(replace(read, agree=P.blank_guess_p), seen, P, unread=True)
    assert not pipeline._believable(replace(read, agree=0.9), seen, P, unread=True)
    # a tile with pips stands on the grid's reading, weighed by the learned reader elsewhere
    assert pipeline._believable(replace(_read(40.0, (0, 3)), agree=0.3), seen, P)


def test_a_guessed_tile_with_a_blank_half_needs_that_half_on_a_lit_face() -> None:
    # a 0-3 centred at x 40: its blank half at x 50, its three at x 30
    guess = _read(40.0, (0, 3))
    guess = replace(guess, proposal=replace(guess.proposal, measured=False), agree=0.9)
    assert pipeline._believable(guess, _faces(0, 300), P)
    # the blank half on the dark table beside a face
    assert not pipeline._believable(guess, _faces(0, 40), P)
    # a table as light as the faces: no level tells; _bounded looks for the half's end
    light = _faces(0, 300)
    assert pipeline._believable(guess, replace(light, table=light.lit), P)
    # the learned half reader must read it so, and the grid must not leave it blank whole
    assert not pipeline._believable(replace(guess, agree=0.3), _faces(0, 300), P)
    blank = replace(guess, halves=(guess.halves[0], replace(guess.halves[1], pips=0)))
    assert not pipeline._believable(blank, _faces(0, 300), P)


def test_a_guessed_tile_takes_the_learned_readers_counts_only_where_they_are_more() -> None:
    # the grid missed pips (blurred corner pips fall between its positions): a count the
    # learned half reader raised is believed; one it lowered, or made up, is not
    guess = _read(40.0, (3, 5))
    guess = replace(guess, proposal=replace(guess.proposal, measured=False), agree=0.95)
    learned = replace(guess, learned=True)
    assert pipeline._believable(learned, _faces(0, 300), P, more_seen=True)
    assert not pipeline._believable(learned, _faces(0, 300), P)
    # a tile whose outline was measured stands on its reading (reported unsure elsewhere)
    measured = replace(learned, proposal=replace(learned.proposal, measured=True))
    assert pipeline._believable(measured, _faces(0, 300), P)


def test_arbitration_keeps_one_of_two_outlines_of_a_tile_sharing_an_edge() -> None:
    """Two outlines of one tile measured to the same end share an edge exactly, where OpenCV's
    intersection of convex polygons can come out empty: they still clash."""
    from test_polygons import LONGER, SHORTER

    reads = []
    for corners in (LONGER, SHORTER):
        c = corners.astype(np.float64)
        centre = (c[2] + c[3]) / 2 + (c[0] + c[1] - c[2] - c[3]) / 4
        axis = (c[0] - c[3]) / np.linalg.norm(c[0] - c[3])
        across = (c[2] - c[3]) / np.linalg.norm(c[2] - c[3])
        width = float(np.linalg.norm(c[2] - c[3]))
        end = float(np.linalg.norm(c[0] - c[3])) / 2
        prop = outline.Proposal(
            (float(centre[0]), float(centre[1])),
            (float(across[0]), float(across[1])),
            (float(axis[0]), float(axis[1])),
            width,
            (end, end),
        )
        halves_read = (halves.Half(1, 1.0, (0.0, 0.0)), halves.Half(4, 1.0, (0.0, 0.0)))
        reads.append(arbitrate.Read(prop, halves_read))
    drawn = np.sort(reads[0].proposal.corners(), axis=0)
    assert np.allclose(drawn, np.sort(LONGER, axis=0), atol=0.01)
    assert len(arbitrate.keep(reads, P)) == 1


def _view_of(image: np.ndarray) -> pipeline._View:
    grey = scale.darkest_channel(image)
    found = scale.candidates(grey, P)[0]
    assert found.factor == 1.0
    seen = ink.find(grey, found.pip_px, P, found.blobs)
    return pipeline._View.of(grey, seen, P, 6)


def test_a_guessed_blank_half_on_a_light_table_shows_its_end() -> None:
    # ivory faces (225) outlined by a soft shadow (170) on white paper (215): a 0-3 40 x 80,
    # and a face 40 x 160 whose first 80 px hold a 3 (a back end to end with the tile, its
    # seam not showing): a guessed 0-3 over the tile is bounded, over the longer face it is not
    image = np.full((200, 400, 3), 215, np.uint8)
    for x0, x1, y0 in ((40, 119, 30), (160, 319, 120)):
        cv2.rectangle(image, (x0 - 2, y0 - 2), (x1 + 2, y0 + 41), (170, 170, 170), -1)
        cv2.rectangle(image, (x0, y0), (x1, y0 + 39), (225, 225, 225), -1)
        cv2.line(image, (x0 + 40, y0 + 4), (x0 + 40, y0 + 35), (30, 30, 30), 2)
        for k in (-1, 0, 1):
            cv2.circle(image, (x0 + 20 + 10 * k, y0 + 20 + 10 * k), 4, (30, 30, 30), -1)
    view = _view_of(np.asarray(cv2.GaussianBlur(image, (0, 0), 1.0), dtype=np.uint8))
    assert view.seen.table >= view.seen.lit  # a table as light as the faces

    def guess(x0: float, y0: float, *, measured: bool = False) -> arbitrate.Read:
        prop = outline.Proposal((x0 + 40, y0 + 20), (0.0, 1.0), (1.0, 0.0), 40.0, (40.0, 40.0))
        prop = replace(prop, measured=measured)
        a, b = halves.Half(0, 1.0, (x0 + 60, y0 + 20)), halves.Half(3, 1.0, (x0 + 20, y0 + 20))
        return arbitrate.Read(prop, (a, b))

    assert pipeline._bounded(guess(40, 30), view)
    assert not pipeline._bounded(guess(160, 120), view)
    # a measured outline's end was found as a step already
    assert pipeline._bounded(guess(160, 120, measured=True), view)


def test_a_double_blank_one_of_whose_ends_runs_on_is_open_ended() -> None:
    # a double blank 40 x 80 with table beyond both ends, and a face-down back lying over
    # another's end: the upper back's end reads as a bar, and the "half" on the other side of
    # it is the lower back, which runs on past the "tile's" end
    image = np.full((200, 400, 3), 45, np.uint8)
    cv2.rectangle(image, (40, 130), (119, 169), (215, 215, 215), -1)
    for x in (55, 70, 90, 105):  # a tile with pips, so the scene has a scale
        cv2.circle(image, (x, 150), 4, (30, 30, 30), -1)
    cv2.rectangle(image, (160, 20), (239, 59), (215, 215, 215), -1)
    cv2.line(image, (200, 24), (200, 55), (30, 30, 30), 2)
    cv2.rectangle(image, (300, 100), (379, 139), (215, 215, 215), -1)  # the lower back
    cv2.rectangle(image, (220, 100), (299, 139), (215, 215, 215), -1)  # the upper back
    cv2.line(image, (300, 100), (300, 139), (90, 90, 90), 2)  # its end
    view = _view_of(np.asarray(cv2.GaussianBlur(image, (0, 0), 0.8), dtype=np.uint8))

    def double_blank(cx: float, cy: float) -> arbitrate.Read:
        prop = outline.Proposal((cx, cy), (0.0, 1.0), (1.0, 0.0), 40.0, (40.0, 40.0))
        a, b = (halves.Half(0, 1.0, (cx + k, cy)) for k in (20.0, -20.0))
        return arbitrate.Read(prop, (a, b))

    assert not pipeline._open_ended(double_blank(200.0, 40.0), view)
    assert pipeline._open_ended(double_blank(300.0, 120.0), view)
    assert not pipeline._open_ended(_read(300.0, (0, 1)), view)  # not a double blank


def test_a_line_guess_is_read_only_with_pips_on_both_sides_or_a_lit_face() -> None:
    """Guesses with no pip within a tile's reach on both sides of their bar are not read (a
    tile guessed there could never be believed); one beside a tile's end on a dark table,
    its other side a lit face, is."""
    width = 40
    scene = render_scene(3, width=400, height=300, n_tiles=1, tiles=((3, 5),), tile_width_px=width)
    view = _view_of(scene.image)
    assert view.seen.table < view.seen.lit  # a dark table
    (ax, ay), (bx, by) = scene.tiles[0].centers
    along = np.array([bx - ax, by - ay]) / math.dist((ax, ay), (bx, by))
    across = (float(-along[1]), float(along[0]))
    centre = ((ax + bx) / 2, (ay + by) / 2)
    on_tile = bars.Bar(centre, across, P.bar_width_share * width)
    far = bars.Bar((20.0, 20.0), across, P.bar_width_share * width)
    end = (bx + along[0] * width / 2, by + along[1] * width / 2)  # the tile's end, table beyond
    at_end = bars.Bar((float(end[0]), float(end[1])), across, P.bar_width_share * width)
    kept = pipeline._with_pips([on_tile, far, at_end], view)
    assert kept == [on_tile]
    # the same beyond the end, over a lit face: a blank half may be read there
    lit = view.seen.face.copy()
    x, y = int(end[0] + along[0] * width / 2), int(end[1] + along[1] * width / 2)
    lit[y - 6 : y + 7, x - 6 : x + 7] = 255
    faces = (lit >= view.seen.lit).astype(np.uint8)
    view = replace(view, seen=replace(view.seen, face=lit, faces=faces))
    assert pipeline._with_pips([on_tile, far, at_end], view) == [on_tile, at_end]


@pytest.mark.parametrize("width", [30, 40, 60])
def test_a_double_blank_on_its_own_shows_its_sides_and_is_read(width: int) -> None:
    assert [tuple(t.pips) for t in identify(_single(0, 0, width)).tiles] == [(0, 0)]
