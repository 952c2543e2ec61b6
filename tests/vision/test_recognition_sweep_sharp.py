"""Scenes of the rendered still sweep (``fixture render-stills --count 600 --seed 1``) whose
tiles were missed, mostly sharp ones (two blurred scenes guard the rules for where a face
is split at a seam), and drawn tiles whose bar runs into the table or only just misses the
sides. Each sweep scene is rendered again here exactly as the sweep drew it; the expected
pips are what the renderer drew, never a reading.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from recognition_support import sweep_misses

from vision.recognition import identify

U8 = npt.NDArray[np.uint8]


@pytest.mark.parametrize("index", [19, 150, 286, 466, 507])
def test_touching_tiles_read_a_little_too_wide_are_both_kept(index: int) -> None:
    """Thick tiles seen at a slant are read about a tenth too wide, so a tile found on a second
    look overlaps the neighbour it touches end to end by a pixel or two: both are tiles."""
    assert sweep_misses(index) == ([], 0)


@pytest.mark.parametrize("index", [51, 86, 99, 123, 135, 369, 584])
def test_a_bar_right_across_the_face_splits_it_into_two_halves(index: int) -> None:
    """Doubles laid crosswise whose bar runs into the seams on both sides, and tiles whose bar
    runs into the table (or a neighbour) at both ends: the face falls apart into two squares,
    which are the tile's halves."""
    assert sweep_misses(index) == ([], 0)


@pytest.mark.parametrize("index", [124, 141, 188, 202, 299, 357, 393, 418, 436, 445])
def test_a_bar_that_falls_short_of_the_sides_only_just_is_seen(index: int) -> None:
    """Blank doubles laid crosswise or alone, and tiles alone (a hand at the table's edge)
    whose bar, a pixel thick and faint at 1280x720, stops a pixel or two short of the sides:
    no dark region of its own, and too faint to carve. Either the face falls apart into two
    squares once bridges a pixel or two wide are opened, or it is one ``w x 2w`` face with a
    thin line right across its middle."""
    assert sweep_misses(index) == ([], 0)


def test_a_whole_face_read_in_a_blurred_line_keeps_the_line_straight() -> None:
    """A blurred scene (sigma 1 px) read right before whole faces were read: its 1-6 is now
    read as a whole face at a turn of the line. Its axis comes from the face's moments; the
    smallest rectangle round the blurred, rounded face was turned by 5 degrees, which turned
    the frame the rest of the line is tiled in, and a 2-5 further on was lost."""
    assert sweep_misses(437) == ([], 0)


def test_a_pip_joined_to_the_bar_of_a_split_face_is_one_pip() -> None:
    """Three tiles alone at the table's edge (1280x720, bars reaching the table): the 0-2's
    pip next to its faint bar is one dark region with a piece of the bar, three pips' worth
    of ink. Cut at the bar, it is one pip."""
    assert sweep_misses(332) == ([], 0)


def test_the_halves_either_side_of_a_seam_are_no_tile() -> None:
    """A blurred line (sigma 1.5 px) of 0-2, 4-0, 3-4 end to end: blur cuts each face at its
    bar and at the seams alike, so the squares and the whole faces there are as good beside a
    seam as beside a bar. A row of squares is paired only from a real end (no face beyond
    it), and a whole face needs table or tiles read beyond both ends: no 0-0 or 4-4 is read
    across a seam."""
    missed, extra = sweep_misses(168)
    assert extra == 0
    assert not {"0-2", "4-0", "3-4"} & set(missed)


_SPOTS = {
    0: [],
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    5: [(-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)],
    6: [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)],
}


def _drawn(
    tiles: list[tuple[int, int, bool, tuple[int, int]]], *, s: int, seed: int, inset: int = 0
) -> U8:
    """Tiles ``(x, y, horizontal, pips)`` (top-left corner, pixels) ``s`` wide on a dark table,
    each bar drawn right across the face but ``inset`` pixels from the sides (so with 0 it
    runs into the table at both ends); pips ``(-1, -1)`` draw a tile face down (no bar, no
    pips). And a 6-6 at the bottom right with its bar well inside the face (so the scene's
    tile width is known)."""
    rng = np.random.default_rng(seed)
    img = np.full((260, 360), 45.0)
    for x, y, horizontal, pips in [*tiles, (240, 200, True, (6, 6))]:
        w, h = (2 * s, s) if horizontal else (s, 2 * s)
        img[y : y + h, x : x + w] = 228.0
        if pips == (-1, -1):
            continue
        # a faint bar a pixel thick (at 1280x720 a rendered bar is), or a dark one two thick
        ink, wide = (60.0, 1) if inset == 0 or pips == (6, 6) else (115.0, 0)
        inset = 4 if pips == (6, 6) else inset
        if horizontal:
            img[y + inset : y + h - inset, x + s - wide : x + s + 1] = ink
        else:
            img[y + s - wide : y + s + 1, x + inset : x + w - inset] = ink
        for k, n in enumerate(pips):
            hx = x + s / 2 + (k * s if horizontal else 0)
            hy = y + s / 2 + (0 if horizontal else k * s)
            for u, v in _SPOTS[n]:
                centre = (round(hx + u * 0.28 * s), round(hy + v * 0.28 * s))
                cv2.circle(img, centre, max(2, s // 11), 30.0, -1, cv2.LINE_AA)
    img += rng.normal(0, 2.0, img.shape)
    grey = np.clip(cv2.GaussianBlur(img, (0, 0), 0.6), 0, 255).astype(np.uint8)
    return np.asarray(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR), dtype=np.uint8)


def _read(image: U8) -> list[tuple[tuple[int, int], tuple[int, ...]]]:
    reading = identify(image)
    return sorted(
        ((round(t.center[0]), round(t.center[1])), tuple(sorted(h.pips for h in t.halves)))
        for t in reading.tiles
    )


@pytest.mark.parametrize("seed", range(3))
def test_tiles_whose_bar_runs_into_the_table_are_read(seed: int) -> None:
    """A 5-3 read the usual way beside a 0-0 and a 1-2 whose bars reach the table, and two
    such tiles end to end (their seam splits the faces as the bars do: four squares in a row
    are paired from the ends)."""
    s = 30
    tiles = [
        (40, 40, True, (5, 3)),
        (40, 120, True, (0, 0)),
        (180, 40, False, (1, 2)),
        (40, 190, True, (2, 1)),
        (40 + 2 * s + 2, 190, True, (0, 3)),
    ]
    image = _drawn(tiles, s=s, seed=seed)
    expected = [
        ((round(x + (s if h else s / 2)), round(y + (s / 2 if h else s))), tuple(sorted(pips)))
        for x, y, h, pips in [*tiles, (240, 200, True, (6, 6))]
    ]
    read = _read(image)
    assert sorted(p for _, p in read) == sorted(p for _, p in expected)
    for (x, y), pips in read:
        assert any(math.dist((x, y), c) < 4 and pips == e for c, e in expected), (x, y, pips)


@pytest.mark.parametrize("seed", range(3))
def test_squares_in_a_block_pair_up_across_the_bars_not_the_gap(seed: int) -> None:
    """Two such tiles side by side, 2 px apart: four squares in a block, each beside two
    others. The squares alone pair up either way; the outline stage, on the faces with only
    their holes filled, keeps the 2 px gap between the tiles as table (the faint bars
    a pixel thick are no gap), so each tile is read where it lies, lengthwise, and no tile
    is read across the gap."""
    s = 30
    drawn = [(40, 40, True, (0, 0)), (40, 40 + s + 2, True, (0, 0))]
    reading = identify(_drawn(drawn, s=s, seed=seed))
    blanks = [t for t in reading.tiles if t.pips == (0, 0)]
    assert len(blanks) == 2 and len(reading.tiles) == 3  # and the 6-6
    for t, (x, y, _, _) in zip(sorted(blanks, key=lambda t: t.center[1]), drawn, strict=True):
        assert math.dist(t.center, (x + s, y + s / 2)) < 5, t.center
        (ax, ay), (bx, by) = (h.center for h in t.halves)
        assert abs(bx - ax) > 3 * abs(by - ay), t  # lengthwise, as drawn


@pytest.mark.parametrize("seed", range(3))
def test_a_blank_face_with_a_thin_line_across_its_middle_is_a_double_blank(seed: int) -> None:
    """A 0-0 and a 1-1 alone whose bar stops a pixel short of the sides (the face stays one
    piece), beside a tile lying face down (the same face, no line): only the first two are
    tiles."""
    s = 26
    tiles = [(40, 40, True, (0, 0)), (40, 120, True, (-1, -1)), (180, 40, False, (1, 1))]
    read = _read(_drawn(tiles, s=s, seed=seed, inset=1))
    assert sorted(p for _, p in read) == [(0, 0), (1, 1), (6, 6)], read
    assert all(math.dist(c, (40 + s, 40 + s / 2)) < 4 for c, p in read if p == (0, 0)), read


def test_a_crosswise_double_in_a_deconvolved_line_is_looked_at() -> None:
    """A blurred line (sigma 1 px, 1920x1080) with a 6-6 laid crosswise between two tiles read:
    deconvolved, its bar is a clean line right across it into the seams, so the face falls
    apart into two squares, but its twelve pips (widened by the deconvolution) and the bar
    leave too little face in any square half a tile wide for the face left unread to be
    looked at. With pips and bar closed over, it is."""
    assert sweep_misses(161) == ([], 0)


@pytest.mark.parametrize("index", [309, 363])
def test_squares_paired_whose_pips_cannot_be_labelled_are_read_as_dark_peaks(index: int) -> None:
    """Blurred scenes (sigma 1 px and 1.5 px) whose face splits into two squares at a bar
    that runs into the seams or the table, and the squares pair up, but the pips (deconvolved,
    wider) join the sides or the bar: labelled, the halves read nothing. Counted as dark peaks
    on the tile the squares make (along their edges, as wide as they are), the 3-4 of scene
    309 and the 4-2 of scene 363 are read; the outline stage runs first (what it places
    stays)."""
    assert sweep_misses(index) == ([], 0)


def test_a_double_blank_at_a_turn_whose_faint_bar_is_broken_is_placed_by_its_outline() -> None:
    """White tiles, 720p, blur 0.6 (the sweep of seed 8, unseen until this case): a 0-0 at a
    turn, its bar a line about a pixel thick at half contrast, broken into pieces too short to
    be a bar. The face left outside every tile read is a 0.8 w square (the room asked for
    then; 0.7 w since) only on a grid finer than a quarter width (the 6-0 read beside it
    reaches a pixel into it); there its outline places it, its bar seen across its middle."""
    assert sweep_misses(61, seed=8) == ([], 0)


def test_a_tile_read_across_a_seam_in_focus_with_both_tiles_unread_is_read_again() -> None:
    """White tiles on walnut, 720p, in focus (seed 8): the seam between a 6-0 and a 5-6 is
    darker than their bars, so a 6-6 was read across it and the two tiles were left unread.
    In focus only a double with a tile beyond an end was looked at again; one with face
    beyond its ends (the other halves of the two tiles it straddles) is looked at too."""
    assert sweep_misses(197, seed=8) == ([], 0)


@pytest.mark.parametrize("index", [388, 590])
def test_a_width_set_by_a_few_tiles_of_the_first_look_is_set_again_by_a_later_look(
    index: int,
) -> None:
    """Ivory tiles on walnut, 720p, blur 0.6 (seed 10, unseen until session 8): the first
    reading found a tile or two, too few, and the first look, enlarged, read two or three more
    at 0.82-0.87 of the scene's width: tiles read across seams, and in 388 a 0-0 fitted
    between the corner pips of a 2 half. Their width became the scene's, and a tile read
    across the seam at a turn was kept (a 2-2, a 0-0). The later looks read eight or more
    tiles, at the right width: the width is theirs, and the tiles read at the other scale go."""
    assert sweep_misses(index, seed=10) == ([], 0)


def test_a_double_blank_crosswise_between_two_tiles_read_a_little_wide_is_looked_for() -> None:
    """White tiles on slate, 720p, in focus (seed 10): a crosswise 0-0 whose bar, a pixel
    thick, is too faint to be ink. The 5-0 and 0-3 either side of it were read a pixel or two
    too wide and left a 0.71 w square of its face free, under the 0.8 w that set the outline
    stage looking for a double blank: 0.7 w does."""
    assert sweep_misses(527, seed=10) == ([], 0)


def test_a_double_blank_crosswise_between_two_blank_halves_in_focus_is_looked_for() -> None:
    """Seed 29's 0494, held out (white tiles on green, 720p, blur 0.6): a crosswise 0-0
    between the blank halves of a 2-0 and a 0-5, its bar too faint to be ink. The two tiles
    were read a pixel long and left 0.62 w of its face free, under the 0.7 w that sets the
    outline stage looking; looking everywhere at 0.6 w costs half again on frames in focus.
    Two tiles end to end in a line a tile width apart, with face between them, leave the
    room of a crosswise double: the outline stage looks there."""
    assert sweep_misses(494, seed=29) == ([], 0)


@pytest.mark.parametrize(("index", "seed"), [(491, 10), (253, 11)])
def test_a_slender_core_at_the_rim_of_the_table_between_two_rows_is_no_bar(
    index: int, seed: int
) -> None:
    """720p, blur 0.6 (seed 10; seed 11's 253, held out, has thick tiles): the table between
    two rows of tiles, a dark region enclosed by the line, was split like a bar with pips
    blurred into it, and a slender core at its rim became a bar: a 0-0 with one half on a
    blank half and the other on the table (the region counted as that bar, not as dirt). A
    bar whose rest is larger than a square as long as the bar has no pips blurred into it."""
    assert sweep_misses(index, seed=seed) == ([], 0)


@pytest.mark.parametrize(("index", "seed"), [(286, 4), (276, 3)])
def test_the_outline_stage_runs_again_where_a_tile_read_across_a_seam_is_read_again(
    index: int, seed: int
) -> None:
    """Black pips on cream, 720p, blur 0.6 and 1.0 (seeds 4 and 3): the tile at a turn of the
    line is left unread. In 286 the outline stage tiled the face of the 3-2 and the 6-2 above
    it, unread, as one strip, and placed the 3-2 a third of a tile off, where it does not
    read; in 276 a 4-4 was read across the seam of the turn, and only the 4-5 beyond it read
    again. Once a tile is read again there, the outline stage runs again round it."""
    assert sweep_misses(index, seed=seed) == ([], 0)


@pytest.mark.parametrize(("index", "seed"), [(382, 23), (404, 25)])
def test_a_tile_read_across_a_seam_beside_a_tile_of_the_next_row_is_read_again(
    index: int, seed: int
) -> None:
    """Seeds 23 and 25, held out (blur 0.6 and 1.5): at a turn a double was read across the
    seam of two tiles (in 382 a 2-2 across the 2s of a 2-4 and a 1-2, the 4 and the 1 left
    unread). The square beyond it, one half of a tile it straddles, lies between it and the
    next tile of its line, and a tile of the next row lies beside that square: the square is
    no less lone for it (only free face beside it would be a tile's other half)."""
    assert sweep_misses(index, seed=seed) == ([], 0)


@pytest.mark.parametrize(("index", "seed"), [(554, 24), (375, 10), (345, 11), (576, 11), (449, 23)])
def test_a_tile_at_another_scale_than_the_scenes_is_read_as_dark_peaks(
    index: int, seed: int
) -> None:
    """Cameras tilted 12-18 degrees, in focus to blur 1.5 (seed 24's 0554 held out, the
    others left from earlier sessions): a tile can look a tenth wider or narrower than the
    scene's width as read, or more (nearer or farther from a tilted camera than most: 0.82
    of the median in seed 10's 0375 and seed 11's 0576; or the width read a little off). In
    0554 a 1-5 below a crosswise 5-5, 9% wider than the width read: a pip of its 5 touches
    its rim and is no region of its own, so only the dark peaks read it, and at the scene's
    width its 1 lay a sixth of a pip spacing off its half's centre (0.28). Where a place
    reads too unsure, its peaks are read 8% wider and 7% narrower too (0554: 0.65 at 8%
    wider)."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_a_tile_read_as_dark_peaks_at_a_smaller_scale_keeps_its_halves_centres() -> None:
    """Seed 16's 0029 (blur 1.5, camera tilted 15 degrees): a 5-5 near the camera, 1.2 times
    the scene's width. Read as dark peaks 7% narrower than the scene's width, each 5 gave a
    diagonal, a 2-2 at 0.47; it took the place, and the centre check dropped it only after
    the outline stage had found no room for the 5-5. A tile read at another scale than its
    place's must have its halves' centres as its counts say."""
    assert sweep_misses(29, seed=16) == ([], 0)


@pytest.mark.parametrize(("index", "seed"), [(399, 34), (510, 32)])
def test_a_tile_the_centre_check_refuses_with_nothing_in_its_place_is_read_as_dark_peaks(
    index: int, seed: int
) -> None:
    """Seeds 34 and 32, held out. 0399 (ivory tiles 8 mm thick, camera tilted 17 degrees,
    blur 0.6, JPEG 55): the pips of the 6 of a 4-6, packed tight beside the seam of a
    crosswise 6-6, run together into five regions counted as seven. The centre check refuses
    a 7 whose centre is face, and a frame in focus has no other reading to take. 0510 (cream
    tiles in dim light, blur 1.5): a 0-3 read 4-0 at 0.25, refused, and nothing read in its
    place either way. Such a place is read as dark peaks (4-6 at 0.73)."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_a_double_blank_narrower_than_the_scenes_width_is_read_at_the_pips_spacing() -> None:
    """Seed 36's 0449, held out (1080p, in focus, cream tiles 8 mm thick, camera tilted 15
    degrees): a revealed 0-0 standing alone, 28.8 px wide, in a scene whose bars, widened by
    the tiles' visible sides, set its width at 38 px. Tiles of another width are looked for
    only where pips are left unexplained, and a double blank has none; where a square of
    face is still free, a double blank is looked for at the pips' spacing too (33 px)."""
    assert sweep_misses(449, seed=36) == ([], 0)


def test_a_look_that_sets_the_scenes_width_again_drops_the_tiles_read_at_the_old_one() -> None:
    """White tiles 8 mm thick on green, 720p, blur 0.6, JPEG 55 (seed 20's 0356, left from
    session 12): the first reading finds no tile, and the first look reads one, a 0-0 at
    13.5 px centred on the real one's bar (bar and seams look alike on white tiles), which
    sets the scene's width. The next look reads many tiles at 23 px and sets it again,
    but the 0-0 stayed and kept the room of the real 0-0 at the line's turn (it was dropped
    only at the end, too small to be a tile). Tiles read at the old width go when a look
    sets a new one, and the 0-0 is read."""
    assert sweep_misses(356, seed=20) == ([], 0)


def test_a_corner_pip_joined_by_the_bar_is_one_pip() -> None:
    """Ivory tiles on slate, 720p, blur 1.0 (seed 52's 0207, held out): in a line of 5s and 4s
    whose bars look like seams, a 4-5's corner pip next to the bar ran into it: one dark
    region 1.75 pips big, counted as two, and the 4-5 was read 6-4 (at 0.26, a wrong tile
    kept). Two pips of a layout run together have their centre between their places, never
    beyond the grid the outer pips sit on: a region centred there is one pip with a mark
    joined, where the regions' centres fit the layout of as many pips as regions."""
    assert sweep_misses(207, seed=52) == ([], 0)


def test_a_double_read_across_a_tile_s_half_and_a_crosswise_double_s_middle_is_read_again() -> None:
    """White tiles on slate, 720p, in focus, camera tilted 13 degrees (seed 44's 0166, left
    since session 15): a 5-0, a crosswise 0-0 and a 0-1 down a line. A 0-0 was read across
    the 5-0's blank half and the crosswise 0-0's middle (the seam between them passing for
    its bar), the 5 beyond it a lone square and the 0-1 beyond its other end: neither tile
    read, a false 0-0 reported. A double with a lone square beyond one end and a tile read
    beyond the other is now read again a tile either way (the 5-0 reads), and the
    crosswise 0-0 left is placed by its outline."""
    assert sweep_misses(166, seed=44) == ([], 0)


def test_no_tile_is_read_on_a_calibration_marker() -> None:
    """Cream tiles on green, 720p, blur 1.0 (seed 102's 0031, held out): with no table file,
    the ArUco marker at the table's corner is in view, and the outline stage placed a tile on
    it: its white cell a blank half, its black border and the dark table beyond read as two
    columns of dark peaks, a "6" (a false 0-6 at 0.46). A tile read as dark peaks where a
    marker of the table's dictionary lies is no tile."""
    assert sweep_misses(31, seed=102) == ([], 0)


def test_a_marker_look_that_trips_opencv_s_corner_refinement_is_no_crash() -> None:
    """Seed 61's 0117 (re-read in session 21): the look for a marker round a tile read as
    dark peaks (see the test above) met a candidate on which OpenCV's contour refinement
    asserts ("nContours.size() >= 2") and identify raised. The markers are found again
    without refinement, and what decodes there by chance, a few pixels across, is no
    marker: the scene reads whole."""
    assert sweep_misses(117, seed=61) == ([], 0)


def test_a_crosswise_double_blank_between_blank_halves_in_a_foreshortened_line() -> None:
    """White tiles 10 mm thick on slate, 720p, in focus, camera tilted 18 degrees (seed 122's
    0589, held out): a crosswise 0-0 between the blank halves of a 5-0 and a 0-2, in a line
    running away from the camera. The tiles' visible sides make the scene's width 23.5 px
    for faces of about 21.5, and the line is foreshortened: its room measured 0.63 of a
    width, under the 0.7 looked for, and the neighbours, read at that width, reached into
    it from both sides, leaving the outline stage no space. Rooms are looked for from half a
    width, and a double blank is placed in the middle of one, kept with its bar seen."""
    assert sweep_misses(589, seed=122) == ([], 0)


@pytest.mark.parametrize(("seed", "index"), [(40, 299), (2, 391)])
def test_a_crosswise_double_in_focus_is_read_without_measuring_blur(
    seed: int, index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1920x1080, in focus (seed 40's 0299, seed 2's 0391): a double laid crosswise in a line
    touches the tiles either side, its bar runs into the seams and joins the table, and the
    first reading left its pips unexplained. That sent the frame through the blur measure
    (and the looks) before the stage that carves such a bar read it: about 80 ms a 1080p
    frame, on every settled frame with such a double. It is carved first now, and the frame
    read as it is, every tile right."""
    from vision.recognition import reader

    measured: list[int] = []
    blur_sigma = reader.deblur.blur_sigma

    def spy(*args: object, **kwargs: object) -> float:
        measured.append(1)
        return blur_sigma(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(reader.deblur, "blur_sigma", spy)
    assert sweep_misses(index, seed=seed) == ([], 0)
    assert measured == []


def test_a_tile_read_across_a_tile_and_a_crosswise_double_side_by_side_gives_way() -> None:
    """White tiles on green, 720p, in focus (seed 147's 0029, held out): a 0-5 and the
    crosswise 0-0 beside it lie long side to long side, the 0-5's blank beside the 0-0's
    top half, and the seam between them was read as the bar of a "0-0" square to both
    (0.97), the 5's pips beside it left unexplained: two tiles missed and one invented. A
    tile with unexplained pips a width off its axis is read again as the two tiles through
    its halves, square to it (the one without pips beside it a few places along)."""
    assert sweep_misses(29, seed=147) == ([], 0)


def test_a_double_blank_another_width_reads_is_kept_where_no_tile_holds_its_room() -> None:
    """White tiles 6 mm thick on green, 720p, in focus, JPEG 75 (seed 167's 0426, held
    out): a 0-0 at a turn of the line, 22 px wide in a scene whose bars gave 26 (the
    tiles' visible sides). Read at the scene's width its neighbours left no square of face
    free for the later looks; the tiles' own width read it, but a double blank explains no
    pip, and only tiles explaining pips were kept from another width. A double blank read
    there with its bar, clear of every tile kept, is kept too."""
    assert sweep_misses(426, seed=167) == ([], 0)


def test_the_gap_between_two_tiles_long_side_to_long_side_is_no_bar() -> None:
    """Ivory tiles on slate, 720p, blur 0.6, tilted 18 degrees (seed 188's 0031, held out):
    a revealed 5-0 above a 0-0, their bars paler than the face threshold. A fragment of the
    gap between them (table-dark, two tile widths long) was taken for the bar of a "0-0"
    standing across both, and the outline stage read the other halves as a "5-0" beside
    it: the right identities in the wrong places, two tiles missed. A dark line that runs
    twice a tile's width and opens onto the table is no bar."""
    assert sweep_misses(31, seed=188) == ([], 0)


def test_a_narrow_double_blank_holding_a_neighbours_pips_is_dropped() -> None:
    """Ivory on blue, 720p, blur 0.6, heavy noise, tilted 15 degrees (seed 217's 0550, held
    out): a 0-2 in a line between a 6-2 and a 0-3. A look at the frame enlarged read a "0-0"
    of 17.5 px in its place (1.0; the scene's tiles are 21 px), the 2's two pips at its end,
    too near the rim to count: a misread. A double blank read narrow that holds spots no
    other tile holds is dropped, and the pip lattice places the 0-2."""
    assert sweep_misses(550, seed=217) == ([], 0)


def test_a_lattice_place_beside_a_tile_read_long_is_kept() -> None:
    """Ivory tiles 10 mm thick on slate, 720p, in focus, dim, JPEG 55, tilted 16 degrees
    (seed 223's 0362, held out): a 1-0 and a 0-4 end to end down a turn, blank to blank.
    The scene's tiles read 27 px wide (their visible sides; the faces are 23.5), and the
    1-0 at 27.5, its blank half reaching over the 0-4's. The pip lattice placed the 0-4
    right, but it overlapped the 1-0 by a hair more than a tile read before may be
    overlapped: unread. A place is weighed against the tiles read as if no wider than it."""
    assert sweep_misses(362, seed=223) == ([], 0)


def test_a_tile_read_across_a_crosswise_doubles_middle_gives_way_to_it() -> None:
    """Cream tiles with black pips on green, 720p, blur 0.6, deep shadow (seed 238's 0280,
    held out): a crosswise 1-1, then a 6-1. The seam between them was read as the bar of a
    "0-1" (0.79) whose blank half is the 1-1's middle, its 1 the 6-1's: the 1-1's pips lay
    either side of that half (one on its rim) and the 6 beyond it, two tiles missed and one
    invented. A tile with spots either side of a half is read again as the tile square to it
    there and the tile through its other half and the square beyond."""
    assert sweep_misses(280, seed=238) == ([], 0)


def test_two_tiles_side_by_side_a_few_degrees_off_the_seam_read_across_them() -> None:
    """Cream tiles with black pips on slate, 720p, in focus, noisy, deep shadow, turned 5
    degrees (seed 289's 0174, held out): a 2-4 and a 2-2 side by side, staggered by a
    quarter of a tile, their bars a pixel thick and faint. The seam between them was read
    as the bar of a "2-2" square to the pixel grid, the 2-2's middle under one of its
    halves, six pips left: two tiles missed and one invented. The two tiles are looked for
    square to the strongest edges around too, and the one whose pips lie either side of a
    half centred on it."""
    assert sweep_misses(174, seed=289) == ([], 0)


def test_a_double_blank_laid_lengthwise_at_a_turn_is_looked_for() -> None:
    """White tiles on blue, 720p, blur 0.6, noisy, tilted 12 degrees, pips 4.5 px (seed
    444's 0421, held out): a 6-0 down the line, a 0-0 at the turn square to it, then a 0-1.
    The 0-0 was unread: nothing in focus looks for a double blank without a square of free
    face 0.7 of a tile wide, and its bar split its face into two squares that the 6-0 and
    the 0-1 beside it left narrower. In focus, that square is looked for with the bar
    bridged."""
    assert sweep_misses(421, seed=444) == ([], 0)


def test_a_double_blank_read_small_in_place_is_read_again_at_the_scenes_width() -> None:
    """Thick white tiles on blue in dim light, 720p, in focus (seed 492's 0528, held out): a
    revealed 0-0 read in place but 14 px wide where the scene's tiles are 22.6 px wide. Its
    own face ran on past that outline, so it was dropped as a back in a pile. A double
    blank dropped so and read narrower than 0.8 of the scene's width is now grown to it
    about its centre and looked at again."""
    assert sweep_misses(528, seed=492) == ([], 0)
