"""Scenes of the rendered still sweeps (``fixture render-stills --count 600``, seed 1, a few
of seeds 2 and 3), mostly blurred 1.0-1.5 px and read deconvolved, some at 720p in focus,
whose tiles were missed, miscounted or read across a seam. Each scene is rendered again
exactly as the sweep drew it; the expected pips are what the renderer drew, never a reading.
"""

from __future__ import annotations

import pytest
from recognition_support import sweep_misses

import vision.recognition as recognition


@pytest.mark.parametrize("index", [582, 589])
def test_a_crosswise_double_that_the_tiles_read_beside_it_reach_into_is_read(index: int) -> None:
    """Tiles read by their bar in a deconvolved frame come out a pixel long or a degree off:
    they reach into the crosswise double between them (a 3-3, a 5-5), which was then placed
    nowhere (see :func:`vision.recognition.poses.fit_poses`)."""
    assert sweep_misses(index) == ([], 0)


def test_tiles_squeezed_between_tiles_read_are_placed() -> None:
    """White tiles on walnut, 720p: seven tiles of a line between tiles read by their bars,
    each free place a pixel short of a whole tile at whole pixels."""
    assert sweep_misses(241) == ([], 0)


@pytest.mark.parametrize("index", [367, 415])
def test_a_tile_read_across_a_seam_is_read_again_half_a_tile_either_way(index: int) -> None:
    """White and ivory tiles whose bars are as faint as the seams once deconvolved: a tile was
    read from the facing halves of two touching tiles (a 6-6 from 6-0 | 4-6, a 5-5 and a 4-4
    in 0415), which leaves a lone square of face beyond both its ends; the two tiles read half
    a tile either way take its place."""
    assert sweep_misses(index) == ([], 0)


def test_a_double_blank_read_only_deconvolved_is_kept_when_the_plain_reading_wins() -> None:
    """Cream tiles, 720p: no bar comes back deconvolved, so the frame is read as it was too and
    the reading that leaves fewer pips unexplained wins. A crosswise 0-0 explains none: the
    count is blind to it, and the winner (the plain reading) had missed it."""
    assert sweep_misses(404) == ([], 0)


def test_a_ring_of_ringing_round_a_deconvolved_pip_is_not_a_second_pip() -> None:
    """Ivory tiles, 900p, blur 1.0: deconvolution leaves a faint ring round each pip, and the
    stage that carves faint lines into bars cut one into a piece centred on the pip, which
    was counted as a second pip (a 1-6 read 2-6)."""
    assert sweep_misses(76) == ([], 0)


def test_where_the_first_look_set_the_wrong_width_the_tiles_read_set_it() -> None:
    """White tiles on walnut, 720p, blur 1.5, a line with two turns (the sweep of seed 2, kept
    out of tuning until this case): the first look read a few tiles at 17 px, the others read
    since measure 19-20 px (the tiles are 21 px). At 17 px the outline stage placed tiles too
    small, missed 11 and read a 5-0 as 2-0 and a 2-3 as 2-2; at the width of the tiles read
    every tile is read."""
    assert sweep_misses(597, seed=2) == ([], 0)


@pytest.mark.parametrize("index", [56, 253, 583])
def test_a_tile_read_across_a_seam_beside_tiles_unread_is_read_again(index: int) -> None:
    """As above, in the sweep of seed 2, with the line beyond the tile read across the seam
    unread (a turn, a crosswise double): a lone square beyond one end, free face beyond the
    other (a 6-6 from 6-2 | 0-6, a 5-5 from 5-4 | 6-5 beside a crosswise 6-6, a 2-2)."""
    assert sweep_misses(index, seed=2) == ([], 0)


def test_a_tile_too_small_to_report_does_not_set_the_scene_width() -> None:
    """White 6 mm tiles, 900p, blur 1.5 (sweep of seed 3): the first reading found one
    "tile" 9 px wide among the blurred pips. Its width made every 5 px pip too big to be a
    pip-like spot, so the frame was neither deconvolved nor looked at again: all 23 tiles
    were missed."""
    assert sweep_misses(509, seed=3) == ([], 0)


@pytest.mark.parametrize("index", [52, 197])
def test_a_lone_tile_without_a_bar_is_placed_by_its_outline(index: int) -> None:
    """A single 6-6 at 720p, blur 1.5 (sweep of seed 3): no bar comes back, so its width is
    taken from its face, a filled rectangle twice as long as wide. Faces narrower than three
    times the closing disc (6.5 pips) had been left out: every tile at 720p."""
    assert sweep_misses(index, seed=3) == ([], 0)


@pytest.mark.parametrize("index", [61, 92])
def test_a_short_line_round_a_crosswise_double_gets_its_width_from_the_pips(index: int) -> None:
    """A crosswise 6-6 with a tile or two beside it, 720p, blur 1.5 (sweep of seed 3): no
    bar, no face standing alone, and the faces' strip is the double's length wide. The pips'
    spacing (neighbouring pips of a six lie 0.28 of a tile width apart) gives the width."""
    assert sweep_misses(index, seed=3) == ([], 0)


@pytest.mark.parametrize(("seed", "index"), [(2, 117), (2, 292), (3, 585)])
def test_thick_tiles_are_read_at_the_width_of_their_pips(seed: int, index: int) -> None:
    """Tiles 6-10 mm thick seen at 14-18 degrees: their visible sides widen every bar's face,
    so the bars set a width 5-15% too large and no whole tile fitted at a turn or between
    tiles read. Where spots are left unexplained, the width from the pips' spacing is tried
    too, and the reading that explains more pips is kept."""
    missed, false = sweep_misses(index, seed=seed)
    assert false == 0
    if (seed, index) == (3, 585):
        # the crosswise 6-6 and the two tiles after it, and a 6-0 of a hand; a 5-5 and a 0-3
        # side by side at the line's far end are still missed
        assert not {"6-6", "6-3", "3-4", "6-0"} & set(missed)
    else:
        assert missed == []


@pytest.mark.parametrize("index", [147, 456])
def test_a_tile_only_the_plain_reading_found_joins_the_deconvolved_one(index: int) -> None:
    """Seed 2, blur 1.0-1.5: the deconvolved reading explained more pips and won, but missed
    a tile that the frame as it was read. It joins, with a tile kept or the table beyond
    each of its ends (a tile read across a seam has face free beyond both)."""
    assert sweep_misses(index, seed=2) == ([], 0)


@pytest.mark.parametrize("index", [33, 508, 579])
def test_a_chain_of_tiles_read_across_successive_seams_is_read_again(index: int) -> None:
    """Seed 3, 720p, blur 1.5: two or three tiles of a line read each across a seam, end to
    end (a 2-2 and a 3-3, a 0-0 and a 1-1; in 0508 a 5-5, 3-3 and 2-2 from a turn, where the
    line's first square is the end of the tile laid across it). A lone square lies beyond
    one end of the chain, free face or the table beyond the other."""
    assert sweep_misses(index, seed=3) == ([], 0)


@pytest.mark.parametrize(("seed", "index"), [(2, 589), (3, 133), (3, 431)])
def test_a_double_blank_in_focus_whose_bar_is_no_ink_is_read(seed: int, index: int) -> None:
    """A 0-0 at 720p in focus: its bar, a pixel wide and light grey, is neither ink nor a
    pip to look at, and nothing else of it is dark. Where a square of face 0.8 of a tile
    wide lies outside every tile read, the outline stage places it (its bar seen)."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_a_double_read_across_a_seam_in_focus_is_read_again() -> None:
    """Seed 3, 720p in focus, cream tiles: a 4-4 read across the seam 5-4 | 4-6 beside a
    turn, a lone square beyond one end and the table beyond the other; a 0-0 across the
    seam 2-0 | 0-5, free face beyond both ends (replaced only where both tiles read: a
    double lengthwise between two tiles unread reads the same way). In focus the rule runs
    only where a double lies lengthwise in a line (no tile along its long sides)."""
    missed, false = sweep_misses(276, seed=3)
    assert false == 0
    assert not {"5-4", "2-0", "0-5"} & set(missed)


def test_the_squares_beyond_a_tile_read_across_a_seam_are_a_scene_tile_apart() -> None:
    """Seed 2, 720p in focus (blue, cream tiles): a 6-6 read across the seam 6-1 | 5-6 at
    25 px (tiles are 22.5 px), the 1 half a lone square beyond one end. The square beyond
    its other end, laid out at its own 25 px, reached into the 5-4 read beyond the free 5
    half and was not free; at the scene's width it is."""
    assert sweep_misses(365, seed=2) == ([], 0)


@pytest.mark.parametrize("index", [91, 403])
def test_a_double_the_deconvolved_reading_leaves_out_joins_from_the_frame_as_it_was(
    index: int,
) -> None:
    """Seed 2, blur 1.0-1.5: a crosswise 4-4 squeezed between two tiles of a line of thick
    tiles, a 5-5 among revealed tiles. Bars came back deconvolved, so the frame as it was
    was not read; where pips are left unread it is now, and a tile it reads there joins
    (clear of every tile kept, a tile kept or the table beyond each of its ends)."""
    assert sweep_misses(index, seed=2) == ([], 0)


@pytest.mark.parametrize(("seed", "index"), [(4, 358), (3, 281)])
def test_a_tile_read_across_a_seam_square_to_the_pixels_is_read_along_its_line(
    seed: int, index: int
) -> None:
    """Seed 4, 720p in focus, a line 6 degrees off the pixel rows: a one-pixel seam read as
    a bar proposed a 2-2 across 6-2 | 2-1 lying square to the pixel grid. The squares beyond
    its ends, and the places either side of the seam, were laid along that axis: they
    missed the line's faces, and neither tile read. Along the line's edges both do. Seed 3,
    900p, blur 1.0: there the tile's own axis reads a 6-0 and the edges' does not (a pixel
    decides a blurred half), so both are tried."""
    assert sweep_misses(index, seed=seed) == ([], 0)


@pytest.mark.parametrize(("seed", "index"), [(5, 527), (2, 38)])
def test_tiles_side_by_side_a_few_pixels_apart_are_placed_by_their_outlines(
    seed: int, index: int
) -> None:
    """Blur 1.5, 720p: two revealed tiles side by side, 5 px apart, no bar seen. Closing up
    the pips closed the gap between them too, and a face two tiles square is no tile; with
    only the faces' holes filled both are placed (a 5-4 and a 5-5; a 5-5 in seed 2)."""
    assert sweep_misses(index, seed=seed) == ([], 0)


@pytest.mark.parametrize(("seed", "index"), [(5, 368), (4, 222), (1, 193)])
def test_a_crosswise_double_with_its_line_unread_is_placed_before_a_start(
    seed: int, index: int
) -> None:
    """Blur 1.5, 720p: crosswise doubles (a 0-0 and a 6-6 round a 6-0; a 4-4) in lines whose
    bars did not come back. A start along the line, half on a double and half on its
    neighbour, had taken each double's place; a place with the table beyond both ends and
    along both sides now comes first. Seed 1's 0193 guards the order: such a place only
    after the tiles with both long sides bordered (else a crosswise 6-6 placed at a width
    a little too large took the 6-5 beside it)."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_a_chain_of_doubles_end_to_end_is_read_again_with_no_lone_square() -> None:
    """Seed 6, white tiles, 720p, blur 1.5: a whole stretch of line read a half tile off, as
    a 3-3, 1-1, 6-6 and 4-4 across the seams of 6-3 | 3-1 | 1-6 | 6-4 | 4-5, between an
    unread crosswise 6-6 and a turn. Free face lies beyond both ends of the chain, and no
    lone square (the crosswise double beyond is face too). No line holds two doubles end to
    end, lengthwise: the chain is read again, and the line with the crosswise 6-6 is read.
    (The stretch round the turn beyond it is still read across seams.)"""
    missed, _ = sweep_misses(128, seed=6)
    assert not {"6-6", "6-3", "3-1", "1-6", "6-4", "4-5"} & set(missed), missed


@pytest.mark.parametrize(
    ("index", "seed", "line"),
    [(238, 62, {"6-1", "5-6", "3-5"}), (342, 61, {"3-2", "2-6"})],
)
def test_a_chain_of_doubles_from_a_lone_square_into_a_turn_is_read_again(
    index: int, seed: int, line: set[str]
) -> None:
    """Blur 1.5, held out (seeds 61 and 62, 720p): a line's last tiles read a half tile off,
    as doubles across its seams (62's 0238: 6-6, 5-5, 3-3 across 6-1 | 5-6 | 3-5 | 3-3; 61's
    0342: 2-2, 3-3 across 2-6 | 3-2 | 4-3), a lone square (the 1 of the 6-1, the 6 of the
    2-6) beyond the chain's first end. Its last end runs into the turn, where the last half
    and the next row's were read as a double square to the chain (a 3-3, a 4-4): no open
    end, so the chain stayed. From a lone square, two doubles or more end to end lengthwise
    are no line's either way: they are read again, and the line's tiles are read (the turn
    itself: see the next test)."""
    missed, _ = sweep_misses(index, seed=seed)
    assert not line & set(missed), missed


@pytest.mark.parametrize(("index", "seed"), [(238, 62), (342, 61)])
def test_a_double_read_across_the_seam_at_a_turn_is_read_again_round_it(
    index: int, seed: int
) -> None:
    """The turns of the two scenes above (left from session 16). 61's 0342: a 4-4 read
    across the 4s of a 4-3 laid down the turn and the 0-4 after it, the table beyond one
    end, the 0-4's blank half beyond the other, and beside its half at the table the 4-3's
    3, in no tile (a crosswise 0-0 further on was lost with them). 62's 0238: a 3-3 read
    across the 3s of a 4-3 down the turn and the 3-3 of the next row, the 3-3's other 3
    beside it. Such a double is read again as the tile laid across the turn (its half at
    the table and the square beside it) and the tile beyond its other end, and replaced
    where both read: every tile of both scenes is read."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_crosswise_doubles_end_to_end_across_a_turn_are_not_a_chain() -> None:
    """Seed 3, 720p, blur 1.5: a crosswise 6-6 and a crosswise 5-5 either side of a turn lie
    end to end. Each has its line's tiles beside it, so they are no chain of tiles read
    across seams, and both stay (a 4-3 of this scene is still missed)."""
    missed, unmatched = sweep_misses(377, seed=3)
    assert not {"6-6", "5-5"} & set(missed), missed
    assert unmatched == 0


def test_pips_that_fit_a_layout_only_at_another_spacing_are_no_half() -> None:
    """Seed 7, ivory tiles 10 mm thick, 720p, blur 0.6: a 3-0 whose bar proposal came out
    narrow and off to one side, so its 3 half held the centre pip and one corner pip only.
    Those fit a 2 at 0.34 half widths apart (every standard layout spaces its pips 0.56),
    and the tile was read 2-0. A half whose pips fit only at a spacing that far off is
    trusted no more; the tile is read right from another look."""
    assert sweep_misses(15, seed=7) == ([], 0)


def test_a_tile_read_across_a_seam_is_read_again_once_the_tile_beyond_it_is_read() -> None:
    """White tiles on slate, 720p, blur 1.0 (seed 8): a 0-0 read across the seam between a
    0-5 at a turn and a 2-0, with the crosswise 2-2 beyond it read only later, from the frame
    as it was. Until then the square beyond the 0-0 (the 2 half) had face beyond it, not a
    tile, so it was no lone square; once the 2-2 is read it is, and the two tiles are read."""
    assert sweep_misses(40, seed=8) == ([], 0)


def test_tiles_far_from_a_tilted_camera_are_placed_at_their_shape() -> None:
    """720p, blur 1.5, camera tilted 17 degrees (seed 7): tiles revealed at the far edge of
    the table lie along the view, 0.91 of the scene's width and 1.78 times as long, and their
    bars do not come back deconvolved. A w x 2w place sticks out of their faces; at their
    shape one fits a 0-6, with the table beyond both its ends."""
    assert sweep_misses(452, seed=7) == ([], 0)


@pytest.mark.parametrize("index", [295, 369])
def test_a_faint_streak_between_two_columns_of_pips_is_no_pip(index: int) -> None:
    """Blur 1.0 (the sweep of seed 9, held out until session 7's reader was final): a
    crosswise 6-6 between two tiles was read 8-8, confidence 0.93 and 0.68. Deconvolution
    leaves a faint streak between the 6's two columns of pips; in the look at twice the size,
    where faint marks count as dark, each streak was a region of two pips' area, counted as
    the two middle pips of an 8. A region of faint marks alone (no pixel of it at the face
    threshold) may be a bar, never a pip."""
    assert sweep_misses(index, seed=9) == ([], 0)


def test_a_pale_streak_of_ringing_between_two_columns_of_pips_is_no_pip() -> None:
    """Ivory tiles on blue, 720p, blur 1.0, read deconvolved (seed 14, held out): the
    crosswise 6-6 rang between its two columns of pips, and the ring, sharpened in the
    enlarged look, reached the face threshold as a streak three pips long in each half: a
    9-9. A run of touching pips is as dark as the pips; the streak is barely darker than the
    face."""
    assert sweep_misses(405, seed=14) == ([], 0)


def test_a_double_beside_the_next_row_of_a_line_that_turned_back_is_lengthwise() -> None:
    """White tiles on walnut, 720p, blur 0.6 (seed 14, held out): the blank halves of a 0-4
    and a 5-0 end to end were read as one 0-0 across their seam. The row the line turned
    back into runs close along it, so the 0-0 counted as flanked, as a crosswise double is by
    its line, and was not read again. A crosswise double's line lies square to it."""
    assert sweep_misses(164, seed=14) == ([], 0)


def test_a_tile_another_width_reads_where_spots_are_left_is_kept() -> None:
    """Ivory tiles on walnut, 720p, blur 1.5, camera tilted 16 degrees (seed 14, held out):
    the seat's revealed tiles, nearer the camera, set the scene's width at 26 px; the line's
    tiles are 22.5. At 26 px the 2-1 is placed long and leaves no room for the 6-1 between it
    and the crosswise 6-6; at 22.5 px the 6-1 reads, but that reading loses the revealed
    tiles. The 6-1, clear of every tile kept and on spots left unexplained, is kept too."""
    assert sweep_misses(117, seed=14) == ([], 0)


def test_a_thin_streak_of_ringing_between_two_columns_of_pips_is_no_pip() -> None:
    """Black pips on cream, 1080p, blur 1.5 (seed 15, held out): deconvolved, the 6-6 rang
    between its two columns of pips, and a streak three pixels thick and twelve long, with
    the area of a pip, was counted as one: a 7-6. A streak that thin and that pale (barely
    darker than the face) is no pip."""
    assert sweep_misses(152, seed=15) == ([], 0)


def test_two_columns_of_pips_run_together_are_still_pips() -> None:
    """Black pips on cream, 720p, blur 0.6, a lone 6-0 (seed 14): each column of the 6 is one
    run of three touching pips, and with no single pip in the scene to measure, the runs set
    the scene's pip size. They are as thick as pips and dark: no streak of ringing (a rule
    that dropped every elongated candidate of a pip's area read the tile 0-0, sure of
    it)."""
    assert sweep_misses(307, seed=14) == ([], 0)


def test_a_phantom_centre_pip_of_a_deconvolved_half_is_not_reported() -> None:
    """Ivory tiles on slate, 720p, blur 1.5, a seat's revealed tiles packed at angles (seed
    15, held out): deconvolved and sharpened in an enlarged look, the ringing of a 2's two
    pips met at the half's centre as a dark spot of pip size, and the 2-6 read 3-6. In the
    frame as it was the centre is face: that reading is refused (never a wrong tile), and
    the frame as it was, read too, gives the 2-6 there."""
    missed, unmatched = sweep_misses(366, seed=15)
    assert unmatched == 0
    # at most the three tiles packed at angles beside it are unread
    assert set(missed) <= {"5-1", "1-4", "5-3"}


@pytest.mark.parametrize(("index", "seed"), [(584, 6), (512, 10), (377, 3), (309, 15), (230, 13)])
def test_a_tile_placed_by_its_outline_moves_onto_its_pips(index: int, seed: int) -> None:
    """Tiles 8-10 mm thick, 720p, blur 0.6-1.5, camera tilted up to 18 degrees (seeds 6,
    10 and 15, the last held out), a 4-3 at a turn at blur 1.5 (seed 3) and a revealed 2-2
    foreshortened to 1.77:1 (seed 13): the faces' outline takes in the tiles' visible sides
    or a neighbour's corner, and the outline stage placed the tile up to a quarter of a
    width off, a row of pips in the wrong half, where the means of the halves' pips agree
    with the wrong place. The pips of a tile lie on one lattice of pip places, with none
    across the seam: fitted to it, the place moves onto the tile."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_a_three_read_as_a_two_is_not_reported() -> None:
    """Black pips on cream, 1600x900, blur 1.0, a lone 4-3 near the top of the frame (seed
    16, held out): the 4's far row was no pip candidate in the labelled frame, so the tile
    was read as dark peaks, slid along to where its halves read best: a 4-2, confidence
    0.53. A 2's centre is face; this one's is as dark as its corner pips, so the tile is not
    reported."""
    missed, unmatched = sweep_misses(390, seed=16)
    assert unmatched == 0
    assert set(missed) <= {"4-3"}  # every other tile of the scene is read


@pytest.mark.parametrize(("seed", "index"), [(17, 404), (3, 327), (5, 473)])
def test_tiles_no_outline_or_bar_gives_are_placed_on_their_pips(seed: int, index: int) -> None:
    """A crosswise 4-4 at a turn at blur 1.5 (seed 17), and foreshortened or thick tiles
    (seeds 3, 5) that no bar and no outline place: their pips fit a tile's pip lattice
    (_lattice_tiles). Each was missed before that stage."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_two_tiles_side_by_side_are_not_read_across_from_their_pips() -> None:
    """Seed 15's 0366: the 5 halves of a 5-1 and a 5-3 side by side fit a 5-5's lattice; that
    place leaves the 1 and the 3 beside it unexplained, so it is not kept (a false tile)."""
    missed, unmatched = sweep_misses(366, seed=15)
    assert unmatched == 0
    assert len(missed) <= 4


def test_a_double_beside_a_tile_sharing_its_number_stays_where_it_lies() -> None:
    """White tiles on walnut, a column turning at a 2-2 under a 3-2 (seed 18, held out): a
    3-3 was read across the seam above the 3-2 and the 2-2 looked read across one too. Half
    a tile up the 2-2 reads a 2-2 again (the 3-2's 2 and its own), which took the place
    before the 3-3's neighbours, the 4-3 and the 3-2, were read again: the 3-2 was lost and
    a tile reported across two. A tile whose two neighbours both read goes first."""
    assert sweep_misses(0, seed=18) == ([], 0)


def test_a_tile_read_again_uncovers_the_next_one_read_across_a_seam() -> None:
    """Blue table, blur, a 2-6 and a 6-4 at a turn (seed 18, held out): deconvolved, a 6-6
    was read across their seam and a 4-4 across the next one, at the turn. The 4-4 was read
    again (the tile above the turn); only then has the 6-6 free face beyond both ends, and
    it is read again too."""
    assert sweep_misses(543, seed=18) == ([], 0)


def test_a_scene_whose_pips_blur_hides_is_deconvolved() -> None:
    """Cream tiles on light walnut, 720p, blur 1.5, camera tilted 18 degrees (seed 18, held
    out): the frame as it was showed one pip-like spot and one tile (a 4-0 read 0-0), so
    nothing sent it to deconvolution and eight tiles went unread. The face left outside
    every tile read does: all eleven tiles read, none invented."""
    assert sweep_misses(376, seed=18) == ([], 0)


def test_a_blank_half_deconvolution_fills_with_a_phantom_two_is_read_as_it_was() -> None:
    """A lone 0-4 on a blue table, 720p, blur 1.5, JPEG quality 55 (seed 19, held out: the
    first misread on a fresh sweep since seed 16): deconvolved, the blank half's JPEG blocks
    rang into two pips on a diagonal, and it read 2-4. Those pips are hardly darker than the
    face in the frame as it was (0.2 of the scene's pips; halves read right: 0.61 and up),
    so that reading is refused and the frame as it was gives the 0-4."""
    assert sweep_misses(250, seed=19) == ([], 0)


def test_a_blank_double_read_across_two_blank_halves_gives_way_to_both_tiles() -> None:
    """Ivory tiles on walnut, 720p, blur 1.5, camera tilted 16 degrees (seed 20, held out):
    deconvolved, the blank halves of a 2-0 and a 0-3 end to end read as a 0-0 across their
    seam (at another scale, in an enlarged look), leaving the 2 and the 3 unexplained. The
    frame as it was reads both tiles, which explain more pips there: they replace it."""
    assert sweep_misses(540, seed=20) == ([], 0)


def test_a_phantom_pip_of_a_deconvolved_face_gives_way_to_the_surer_plain_reading() -> None:
    """Ivory tiles on walnut, 8 mm, blur 1.5, camera tilted 14 degrees (seed 21, held out: a
    misread): deconvolved, the face's grain rang into two spots of pip size on the empty
    diagonal of a 2, and a 2-2 read 4-2 at confidence 0.39, passing every check. The frame
    as it was reads a 2-2 at the same place at 0.57: the surer reading of a place wins."""
    assert sweep_misses(347, seed=21) == ([], 0)


def test_a_tile_refused_deconvolved_is_read_as_the_frame_first_read_it() -> None:
    """Cream tiles on a blue table, 900p, blur 1.0, JPEG quality 55 (seed 16): deconvolved,
    each pip of a 4-3 rings round a light centre and the tile read 4-2 two pixels narrow,
    which the centre check refused (a 3's centre pip is dark). Bars came back and no pip
    was left unexplained, so the frame as it was had no second reading; its first reading,
    a 4-3, takes the place."""
    assert sweep_misses(390, seed=16) == ([], 0)


def test_the_surer_reading_of_a_place_is_one_at_the_scenes_scale() -> None:
    """Seed 19's 0202 (blur 1.0, JPEG quality 75): the frame as it was read a 0-0 at 14.5 px
    over a 6-0 read deconvolved at 23 px, at confidence 1.0 against 0.93; its halves' centres
    lie within a quarter width of the 6-0's, but it is no reading of that tile."""
    assert sweep_misses(202, seed=19) == ([], 0)


def test_a_lone_pip_blur_hides_keeps_its_deconvolved_reading() -> None:
    """Seed 5's 0553: deconvolved, a 1-0 reads 1-0 at 0.63; as it was, blur hides the 1 and
    the place reads 0-0 at 1.0 (a blank half's confidence says nothing of pips). The surer
    reading of a place is never one with more blank halves."""
    assert sweep_misses(553, seed=5) == ([], 0)


def test_a_tile_read_across_a_seam_is_read_again_once_its_neighbour_is_swapped() -> None:
    """Ivory tiles on blue, 10 mm, blur 1.0, JPEG quality 55 (seed 25, held out): three 5s
    meet at a turn (a 6-5, a 5-5 and a 5-1), and deconvolved, two 5-5s were read across its
    seams. The frame as it was reads the 6-5 in place of one of them; beyond the other the
    square left is then lone, and it is read again, as the 5-5 and the 5-1 (the next tile
    beyond the 1, read a pixel long, takes a row of the square's samples)."""
    assert sweep_misses(272, seed=25) == ([], 0)


def test_a_tile_between_two_crosswise_doubles_placed_by_the_lattice_is_placed_too() -> None:
    """Cream tiles, 10 mm thick, blur 1.5 (seed 24, held out): a 6-2 between a 6-6 and a 2-2,
    both crosswise. Only the lattice stage places the 6-6, and the 6-2 it reads at the same
    time, at 0.58, had no tile read beyond its 6 then: refused. The stage runs again where it
    added a tile."""
    assert sweep_misses(599, seed=24) == ([], 0)


@pytest.mark.parametrize(
    ("index", "seed"), [(128, 6), (185, 6), (234, 8), (238, 8), (81, 19), (76, 25), (38, 26)]
)
def test_a_double_blank_whose_bar_blur_left_faint_is_read(index: int, seed: int) -> None:
    """Blur 1-1.5 px (seed 26's 0038 held out, the others left from earlier sessions): the
    bar of a double blank, a pixel thick, blurs into a dip under the 8 times the face's
    unevenness (at its weakest band) that was asked of it where the tile was placed. 5.5
    reads each of them, and no tile of the 27 sweeps is read that was not drawn (nor of a
    pile of face-down tiles: see test_recognition_bad_input)."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_a_double_read_across_a_seam_off_its_lines_middle_is_read_again() -> None:
    """White tiles on green, blur 1.5, deconvolved (seed 35's 0455, held out): a 0-0 read
    across the seam of a 4-0 and a 0-2 whose bars blur left fainter than the seam. The seam
    placed it 4 px (a fifth of a tile) off the middle of its line, so the square beyond its
    2 reached off the line onto the table, and was not free face: the tile was kept, across
    two. A double is looked at in the middle of its line's band of face."""
    assert sweep_misses(455, seed=35) == ([], 0)


def test_a_tile_whose_halves_lie_in_two_tiles_read_is_no_tile() -> None:
    """Ivory tiles on green, blur 1.0, deconvolved (seed 36's 0532, held out): a 5-0 and a
    0-4 touch blank half to blank half, and both are read right; a 0-0 was read too, at 0.7
    of the scene's width, across their seam, overlapping each by a quarter of a tile. Each of
    its halves' centres lies well inside another tile read: it is no tile."""
    assert sweep_misses(532, seed=36) == ([], 0)


@pytest.mark.parametrize(("index", "seed"), [(195, 42), (411, 34)])
def test_a_place_its_pips_pull_off_centre_is_read_where_it_was_found(index: int, seed: int) -> None:
    """Ivory tiles on green, blur 1.0, JPEG 55 (seed 42's 0195, held out): three revealed
    tiles side by side, the 0-6 between a 3-1 and a 4-4. The left column of its 6 blurred
    into one region and the right one into none, so centring the outline's place on its
    pips moved it a quarter of a tile across, where nothing reads. A place that reads
    nothing centred is read as dark peaks where it was found (0-6 at 0.55). It also reads
    seed 34's 0411, left from session 14: a 1-4 at a turn, blur 1.5, its 4 losing a pip to
    the seam above it."""
    assert sweep_misses(index, seed=seed) == ([], 0)


@pytest.mark.parametrize(("index", "seed"), [(260, 45), (110, 33)])
def test_a_tile_standing_alone_is_read_on_its_own_face_at_its_own_size(
    index: int, seed: int
) -> None:
    """Ivory tiles 8 mm thick on walnut, dim, blur 1.5, camera tilted 15 degrees (seed 45's
    0260, held out): a revealed 4-3 above a 5-2, a few pixels of table between them. No bar
    was found on either, and the outline stage, tiling the faces at the scene's width, placed
    two tiles square to them across both (their bars line up like a seam): both read as
    nothing. A face standing alone that holds pips no tile explains and is shaped like a
    tile is read as one, at the width of its own outline. It also reads seed 33's 0110,
    left from session 14: a revealed 3-1, 8 mm thick, at 0.86 of the scene's width (tilt
    14 degrees, JPEG 55)."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_a_place_read_where_it_was_found_across_two_tiles_takes_no_room() -> None:
    """White tiles 10 mm thick on walnut, blur 1.5, camera tilted 17 degrees (seed 27's
    0541): read where the outline stage found it, a place across a crosswise 4-4 and the 5
    of the 5-4 beside it reads 4-5 at 0.48 as dark peaks. Kept, it took their room, and the
    right tiles were never placed; the centre check dropped it only at the end. A place read
    where it was found is kept only with its halves' centres as its counts say."""
    assert sweep_misses(541, seed=27) == ([], 0)


@pytest.mark.parametrize(("index", "seed"), [(468, 24), (79, 43)])
def test_a_dim_tile_standing_alone_is_read_at_its_own_face_level(index: int, seed: int) -> None:
    """Revealed tiles in dim light at blur 1.5, camera tilted 15-18 degrees, lit less than
    the line the scene's face threshold was set on (both left from sessions 14 and 15).
    Seed 24's 0468: a 3-2 beside a 2-2, 0.86 of the scene's width, its faint bar wide
    enough to cut its face in two squares at that threshold. Seed 43's 0079: a 5-5 beside a
    1-1 (light 0.61, JPEG 55), its ten pips breaking its face into pieces under the
    threshold (faces about 100, threshold 80). Round the pips no tile explains, the faces
    are looked for at the threshold that splits that neighbourhood (Otsu's) too, where it
    is lower: each is one face shaped like a tile, and reads."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_a_double_blank_deconvolution_dots_with_ghosts_is_read_in_the_frame_as_it_was() -> None:
    """Black pips on cream, 1600x900, blur 1.0, no JPEG, noise 5.7 (seed 7's 0463, left from
    session 12): a crosswise 0-0 between a 2-0 and a 0-1, its bar plain to see. The frame is
    deconvolved, which dots its blank halves with noise where pips would be: two ghosts in
    a half, and the tile is refused; every pip is explained, so the frame as it was was
    never read again. Where a double's room in the line is left empty, it is, and a double
    blank read there with its bar seen in both frames is kept."""
    assert sweep_misses(463, seed=7) == ([], 0)


def test_a_double_blank_placed_a_neighbour_wide_is_read_at_the_scene_s_other_width() -> None:
    """White tiles 10 mm thick on slate, 720p, blur 1.0, no JPEG, camera tilted 6 degrees
    (seed 68's 0054, the one miss of its held-out sweep): a crosswise 0-0 between the blank
    halves of a 0-5 and a 3-0, its bar short and faint. The frame is deconvolved; the frame
    as it was reads the 0-0 with its bar seen in both, but 4 px off towards the 0-5 (its
    visible side widens its face), so it clashes with the 0-5 and is not added. Where a
    double's room is still empty after either reading, the deconvolved frame is read at the
    scene's other widths for double blanks (as the frame in focus is), and there it reads
    where it lies."""
    assert sweep_misses(54, seed=68) == ([], 0)


@pytest.mark.parametrize(("index", "seed"), [(243, 71), (538, 62)])
def test_a_crosswise_one_one_at_a_turn_is_placed_on_its_pips_layout(index: int, seed: int) -> None:
    """Crosswise 1-1s at blur 1.5, 720p, 10 mm thick tiles, their bars too faint to read
    (seed 71's 0243, the one miss of its held-out sweep, ivory on green, JPEG 55; seed 62's
    0538, cream on slate, JPEG 75), each between two tiles' 1 halves. Their two pips are
    left for the pip lattice, where they fit three places a pip column apart (on the
    middle column, or both on a side one); the first of them in the order tried was a
    side one, which reads nothing, and hid the middle one. Of places taking in as many
    pips, those where the pips lie as a standard layout in each half come first."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_a_double_six_table_never_reads_a_seven() -> None:
    """Ivory on green, 720p, blur 1.5 (seed 63's 0556): the middle of a crosswise 6-6, its
    bar and the seams beside it blurred into its pips, is read as a half of 7 (a "7-6"),
    and its neighbours, a 5-6 and a 3-5, are lost with it. The reader knows layouts up to
    9 (double-nine sets); the table knows its set, and the runtime tells the reader (the
    match's rules, at each frame): told double-six, it refuses the 7 and reads all three."""
    params = recognition.RecognitionParams(max_pips=6)
    assert sweep_misses(556, seed=63, read=lambda im: recognition.identify(im, params)) == ([], 0)


def test_a_short_line_without_seams_is_read_from_its_pips_lattice() -> None:
    """White tiles on walnut, 720p, blur 1.5, JPEG 55 (seed 76's 0387, held out this session):
    a hand's first five tiles, a crosswise 6-6 and 6-3, 3-4, 4-5, 5-3, in one strip of face
    with no bar or seam left to see. Only the 6-3 was read, 8 degrees off its line; the pip
    lattice was laid at its angle and placed nothing. Now it is laid at the spots' own grid
    too, where that lies more than 2 degrees off, and places the 6-6 and every tile (and the
    4-4 and 5-5 across their seams: no tile lies beyond their ends). A chain of places end
    to end from the 6-3 to the table is kept, the places across the seams not."""
    assert sweep_misses(387, seed=76) == ([], 0)


def test_a_tile_read_more_surely_at_another_width_replaces_the_one_at_the_scene_s() -> None:
    """White tiles on walnut, 720p, blur 1.0, JPEG 55 (seed 79's 0183, held out this
    session): a 3-4 between a crosswise 4-4 and a 6-3. At the scene's width (19 px, its
    bars widened) the outline stage reads it 4-2 at 0.51, the 3's third pip joined to the
    faint bar and no spot of its own; at both other widths (21 px) it reads 4-3 at 0.70
    and 0.74. Each reading leaves as many spots unexplained, elsewhere, so the scene's
    width won and the 4-2 was later dropped. The tiles another width reads in a tile's
    place, other pips and more surely, now replace it."""
    assert sweep_misses(183, seed=79) == ([], 0)


def test_a_turn_read_across_its_seams_is_read_again_once_its_double_reads_right() -> None:
    """Ivory on slate, 720p, blur 1.5, dim (light 0.64; seed 70's 0515, held out for session
    16's last reader): a 1-0, 0-3, 3-3 (lengthwise, at the turn) and 3-6 read as 0-0, 3-3,
    3-3 across their seams, one of them down the turn. The deconvolved frame read the one
    down the turn 2-3 at 0.55 at the scene's width (3-3 at 0.65 at the other), so the
    chain of doubles from the lone 1 to the table broke at it and stayed. With the surer
    tile of the other width it is a double, the chain is read again, and all four are."""
    assert sweep_misses(515, seed=70) == ([], 0)


def test_a_crosswise_double_blank_at_a_turn_between_two_blank_halves_is_read() -> None:
    """Black pips on cream, green cloth, 720p, blur 1.5, JPEG 55 (seed 75's 0257, held out
    in session 17): a crosswise 0-0 between the blank halves of a 3-0 and of a 0-6 going
    down the turn, so three blank squares in a row and its bar the only mark. No bar comes
    back deconvolved; the frame as it was, placed by the faces' outline, reads the 0-0 with
    its bar at one of the widths its faces suggest, but another reads more tiles elsewhere
    and won. Double blanks the other widths read, clear and with their bar seen, are kept
    too; and the deconvolved 0-6, read square to the pixels while its line is 5 degrees
    off, overlaps it by 0.15 of a tile: a double blank with its bar seen in both frames
    need only be no tile kept (``overlap_max_rel``)."""
    assert sweep_misses(257, seed=75) == ([], 0)


def test_a_double_read_across_the_seam_of_a_lengthwise_double_at_a_turn_is_read_as_both() -> None:
    """White tiles on walnut, 720p, blur 1.5, camera tilted 16 degrees (seed 80's 0110,
    held out this session): a 4-3 laid up the side, then a 3-3 lengthwise across the turn.
    Deconvolved, a 3-3 was read across the 3-3's first half and the 4-3's 3: the table
    beyond one end, a lone square (the 4) beyond the other. Read a tile either way, the
    4-3 read, and the 3-3 left to the outline stage read 3-2 at 0.48 in the blurred frame
    and was dropped. Such a double is read again round the turn first (the tile across the
    turn and the next, both or nothing), in the deconvolved frame, and both read."""
    assert sweep_misses(110, seed=80) == ([], 0)


def test_a_turn_read_round_again_keeps_the_halves_the_double_read() -> None:
    """Black pips on cream, blue cloth, 720p, blur 1.5 (seed 16's 0304, entire until the
    reading round the turn above): a 5-4 up the side and a 5-0 across the turn, a 5-5 read
    across their 5s, the table beyond one end, the 4 a lone square beyond the other. Read
    round the turn in the deconvolved frame, the 5-0 reads 2-0 at 0.52 (its 5 rings into
    another count), a misread. Such a reading is kept only where it reads the double's
    halves as the double did; here a tile either way reads the 5-4 and the outline stage
    the 5-0."""
    assert sweep_misses(304, seed=16) == ([], 0)


def test_a_tile_refused_where_it_was_placed_is_read_a_few_pixels_along_its_axis() -> None:
    """Black pips on cream, walnut, 720p, blur 1.0, noise 6, dim (light 0.65; seed 83's
    0453, held out this session): a lone 3-2 placed by its outline 2 px off along its axis.
    There a row of the 2's pip grid lies on the bar (three ghosts: the 3-2 reading is
    refused), and a pixel further the 3 reads as a 2: the 2-2 is refused by the centre
    check (the 3's middle pip), and nothing was left. A tile refused with nothing in its
    place is read again a few pixels either way along its axis; the 3-2 reads at 0.61."""
    assert sweep_misses(453, seed=83) == ([], 0)


def test_a_six_read_as_an_eight_in_the_sharpened_frame_is_refused_and_read_again() -> None:
    """Black pips on cream, slate, 720p, blur 1.0, JPEG 75 (seed 89's 0370, held out this
    session): a crosswise 6-6 between two 6 halves, read "8-6" at 0.62 by a look at the
    deconvolved frame sharpened (the one misread of seeds 88-93). An 8's four middles of
    the sides are pips; in the frame as it was the pair this 6 lacks is face. Refused, the
    double is read where it lies by its dark peaks, 6-6."""
    assert sweep_misses(370, seed=89) == ([], 0)


def test_a_thick_double_looking_wider_than_the_scene_s_tiles_is_placed_on_its_pips() -> None:
    """Ivory tiles 10 mm thick on walnut, 720p, blur 1.5, camera tilted 18 degrees (seed
    88's 0006, held out this session): a crosswise 5-5 ending a line, no bar seen. Its
    halves' pips lie 23.5 px apart; the scene's width is 20.8 and the 5-2 beside it was
    read at 20.0, so its outer pips lay a tenth of a width off both pip lattices, and the
    outline stage placed it 9 px off. Pips still unexplained are looked at once more on a
    looser lattice, a tenth wider too, after the others."""
    assert sweep_misses(6, seed=88) == ([], 0)


def test_a_pip_pulled_off_its_place_does_not_refuse_a_lattice_place() -> None:
    """White tiles 8 mm thick on slate, 720p, blur 1.5 (seed 92's 0531, held out this
    session): a 4-3 going down a turn beside a crosswise 4-4. The deconvolved frame's width
    is 24.5 (truth 21.5); placed by its outline at another width it reads 4-3 at 0.448,
    just under ``upscale_min_confidence``, and on the pip lattice a pip of its 3 lies 0.12
    of a width off its place, which refused the right place. The looser look after the
    others does not count such a spot as off it, and reads the 4-3 there."""
    assert sweep_misses(531, seed=92) == ([], 0)


def test_a_crosswise_five_five_at_blur_one_and_a_half_is_read() -> None:
    """Ivory tiles 10 mm thick on blue, 720p, blur 1.5, JPEG 75 (seed 44's 0104): a
    crosswise 5-5 between a 5-3 and a 1-5, read by session 15's reader and lost since a
    candidate off every layout's grid counts as one pip (951f198, for seed 52's 0207; a
    strict xfail from session 16 to 18). The pip lattice's looser look after the others,
    where a spot a little off its place does not refuse the place, reads it again."""
    assert sweep_misses(104, seed=44) == ([], 0)


def test_a_half_slid_off_a_line_onto_the_table_is_no_half() -> None:
    """Ivory on green, 720p, blur 1.5 (seed 97's 0429, held out): a 4-0, a 0-0 laid down
    the turn after it and a 0-5 make four blank squares in an L, which the outline stage
    pairs the wrong way, and the look either side of the seam then slides one pair half
    off the line: its outer half lies over the dark rim the deconvolved frame draws round
    the tiles and the table beyond, whose dark spots read as a 9 ("0-9" at 0.45, starting a
    chain of three tiles read across their seams). A half needs to be face; the place is
    no tile, and the 0-0, 0-5 and 5-5 are read where they lie."""
    assert sweep_misses(429, seed=97) == ([], 0)


def test_a_blank_half_read_small_inside_its_tile_is_read_again_at_the_scenes_width() -> None:
    """Ivory 10 mm thick on green, 720p, blur 1.5, camera tilted 11 degrees (seed 101's
    0541, held out): a 2-0 near the camera, 23.5 px wide in a scene of 21.75, read "0-0" at
    17.5 px in the deconvolved frame, its 2's pips just beyond its end and its side, where
    they were left unexplained. A tile with a blank half read that small, pips left beside
    it, is read again at the scene's width and centred on its pips: a 2-0."""
    assert sweep_misses(541, seed=101) == ([], 0)


def test_a_three_losing_its_middle_pip_to_blur_keeps_its_deconvolved_reading() -> None:
    """Ivory 6 mm thick on green, 720p, blur 1.5, noise 4.6 (seed 102's 0526, held out): a
    3-3 read right in the deconvolved frame at 0.46, and "2-2" at 0.48 in the frame as it
    was, whose blur took the 3s' middle pips. The surer reading replaced it, and was
    refused at the end (its 2s' centres dark), leaving nothing. A rival must have its
    halves' centres as its counts say in the frame as it was: the 3-3 stays."""
    assert sweep_misses(526, seed=102) == ([], 0)


def test_a_tile_read_as_it_was_across_two_gives_way_to_the_two_read_deconvolved() -> None:
    """White tiles on slate, 720p, blur 1.5, bright light (seed 109's 0538, held out): no bar
    comes back deconvolved, so both frames are read and the one leaving fewer pips
    unexplained wins: the frame as it was, whose outline stage, at the width reading most
    tiles, laid a "0-1" over a crosswise 1-1's middle and the 1 of the 6-1 beside it (0.54),
    its 6 left. The deconvolved reading has the 1-1 and the 6-1, which clashed with it and
    were lost. A tile of the winning reading that two of the other overlap, leaving fewer
    pips unexplained, now gives way to them."""
    assert sweep_misses(538, seed=109) == ([], 0)


def test_a_crosswise_double_blank_the_frame_as_it_was_reads_is_kept_with_its_bar_seen() -> None:
    """Cream tiles on slate, 1600x900, blur 1.5 (seed 139's 0109, held out): a crosswise 0-0
    between the blank halves of a 6-0 and a 0-4. Deconvolved, pips stay unexplained
    elsewhere, so the frame as it was is read too, and reads the 0-0 (0.82); but only tiles
    with pips were taken from that reading, and a double blank explains no pip. A double
    blank from it, clear of every tile kept, with its bar seen in both frames, is kept."""
    assert sweep_misses(109, seed=139) == ([], 0)


def test_a_few_tiles_read_enlarged_do_not_reset_the_width_many_tiles_agree_on() -> None:
    """Cream tiles on green, 1920x1080, blur 1.5, JPEG 75 (seed 123's 0424, held out): the
    deconvolved frame reads 17 tiles at its bars' width, 34.5 px, but leaves many pips
    unexplained, so the looks read enlarged first, and the few tiles they read, their bars
    shortened by blur, set the scene's width to 27.5 px: a 3-0 was then read "0-2", a 3's
    pip left out (a misread, not a miss). A width from fewer tiles than were read first, a
    fifth off theirs, is not taken."""
    assert sweep_misses(424, seed=123) == ([], 0)


def test_a_blank_half_with_a_pip_at_its_centre_is_no_blank() -> None:
    """Cream tiles 10 mm thick on slate, 720p, blur 1.5, JPEG 75 (seed 124's 0433, held
    out): no bar comes back deconvolved, so the frame as it was is read too and wins
    (fewer pips unexplained); there a 1-0 whose bar runs into a seam was carved, its 1's pip
    uncounted, and read "0-0" at 1.0: a misread, the 1's pip inside the tile counting as
    explained. A blank half whose centre is about as dark as the scene's pips is refused,
    and the deconvolved reading's 1-0 takes its place."""
    assert sweep_misses(433, seed=124) == ([], 0)


def test_a_tile_refused_after_the_lattice_stage_frees_the_room_it_held() -> None:
    """Cream tiles 10 mm thick on green, 720p, blur 1.5, camera tilted 15 degrees (seed
    130's 0213, held out): at the lattice stage a "4-5" read across a crosswise 6-6's right
    pip column and the 6 of the 6-4 beside it held the 6-6's room, so the lattice placed no
    tile on its pips. The "4-5" was refused for its centres only after, and the 6-4 read
    in its place; the 6-6 was left out. Once tiles are refused, the lattice looks again at
    the pips the tiles kept leave unexplained."""
    assert sweep_misses(213, seed=130) == ([], 0)


def test_a_small_double_blank_over_a_tile_with_pips_is_a_seam_at_a_turn() -> None:
    """White tiles on slate, 720p, blur 1.5, JPEG 75 (seed 142's 0563, held out): a 6-0 runs
    up to a turn and the 0-3 lies across it, blank half to blank half. Deconvolved, the
    seam between the two blanks is the only bar found, and reads as a "0-0" 17.2 px wide in
    a scene of 21.1, over half the 6-0's blank: it held the 0-3's room to the end. A tile
    read that much narrower than the scene, overlapping a tile read at about its width, is
    dropped, and the pip lattice places the 0-3."""
    assert sweep_misses(563, seed=142) == ([], 0)


def test_a_small_tile_over_a_tile_read_at_the_scenes_width_is_dropped() -> None:
    """White tiles on green, 720p, blur 0.6, heavy noise (seed 143's 0270, held out): a
    crosswise 2-2 between a 2-0 and a 4-2 was left unread, and a "1-0" 14 px wide in a
    scene of 21 (0.35), over the 2-2's pips and the 2-4 beside it, was reported: a false
    tile. A tile read that much narrower than the scene, overlapping a tile read at about
    its width, is dropped, and the pip lattice places the 2-2."""
    assert sweep_misses(270, seed=143) == ([], 0)


def test_a_tile_read_across_two_tiles_side_by_side_gives_way_to_them() -> None:
    """Ivory tiles 10 mm thick on blue, 720p, blur 1.5, JPEG 55 (seed 147's 0044, held out):
    a 4-0 and a 1-6 lie side by side, staggered by a half, the 0 above the 6, and the seam
    between those halves was read as the bar of a "0-6" square to them (0.8), the 4 and the
    1 beside it unexplained. Read again through its halves, square to it, the two tiles
    replace it."""
    assert sweep_misses(44, seed=147) == ([], 0)


def test_a_tile_with_pips_all_larger_than_the_scenes_counts_each_once() -> None:
    """Ivory tiles on blue, 720p, blur 1.5, camera tilted 16 degrees (seed 177's 0439, held
    out): a revealed 5-5, nearer the camera, is 26 px wide among tiles of 22, and its pips
    are 22-24 px in a scene whose pip is 14. One of them, 1.7 times the scene's pip, was
    counted as two pips run together, and the tile was read "6-6" (a wrong score). Its ten
    round pips alike in area are what each counts by."""
    assert sweep_misses(439, seed=177) == ([], 0)


def test_a_narrow_tile_reaching_a_little_into_a_neighbour_is_kept() -> None:
    """White tiles 8 mm thick on green, 720p, blur 0.6 (seed 174's 0572, held out): a
    crosswise 0-0 between the blank halves of a 3-0 and a 0-1, read 19 px wide in a scene
    of 22.8 and a few pixels along the line, a sixth of it over the 0-1. It was dropped as
    a seam read as a tile; those lie a third or more over the tile they cross."""
    assert sweep_misses(572, seed=174) == ([], 0)


def test_a_tile_read_across_two_gives_way_to_the_frame_as_it_was_place_by_place() -> None:
    """White tiles 8 mm thick on green, 720p, blur 1.5, JPEG 75 (seed 169's 0131, held
    out): deconvolved, a "3-2" was read over the 3 of a 6-3 and the middle of the crosswise
    3-3 beside it, the 6 and the 3-3's ends left unexplained: two tiles missed and one
    invented. That reading left fewer pips unexplained over the whole frame and was kept;
    the frame as it was reads the 6-3 and the 3-3 there, and they replace it."""
    assert sweep_misses(131, seed=169) == ([], 0)


def test_a_lattice_place_closed_by_another_placed_with_it_is_kept() -> None:
    """Cream tiles with black pips, 10 mm thick, on blue, 720p, blur 1.5 (seed 178's 0381,
    held out): a crosswise 6-6 and the 6-4 after it, neither read before the pip lattice.
    The lattice placed both; the 6-6 (the table beyond its ends) was dropped for the 6-4's
    pips unexplained beside it, and the 6-4 for the 6-6's face, free, beyond its end. A
    place whose ends the places kept close is kept too."""
    assert sweep_misses(381, seed=178) == ([], 0)


def test_a_tile_holding_more_spots_than_it_counts_is_read_on_its_own_face() -> None:
    """Ivory tiles 8 mm thick on walnut, 720p, blur 0.6, camera tilted 18 degrees (seed
    191's 0489, held out): a revealed 5-0 near the camera, 24.2 px wide in a scene of 19,
    its bar too pale to be ink. Placed by its outline at the scene's width and read as dark
    peaks, it read "2-0" at 0.49 (a wrong score) with the 5's five pips inside it. A tile
    holding more spots than it counts, on a face standing alone of another size, is read
    again at that face's size."""
    assert sweep_misses(489, seed=191) == ([], 0)


def test_the_markers_white_borders_do_not_set_the_strip_width() -> None:
    """Ivory tiles on blue, 720p, blur 1.5 (seed 178's 0567, held out): a 1-6 and a
    crosswise 6-6 alone, 21 px wide, no bar found and too few pips for their spacing. The
    width came from the faces' strips, where the white borders of the four markers counted
    too: 16 px, and no place at that width read a tile. Only faces holding a spot count."""
    assert sweep_misses(567, seed=178) == ([], 0)


def test_a_chain_of_lattice_places_read_at_two_widths_is_followed() -> None:
    """Ivory on green, 720p, blur 1.5, pips of 4 px (seed 207's 0315, held out): a 2-4, a
    4-5 and a 5-6 in a line between a 2-1 and a crosswise 6-6, no bar seen. The pip lattice
    places them and places across their seams (a 4-4 and a 5-5, just as sure); the walk
    from one closed end to the other takes the line's tiles, but the 4-5 was read at two of
    the widths tried and the walk, finding two next places, stopped: three tiles missed. A
    place read twice is one place."""
    assert sweep_misses(315, seed=207) == ([], 0)


def test_a_tile_another_outline_width_reads_is_kept_where_it_explains_pips() -> None:
    """Ivory 8 mm thick on green, 720p, blur 1.5, JPEG 75, heavy noise (seed 195's 0164,
    held out): a 1-4 at the end of a line, round a turn after a crosswise 1-1, no bar seen.
    The outline stage tries a few widths and keeps the one reading most tiles; two of them
    read the 1-4 (0.46, 0.50), the one kept did not, and the later looks read it at 0.2-0.3:
    refused, a tile missed. What another width reads clear of every tile kept, explaining
    pips left unexplained, is kept too."""
    assert sweep_misses(164, seed=195) == ([], 0)


def test_a_tile_read_too_narrow_gives_way_to_the_frame_as_it_was() -> None:
    """Ivory on green, 720p, blur 1.5, JPEG 55, heavy noise (seed 215's 0322, held out): a
    0-2 ending a line after a 4-0. Deconvolved, a "0-0" of 17.5 px in a scene of 21 was
    read over the 0-2's blank (0.90), the 2's two pips on its rim; the frame as it was reads
    the 0-2 (0.75). One tile for one was not swapped, and the rim counted the pips as
    explained: a misread. A tile read too narrow gives way to one at the scene's width
    that leaves fewer pips off it."""
    assert sweep_misses(322, seed=215) == ([], 0)


def test_a_double_blank_whose_bar_the_frame_as_it_was_shows_is_kept() -> None:
    """A lone revealed 0-0 in dim light, blur 1.5, heavy noise, 720p (seed 206's 0184, held
    out): its bar dips 8.6 times the face's unevenness in the frame as it was, 5.5 (under
    the bar test's 5.5) deconvolved, where deconvolution sharpened the noise too. A double
    blank needed its bar seen in both frames and was dropped; the frame as it was, which
    deconvolution cannot have drawn a bar into, now vouches for it."""
    assert sweep_misses(184, seed=206) == ([], 0)


def test_a_run_of_tiles_read_out_of_step_gives_way_to_the_deconvolved_reading() -> None:
    """White tiles on blue, 720p, blur 1.5, JPEG 75, heavy noise (seed 218's 0132, held out):
    a crosswise 6-6, a 6-1 and a 1-2. The frame as it was read a "4-6" and a "1-1" across
    their seams (an invented tile, three missed) and, over the whole frame, left fewer pips
    unexplained than the deconvolved reading, which reads all three here. Each of the two
    overlaps two of the three, so no one tile gave way to two; the run gives way as one."""
    assert sweep_misses(132, seed=218) == ([], 0)


def test_a_group_of_pips_read_as_a_tiny_tile_sets_no_width() -> None:
    """Cream tiles with black pips on slate, 720p, blur 1.5, dim, heavy noise, tilted 17
    degrees (seed 218's 0360, held out): no bar survives the blur, and the first look at
    the deconvolved frame enlarged read one "tile" of 11.3 px among 76 spots, a group of
    pips (the tiles are 21 px). It set the scene's width, and 14 of the 18 tiles went
    unread. A tile too small to report in the frame sets no width."""
    assert sweep_misses(360, seed=218) == ([], 0)


def test_a_revealed_tile_read_small_is_flagged_by_the_deconvolved_pips_too() -> None:
    """Cream tiles with black pips, 6 mm thick, on green, 720p, blur 1.5, bright, tilted 10
    degrees (seed 235's 0055, held out): a revealed 3-0 near the camera, 24 px wide in a
    scene of 20, placed at the scene's width and read "2-0" (0.66): a misread. Its 3's pips
    are specks in the frame as it was (one counted as a spot), and its corner pip lay on the
    rim of the place read. A tile is now flagged by the spots of either frame, out to its
    rim, and read again on the face it lies on alone, at that face's size."""
    assert sweep_misses(55, seed=235) == ([], 0)


def test_the_pip_lattice_is_tried_at_the_spacing_of_the_pips_left() -> None:
    """Ivory on walnut, 720p, blur 1.5, deep shadow (seed 244's 0586, held out): a crosswise
    6-6 between a 6-5 and a 6-2, 21 px wide, in a scene whose width the outlines set at
    23.25. Its twelve pips were left unexplained, but at that width and the neighbours' every
    place of the pip lattice put some of them off: unread. The lattice is tried at the width
    the spacing of the pips left gives too."""
    assert sweep_misses(586, seed=244) == ([], 0)


def test_a_refused_tile_is_read_again_on_the_face_it_lies_on_alone() -> None:
    """Cream tiles with black pips on blue, 720p, blur 1.5, dim, heavy noise, tilted 14
    degrees (seed 248's 0448, held out): a revealed 3-3 alone, 25.7 px wide in a scene of
    22. Read at the scene's width it was "3-2" (two pips run into its bar), refused by the
    centre check and dropped; under the scene's threshold its dim face breaks up, so it was
    no face standing alone either. A refused tile is read again on its own face, looked for
    at the local (Otsu's) level too."""
    assert sweep_misses(448, seed=248) == ([], 0)


@pytest.mark.parametrize(("index", "seed"), [(91, 250), (65, 267)])
def test_faint_noise_carved_into_a_line_is_no_pip(index: int, seed: int) -> None:
    """Ivory on green, 1600x900, blur 1.0, noisy, tilted 13 degrees (seed 250's 0091, held
    out): a crosswise 6-6 between a 6-0 and a 6-1, read deconvolved. Deconvolution sharpens
    the noise, and a wiggle of pixels a tenth darker than the face, between the two columns
    of one 6, was carved into a straight piece of faint marks; that piece was counted as a
    seventh pip: "6-7", a misread. Seed 267's 0065 (held out; cream with black pips, 8 mm
    thick, blur 1.5, noisy): a 6-5 read "7-5" so. A piece of faint marks alone is never a
    pip."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_one_pip_grown_by_the_seam_beside_it_is_one_pip() -> None:
    """Ivory on walnut, 720p, blur 1.5, tilted 17 degrees, 4.3 px pips (seed 252's 0484,
    held out): a 2-4 at a turn, its 4 against the next tile's side. Deconvolved, the blurred
    seam joined the 4's two pips beside it, each 1.7 times the scene's pip and round: each
    was counted as two pips run together, "2-6", a misread. A round region that fills its
    box as one pip does is one pip where its half's candidates, one each, fit their layout."""
    assert sweep_misses(484, seed=252) == ([], 0)


def test_the_loose_lattice_is_tried_narrower_than_the_scene_too() -> None:
    """Thick (8 mm) white tiles on blue, 720p, blur 1.5, tilted 18 degrees (seed 262's
    0413, held out): a 1-5 down a turn, 20.8 px wide, between tiles read at 23 px (their
    visible sides taken in). Placed on its pips at 23 px, its 1 lay a tenth of a width off
    its half's centre: 0.44, too unsure to keep, and the tile was left unread. The loose
    lattice is tried as much narrower than the scene's width as it is tried wider."""
    assert sweep_misses(413, seed=262) == ([], 0)


def test_two_pips_of_a_three_read_as_dark_peaks_are_no_two() -> None:
    """Cream tiles with black pips on slate, 720p, blur 1.5, 4.2 px pips (seed 264's 0420,
    held out): a 3-0 below a 3-3, the top pip of its 3 lost in the seam between them. The
    tile, refused where first read, was read again as dark peaks a few pixels along its
    axis, and its 3's middle and corner pips made a perfect "2" at half the spacing of
    every layout: "2-0", a misread. Dark peaks are held to the standard spacing too."""
    assert sweep_misses(420, seed=264) == ([], 0)


def test_a_bead_of_a_narrow_double_blanks_bar_is_no_neighbours_pip() -> None:
    """White tiles 6 mm thick on green, 720p, blur 1.0, JPEG 55, 4.5 px pips (seed 295's
    0397, held out): a 0-0 at a turn of the line, between a 0-4's blank and a 2-0's, read
    deconvolved 19.5 px wide in a scene of 22. A double blank read narrow that holds a spot
    no other tile holds is dropped (the spot is a neighbour's pip on its rim), and this one
    held a bead of its own bar, where it meets the seam below: unread. A spot on the bar is
    no pip."""
    assert sweep_misses(397, seed=295) == ([], 0)


def test_a_chain_read_across_a_lines_seams_at_a_width_set_short_is_read_again() -> None:
    """White tiles on walnut, 720p, blur 1.5, 4.2 px pips (seed 320's 0328, held out): the
    1-6 ending a line at a turn, then a 0-1, a 5-0 and a 2-5, read a half out of step as
    "1-1", "0-0" and "5-5" across their seams. No bar read before the looks, and the first
    look set the scene's width from the "0-0" alone: 18 px for 21. A chain of doubles read
    across seams is walked from double to double a tile's length apart, and at that width
    the next one lay a sixth too far: not a chain, four tiles missed and three invented.
    The next double is looked for 1.7 to 2.6 scene widths along."""
    assert sweep_misses(328, seed=320) == ([], 0)


def test_two_tiles_side_by_side_read_the_wrong_way_round_are_paired_again() -> None:
    """Cream tiles with black pips on slate, 720p, blur 1.0, 4 px pips (seed 36's 0522,
    held out in session 14, left until session 31): two revealed tiles long side to long
    side, a 1-5 above a 5-6, their halves beside each other. Deconvolved, the four squares
    read as a 1-5 and a 5-6 standing beside each other, each across the seam: the same
    pips either way round, so no count told them apart. The line through those tiles' bars
    is a gap the table shows through from one end of the block to the other, and the line
    between them stops at the faces' rims: they are paired the other way."""
    assert sweep_misses(522, seed=36) == ([], 0)


def test_two_blank_ends_met_at_a_turn_and_read_as_one_double_blank_are_re_paired() -> None:
    """Cream tiles with black pips on green, 720p, blur 1.5, tilt 16 degrees, 4.1 px pips
    (seed 372's 0202, held out in session 31): a 4-0 laid up to the 0 of a 0-1 lying
    across, blank end beside blank end. The seam between them, a blur wide, read as a bar:
    one "0-0" across it, its halves the two tiles' blanks, the 4 and the 1 left unread on
    either side (a blank half has no pip to check it by). Each half of a tile with a blank
    half is read again as the end of a tile lying on from it; two such readings that
    explain every pip left beside it replace it."""
    assert sweep_misses(202, seed=372) == ([], 0)


def test_a_lattice_place_left_out_for_one_across_a_seam_that_reads_nothing_is_read() -> None:
    """White tiles 6 mm thick on walnut, 720p, blur 1.5, 4.2 px pips (seed 360's 0139, held
    out in session 31): a 6-2 and a 2-0 end to end between a crosswise 6-6 and a 0-4, the
    two 2s beside each other across their seam, neither tile read. Their pips are placed on
    the pip lattice: three of them fit a place across the seam, which left out the 2-0's
    place (two spots) overlapping it; read, the place across the seam is no tile, and the
    6-2 read alone had its end open. A place is left out only for one that reads a tile."""
    assert sweep_misses(139, seed=360) == ([], 0)


def test_a_double_blank_standing_out_of_the_line_is_read_in_its_room_of_free_face() -> None:
    """Cream tiles 10 mm thick with black pips on blue, 720p, blur 1.5, JPEG 55, 4 px pips
    (seed 225's 0272, held out in session 26): a 0-0 laid crosswise between a 2-0 and a
    0-3, standing out of their line, its face joined to theirs. Every pip was explained and
    a square of face was left in no tile, but no look read a double blank there: no outline
    of its own, and its bar a shade too faint in the frame as it was. Read where its room's
    face is centred, deconvolved, at a tenth under the scene's width, it is kept: the room
    is what says a tile lies there."""
    assert sweep_misses(272, seed=225) == ([], 0)


def test_a_lattice_place_too_unsure_blurred_is_read_in_the_deconvolved_frame() -> None:
    """Cream tiles on brown, 720p, blurred, 4.5 px pips (seed 394's 0307, held out in
    session 33): a 4-4 at a turn, the 4-1 above it and the 5-4 leading off beside its lower
    4. Deconvolved, the lower 4 and the 5-4's 4 were read as one "4-4" across their seam,
    then taken out; the pip lattice placed the real 4-4 right, but read it in the blurred
    frame at 0.31-0.40, too unsure to report. A place the blurred frame reads nothing at is
    read in the deconvolved one too."""
    assert sweep_misses(307, seed=394) == ([], 0)


def test_a_double_blank_whose_seams_blur_away_is_still_read() -> None:
    """Cream tiles on brown, 720p (seed 390's 0271, held out in session 33): a 0-0 at a
    turn touching blank halves below and beside it, the seams between them a shade under
    the face (0.92 of the way from the face threshold up to it). The look for a pile's edge
    read as a double blank (see ``_blank_bounded``) took those seams for face running on
    and dropped the tile at a level of 0.9; it looks for 0.95 now."""
    assert sweep_misses(271, seed=390) == ([], 0)


def test_a_five_read_as_a_six_deconvolved_is_refused_for_its_faint_middles() -> None:
    """Cream tiles with black pips on blue, 1600x900, blur 1.5, dim, 5.2 px pips (seed
    416's 0241, held out in session 33): a 0-5 read "6-0" at 0.28 in the deconvolved frame,
    six pips counted where the 5 has five. A 6's centre is not checked (read a
    pixel or three off its place, its samples reach the middle pips), but a 6 has one pair
    of middles of its sides dark, where a 5 has neither: checked in the frame as it was,
    the "6" is refused and the 5 read."""
    assert sweep_misses(241, seed=416) == ([], 0)


def test_a_crosswise_double_read_through_with_the_next_tile_s_far_half_left_is_re_read() -> None:
    """White tiles on walnut, 720p, blur 1.5, noise, JPEG 55, tilt 17 degrees, 4.2 px pips
    (seed 408's 0314, held out in session 33): a 4-1, a crosswise 1-1 and a 1-6 in a line,
    the 1-1 and the 1-6 read as one "0-1" across the double's middle, the 6 left unread
    beyond its end. Pips left in the half beyond a tile's end, as well as beside it, send
    it to be read again as a crosswise double and the tile after it."""
    assert sweep_misses(314, seed=408) == ([], 0)


def test_a_lone_double_blank_wider_than_the_scene_is_read_in_its_room_in_focus() -> None:
    """Cream tiles with black pips on green, 720p, blur 0.6, tilt 16 degrees, 4.1 px pips
    (seed 412's 0514, held out in session 33): a 0-0 lying a pixel or two from a 5-5, 1.06
    of the scene's width. Its outline fitted at the scene's width, and at the pips'
    spacing, slid 6-8 px off its bar, and nothing was read. In a frame in focus too, a room
    of free face that no look filled is read where its face is centred."""
    assert sweep_misses(514, seed=412) == ([], 0)


def test_a_six_with_a_phantom_centre_pip_is_not_read_as_a_seven() -> None:
    """Ivory tiles 6 mm thick on slate, 720p, blur 1.0, heavy noise, JPEG 55, 4.2 px pips
    (seed 436's 0342, held out in session 34): a crosswise 6-6 read "6-7" at 0.61, noise
    at one half's centre counted as a pip. That centre is darker than the face by 0.52 of
    what the corner pips are; 3s and 5s read right reach 0.68 at the least. A centre pip
    needs 0.6 now, and the 6-6 is read."""
    assert sweep_misses(342, seed=436) == ([], 0)


def test_a_double_blank_read_off_its_place_gives_way_to_the_surer_one_read_as_it_was() -> None:
    """White tiles on slate, 720p, blur 1.0, noise, 4.2 px pips (seed 423's 0247, held out
    in session 34): a crosswise 0-0 between the blank halves of a 0-1 and a 5-0. Read
    deconvolved 11 px off its place at 0.45, it kept out the 0-0 the frame as it was read
    where it lies at 1.0, its bar seen in both frames, and was later dropped as too small:
    no tile. A double blank read as it was now replaces less sure double blanks it clashes
    with."""
    assert sweep_misses(247, seed=423) == ([], 0)


def test_tiles_down_a_turn_leaning_off_the_line_are_placed_on_their_pips_grid() -> None:
    """White tiles on slate, 720p, blur 1.5, JPEG 75, the camera tilted 16 degrees and
    turned 6 (seed 429's 0386, held out): a 0-5 and a 5-2 end to end down a turn, leaning
    7 degrees off the tiles read before. Their pips lie a step from none of their own (a
    5's corners are two steps apart), so the pip lattice was tried only at the tiles'
    angle, where the 5-2's pips fit no layout well: both unread. The grid of pips two
    steps apart gives their own angle."""
    assert sweep_misses(386, seed=429) == ([], 0)


def test_a_double_blank_read_over_pips_is_no_double_blank() -> None:
    """Cream tiles with black pips on green, 720p, blur 1.5, dim light, JPEG 55 (seed 431's
    0218, held out): a 2-6 and a crosswise 6-6 at its end, the whole scene. Enlarged, the
    look at the 6-6's twelve faint spots read a "0-0" over them at 1.0, which took the
    6-6's place until the end, where it was refused as no double blank: the 6-6 unread. A
    double blank has no spot on its face."""
    assert sweep_misses(218, seed=431) == ([], 0)


def test_a_double_blank_whose_seams_blur_hid_is_kept_beside_the_tiles_it_meets() -> None:
    """White tiles on green, 720p, blur 1.5, JPEG 75 (seed 439's 0133, held out): a 6-0 up
    the line, a 0-0 laid lengthwise at the turn, then a 0-1. The 0-0 was read right, then
    dropped by the look that keeps face-down piles from reading as double blanks: in the
    frame as it was, its face ran on with no seam into the 6-0 below one half and the 0-1
    beyond the other, two open sides. A face running on into a tile with pips read is a
    seam, not another back."""
    assert sweep_misses(133, seed=439) == ([], 0)


@pytest.mark.parametrize(("seed", "index"), [(475, 53), (479, 21)])
def test_a_crosswise_double_blank_between_blank_halves_is_kept(seed: int, index: int) -> None:
    """White or cream tiles on slate or green, 720p, blur 1.5 (seeds 475's 0053 and 479's
    0021, held out): a crosswise 0-0 with the blank halves of the tiles before and after it
    against its sides, no seam left between. Each half's look along the line runs on into a
    tile read beside it, but that tile was read a few pixels short of the seam, so the end
    of the look fell just outside it: two open sides, and the 0-0 was dropped. A tile read
    beside is met a tenth of a tile round its outline."""
    assert sweep_misses(index, seed=seed) == ([], 0)


@pytest.mark.parametrize(("seed", "index"), [(477, 199), (495, 83), (497, 236)])
def test_a_double_blank_whose_edges_lie_past_the_look_of_piles_is_kept(
    seed: int, index: int
) -> None:
    """Held out: a 0-0 at a corner of tiles 8 mm thick under a camera tilted 13 degrees, its
    lit sides seen (seed 477's 0199), and two plain 0-0s at blur about 1 whose halves were
    read closer together than their squares are wide (495's 0083, 497's 0236). Each had two
    looks running on to 0.65 of a width, their edges 0.7 out, and was dropped as a back in
    a pile. The looks now reach 0.7."""
    assert sweep_misses(index, seed=seed) == ([], 0)


@pytest.mark.parametrize(("seed", "index"), [(495, 542), (511, 147), (517, 380)])
def test_a_double_blank_read_off_its_face_towards_a_neighbour_is_kept(
    seed: int, index: int
) -> None:
    """Held out: three 0-0s, each read a sixth small and about 5 px off its face's middle
    towards the tile or the edge beside it (495's 0542 and 511's 0147 at a corner, 517's
    0380 against a 2-0). The side looks away from the neighbour ran on to 0.7 of a (read)
    width on both halves: two open sides, dropped as a back in a pile. Where one side of a
    half is bounded near (its edge within 0.35 of a width, or a tile beside), the other side's
    look goes on to a width for its edge."""
    assert sweep_misses(index, seed=seed) == ([], 0)


def test_a_run_read_across_its_seams_gives_way_to_as_many_tiles_that_explain_more_pips() -> None:
    """White tiles on slate, 720p, blur 1.5, pips 4.4 px, no seam left between touching
    tiles (seed 524's 0103, held out): a crosswise 6-6, a 6-3, a 3-1 and a crosswise 1-1.
    The frame as it was read a "3-3" across the 6-3 and the 3-1 and a "1-0" over the 3-1's
    1 and the 1-1 (three missed, the 6's pips left), and left fewer pips unexplained over
    the whole frame than the deconvolved reading, which reads the 6-3 and the 3-1 but not
    the 1-1. The two runs overlap as many tiles each; the one leaving fewer pips now wins."""
    assert sweep_misses(103, seed=524) == ([], 0)


def test_a_double_blank_read_small_deconvolved_is_read_again_from_the_frame_as_it_was() -> None:
    """White tiles on blue, 720p, blur 1.5, two revealed tiles side by side (seed 528's
    0279, held out): a 4-4 above a 0-0. Deconvolved and enlarged, the 0-0 was read 14.5 px
    wide, 11 px off its face's middle (the scene's tiles are 21.5 px wide), and its face ran
    on past it, so it was dropped as a back in a pile; the frame as it was reads it in place,
    22.3 px wide, but that reading clashed with the small one and was never looked at. A
    double blank dropped so is now read again from the other reading of the frame."""
    assert sweep_misses(279, seed=528) == ([], 0)
