"""Tile and pip recognition: one public entry, :func:`identify`, made of private stages.

How it reads a frame (no board, camera or colour knowledge; the scale comes from the image):

1. *White faces*: the darkest colour channel is thresholded (Otsu, clamped), so only bright,
   unsaturated pixels (tile faces) are white. Every dark connected region is labelled once.
2. *Bars*: every tile has one dark dividing bar; it is a thin, elongated dark region enclosed
   by a face. Each bar proposes a tile centred on it, its long axis across the bar. The face
   is scanned from the bar's centre along and across it; a touching neighbour only ever makes
   a scan longer, so the tile's width is the measurement nearest the scene's median width.
   Pips blurred into a bar are split off it (re-thresholded darker), and pieces of a bar
   broken by noise are joined.
3. *Halves*: each half is the ``w x w`` square on one side of the bar. Its pips are the small
   round dark regions inside it (a blob much larger than the scene's median pip counts as
   touching pips, a speck much smaller is not a pip). The face must otherwise be clean:
   samples that are dark and neither a pip nor the bar (letters, board, background) reject
   the proposal.
4. *Confidence*: how well the pips fit a standard layout, how clean the faces are, how similar
   the pips are in size, how typical the bar is and whether the width was measured;
   overlapping proposals keep the most confident.
5. *Second looks*: where round, pip-sized spots lie in no tile read, those parts are read
   again with faint line-like marks counted as dark, then sharpened; tiles up to 40 px wide
   enlarged 2x (the whole scene when many spots are unexplained: blur). Bars are followed
   along their line in the grey image, so a blurred bar's short ink core does not shrink
   the tile. See :func:`_read_again`.
6. *Gaps*: where a good share of face still lies in no tile read, thin lines are carved into
   straight pieces: a bar that runs into the seams of a double laid crosswise between two
   tiles, or a bar about a pixel thick and fainter than ink (a blank double has no pips to
   prompt a second look). A bar right across the face (into the seams or the table) splits
   it into two square halves, paired from the ends of their rows; a face ``w x 2w`` with a
   thin line across its middle is a tile too. See :func:`_fill_gaps`.
7. *Outlines*: where pips are still unexplained (blur can hide every bar and seam of a
   line), the faces are tiled with ``w x 2w`` rectangles from the line's ends inward
   (:mod:`vision.recognition.poses`), each centred on its pips and read like a bar
   proposal, or else with its pips counted as dark peaks (:mod:`vision.recognition.peaks`).
   See :func:`_read_outlines`. Where the width the second looks set and the width of the
   tiles read disagree, steps 6-7 run at both (:func:`_read_rest`). Faces standing apart
   that are left are tiled once more at the shape of a tile far from a tilted camera,
   lying along its view (0.91 w x 1.78 w), kept only with the table beyond both ends.

*Blur*: when the first reading (steps 1-4) leaves pip-like spots unread, and carving round
them (as in step 6: a crosswise double's bar run into the seams, :func:`_carved_first`) does
not explain them all, the frame's blur is measured; a blurred crop is deconvolved
(:mod:`vision.recognition.deblur`) and steps 1-7 read that instead, then step 7 runs once
more on the crop as it was. A double blank read there, or placed by its outline, needs a
straight bar seen across its middle. A tile that leaves a lone square of face beyond an end
was read across a seam and is read again half a tile either way (:func:`_unstraddled`; in
focus too, where a double lies with face beyond an end), and where one is, step 7 runs
again round it. See :func:`identify`.

Letter boxes, logos and markers fail the cleanliness or layout checks. Printed pictures of
dominoes with clean faces do look like tiles from above (they are flat, but that is not
visible in a single frame): give ``region`` (the play area) to leave them out. Images are
``uint8`` arrays, ``(H, W)`` grey or ``(H, W, 3|4)`` BGR(A).
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import logging
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.calibration import detect_markers
from vision.errors import InvalidImageError
from vision.recognition import deblur
from vision.recognition.layouts import (
    MAX_LAYOUT,
    STANDARD_SPACING,
    grid_masks,
    layout_fit,
    layout_fits,
)
from vision.recognition.params import RecognitionParams
from vision.recognition.peaks import bar_dip, half_patch, half_peaks
from vision.recognition.poses import (
    TilePose,
    closed_faces,
    dominant_angle,
    filled_faces,
    fit_poses,
)
from vision.types import HalfReading, Point, SceneReading, TileReading

log = logging.getLogger(__name__)

U8 = npt.NDArray[np.uint8]
I32 = npt.NDArray[np.int32]
F64 = npt.NDArray[np.float64]

_DEFAULT = RecognitionParams()


def identify(
    image: npt.NDArray[np.generic],
    params: RecognitionParams | None = None,
    *,
    region: Sequence[Point] | None = None,
) -> SceneReading:
    """Read every tile in ``image``.

    ``image``: ``uint8`` ``(H, W)`` grey or ``(H, W, 3)`` BGR / ``(H, W, 4)`` BGRA, taken roughly
    from above. It is not modified. Raises :class:`~vision.errors.InvalidImageError` when the
    array cannot be an image; a frame without readable tiles gives an empty reading.

    ``region``: optional polygon (image pixels, at least 3 points), e.g. the play area from
    calibration; tiles whose centre lies outside it are not reported (pictures of dominoes
    printed around a board look like tiles from above).
    """
    polygon = _region(region)
    p = params or _DEFAULT
    grey = _darkest_channel(p, image)
    h, w = grey.shape
    threshold = _white_threshold(p, grey)
    roi = _face_box(grey, threshold)
    if roi is None:
        return SceneReading(tiles=(), width=w, height=h)
    x0, y0, x1, y1 = roi
    crop = grey[y0:y1, x0:x1]
    first = _carved_first(p, crop, threshold, _read_crop(p, crop, threshold))
    sharp = None
    spare: list[TileReading] = []  # the other reading of a deconvolved frame
    if (
        not first[0]
        or _unexplained(first[2], first[0]).shape[0] >= 2
        # blur can hide every pip of a scene: a square of face outside every tile read
        or _blank_room(crop, threshold, first[0], first[1])
    ):
        sharp = _deblurred(p, crop)
    if sharp is None:
        tiles, width = _read_rest(p, crop, threshold, first)
        if _lengthwise_doubles(crop, threshold, tiles, width):
            # in focus a seam can still pass for a bar (white tiles): the rule for tiles read
            # across one runs where one may be (it costs a few ms on a full line)
            tiles = _unstraddled_placed(
                p, crop, threshold, tiles, width, seen=crop, spots=first[2], blanks=False
            )
        if _room_left(p, crop, threshold, tiles, width, barred=True):
            # a double blank's bar may be too faint and thin to be ink, and it has no pip to
            # look at: where a whole square of face lies outside every tile (its bar bridged),
            # or a tile's room in a line, its outline places it (kept only with its bar seen)
            tiles = _read_outlines(
                p, crop, threshold, tiles=tiles, width=width, spots=first[2], blanks=True
            )
            tiles += _gap_blanks(p, crop, threshold, tiles, width)
            if _blank_room(crop, threshold, tiles, width, barred=True):
                more = _blanks_at_other_widths(
                    p, crop, threshold, tiles=tiles, width=width, spots=first[2]
                )
                tiles += more or _blanks_in_rooms(p, [crop], threshold, tiles=tiles, width=width)
    else:
        # a tile the checks refuse is read again from the other reading (see
        # _second_readings): the frame as it was, at least as first read
        spare = first[0]
        again = _read_crop(p, sharp, threshold)
        tiles, width = _read_rest(p, sharp, threshold, again, blurred=True)
        # deconvolution darkens any thin line: a double blank needs a straight bar square
        # across its middle (the edge of a tile lying over another is none), seen in either
        # frame (deconvolution also sharpens noise: for instance, a lone 0-0 in dim light,
        # its bar 8.6 times the face's unevenness as it was and 5.45 deconvolved)
        tiles = [
            t for t in tiles if _pips(t) > 0 or _bar_seen(p, sharp, t) or _bar_seen(p, crop, t)
        ]
        tiles = _unstraddled(p, sharp, threshold, tiles, width)
        # the outline stage was made for blur: what deconvolution left unread, it tries on
        # the frame as it was (where the pips' spacing set the width, at the bars' too: the
        # faces' outline there includes the visible sides of thick tiles)
        settled = list(tiles)  # a copy: the branches below extend lists in place
        room: bool | None = None  # _room_left of tiles, where a branch below made it
        tiles = _read_outlines(
            p, crop, threshold, tiles=tiles, width=width, spots=again[2], blanks=True, also=again[1]
        )
        if not again[0]:
            # no bar came back: the seams between touching tiles may have, and look like
            # bars. The frame as it was is read too; the reading that leaves fewer pips
            # unexplained wins (one read across the seams leaves the line's end halves out).
            spots = np.vstack([first[2], again[2]])
            plain, plain_width = _read_rest(p, crop, threshold, first)
            deblurred = tiles
            if len(_unexplained(spots, plain)) < len(_unexplained(spots, tiles)):
                tiles, width = plain, plain_width
            # what the other reading adds, clear of every tile kept: any tile read in the
            # deconvolved frame (its seams are seams), from the frame as it was the tiles
            # that join (see _joining), and a double blank with its bar seen in both crops (a
            # double blank explains no pip: the count is blind to it)
            other = deblurred if tiles is plain else plain
            spare = other
            # a double blank with its bar seen in both frames need only be no tile kept
            # (``overlap_max_rel``): a neighbour read deconvolved a few degrees off its line
            # can overlap it by more than a tile read twice would. One read
            # deconvolved passed the bar test above already: the frame as it was must show
            # its bar (deconvolution sharpens noise too)
            seen_in = (crop,) if other is deblurred else (crop, sharp)
            free = [t for t in other if not _overlaps(p, t, tiles)]
            blanks = _blanks_seen(p, free, *seen_in)
            if tiles is plain:
                # first, a tile read across two that the deconvolved frame reads, leaving
                # fewer pips unexplained there, gives way to them (for instance: a "0-1"
                # over a crosswise 1-1's middle and the 1 of the 6-1 beside it, its 6 left).
                # Read by outlines alone, the frame as it was has no width of its own.
                scale = width or float(np.median([_tile_width(t) for t in tiles] or [0.0]))
                tiles = _swapped(p, tiles, deblurred, spots, scale, across_two=True)
                tiles = _swapped_runs(p, tiles, deblurred, spots, scale)
                clear = [t for t in other if not _clashes(p, t, tiles)]
                tiles += [t for t in clear if _pips(t) > 0] + blanks
            else:
                # place by place, a tile read across two that the frame as it was reads as
                # the two, leaving fewer pips unexplained, gives way to them (for instance: a "3-2"
                # over a 6-3's 3 and the middle of the crosswise 3-3 beside it)
                tiles = _swapped(p, tiles, plain, spots, width, across_two=True)
                tiles = _surer(p, tiles, plain, width, seen=crop)
                tiles += _joining(p, sharp, threshold, tiles, plain) + blanks
        elif len(_unexplained(np.vstack([first[2], again[2]]), tiles)) >= 2:
            # pips left unread deconvolved: the tiles the frame as it was reads there join
            # (a crosswise double squeezed between tiles read a pixel long)
            plain, _ = _read_rest(p, crop, threshold, first)
            spots = np.vstack([first[2], again[2]])
            tiles = _swapped(p, tiles, plain, spots, width)
            tiles = _surer(p, tiles, plain, width, seen=crop)
            tiles += _joining(p, sharp, threshold, tiles, plain)
            tiles += _blanks_seen(p, [t for t in plain if not _clashes(p, t, tiles)], crop, sharp)
            spare = plain
        elif room := _room_left(p, crop, threshold, tiles, width):
            # every pip explained, but a double's room (or a square of face) left empty:
            # deconvolution dots a double blank's halves with ghosts on its pip grid (for instance:
            # a crosswise 0-0 between a 2-0 and a 0-1, two ghosts in a half), and the
            # count is blind to it. The frame as it was reads it; a double blank from there,
            # clear of every tile kept but less sure double blanks, with its bar seen in
            # both crops (as above; see _surer_blanks)
            plain, _ = _read_rest(p, crop, threshold, first)
            kept = tiles
            tiles = _surer_blanks(p, tiles, _blanks_seen(p, plain, crop, sharp))
            room = None if tiles != kept else room  # tiles unchanged: the check stands
        if room if room is not None else _room_left(p, crop, threshold, tiles, width):
            # a double's room still empty: the frame as it was can read its double blank a
            # few pixels off, over a neighbour (a thick tile's visible side widens its face:
            # for instance); the deconvolved frame read at the scene's other widths places
            # it where it lies (kept with its bar seen in both crops)
            more = _blanks_at_other_widths(
                p, sharp, threshold, tiles=tiles, width=width, spots=again[2]
            )
            more = _blanks_seen(p, more, crop)
            # a room no look filled: a double blank read where it lies (see _blanks_in_rooms)
            tiles += more or _blanks_in_rooms(p, [sharp, crop], threshold, tiles=tiles, width=width)
        if tiles != settled:
            # a tile added or swapped since can be what makes the square beyond one read
            # across a seam a lone one (the next tile of its line, or the double at a turn;
            # for instance: three 5s met at a turn, and two 5-5s read across its seams,
            # one swapped since); where one is read again, the outline may place the tile
            # its other half belongs to
            tiles = _unstraddled_placed(
                p, crop, threshold, tiles, width, seen=sharp, spots=again[2], blanks=True
            )
    all_spots = first[2] if sharp is None else np.vstack([first[2], again[2]])
    tiles = _small_tiles_dropped(p, tiles, width, all_spots)
    for _ in range(2):
        # once more where tiles were added: one can close the end of another (for instance: a 6-2
        # between two crosswise doubles, the 6-6 unread until this stage)
        before = len(tiles)
        tiles = _lattice_tiles(
            p, crop, threshold, tiles=tiles, width=width, spots=all_spots, also=sharp
        )
        if len(tiles) == before:
            break
    # a thick tile near a tilted camera looks wider than the tiles read beside it, and blur
    # or a thick tile's side can pull a pip off its place: pips still unexplained are looked
    # at once more on a looser lattice (see _lattice_tiles). For instance: a crosswise 5-5
    # ending a line, its halves' pips 23.5 px apart, the scene's width 20.8 and the 5-2
    # beside it read at 20.0, its outer pips 2 px (a tenth of a width) off both lattices;
    # for instance: a 4-3 down a turn, a pip of its 3 0.12 of a width off its place. Looked
    # at with the others, a looser place taking in more spots across a seam hides the right
    # ones (for instance: a short line without seams, read on its spots' own grid)
    tiles = _lattice_tiles(
        p, crop, threshold, tiles=tiles, width=width, spots=all_spots, loose=True, also=sharp
    )
    tiles = [t for t, off in zip(tiles, _across_two(tiles), strict=True) if not off]
    frames = [crop] if sharp is None else [sharp, crop]
    left = _unexplained(all_spots, tiles)
    if left.shape[0]:  # both stages below look only where pips are left unexplained
        tiles = _read_side_by_side(p, frames, threshold, tiles=tiles, spots=all_spots, width=width)
        tiles = _crosswise_through(p, frames, threshold, tiles=tiles, spots=all_spots, width=width)
        left = _unexplained(all_spots, tiles)
    if left.shape[0] and width > 0:
        tiles = _regrown(p, frames, threshold, tiles=tiles, spots=left, width=width)
        left = _unexplained(all_spots, tiles)
    if left.shape[0] and width > 0:
        tiles += _lone_faces(p, frames, threshold, tiles=tiles, spots=left, width=width)
        left = _unexplained(all_spots, tiles)
    if left.shape[0] and width > 0:
        tiles = _blanks_repaired(p, frames, threshold, tiles=tiles, spots=all_spots, width=width)
    seen_spots = [first[2]] if sharp is None else [first[2], again[2]]
    seen = _centres_seen(p, crop, tiles)
    flagged = _read_on_own_faces(
        p, frames, threshold, tiles=tiles, spots=seen_spots, refused=[not s for s in seen]
    )
    if flagged != tiles:
        tiles, seen = flagged, _centres_seen(p, crop, flagged)
    if spare and not all(seen):
        tiles, seen = _second_readings(p, crop, tiles, seen, spare)
    if not all(seen):
        tiles, seen = _peak_readings(p, crop, tiles, seen)
    if not all(seen):
        tiles, seen = _nudged_readings(p, crop, threshold, tiles, seen)
        tiles = _relatticed(p, crop, threshold, tiles, seen, width=width, spots=all_spots)
        seen = [True] * len(tiles)
    tiles, seen = _blocks_paired(p, crop, threshold, tiles, seen)
    with_pips = [t for t in tiles if _pips(t) > 0]
    ended = [
        s and (_pips(t) > 0 or _blank_bounded(p, crop, threshold, t, with_pips))
        for t, s in zip(tiles, seen, strict=True)
    ]
    if ended != seen:
        # a double blank read small leaves its own face beyond it: the other reading's
        # double blank there, or it grown to the scene's width, is looked at (for instance, read
        # small deconvolved; another, read small in focus)
        tiles, ended = _blanks_read_again(
            p, crop, threshold, tiles, seen=seen, bounded=ended, spare=spare, width=width
        )
    seen = ended
    # a tile among face that no other tile kept explains is a back in a pile: a double
    # blank with such face beyond either half, a tile with pips beyond both
    bounded = [k for k, s in enumerate(seen) if s]
    bands = _free_face_beside(crop, threshold, [tiles[k] for k in bounded], p.free_face_max)
    for k, (a, b) in zip(bounded, bands.tolist(), strict=True):
        seen[k] = (max(a, b) if _pips(tiles[k]) == 0 else min(a, b)) < p.free_face_max
    # below this size pips are under three pixels: what looks like a tile is print or pips
    kept = [
        t.shifted(x0, y0)
        for t, ok in zip(tiles, seen, strict=True)
        if ok and _tile_width(t) >= p.min_tile_width_px
    ]
    if polygon is not None:
        kept = [t for t in kept if cv2.pointPolygonTest(polygon, t.center, False) >= 0]
    kept.sort(key=lambda t: (t.center[1], t.center[0]))
    if kept and width <= 0:
        width = float(np.median([_tile_width(t) for t in kept]))  # placed by outlines alone
    length = width * p.tile_aspect if kept else 0.0
    return SceneReading(tiles=tuple(kept), width=w, height=h, tile_length_px=length)


#: how far from a tile's middle, in tile lengths, a spot lies on its bar (a pip of a standard
#: layout is at least 0.11 of a length from it)
ON_BAR = 0.06


def _small_tiles_dropped(
    p: RecognitionParams, tiles: list[TileReading], width: float, spots: F64
) -> list[TileReading]:
    """``tiles`` without those read more than ``look_width_agree_rel`` narrower than the
    scene's ``width`` that overlap a tile read at about its width by more than
    ``overlap_max_rel`` of their area (see :func:`_overlaps`): read from a seam or a half's
    pips, not a tile, each held the room of the tile the pip lattice (see
    :func:`_lattice_tiles`) places once it is gone. For instance (blur 1.5): the seam
    between two blank halves end to end at a turn, a perfect bar, read as a "0-0" of 17.2
    px in a scene of 21.1, a third of it over the 6-0's blank, in the 0-3's room. Seed
    another (blur 0.6, heavy noise): a "1-0" of 14 px at 0.35, nearly half of it over a
    crosswise 2-2's pips and the 2-4 beside it. A tile that only reaches a few pixels into a
    neighbour read at the scene's width is one (for instance: a crosswise 0-0 read 19 px
    wide in a scene of 22.8, a pixel or two too far along its line, 0.15 of it over the 0-1
    beside it). Nor a double blank so narrow holding any of ``spots`` off its bar that no
    other tile holds (the pips of the tile whose place it took)."""
    if width <= 0:
        return tiles
    small = [_tile_width(t) < (1 - p.look_width_agree_rel) * width for t in tiles]
    if not any(small):
        return tiles
    sized = [t for t, s in zip(tiles, small, strict=True) if not s]
    out = []
    for t, s in zip(tiles, small, strict=True):
        if s and _overlaps(p, t, sized):
            continue
        if s and _pips(t) == 0:
            # a double blank explains no pip: spots it holds that no other tile does are a
            # neighbour's, on its rim (for instance: a "0-0" of 17.5 px in a scene of
            # 21, over a 0-2, the 2's pips at its ends); but a spot on its bar is a bead of
            # the bar, which deconvolution breaks up (for instance: a 0-0 at a turn,
            # read 19.5 px wide in a scene of 22, a bead where its bar meets the seam below)
            held = _unexplained(spots, [k for k in tiles if k is not t])
            if (_inside(held, t) & ~_inside(held, t, along=ON_BAR)).any():
                continue
        out.append(t)
    return out


def _relatticed(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    tiles: list[TileReading],
    seen: list[bool],
    *,
    width: float,
    spots: F64,
) -> list[TileReading]:
    """The tiles of ``tiles`` the checks passed (``seen``), plus the tiles the pip lattice
    (see :func:`_lattice_tiles`, strict then loose) places on the pips they leave
    unexplained, where those pass the checks too. A tile read across two (half of each)
    held the room of a tile the lattice would have placed, and was refused only after: what
    replaced it leaves that room free (for instance: a crosswise 6-6 at blur 1.5, its
    right pip column and the 6 of the 6-4 beside it read "4-5" at the lattice stage, the
    6-6 left out; the "4-5" refused for its centres and replaced by the 6-4)."""
    kept = [t for t, ok in zip(tiles, seen, strict=True) if ok]
    if width <= 0 or len(kept) == len(tiles):
        return kept
    more = kept
    for loose in (False, True):
        more = _lattice_tiles(p, crop, threshold, tiles=more, width=width, spots=spots, loose=loose)
    added = more[len(kept) :]
    passed = _centres_seen(p, crop, more)[len(kept) :]
    return kept + [t for t, ok in zip(added, passed, strict=True) if ok]


def _carved_first(
    p: RecognitionParams, crop: U8, threshold: int, first: tuple[list[TileReading], float, F64]
) -> tuple[list[TileReading], float, F64]:
    """The first reading, with the tiles whose bar runs into the seams beside them (see
    :func:`_carved_tiles`) where they explain every pip-like spot it left unexplained.

    A double laid crosswise in a line touches the tiles either side with its long sides: its
    bar runs into the seams there and joins the table, so the first reading finds no bar and
    leaves its pips unexplained, which sends a frame in focus through the blur measure and the
    looks before the stage that carves its bar reads it (the shipped fixture's 3-3, in 19 of
    its 24 settled frames: about 80 ms a 1080p frame). Looked at first, round the groups of
    spots left, it costs about 10 ms. Where carving leaves spots unexplained, the first
    reading is kept as it was (a blurred frame goes on as before)."""
    tiles, width, spots = first
    left = _unexplained(spots, tiles)
    if width <= 0 or not tiles or left.shape[0] < 2 or left.shape[0] > p.look_max_spots:
        return first
    added: list[TileReading] = []
    for bx0, by0, bx1, by1 in _clusters(left, 2 * width, crop.shape):
        part = crop[by0:by1, bx0:bx1]
        labels, blobs = _dark_regions(p, part, threshold)
        known = [t.shifted(-bx0, -by0) for t in tiles + added]
        found = _carved_tiles(p, part, labels, blobs, tiles=known, width=width)
        added += [t.shifted(bx0, by0) for t in found]
    if not added or _unexplained(left, added).shape[0] >= 2:
        return first
    return tiles + added, width, spots


def _blanks_seen(p: RecognitionParams, tiles: list[TileReading], *frames: U8) -> list[TileReading]:
    """The double blanks of ``tiles`` whose bar is seen in each of ``frames`` (a double blank
    explains no pip, so only its bar vouches for it)."""
    return [t for t in tiles if _pips(t) == 0 and all(_bar_seen(p, f, t) for f in frames)]


def _surer_blanks(
    p: RecognitionParams, tiles: list[TileReading], blanks: list[TileReading]
) -> list[TileReading]:
    """``tiles`` with each double blank of ``blanks`` added where it clashes with no tile
    but double blanks less sure than it, which it replaces (for instance: a crosswise
    0-0 between two blank halves, read deconvolved 11 px off at 0.45 and later dropped as
    too small; the frame as it was read it where it lies at 1.0, its bar seen in both)."""
    out = list(tiles)
    for t in blanks:
        rest = [
            k
            for k in out
            if _pips(k) > 0 or k.confidence >= t.confidence or not _clashes(p, t, [k])
        ]
        if not _clashes(p, t, rest):
            out = [*rest, t]
    return out


def _across_two(tiles: list[TileReading]) -> list[bool]:
    """Per tile: does each of its halves' centres lie well inside another tile, two different
    ones? No tile lies so: it is one read across the seam of two tiles read too (for instance: a 0-0
    read at 0.7 of the scene's width across the blank halves of a 5-0 and a 0-4
    that touch, each read right)."""
    if len(tiles) < 3:
        return [False] * len(tiles)
    n = len(tiles)
    half = np.array([[h.center for h in t.halves] for t in tiles], dtype=np.float64)
    inside = _in_tiles(half.reshape(-1, 2), tiles, across=0.45, along=0.45).reshape(n, 2, n)
    inside[np.arange(n), :, np.arange(n)] = False  # other tiles only
    out: list[bool] = []
    for first, second in inside:
        a, b = np.flatnonzero(first), np.flatnonzero(second)
        out.append(bool(a.size and b.size and (a.size > 1 or b.size > 1 or a[0] != b[0])))
    return out


#: the tile width read on a face standing alone, as a share of its outline's shorter side
#: (the rims and the visible sides of thick tiles widen it)
LONE_FACE_WIDTH_REL = 0.95


#: a tile with a blank half read this much narrower than the scene's tiles, with pips left
#: beside it, is read again at the scene's width (see :func:`_regrown`)
REGROW_BELOW = 0.9


def _regions_of(
    p: RecognitionParams, frames: list[U8], threshold: int
) -> Callable[[int], tuple[I32, _Blobs]]:
    """The dark regions (``half_dark``) of ``frames[k]``, made where first asked for."""

    @cache
    def regions(k: int) -> tuple[I32, _Blobs]:
        return _dark_regions(p, frames[k], threshold, half_dark=True)

    return regions


def _regrown(
    p: RecognitionParams,
    frames: list[U8],
    threshold: int,
    *,
    tiles: list[TileReading],
    spots: F64,
    width: float,
) -> list[TileReading]:
    """``tiles`` with each tile that has a blank half, is read under ``REGROW_BELOW`` of
    the scene's ``width`` and leaves some of ``spots`` (pips no tile explains) just beyond
    its sides or ends, read again at its centre and axis at the scene's width, in the first
    of ``frames`` that reads it: the reading there replaces it where it explains as many of
    ``spots`` as lie beside it (the tile explains none) and clashes with no other tile. A
    blank half has no pip to check it by, and a tile read small inside a bigger one can
    leave that one's pips just outside it (for instance: a 2-0 near a tilted camera,
    10 mm thick, 23.5 px wide in a scene of 21.75, read "0-0" at 17.5 px in the deconvolved
    frame, its 2's pips just beyond its end and side; read again at the scene's width,
    centred on its pips, it reads 2-0)."""
    out = list(tiles)
    regions = _regions_of(p, frames, threshold)
    for t in tiles:
        if 0 not in t.pips or _tile_width(t) >= REGROW_BELOW * width:
            continue
        near = _inside(spots, t, across=0.7, along=0.7)
        axis = _half_axis(t)
        if not near.any() or axis is None:
            continue
        rest = [k for k in out if k is not t]
        place = _pose_proposal(TilePose(t.center, axis, 0.0), 0.0, 0.0, width)
        beside = int(near.sum())

        def explains(r: TileReading, rest: list[TileReading] = rest, beside: int = beside) -> bool:
            return (
                not _clashes(p, r, rest)
                and spots.shape[0] - _unexplained(spots, [r]).shape[0] >= beside
            )

        got = _first_read(
            p, frames, regions, places=[(place, width)], threshold=threshold, keep=explains
        )
        if got is not None:
            out = [*rest, got]
    return out


#: how far from a tile with a blank half the pips left unexplained are looked for, in the
#: scene's widths across and along it (see :func:`_blanks_repaired`)
REPAIR_NEAR_ACROSS = 1.6
REPAIR_NEAR_ALONG = 1.3


def _blanks_repaired(
    p: RecognitionParams,
    frames: list[U8],
    threshold: int,
    *,
    tiles: list[TileReading],
    spots: F64,
    width: float,
) -> list[TileReading]:
    """``tiles`` with each tile that has a blank half and pips left unexplained beside it
    re-paired, where its halves are the ends of two other tiles that explain those pips. Two
    tiles meeting corner to corner at a turn, blank end beside blank end, read as one double
    blank across their seam leave both their other halves unread; a blank half has no pip to
    tell it by, and a seam a blur wide looks like a bar (for instance, blur 1.5: a 4-0
    up to the 0 of a 0-1 lying across, read "0-0", the 4 and the 1 left). Each half of such
    a tile is read again as one end of a tile lying on from it (beyond it, or either side:
    not back over the other half), in the first of ``frames`` that reads it; the two
    readings, each with a half where the tile's half is and its pips, clashing with no other
    tile nor each other, replace it where together they explain every pip left beside it."""
    left = _unexplained(spots, tiles)
    out = list(tiles)
    regions = _regions_of(p, frames, threshold)
    for t in tiles:
        axis = _half_axis(t)
        if 0 not in t.pips or axis is None:
            continue
        near = left[_inside(left, t, across=REPAIR_NEAR_ACROSS, along=REPAIR_NEAR_ALONG)]
        if not near.shape[0]:
            continue
        rest = [k for k in out if k is not t]
        u = np.array(axis, dtype=np.float64)
        v = np.array([-u[1], u[0]])

        def keep(r: TileReading, near: F64 = near, rest: list[TileReading] = rest) -> bool:
            return bool(_inside(near, r).any()) and not _clashes(p, r, rest)

        ends = [
            _tiles_on_from(
                p, frames, regions, half, (away, v, -v), threshold=threshold, width=width, keep=keep
            )
            for half, away in zip(t.halves, (-u, u), strict=True)
        ]
        pairs = [
            (a, b)
            for a in ends[0]
            for b in ends[1]
            if not _clashes(p, a, [b]) and (_inside(near, a) | _inside(near, b)).all()
        ]
        if pairs:
            a, b = max(pairs, key=lambda ab: min(ab[0].confidence, ab[1].confidence))
            out = [*rest, a, b]
            left = _unexplained(spots, out)
    return out


def _tiles_on_from(
    p: RecognitionParams,
    frames: list[U8],
    regions: Callable[[int], tuple[I32, _Blobs]],
    half: HalfReading,
    directions: tuple[F64, ...],
    *,
    threshold: int,
    width: float,
    keep: Callable[[TileReading], bool],
) -> list[TileReading]:
    """Per direction of ``directions`` (unit vectors), the tile read lying on from ``half``
    that way (one of its halves within three tenths of a ``width`` of ``half``'s centre,
    with its pips) that ``keep`` accepts, in the first of ``frames`` that reads one (see
    :func:`_first_read`); none for a direction where none is."""
    c = np.array(half.center, dtype=np.float64)

    def keeps(r: TileReading) -> bool:
        return any(
            h.pips == half.pips and math.dist(h.center, half.center) <= 0.3 * width
            for h in r.halves
        ) and keep(r)

    out = []
    for d in directions:
        places = [(place, width) for place in _places_from(c, d, width)]
        got = _first_read(p, frames, regions, places=places, threshold=threshold, keep=keeps)
        if got is not None:
            out.append(got)
    return out


#: the turns, in radians, of the places tried for a tile lying on from a half (see
#: :func:`_places_from`): a tile read across a seam lies a few degrees off either tile
REPAIR_TURNS = (0.0, 0.1, -0.1)


def _places_from(c: F64, d: F64, width: float) -> list[_Proposal]:
    """The places of a tile ``width`` wide with one half centred at ``c`` and the other
    lying on from it along ``d`` (a unit vector), turned by each of ``REPAIR_TURNS``."""
    out = []
    for turn in REPAIR_TURNS:
        cos, sin = math.cos(turn), math.sin(turn)
        ax = (float(cos * d[0] - sin * d[1]), float(sin * d[0] + cos * d[1]))
        centre = (float(c[0]) + 0.5 * width * ax[0], float(c[1]) + 0.5 * width * ax[1])
        out.append(_pose_proposal(TilePose(centre, ax, 0.0), 0.0, 0.0, width))
    return out


def _first_read(
    p: RecognitionParams,
    frames: list[U8],
    regions: Callable[[int], tuple[I32, _Blobs]],
    *,
    places: list[tuple[_Proposal, float]],
    threshold: int,
    keep: Callable[[TileReading], bool],
) -> TileReading | None:
    """The surest tile ``keep`` accepts of the first place (and width) of ``places`` that a
    frame of ``frames`` reads, the frames tried in order (``regions``: their dark regions,
    see :func:`_regions_of`); ``None`` where none does."""
    for place, size in places:
        for k, frame in enumerate(frames):
            labels, blobs = regions(k)
            read = _read_places(p, frame, labels, blobs, [place], threshold=threshold, width=size)
            got = [r for r in read if keep(r)]
            if got:
                return max(got, key=lambda r: r.confidence)
    return None


def _read_on_own_faces(
    p: RecognitionParams,
    frames: list[U8],
    threshold: int,
    *,
    tiles: list[TileReading],
    spots: list[F64],
    refused: list[bool],
) -> list[TileReading]:
    """``tiles`` with each tile that holds more of the ``spots`` of one frame (as it was, or
    deconvolved) than it counts pips, or that the checks ``refused`` (see
    :func:`_centres_seen`), and lies on a face standing alone of another size (see
    :func:`_own_faces`), read again there, in the first of ``frames`` that reads it: the
    reading replaces it where it counts other pips, more surely, clashing with no other
    tile. A revealed tile near a tilted camera, placed by its outline at the scene's width,
    reads the pips of part of its halves (for instance: a 5-0 24.2 px wide in a scene of
    19, read "2-0" at 0.49, its 5's five pips inside the place; for instance: a 3-0 24
    px wide in a scene of 20, blur 1.5, read "2-0" at 0.66, its 3's pips specks in the frame
    as it was, all three spots deconvolved; for instance: a 3-3 read "3-2" and refused,
    two pips run into its bar). The count costs one pass over the spots; a face is looked at
    only for the few tiles flagged."""
    if not tiles:
        return tiles
    held = np.zeros(len(tiles), dtype=np.intp)
    for found in spots:
        if found.shape[0]:
            inside = _in_tiles(found[:, :2], tiles, across=0.55, along=0.55).sum(axis=0)
            held = np.maximum(held, inside)
    short = [i for i, t in enumerate(tiles) if held[i] > _pips(t) or refused[i]]
    if not short:
        return tiles
    out = list(tiles)
    regions = _regions_of(p, frames, threshold)
    for i in short:
        t = tiles[i]
        rest = [k for k in out if k is not t]

        def surer(r: TileReading, t: TileReading = t, rest: list[TileReading] = rest) -> bool:
            return (
                r.confidence > t.confidence
                and sorted(r.pips) != sorted(t.pips)
                and not _clashes(p, r, rest)
            )

        for level, places in _own_faces(p, frames[-1], threshold, t):
            at = regions if level == threshold else _regions_of(p, frames, level)
            got = _first_read(p, frames, at, places=places, threshold=level, keep=surer)
            if got is not None:
                out = [*rest, got]
                break
    return out


def _own_faces(
    p: RecognitionParams, crop: U8, threshold: int, t: TileReading
) -> list[tuple[int, list[tuple[_Proposal, float]]]]:
    """Per face threshold (``threshold``, then the level that splits the box in two, Otsu's,
    where lower: see :func:`_lone_faces`), the place (and width) of the face ``t`` lies on
    where that stands alone and is tile-shaped (see :func:`_lone_places`, looked at in a box
    a tile length round ``t``'s centre), its centre within a quarter of a width of ``t``'s
    and its width more than ``look_width_agree_rel`` off ``t``'s; the levels with none left
    out. A revealed tile lit less than the line breaks up under the scene's threshold (seed
    another: a lone 3-3, 25.7 px wide in a scene of 22, dim and blurred, read "3-2" at the
    scene's width and refused; its face stands whole at Otsu's level)."""
    w = _tile_width(t)
    reach = int(p.tile_aspect * w) + 2
    cx, cy = (round(v) for v in t.center)
    hh, ww = crop.shape
    bx0, by0 = max(0, cx - reach), max(0, cy - reach)
    bx1, by1 = min(ww, cx + reach + 1), min(hh, cy + reach + 1)
    held = np.array([[t.center[0] - bx0, t.center[1] - by0]], dtype=np.float64)
    box = crop[by0:by1, bx0:bx1]
    free = np.zeros(box.shape, dtype=np.uint8)
    local, _ = cv2.threshold(box, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    out: list[tuple[int, list[tuple[_Proposal, float]]]] = []
    for level in [threshold] + ([int(local)] if local < threshold else []):
        found: list[tuple[_Proposal, float]] = []
        for place, size in _lone_places(p, box, level, spots=held, width=w, occupied=free):
            centre = (place.center[0] + bx0, place.center[1] + by0)
            if math.dist(centre, t.center) > 0.25 * w:
                continue
            if abs(size / w - 1) <= p.look_width_agree_rel:
                continue
            found.append((_placed(centre, place.along, size, measured=False), size))
        if found:
            out.append((level, found))
    return out


#: where a tile through a half without pips beside it is read (see :func:`_read_side_by_side`),
#: in tile widths along its axis from half a width off the half's centre
_SIDE_NUDGES = (0.0, -0.15, -0.3, -0.45, 0.15)


def _read_side_by_side(
    p: RecognitionParams,
    frames: list[U8],
    threshold: int,
    *,
    tiles: list[TileReading],
    spots: F64,
    width: float,
) -> list[TileReading]:
    """``tiles`` with each tile read across two tiles lying side by side replaced by the
    two. Two tiles side by side, long side to long side and staggered by a half, put a half
    of each beside the other's half, and the seam between them is a bar: a tile read there
    has one half of each, and the other halves lie beside it, a width across its axis, on
    either side. Their pips are unexplained (a blank half has none), and the lattice places
    no tile on them, the room being taken. So a tile with unexplained spots beside a half,
    between half a width and a width and a half off its axis, is read again as the two
    tiles square to it (or to the strongest edges around) through its halves, at the
    scene's width (the half without spots beside it on the other side, then on the same
    one; one with spots on both sides centred on it too), in the first of ``frames`` that
    reads both: they replace it where they clash with no other tile, and explain more of
    ``spots`` (for instance: blur 1.5, a "0-6" across a 4-0 and the 1-6 under it, the
    4 and the 1 beside it; or, in focus, a "0-0" across a 0-5's blank and a crosswise 0-0,
    the 5 beside it)."""
    left = _unexplained(spots, tiles)
    if width <= 0 or left.shape[0] == 0:
        return tiles
    out = list(tiles)
    regions = _regions_of(p, frames, threshold)
    for t in tiles:
        if _half_axis(t) is None or abs(_tile_width(t) / width - 1) > p.width_tolerance_rel:
            continue
        # the spots looked for lie within half a width along and a width and a half across
        # a half's centre (itself at most 0.6 of a width off the tile's), so under 1.9
        # widths off the tile's centre: with none within two, neither ``t`` nor ``t`` turned
        # reads, and the turn is not measured
        if not (np.hypot(*(left[:, :2] - np.array(t.center)).T) <= 2.0 * width).any():
            continue
        rest = [k for k in out if k is not t]
        before = _unexplained(spots, out).shape[0]
        got = None
        # a tile read across a seam lies along it, and a seam a pixel wide can run square to
        # the pixel grid while the tiles either side lie a few degrees off it: they are
        # looked for square to the strongest edges around too (for instance, in focus,
        # noisy: a 2-4 and a 2-2 side by side at 5 degrees, read as a "2-2" square across
        # the seam between them; square to that, neither reads)
        turned = _aligned(frames[-1], t, width)
        for seen in [t] if turned is t else [t, turned]:
            got = _beside_read(
                p,
                frames,
                regions,
                seen,
                threshold=threshold,
                width=width,
                rest=rest,
                spots=spots,
                left=left,
                before=before,
            )
            if got:
                out = rest + got
                break
    return out


def _beside_read(
    p: RecognitionParams,
    frames: list[U8],
    regions: Callable[[int], tuple[I32, _Blobs]],
    t: TileReading,
    *,
    threshold: int,
    width: float,
    rest: list[TileReading],
    spots: F64,
    left: F64,
    before: int,
) -> list[TileReading] | None:
    """The two tiles lying side by side that :func:`_read_side_by_side` reads through the
    halves of ``t``, square to its axis, where they read (see :func:`_pair_read`); ``left``:
    the spots no tile explained."""
    axis = _half_axis(t)
    if axis is None:
        return None
    u = np.array(axis)
    v = np.array([-u[1], u[0]])
    halves = [np.array(h.center) for h in t.halves]
    # per half: the side (along v) its unexplained spots lie on, 0 for none
    sides = []
    # per half: unexplained spots on both sides near it, the middle of a tile through it
    # staggered by a quarter (for instance: the 2-2's pips either side of the "2-2")
    middles = []
    for h in halves:
        d = left[:, :2] - h
        a, b = d @ u, d @ v
        along = np.abs(a) <= 0.5 * width
        beside = along & (np.abs(b) >= 0.5 * width) & (np.abs(b) <= 1.5 * width)
        sides.append(int(np.sign(b[beside].sum())) if beside.any() else 0)
        near = along & (np.abs(b) >= 0.3 * width) & (np.abs(b) <= width)
        middles.append(bool((near & (b > 0)).any() and (near & (b < 0)).any()))
    if not any(sides):
        return None
    choices = [
        (sides[0] or s, sides[1] or s) for s in (-(sides[0] or sides[1]), sides[0] or sides[1])
    ]
    for k, frame in enumerate(frames):
        labels, blobs = regions(k)
        for sa, sb in dict.fromkeys(choices):
            # a tile through a half with pips beside it is centred on them when read; one
            # through a half without is read a few places along (a crosswise double in
            # the line beside lies staggered by less than a half)
            places = [
                [
                    _placed(tuple(h + s * (0.5 + d) * width * v), tuple(v), width, measured=False)
                    for d in (_SIDE_NUDGES if spotless else (0.0, -0.5) if middle else (0.0,))
                ]
                for h, s, spotless, middle in (
                    (halves[0], sa, not sides[0], middles[0]),
                    (halves[1], sb, not sides[1], middles[1]),
                )
            ]
            got = _pair_read(
                p,
                frame,
                labels,
                blobs,
                places,
                threshold=threshold,
                width=width,
                rest=rest,
                spots=spots,
                before=before,
            )
            if got:
                return got
    return None


def _crosswise_through(
    p: RecognitionParams,
    frames: list[U8],
    threshold: int,
    *,
    tiles: list[TileReading],
    spots: F64,
    width: float,
) -> list[TileReading]:
    """``tiles`` with each tile read across the middle of a crosswise double and a half of the
    tile after it replaced by those two. The double's halves lie either side of the tile's
    axis at that half, their pips on both sides (which :func:`_read_side_by_side`, looking for
    unexplained pips on one side, does not take), and its middle's bar-less face reads as a
    blank half. So a tile with spots left near it (beside it, or in the half beyond either
    end: for instance, the 6 of the 6-1 after a 1-1, its pips left) and spots beside one
    half on both sides (one may lie on its rim, which takes it in) is read again as the tile
    square to it through that half and the tile along it through its other half and the
    square beyond, at the scene's width, in the first of ``frames`` that reads both: they
    replace it where they clash with no other tile and explain more of ``spots`` (seed
    another: a "0-1" across a crosswise 1-1's middle and the 1 of the 6-1 after it, the
    1-1's pips either side of it, one on its rim, and the 6 left)."""
    left = _unexplained(spots, tiles)
    if width <= 0 or left.shape[0] < 2:
        return tiles
    out = list(tiles)
    regions = _regions_of(p, frames, threshold)
    for t in tiles:
        axis = _half_axis(t)
        if axis is None or not _agree(_tile_width(t), width, p):
            continue
        u = np.array(axis)
        v = np.array([-u[1], u[0]])
        if not _inside(left, t, across=1.0, along=0.75).any():
            continue
        for end, h in enumerate(t.halves):
            # spots either side of the half, a half width or so off the axis
            d = spots[:, :2] - np.array(h.center)
            a, b = d @ u, d @ v
            beside = (np.abs(a) <= 0.5 * width) & (np.abs(b) >= 0.3 * width)
            beside &= np.abs(b) <= 1.0 * width
            if not ((beside & (b > 0)).any() and (beside & (b < 0)).any()):
                continue
            other = np.array(t.halves[1 - end].center)
            away = other - np.array(h.center)
            away /= max(float(np.hypot(*away)), 1e-9)
            places = [
                _placed(h.center, (float(v[0]), float(v[1])), width, measured=False),
                _placed(tuple(other + 0.5 * width * away), axis, width, measured=False),
            ]
            rest = [k for k in out if k is not t]
            before = _unexplained(spots, out).shape[0]
            for k, frame in enumerate(frames):
                labels, blobs = regions(k)
                got = _pair_read(
                    p,
                    frame,
                    labels,
                    blobs,
                    [[q] for q in places],
                    threshold=threshold,
                    width=width,
                    rest=rest,
                    spots=spots,
                    before=before,
                )
                if got:
                    out = rest + got
                    break
            break  # one half per tile: a double's middle is one of its halves, not both
    return out


def _pair_read(
    p: RecognitionParams,
    frame: U8,
    labels: I32,
    blobs: _Blobs,
    places: list[list[_Proposal]],
    *,
    threshold: int,
    width: float,
    rest: list[TileReading],
    spots: F64,
    before: int,
) -> list[TileReading] | None:
    """The two tiles read in ``frame`` at the two lists of ``places`` (the surer of each),
    where both read, clash with neither each other nor a tile of ``rest``, and leave fewer of
    ``spots`` than ``before`` unexplained with ``rest``; else ``None``."""
    pair = [
        _read_places(p, frame, labels, blobs, qs, threshold=threshold, width=width) for qs in places
    ]
    if not all(pair):
        return None
    two = [max(r, key=lambda r: r.confidence) for r in pair]
    if (
        _clashes(p, two[0], [two[1]])
        or any(_clashes(p, r, rest) for r in two)
        or _unexplained(spots, rest + two).shape[0] >= before
    ):
        return None
    return two


def _lone_faces(
    p: RecognitionParams,
    frames: list[U8],
    threshold: int,
    *,
    tiles: list[TileReading],
    spots: F64,
    width: float,
) -> list[TileReading]:
    """Tiles read on faces standing alone that hold ``spots`` (pips no tile explains), each
    at its own size: a face (holes filled) shaped like a tile (its outline's sides a fifth
    at most off the tile's aspect, the shorter within a third of the scene's width, filled
    by 80% at least), with no tile read on it, is read as one tile that wide (see
    ``LONE_FACE_WIDTH_REL``), in the first of ``frames`` (deconvolved, then as it was) that
    reads it. The seats' revealed tiles lie apart, nearer or farther from a tilted camera
    than the line, and the outline stage, tiling every face at the scene's width, can place
    two tiles side by side the wrong way round (for instance: a 4-3 above a 5-2, a gap
    between them, both placed square to themselves and read as nothing). Faces are looked
    for at ``threshold``, then at the level of their own neighbourhood where lower: a tile
    lit less than the line can break up under the scene's threshold (for instance: a
    revealed 5-5, faces about 100, threshold 80, the face between its pips under it)."""
    crop = frames[-1]
    hh, ww = crop.shape
    occupied = np.zeros((hh, ww), dtype=np.uint8)
    for t in tiles:
        cv2.fillConvexPoly(occupied, np.rint(np.array(t.corners)).astype(np.int32), 1)
    out: list[TileReading] = []
    # around each group of the spots, far enough out to hold a tile round any of them
    for bx0, by0, bx1, by1 in _clusters(spots, 2.5 * width, crop.shape):
        box = crop[by0:by1, bx0:bx1]
        mine = spots[
            (spots[:, 0] >= bx0) & (spots[:, 0] < bx1) & (spots[:, 1] >= by0) & (spots[:, 1] < by1)
        ]
        held, free = mine[:, :2] - (bx0, by0), occupied[by0:by1, bx0:bx1]
        # a tile lit less than the faces the threshold was set on (a seat's revealed tiles,
        # away from the light) breaks up under it: the level that splits its neighbourhood
        # in two (Otsu's) is looked at too, where lower
        local, _ = cv2.threshold(box, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        for level in [threshold] + ([int(local)] if local < threshold else []):
            for place, size in _lone_places(p, box, level, spots=held, width=width, occupied=free):
                for frame in frames:
                    part = frame[by0:by1, bx0:bx1]
                    labels, blobs = _dark_regions(p, part, level, half_dark=True)
                    read = _read_places(
                        p, part, labels, blobs, [place], threshold=level, width=size
                    )
                    if read:
                        tile = max(read, key=lambda t: t.confidence).shifted(bx0, by0)
                        out.append(tile)  # and its face taken, for the next level and box
                        cv2.fillConvexPoly(
                            occupied, np.rint(np.array(tile.corners)).astype(np.int32), 1
                        )
                        break
    return [t for t in out if not _clashes(p, t, tiles)]


def _lone_places(
    p: RecognitionParams, box: U8, threshold: int, *, spots: F64, width: float, occupied: U8
) -> list[tuple[_Proposal, float]]:
    """The places (and widths) of the tile-shaped faces of ``box`` at ``threshold`` that hold
    any of ``spots``, stand alone in it and are not ``occupied`` by a tile read (see
    :func:`_lone_faces`)."""
    bh, bw = box.shape
    face = filled_faces(box, threshold).view(np.uint8)
    _, lab, stats, _ = cv2.connectedComponentsWithStats(face, connectivity=4)
    held = np.unique(lab[spots[:, 1].astype(np.intp), spots[:, 0].astype(np.intp)])
    out: list[tuple[_Proposal, float]] = []
    for k in held[held > 0].tolist():
        x, y, w, h = (int(v) for v in stats[k, :4])
        area = int(stats[k, 4])
        if x == 0 or y == 0 or x + w == bw or y + h == bh:
            continue  # reaches out of the box: no tile standing alone
        if not 0.5 * width**2 <= area <= 4 * width**2:
            continue
        comp = lab[y : y + h, x : x + w] == k
        if occupied[y : y + h, x : x + w][comp].mean() > 0.3:
            continue  # a tile read there
        ys, xs = np.nonzero(comp)
        pts = np.column_stack([xs + x, ys + y]).astype(np.float32)
        (cx, cy), (a, b), angle = cv2.minAreaRect(pts)
        short, long_ = min(a, b), max(a, b)
        if not (
            abs(long_ / max(short, 1.0) / p.tile_aspect - 1) <= 0.2
            and abs(short / width - 1) <= 0.35
            and area >= 0.8 * a * b
        ):
            continue
        theta = math.radians(angle) + (0.0 if a >= b else math.pi / 2)
        size = LONE_FACE_WIDTH_REL * short
        place = _placed((cx, cy), (math.cos(theta), math.sin(theta)), size, measured=False)
        out.append((place, size))
    return out


def _centres_seen(p: RecognitionParams, crop: U8, tiles: list[TileReading]) -> list[bool]:
    """Per tile: whether the centre of each of its halves is as its count says, in ``crop``,
    the frame as it was (see :func:`_centre_darkness`): dark for a 3, 5, 7 or 9 (at least
    ``centre_pip_min_contrast``), face for a 2 or a 4 (at most
    ``centre_empty_max_contrast``; not a 6: read two or three pixels off its place, its
    centre's samples reach its middle pips, up to 0.84 of its corners over 1,360 sixes read
    right in seeds 1 and 16).
    Deconvolved and sharpened, the ringing of two pips can meet between them as a dark spot
    of pip size, a phantom pip (a 2 read as a 3, a 6 as a 7); read as dark peaks, a tile
    slid a little can lose a pip (a 3 read as a 2). Blur takes as much contrast from a
    real centre pip as from the corner pips. Likewise an 8 or a 9 has each middle of a
    side dark (the lighter pair at least ``centre_pip_min_contrast`` of its corners): a 6
    or a 7 leaves one pair of them face, which blur darkens to half at most (for instance:
    a crosswise 6-6 read "8-6" at 0.62 in the deconvolved frame looked at sharpened, the
    pair of middles its 6 lacks 0.41 in the frame as it was). A 6 or a 7 has one pair of
    them dark (the darker pair): a 5 has neither (for instance: a 0-5 read "6-0" at 0.28
    in the deconvolved frame, its darker pair 0.22 of its corners in the frame as it was,
    where the same 1,360 sixes had at least 0.85). Nor is a half right whose
    pips are darker than its face by less than ``pip_min_darkness_rel`` of what the scene's
    median half's are (``pip_typical_darkness`` with fewer than two halves with pips):
    deconvolved, a blank half's JPEG blocks can ring into pips, and the edges of a pile of
    face-down tiles into a 3 (pile tests). Nor is a blank half right whose centre is darker
    than ``centre_pip_min_contrast`` of what those pips are: a pip lies there uncounted."""
    if not tiles:
        return []
    pips = np.array([t.pips for t in tiles], dtype=np.int64)  # (T, 2)
    dark, level, sides = _centre_darkness(crop, tiles, pips)  # (T, 2) each, NaN: not measured
    odd = np.isin(pips, (3, 5, 7, 9)) & (dark < p.centre_pip_min_contrast)
    even = np.isin(pips, (2, 4)) & (dark > p.centre_empty_max_contrast)
    full = np.isin(pips, (6, 7, 8, 9)) & (sides < p.centre_pip_min_contrast)
    wrong: npt.NDArray[np.bool_] = np.asarray((odd | even | full).any(axis=1))
    # pips that are hardly darker than their face, where the scene's pips are dark: a phantom
    # (with fewer than two halves to measure them by, the scene's pips are taken to be as
    # dark as pips are: a face-down pile has none, and one phantom would pass otherwise)
    lit = level[pips > 0]
    median = float(np.median(lit)) if lit.size >= 2 else p.pip_typical_darkness
    if median > 0:
        wrong |= ((pips > 0) & (level < p.pip_min_darkness_rel * median)).any(axis=1)
        # a blank half with a pip at its centre, as dark as the scene's pips are but
        # for ``centre_pip_min_contrast``: a 1's (or a 3's, a 5's) that went uncounted
        # (for instance: blur 1.5, a 1-0 carved in the frame as it was read "0-0")
        dark_centre = level > p.centre_pip_min_contrast * median
        wrong |= ((pips == 0) & dark_centre).any(axis=1)
    return [not bool(w) for w in wrong]


def _second_readings(
    p: RecognitionParams,
    crop: U8,
    tiles: list[TileReading],
    seen: list[bool],
    spare: list[TileReading],
) -> tuple[list[TileReading], list[bool]]:
    """``(tiles, seen)`` with each tile the checks refused (see :func:`_centres_seen`)
    replaced by what the other reading of the frame (``spare``: as it was, or deconvolved)
    read there, where that passes the checks and clashes with no tile kept (a 0-4
    read 2-4 deconvolved, its blank half's JPEG blocks ringing as a 2, is a 0-4 as it was)."""
    kept = [t for t, ok in zip(tiles, seen, strict=True) if ok]
    refused = [t for t, ok in zip(tiles, seen, strict=True) if not ok]
    alt = [
        t
        for t in spare
        if any(_clash(p, t, r, _tile_width(r), p.look_overlap_max_rel) for r in refused)
        and not _clashes(p, t, kept)
    ]
    if not alt:
        return tiles, seen
    alt_seen = _centres_seen(p, crop, kept + alt)[len(kept) :]
    alt = [t for t, ok in zip(alt, alt_seen, strict=True) if ok]
    width = float(np.median([_tile_width(t) for t in tiles]))
    added = _add_missing(p, kept, alt, width)
    return [*tiles, *added[len(kept) :]], [*seen, *[True] * (len(added) - len(kept))]


def _blanks_read_again(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    tiles: list[TileReading],
    *,
    seen: list[bool],
    bounded: list[bool],
    spare: list[TileReading],
    width: float,
) -> tuple[list[TileReading], list[bool]]:
    """``(tiles, bounded)`` with each double blank that passed the checks (``seen``) but
    whose face runs on past its outline (``bounded`` false: see :func:`_blank_bounded`)
    read again: as the other reading of the frame (``spare``) read it there, or, read
    narrower than ``blank_widen_below_rel`` of the scene's ``width``, grown about its centre
    to that width; kept where its face ends at its outline, it passes the checks and
    clashes with no tile kept. A double blank read small leaves its own face beyond it:
    for instance (held out; a revealed 0-0 below a 4-4, blur 1.5) was read deconvolved
    and enlarged 14.5 px wide, 11 px off its middle, where the scene's tiles are 21.5 px
    wide, and the frame as it was reads it in place 22.3 px wide; for instance (held
    out; a revealed 0-0, thick tiles in dim light, in focus) was read in place but 14 px
    wide of 22.6. The twelve piles of ``scripts/pile_eval.py`` still read no tile."""
    kept = [t for t, ok in zip(tiles, bounded, strict=True) if ok]
    dropped = [t for t, s, b in zip(tiles, seen, bounded, strict=True) if s and not b]
    with_pips = [t for t in kept if _pips(t) > 0]
    found: list[TileReading] = []
    small = [d for d in dropped if _tile_width(d) < p.blank_widen_below_rel * width]
    widened = [_at_width(d, width) for d in small]
    for t in [*sorted(spare, key=lambda t: -t.confidence), *widened]:
        if (
            _pips(t) == 0
            and any(_clash(p, t, d, _tile_width(d), p.look_overlap_max_rel) for d in dropped)
            and not _clashes(p, t, kept + found)
            and _centres_seen(p, crop, [*kept, t])[-1]
            and _blank_bounded(p, crop, threshold, t, with_pips)
        ):
            found.append(t)
    return [*tiles, *found], [*bounded, *[True] * len(found)]


def _peak_readings(
    p: RecognitionParams, crop: U8, tiles: list[TileReading], seen: list[bool]
) -> tuple[list[TileReading], list[bool]]:
    """``(tiles, seen)`` with each tile the checks refused, and nothing kept in its place,
    read again as dark peaks in ``crop`` (see :func:`_peak_tile`), kept from
    ``upscale_min_confidence`` where that passes the checks: the pips of a 6 packed tight
    at a seam can run together into regions counted as a 7, whose centre
    is face; as dark peaks it reads 6."""
    kept = [t for t, ok in zip(tiles, seen, strict=True) if ok]
    found: list[TileReading] = []
    for t, width, axis in _refused(p, tiles, seen, kept, found):
        pose = TilePose(t.center, axis, 0.0)
        tile = _peak_tile(p, crop, _pose_proposal(pose, 0.0, 0.0, width))
        if (
            tile is not None
            and tile.confidence >= p.upscale_min_confidence
            and not _clashes(p, tile, kept + found)
            and _centres_seen(p, crop, [*kept, tile])[-1]
        ):
            found.append(tile)
    return [*tiles, *found], [*seen, *[True] * len(found)]


def _refused(
    p: RecognitionParams,
    tiles: list[TileReading],
    seen: list[bool],
    kept: list[TileReading],
    found: list[TileReading],
) -> Iterator[tuple[TileReading, float, Point]]:
    """Each tile of ``tiles`` the checks refused (``seen`` false) with nothing in its place
    among ``kept`` and ``found`` (as the caller adds to it), with its width and axis."""
    for t, ok in zip(tiles, seen, strict=True):
        width = _tile_width(t)
        if ok or any(_clash(p, t, k, width, p.look_overlap_max_rel) for k in kept + found):
            continue
        axis = _half_axis(t)
        if axis is not None:
            yield t, width, axis


#: how far along its axis a tile the checks refused is read again (see
#: :func:`_nudged_readings`), in tile widths
_NUDGES = (-0.15, -0.1, -0.05, 0.05, 0.1, 0.15)


def _nudged_readings(
    p: RecognitionParams, crop: U8, threshold: int, tiles: list[TileReading], seen: list[bool]
) -> tuple[list[TileReading], list[bool]]:
    """``(tiles, seen)`` with each tile the checks refused, and nothing kept in its place,
    read again a few pixels either way along its axis (``_NUDGES``); the surest reading
    that passes the checks, from ``upscale_min_confidence``, is kept. A tile placed by its
    outline in a dim, noisy frame can lie two pixels off along its axis: a row of its pip
    grid then falls on the bar, reads as ghosts, and the reading a pixel off counts a 3's
    pips as a 2 (for instance: a lone 3-2 read 2-2, its 3's middle pip at the half's
    centre, and refused)."""
    kept = [t for t, ok in zip(tiles, seen, strict=True) if ok]
    found: list[TileReading] = []
    labels: I32 | None = None
    for t, width, axis in _refused(p, tiles, seen, kept, found):
        if labels is None:
            labels, blobs = _dark_regions(p, crop, threshold, half_dark=True)
        (ux, uy), (cx, cy) = axis, t.center
        poses = [TilePose((cx + d * width * ux, cy + d * width * uy), axis, 0.0) for d in _NUDGES]
        places = [_pose_proposal(pose, 0.0, 0.0, width) for pose in poses]
        got = [
            r
            for r in _read_places(p, crop, labels, blobs, places, threshold=threshold, width=width)
            if r.confidence >= p.upscale_min_confidence
            and not _clashes(p, r, kept + found)
            and _centres_seen(p, crop, [*kept, r])[-1]
        ]
        if got:
            found.append(max(got, key=lambda r: r.confidence))
    return [*tiles, *found], [*seen, *[True] * len(found)]


def _centre_samples() -> F64:
    """``(94, 2)``: where :func:`_centre_darkness` samples a half (half-square units, along
    and across): the centre, the four corner pip places and the four middles of the sides
    (the pair along the tile, then the pair across), each as a cross of five samples (the
    first 45 rows), then a 7x7 grid over the half for the face's level."""
    s, r = STANDARD_SPACING, 0.15
    places = np.array(
        [(0.0, 0.0), (-s, -s), (s, s), (-s, s), (s, -s), (s, 0.0), (-s, 0.0), (0.0, s), (0.0, -s)]
    )
    cross = np.array([(0.0, 0.0), (r, 0.0), (-r, 0.0), (0.0, r), (0.0, -r)])
    g = np.linspace(-0.85, 0.85, 7)
    grid = np.array([(a, b) for a in g for b in g])
    out: F64 = np.vstack([(places[:, None, :] + cross[None, :, :]).reshape(-1, 2), grid])
    return out


_CENTRE_SAMPLES = _centre_samples()


def _centre_darkness(
    crop: U8, tiles: list[TileReading], pips: npt.NDArray[np.int64]
) -> tuple[F64, F64, F64]:
    """``(centre, level, sides)``, each ``(T, 2)``: per half of each tile (``pips``: its
    counts, ``(T, 2)``) read with corner pips (2 to 9), how much darker than the face its
    centre is in ``crop``, as a fraction of what its corner pips are (all four, or the
    darker diagonal of a 2 or a 3; NaN for a 0 or a 1, or where the corners are no darker
    than the face); how much darker than the face its pips are (its corner pips as above, a
    1's centre; a 0's centre, where a pip would be uncounted), as a fraction of the face;
    and its middles of the sides that its count says are pips (each pair's mean; the
    lighter pair for an 8 or a 9, the darker for the others), as a fraction of its corners
    like the centre. The face is
    the 90th percentile of a 7x7 grid over the half; each pip place is the darkest of a
    small cross of samples (see ``_CENTRE_SAMPLES``). All halves in one numpy pass."""
    half = np.array([[h.center for h in t.halves] for t in tiles], dtype=np.float64)  # (T,2,2)
    axis = half[:, 1] - half[:, 0]
    half_len = np.hypot(axis[:, 0], axis[:, 1]) / 2  # (T,)
    u = axis / np.maximum(2 * half_len, 1e-9)[:, None]
    half_wid = np.array([_tile_width(t) / 2 for t in tiles])
    uv = _CENTRE_SAMPLES  # (94, 2)
    # sample positions for every half: (T, 2, 94)
    along = uv[None, None, :, 0] * half_len[:, None, None]
    side = uv[None, None, :, 1] * half_wid[:, None, None]
    ux, uy = u[:, 0, None, None], u[:, 1, None, None]
    xs = half[:, :, 0, None] + along * ux - side * uy
    ys = half[:, :, 1, None] + along * uy + side * ux
    hh, ww = crop.shape
    xi = _clamped(np.rint(xs).astype(np.intp), 0, ww - 1)
    yi = _clamped(np.rint(ys).astype(np.intp), 0, hh - 1)
    grey = crop[yi, xi].astype(np.float64)  # (T, 2, 94)
    face = np.percentile(grey[..., 45:], 90, axis=-1)  # (T, 2)
    dark = face[..., None] - grey[..., :45].reshape(*grey.shape[:2], 9, 5).min(axis=-1)
    centre, corners, middles = dark[..., 0], dark[..., 1:5], dark[..., 5:]  # (T,2), (T,2,4) x2
    diagonal = np.maximum(corners[..., :2].mean(axis=-1), corners[..., 2:].mean(axis=-1))
    ref = np.where(pips <= 3, diagonal, np.median(corners, axis=-1))
    pairs = np.stack([middles[..., :2].mean(axis=-1), middles[..., 2:].mean(axis=-1)], axis=-1)
    # an 8 or a 9 has both pairs of middles as pips, a 6 or a 7 one of them
    middle = np.where(pips >= 8, pairs.min(axis=-1), pairs.max(axis=-1))
    with np.errstate(divide="ignore", invalid="ignore"):
        out: F64 = np.where((pips >= 2) & (ref > 0), centre / ref, np.nan)
        sides: F64 = np.where((pips >= 2) & (ref > 0), middle / ref, np.nan)
    level: F64 = np.where(pips <= 1, centre, ref) / np.maximum(face, 1.0)
    return out, level, sides


def _read_rest(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    first: tuple[list[TileReading], float, F64],
    *,
    blurred: bool = False,
) -> tuple[list[TileReading], float]:
    """The stages after the first reading (see :func:`identify`)."""
    tiles, width, spots = first
    tiles, width = _read_again(p, crop, threshold, tiles=tiles, width=width, spots=spots)
    read = _read_rest_at(p, crop, threshold, tiles=tiles, width=width, spots=spots, blanks=blurred)
    if not tiles or width <= 0:
        return read, width
    # the first look that found tiles set the scene's width from their bars, which the
    # visible sides of thick tiles widen. Where the tiles read since, or the pips' spacing,
    # disagree with it and spots are left unexplained, those widths are tried too (the
    # scene's first: it wins a tie)
    left = len(_unexplained(spots, read))
    if left == 0:
        return read, width
    best, best_width = read, width
    others: list[list[TileReading]] = []
    for other_width in _other_widths(p, tiles, spots):
        if other_width <= 0 or abs(other_width / width - 1) <= p.width_retry_rel:
            continue
        other = _read_rest_at(
            p, crop, threshold, tiles=tiles, width=other_width, spots=spots, blanks=blurred
        )
        others.append(other)
        other_left = len(_unexplained(spots, other))
        if other_left < left:
            best, best_width, left = other, other_width, other_left
    # a scene's tiles can differ in size (the seats' revealed tiles lie nearer a tilted
    # camera than the line): where spots are still unexplained, a tile another width read
    # there is kept too, clear of every tile kept (a tile placed at the wider scale can leave
    # no room for its neighbour at its own)
    rest = _unexplained(spots, best)
    losers = [r for r in [*others, read] if r is not best]
    for other in losers:
        # place by place too: where another width reads other pips in a tile's place, more
        # surely (for instance: a 4-3 read 4-2 at 0.51 at the scene's width, its 3's
        # third pip joined to the bar and no spot, 4-3 at 0.70 and 0.74 at both others)
        best = _surer(p, best, other, best_width)
        rest = _unexplained(spots, best)
        for t in other:
            if rest.shape[0] == 0:
                break
            if _inside(rest, t).any() and not _clashes(p, t, best):
                best = [*best, t]
                rest = _unexplained(spots, best)
        if rest.shape[0] == 0:
            break
    # a double blank explains no pip, so the count is blind to it: one another width reads
    # (its bar seen, see _read_places), clear of every tile kept, is kept too (for instance: a 0-0
    # at a turn, 22 px wide in a scene whose bars gave 26, its neighbours read
    # at 26 leaving no square of face free for the later looks)
    for other in losers:
        for t in other:
            if _pips(t) == 0 and not _clashes(p, t, best):
                best = [*best, t]
    return best, best_width


def _other_widths(
    p: RecognitionParams, tiles: list[TileReading], spots: F64
) -> tuple[float, float]:
    """The scene's tile width other than its bars': the median of ``tiles``, and the pips'
    spacing (see :func:`_pitch_width`; 0 where it gives none)."""
    return float(np.median([_tile_width(t) for t in tiles])), _pitch_width(p, spots)


def _blanks_at_other_widths(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    *,
    tiles: list[TileReading],
    width: float,
    spots: F64,
) -> list[TileReading]:
    """Double blanks read where a square of face is still free at the scene's other widths
    (the tiles read, the pips' spacing), clear of ``tiles``, with their bar seen. A double
    blank explains no pip, so :func:`_read_rest` never looks for one at another width; one
    of the seats' revealed tiles, far from a tilted camera, can be a fifth narrower than the
    scene's width, which the bars set (for instance: a 0-0 28.8 px wide in a scene read
    at 38 px, the visible sides of thick tiles widening the bars)."""
    found: list[TileReading] = []
    for other in _other_widths(p, tiles, spots):
        if other <= 0 or abs(other / width - 1) <= p.width_retry_rel:
            continue
        read = _read_rest_at(p, crop, threshold, tiles=tiles, width=other, spots=spots, blanks=True)
        found += _blanks_seen(p, [t for t in read if not any(t is k for k in tiles)], crop)
    return _add_missing(p, tiles, found, width)[len(tiles) :]


def _read_rest_at(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    *,
    tiles: list[TileReading],
    width: float,
    spots: F64,
    blanks: bool,
) -> list[TileReading]:
    """``tiles`` and what the stages after the looks add at ``width`` (see :func:`identify`)."""
    late: list[TileReading] = []
    tiles = tiles + _fill_gaps(p, crop, threshold, tiles=tiles, width=width, late=late)
    tiles = _read_outlines(p, crop, threshold, tiles=tiles, width=width, spots=spots, blanks=blanks)
    # tiles whose pips were counted as dark peaks (see :func:`_split_tiles`) come last: where
    # the outlines placed one, it stays
    for t in late:
        if not any(_clash(p, t, k, width, p.carve_overlap_max_rel) for k in tiles):
            tiles.append(t)
    return tiles


def _deblurred(p: RecognitionParams, crop: U8) -> U8 | None:
    """``crop`` with its blur taken out, or None when it is in focus (see
    :mod:`vision.recognition.deblur`): bars and seams a pixel thick come back."""
    measured = deblur.blur_sigma(crop, probe=p.blur_probe_px)
    added = deblur.added_blur(measured, floor=p.blur_floor_px, gain=p.blur_gain)
    log.debug("blur measured %.2f px, added %.2f px", measured, added)
    if added <= p.deblur_above_px:
        return None
    return deblur.deblurred(crop, added, noise_to_signal=p.deblur_noise_to_signal)


def _read_again(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    *,
    tiles: list[TileReading],
    width: float,
    spots: F64,
) -> tuple[list[TileReading], float]:
    """Look again where pip-like spots lie outside every tile read.

    A dividing bar about a pixel thick, or blurred, is fainter than ink, so its tile was not
    proposed. Each look reads the groups of spots still unexplained with faint line-like marks
    counted as dark (``look_faint_ratio``), sharpened by ``look_sharpen``. Small tiles
    (narrower than ``upscale_below_width_px``, or no tile read and tiny spots) are looked at
    enlarged by ``upscale_factor``, and the first look is merged with the first reading (the
    more confident tile wins where they overlap). Any other tile a look finds fills a gap
    only: it must hold an unexplained spot, be at the scene's scale, overlap no tile read
    before by more than ``look_overlap_max_rel``, and have ``upscale_min_confidence``.
    Where the first look set the scene's width from a few tiles, a later look reading more
    sets it again (``look_width_agree_rel``), and the tiles read at the old scale go.
    """
    if spots.shape[0] < 2:
        return tiles, width
    left = _unexplained(spots, tiles)
    if tiles and left.shape[0] < 2:
        return tiles, width  # every pip-like spot lies in a tile read
    if width > 0:
        small = width < p.upscale_below_width_px
        if width < p.look_upscale_below_width_px:
            # blur: bars too faint at this size leave many pips outside every tile read
            small |= left.shape[0] > p.reread_unexplained_rel * spots.shape[0]
    else:
        small = float(np.median(spots[:, 2])) <= p.look_upscale_below_width_px / 4
    # a blurred bar is faint even on tiles read fine elsewhere: gaps are looked at enlarged
    enlarge = small or width < p.look_upscale_below_width_px
    k = p.upscale_factor if enlarge else 1.0
    native: list[TileReading] = []
    guessed = 0  # how many tiles the first look's width came from, where it set it
    if small:
        # the first reading sits at the resolution limit: the enlarged one comes first, and
        # what it misses is taken from the first
        native, tiles = tiles, []
    for look_index, (sharpen, ratio) in enumerate(
        zip(p.look_sharpen, p.look_faint_ratio, strict=True)
    ):
        first = look_index == 0
        left = _unexplained(spots, tiles)
        if not 2 <= left.shape[0] <= p.look_max_spots:
            break  # nothing to explain, or noise: more spots than any set of tiles has pips
        margin = 2 * max(width, p.look_upscale_below_width_px)
        found: list[TileReading] = []
        for bx0, by0, bx1, by1 in _clusters(left, margin, crop.shape):
            part = _enlarged(crop[by0:by1, bx0:bx1], k, sharpen, p.look_sharpen_sigma)
            got, _, _ = _read_crop(p, part, threshold, faint_scale=k, faint_ratio=ratio)
            found += [
                _scaled(t, 1.0 / k).shifted(bx0, by0)
                for t in got
                if t.confidence >= p.upscale_min_confidence
                # too small to report, in the frame: a group of pips, which must not set the
                # scene's width (see _read_crop)
                and _tile_width(t) >= k * p.min_tile_width_px
            ]
        if not found:
            continue
        guess = float(np.median([_tile_width(t) for t in found]))
        if width <= 0 or (small and first):
            # each group of spots was read on its own: the scene's width is the typical one
            if float(np.median(spots[:, 2])) > p.spot_max_rel * guess:
                continue  # the spots are too big to be these tiles' pips: not tiles
            if width <= 0 or len(found) >= len(native) or _near(guess, width, p):
                width, guessed = guess, len(found)
            # else the many tiles read first agree with their bars' width, and a few read
            # enlarged, their bars shortened by blur, do not set another (for instance:
            # 1080p, blur 1.5, 17 tiles read at 34.5 px deconvolved, 27.5 px enlarged; a
            # 3-0 then read "0-2" at that width)
        elif len(found) >= max(3, 2 * len(tiles)) and not _near(guess, width, p):
            # the first width came from a few tiles measured badly (blur): the many tiles
            # read where spots were unexplained agree on another one. A tile read at the old
            # width goes, as below (for instance: a 0-0 at 13.5 px in a 23 px scene, which
            # set the old width, kept the room of the real 0-0 until the end)
            width = guess
            tiles = [t for t in tiles if _near(_tile_width(t), width, p)]
        elif guessed and len(found) > max(2, guessed) and not _agree(guess, width, p):
            # so did the first look's, where a later one reads more tiles (a few tiles read
            # across seams, or fitted between a half's pips, set it)
            width, guessed = guess, len(found)
            tiles = [t for t in tiles if _near(_tile_width(t), width, p)]
        # at the scene's scale (a group of pips read alone can pass for a tiny tile), and
        # after the first look only where spots were unexplained: faint print on an empty
        # board must not make a tile
        found = [
            t
            for t in found
            if abs(_tile_width(t) / width - 1) <= p.width_tolerance_rel
            and ((small and first) or _inside(left, t).any())
            and not _spotted_blank(t, left)
        ]
        if first and native:
            # the enlarged and the first reading: where they differ, the more confident
            tiles, native = _suppress_overlaps(p, native + found, width), []
        else:
            tiles = _add_missing(p, tiles, found, width)
    return _add_missing(p, tiles, native, width), width


def _spotted_blank(t: TileReading, spots: F64) -> bool:
    """Is ``t`` a double blank with two or more of ``spots`` well inside its face? A double
    blank has none: it is a tile whose pips a look missed (for instance: a crosswise 6-6
    at blur 1.5 in dim light, JPEG 55, read "0-0" at 1.0 enlarged, over its twelve spots)."""
    return _pips(t) == 0 and int(np.count_nonzero(_inside(spots, t, across=0.4, along=0.4))) >= 2


BLANK_FREE = 0.8
#: the side, in tile widths, of the square of free face that makes a frame in focus worth
#: looking at for a double blank (see :func:`_blank_room`)
BLANK_ROOM = 0.7


def _read_outlines(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    *,
    tiles: list[TileReading],
    width: float,
    spots: F64,
    blanks: bool = False,
    also: float = 0.0,
) -> list[TileReading]:
    """Where pips are still unexplained, place tiles by the outline of the faces (see
    :mod:`vision.recognition.poses`): blur can hide every bar of a line of tiles while its
    pips, its faces and the table stay clear. The places are read like bar proposals (their
    pips labelled at the face threshold, or else counted as dark peaks), and kept from
    ``upscale_min_confidence`` where they overlap no tile read. With no tile read at all,
    the width comes from faces standing alone or the strips' width, which the tiles' sides
    make a little too large: a few widths are tried and the one reading most tiles kept.
    ``blanks`` (a blurred frame, where a blank double's bar may not have been found): faces
    without any spot are looked at too. ``also``: another width tried (where it differs from
    ``width`` by more than ``width_retry_rel``)."""
    left = _unexplained(spots, tiles)
    if left.shape[0] > p.look_max_spots or (left.shape[0] == 0 and not tiles):
        return tiles
    widths = [width]
    if width > 0 and also > 0 and abs(also / width - 1) > p.width_retry_rel:
        widths.append(also)
    if width <= 0:
        if left.shape[0] == 0:
            return tiles
        # faces standing alone, the strips, and the pips' own spacing (the faces of a short
        # line with a crosswise double are no strip one tile wide) each give a guess
        widths = [
            guess * f
            for guess, factors in (
                (_outline_width(crop, threshold, left), (0.96, 0.91, 0.86)),
                (_strip_width(crop, threshold, left), (0.96, 0.91, 0.86)),
                (_pitch_width(p, left), (1.04, 1.0, 0.96)),
            )
            if guess > 0
            for f in factors
        ]
    # a tile placed at width w is read at most max(PEAK_SCALES) times w wide, and one
    # narrower than min_tile_width_px is never reported (see identify): such widths are not
    # tried. Their dark peaks cost seconds a frame where a camera sees the tiles that small
    # (a 480x270 fixture: 8-10 px tiles, 2-18 s a frame, all of it here, for no tile).
    widths = [w for w in widths if w >= _least_width(p)]
    if not widths:
        return tiles
    hgt, wid = crop.shape
    occupied = np.zeros((hgt, wid), dtype=np.uint8)
    for t in tiles:
        cv2.fillConvexPoly(occupied, np.rint(np.array(t.corners)).astype(np.int32), 1)
    if left.shape[0] == 0:
        # blurred pips may have joined a seam and be no spot at all: where a tile's area of
        # face lies outside every tile read, look for them labelled at the face threshold
        step = max(1, int(max(widths) / 8))
        free = (crop[::step, ::step] > threshold) & (occupied[::step, ::step] == 0)
        if not blanks or int(free.sum()) * step * step < max(widths) ** 2:
            return tiles
    labels, blobs = _dark_regions(p, crop, threshold, half_dark=True)
    # blurred pips joined to a seam are spots only at the face threshold
    left = np.vstack([left, _unexplained(_pip_like(p, blobs, max(widths)), tiles)])
    best: list[TileReading] = []
    reads: list[list[TileReading]] = []
    for w in widths:
        read = _outline_tiles(
            p,
            crop,
            threshold,
            labels,
            blobs,
            tiles=tiles,
            occupied=occupied,
            spots=left,
            width=w,
            blanks=blanks,
        )
        reads.append(read)
        if len(read) > len(best):
            best, best_width = read, w
    out = _add_missing(p, tiles, best, best_width) if best else tiles
    if best:
        # the width reading most tiles need not read every tile: what the other widths
        # place clear of every tile kept is kept too (surest first), where it explains pips
        # still unexplained (for instance: a blurred 1-4 at the end of a line, read at
        # two of the faces' guesses, not at the one reading most tiles) or, a double blank
        # explaining none, with its bar seen (for instance: a crosswise 0-0 between two
        # blank halves at a turn)
        others = [t for read in reads if read is not best for t in read]
        rest = _unexplained(left, out)
        for t in sorted(others, key=lambda t: -t.confidence):
            if _pips(t) == 0:
                keep = not _clashes(p, t, out) and _bar_seen(p, crop, t)
            else:
                explains = rest.shape[0] > 0 and bool(_inside(rest, t).any())
                keep = explains and not _clashes(p, t, out)
            if keep:
                out = [*out, t]
                rest = _unexplained(left, out)
    # A tile far from a tilted camera, lying along its view, looks narrower than the scene's
    # tiles and shorter still (1.75:1): w x 2w places stick out of its face. Where faces with
    # pips, or room for a double blank, are left, they are tiled again at that shape, and a
    # tile placed so is kept only with the table beyond both its ends (such tiles are the
    # ones revealed, standing apart; a place that short on a tile of the scene's shape cuts
    # a row of pips off, and the face goes on beyond it). Only faces standing apart are
    # looked at (``far_*`` params): on whole lines the trial found nothing and doubled the
    # time of the slowest blurred stills.
    w = best_width if best else widths[0]
    rest = _unexplained(left, out)
    if (rest.shape[0] == 0 and not blanks) or p.far_width_rel * w < _least_width(p):
        return out
    for t in out[len(tiles) :]:
        cv2.fillConvexPoly(occupied, np.rint(np.array(t.corners)).astype(np.int32), 1)
    far = _outline_tiles(
        p,
        crop,
        threshold,
        labels,
        blobs,
        tiles=out,
        occupied=occupied,
        spots=rest,
        width=p.far_width_rel * w,
        blanks=blanks,
        aspect=p.far_aspect,
        most=p.far_face_max_area_rel,
    )
    far = [t for t in far if _ends_on_table(crop, threshold, t)]
    return _add_missing(p, out, far, w) if far else out


def _least_width(p: RecognitionParams) -> float:
    """The narrowest width a place is read at: a tile read there can still be reported (the
    dark peaks' largest scale times it is ``min_tile_width_px``)."""
    return p.min_tile_width_px / max(1.0, *PEAK_SCALES)


def _ends_on_table(crop: U8, threshold: int, t: TileReading) -> bool:
    """Whether beyond each end of ``t``, from a sixth to a third of its width out (clear of a
    blurred rim), at most a fifth of the samples are face."""
    c = np.array(t.corners, dtype=np.float64)
    centre = c.mean(axis=0)
    end = (c[1] + c[2]) / 2 - centre  # from the centre to the second half's end
    side = (c[2] + c[3]) / 2 - centre  # from the centre to a long side
    width = 2 * math.hypot(*side)
    reach = (math.hypot(*end) + width * np.array([1 / 6, 1 / 4, 1 / 3])) / math.hypot(*end)
    across = np.linspace(-0.7, 0.7, 8)
    hh, ww = crop.shape
    for sign in (-1.0, 1.0):
        pts = centre + sign * reach[:, None, None] * end + across[None, :, None] * side
        xs, ys = np.rint(pts[..., 0]).astype(np.intp), np.rint(pts[..., 1]).astype(np.intp)
        if not ((xs >= 0) & (xs < ww) & (ys >= 0) & (ys < hh)).all():
            return False
        if (crop[ys, xs] > threshold).mean() > 0.2:
            return False
    return True


def _outline_tiles(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    labels: I32,
    blobs: _Blobs,
    *,
    tiles: list[TileReading],
    occupied: U8,
    spots: F64,
    width: float,
    blanks: bool,
    aspect: float = 0.0,
    most: float = 80.0,
) -> list[TileReading]:
    """The confident tiles placed by their outline at ``width`` (see :func:`_read_outlines`;
    ``aspect``: see :class:`_Proposal`), on faces of at most ``most`` squares of ``width``
    (see :func:`_face_boxes`)."""
    proposals: list[_Proposal] = []
    boxes = _face_boxes(crop, threshold, occupied, spots, width, blanks=blanks, most=most)
    for bx0, by0, bx1, by1 in boxes:
        part = crop[by0:by1, bx0:bx1]
        near = [t for t in tiles if bx0 <= t.center[0] < bx1 and by0 <= t.center[1] < by1]
        angle = _edge_angle(near) if near else dominant_angle(part)
        fit = functools.partial(
            fit_poses,
            part,
            width=width,
            threshold=threshold,
            occupied=occupied[by0:by1, bx0:bx1] > 0,
            angle=angle,
            max_tiles=2 * spots.shape[0] + 4,
            aspect=aspect or p.tile_aspect,
        )
        # closing up the pips closes a gap of a few pixels between two tiles too (revealed
        # tiles side by side): where nothing fits, the faces with their holes filled
        poses = fit() or fit(closed=False)
        proposals += [_pose_proposal(pose, bx0, by0, width, aspect) for pose in poses]
    return _read_places(
        p, crop, labels, blobs, proposals, threshold=threshold, width=width, lattice=True
    )


#: the squares looked at beyond each end of a tile (see :func:`_lone_ends`): the square itself,
#: the one beyond it, and the two beside it, in tile widths from the tile's centre
_BEYOND = ((1.5, 0.0), (2.5, 0.0), (1.5, -1.0), (1.5, 1.0))


def _lone_ends(
    crop: U8,
    threshold: int,
    tiles: list[TileReading],
    width: float,
    face: npt.NDArray[np.bool_] | None = None,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """``(lone, free, table)``, each ``(T, 2)``: per tile and end (first half's, second
    half's), is the square beyond it face in no other tile (``free``), is it a lone square
    besides (``lone``): another tile or the table beyond it, the table or tiles read beside
    it, and is it the table (``table``). A tile of a line is always followed by a whole tile
    or nothing, so only a tile read half a tile off leaves a lone square (or its neighbour
    read so). ``face``: :func:`_line_faces` of ``crop``, where the caller has it."""
    if face is None:
        face = _line_faces(crop, threshold, width)
    hh, ww = crop.shape
    poly = np.array([t.corners for t in tiles], dtype=np.float64)  # (T, 4, 2)
    c = poly.mean(axis=1)
    half = np.array([[h.center for h in t.halves] for t in tiles], dtype=np.float64)
    # along, one scene tile width long (a tile read across a seam may be read at another
    # scale; its centre lies on the seam all the same)
    u = half[:, 1] - half[:, 0]
    u *= width / np.maximum(np.hypot(u[:, 0], u[:, 1]), 1e-9)[:, None]
    v = np.column_stack([-u[:, 1], u[:, 0]])
    g = np.linspace(-0.35, 0.35, 5)
    ga, gb = (m.ravel() for m in np.meshgrid(g, g))
    # (T, end, square, sample, xy)
    sign = np.array([-1.0, 1.0])[None, :, None, None]
    at = np.array(_BEYOND)[None, None, :, None, :]
    a = sign * at[..., 0] + ga[None, None, None, :]
    b = at[..., 1] + gb[None, None, None, :]
    pts = (
        c[:, None, None, None, :]
        + a[..., None] * u[:, None, None, None, :]
        + b[..., None] * v[:, None, None, None, :]
    )
    xy = pts.reshape(-1, 2)
    xi, yi = np.rint(xy[:, 0]).astype(np.intp), np.rint(xy[:, 1]).astype(np.intp)
    inside_crop = (xi >= 0) & (xi < ww) & (yi >= 0) & (yi < hh)
    on_face = np.zeros(xy.shape[0], dtype=np.bool_)
    on_face[inside_crop] = face[yi[inside_crop], xi[inside_crop]]
    n = len(tiles)
    in_tile = _in_tiles(xy, tiles).reshape(n, 2, len(_BEYOND), ga.size, n)
    in_tile[np.arange(n), :, :, :, np.arange(n)] = False  # other tiles only
    in_other = in_tile.any(axis=-1)  # (T, end, square, sample)
    taken = in_other.mean(axis=-1)  # (T, end, square)
    on_face = on_face.reshape(n, 2, len(_BEYOND), ga.size)
    faced = on_face.mean(axis=-1)
    # taken by one row of samples at most: a neighbour read a pixel or two long
    free = (faced[..., 0] >= 0.9) & (taken[..., 0] <= 0.2)
    lone = free & ((taken[..., 1] >= 0.5) | (faced[..., 1] <= 0.3))
    # beside it, the table or tiles read (for instance: a 2-2 read across the 2s of a
    # 2-4 and a 1-2 at a turn; beside the 1 lies the next row's crosswise double)
    open_beside = (on_face & ~in_other).mean(axis=-1)
    lone &= np.maximum(open_beside[..., 2], open_beside[..., 3]) <= 0.3
    return lone, free, faced[..., 0] <= 0.3


def _line_faces(crop: U8, threshold: int, width: float) -> npt.NDArray[np.bool_]:
    """The faces of ``crop`` with pips, bars and seams closed up (see :func:`closed_faces`),
    at a fifth of a tile width either way."""
    return closed_faces(crop, threshold, max(3, 2 * round(0.2 * width) + 1))


def _clashes(p: RecognitionParams, t: TileReading, tiles: list[TileReading]) -> bool:
    return any(_clash(p, t, k, _tile_width(t), p.look_overlap_max_rel) for k in tiles)


def _overlaps(p: RecognitionParams, t: TileReading, tiles: list[TileReading]) -> bool:
    """Is ``t`` one of ``tiles`` (overlapping it by more than ``overlap_max_rel``)?"""
    return any(_clash(p, t, k, _tile_width(t), p.overlap_max_rel) for k in tiles)


def _swapped(
    p: RecognitionParams,
    tiles: list[TileReading],
    other: list[TileReading],
    spots: F64,
    width: float,
    *,
    across_two: bool = False,
) -> list[TileReading]:
    """``tiles`` with each tile that tiles of ``other`` (another reading of the frame)
    overlap replaced by them where they clash with no other tile and leave fewer of
    ``spots`` unexplained: the choice between two readings made place by place (for instance:
    deconvolved, the blank halves of a 2-0 and a 0-3 end to end read as a 0-0 across
    their seam, and the 2 and the 3 left; the frame as it was reads both tiles).
    ``across_two``: only a tile that two or more of ``other`` overlap is replaced (a tile
    read across a seam; where ``other`` is the deconvolved frame's reading, one tile for
    one could count its face's grain as pips: for instance), or one read too narrow by
    one at the scene's width."""
    out = list(tiles)
    for t in tiles:
        rest = [k for k in out if k is not t]
        if len(rest) == len(out):
            continue  # replaced already
        rivals = [
            o
            for o in other
            if _clash(p, o, t, width, p.look_overlap_max_rel) and not _clashes(p, o, rest)
        ]
        rivals = _add_missing(p, [], rivals, width)
        # one rival is enough for a tile read too narrow, where the rival is at the scene's
        # width (a seam or a half's pips read as a tile; see _small_tiles_dropped)
        narrow = _tile_width(t) < (1 - p.look_width_agree_rel) * width and all(
            _agree(_tile_width(o), width, p) for o in rivals
        )
        if len(rivals) < (2 if across_two and not narrow else 1):
            continue
        # a spot on the rim of a tile is one it leaves: a tile read too narrow at another
        # tile's place reaches its pips with its rim (for instance, deconvolved: a "0-0"
        # of 17.5 px over the blank of a 0-2 in a scene of 23, the 2's pips on its rim;
        # the frame as it was reads the 0-2)
        if _fewer_left(spots, rest + rivals, out, rim=0.5):
            out = rest + rivals
    return out


def _distinct(spots: F64) -> F64:
    """``spots`` without those lying within half a spot's size of an earlier one (the same
    pip seen in both frames, as it was and deconvolved)."""
    if spots.shape[0] < 2:
        return spots
    d = np.hypot(spots[:, None, 0] - spots[None, :, 0], spots[:, None, 1] - spots[None, :, 1])
    same = np.tril(d < 0.5 * np.maximum(spots[:, None, 2], spots[None, :, 2]), k=-1)
    out: F64 = spots[~same.any(axis=1)]
    return out


def _fewer_left(spots: F64, a: list[TileReading], b: list[TileReading], rim: float = 0.55) -> bool:
    """Does reading ``a`` leave fewer of ``spots`` unexplained than ``b`` (see
    :func:`_unexplained`)?"""
    return len(_unexplained(spots, a, rim=rim)) < len(_unexplained(spots, b, rim=rim))


def _swapped_runs(
    p: RecognitionParams,
    tiles: list[TileReading],
    other: list[TileReading],
    spots: F64,
    width: float,
) -> list[TileReading]:
    """``tiles`` with each run of tiles that tiles of ``other`` overlap in a chain (a part of
    the graph of overlaps between the two readings) replaced by ``other``'s tiles of that
    run, where those are as many or more, clash with no other tile and leave fewer of
    ``spots`` unexplained. A line read a half out of step, each tile across a seam, overlaps
    the tiles of the right reading two by two, so no one tile gives way to two (see
    :func:`_swapped`; for instance, blur 1.5: a crosswise 6-6, a 6-1 and a 1-2, read
    from the frame as it was as a "4-6" and a "1-1" across their seams, the 6-6's outer pips
    and the 2 left; deconvolved, all three read). As many: for instance, a "3-3" across
    a 6-3 and a 3-1 and a "1-0" over the 3-1's 1 and a crosswise 1-1, the 6 left; the
    deconvolved frame reads the 6-3 and the 3-1 (the 1-1 is read after). Over the tests'
    168 held-out scenes and seeds 1, 16 and 522's sweeps (1,968 scenes) a run of as many
    gave way nowhere else."""
    if not tiles or not other:
        return tiles
    links = [
        [j for j, o in enumerate(other) if _clash(p, o, t, width, p.look_overlap_max_rel)]
        for t in tiles
    ]
    seen: set[int] = set()
    out = list(tiles)
    for i in range(len(tiles)):
        if i in seen or not links[i]:
            continue
        mine, theirs, todo = {i}, set(links[i]), list(links[i])
        while todo:  # the run: tiles linked through the other reading's tiles
            j = todo.pop()
            for k, ks in enumerate(links):
                if j in ks and k not in mine:
                    mine.add(k)
                    for m in ks:
                        if m not in theirs:
                            theirs.add(m)
                            todo.append(m)
        seen |= mine
        if len(theirs) < len(mine):
            continue
        rest = [t for t in out if not any(t is tiles[k] for k in mine)]
        rivals = [other[j] for j in sorted(theirs)]
        if not any(_clashes(p, o, rest) for o in rivals) and _fewer_left(spots, rest + rivals, out):
            out = rest + rivals
    return out


def _surer(
    p: RecognitionParams,
    tiles: list[TileReading],
    plain: list[TileReading],
    width: float,
    *,
    seen: U8 | None = None,
) -> list[TileReading]:
    """``tiles`` (read deconvolved) with each tile replaced by a tile of ``plain`` (the
    frame as it was) read at the same place (both halves' centres within
    ``same_place_max_rel`` of a width) and scale (``width_tolerance_rel``), with other pips,
    more confidence and no more blank halves. Deconvolution sharpens a face's grain into
    spots of pip size that the frame as it was does not have (for instance: a 2-2 read
    4-2 at 0.39 deconvolved, 2-2 at 0.57 as it was). Blur can hide a lone pip, and a blank
    half's confidence says nothing of pips (for instance: a 1-0 read 0-0 at 1.0 as it
    was), hence no more blank halves; a tile read at another scale is no reading of this
    one (for instance: a 0-0 at 14.5 px over a 6-0 at 23 px). ``seen``: the frame as it
    was, where a rival must have its halves' centres as its counts say (see
    :func:`_centres_seen`): blur can take a 3's middle pip from the frame as it was, and the
    "2" it leaves, surer by a little, is refused at the end, the tile it replaced with it
    (for instance: a 3-3 read at 0.46 deconvolved, "2-2" at 0.48 as it was)."""
    out = []
    for t in tiles:
        rivals = [
            o
            for o in plain
            if o.confidence > t.confidence
            and sorted(o.pips) != sorted(t.pips)
            and o.pips.count(0) <= t.pips.count(0)
            and abs(_tile_width(o) / _tile_width(t) - 1) <= p.width_tolerance_rel
            and _same_place(o, t, p.same_place_max_rel * width)
        ]
        if seen is not None:
            rivals = [o for o, ok in zip(rivals, _centres_seen(p, seen, rivals), strict=True) if ok]
        out.append(max(rivals, key=lambda o: o.confidence) if rivals else t)
    return out


def _same_place(a: TileReading, b: TileReading, tolerance: float) -> bool:
    """Do ``a``'s halves lie on ``b``'s, in either order, within ``tolerance`` pixels?"""
    (a0, a1), (b0, b1) = (h.center for h in a.halves), (h.center for h in b.halves)
    return max(math.dist(a0, b0), math.dist(a1, b1)) <= tolerance or (
        max(math.dist(a0, b1), math.dist(a1, b0)) <= tolerance
    )


def _joining(
    p: RecognitionParams,
    sharp: U8,
    threshold: int,
    tiles: list[TileReading],
    plain: list[TileReading],
) -> list[TileReading]:
    """The tiles of ``plain`` (the frame as it was read) that join ``tiles`` read deconvolved
    (``sharp``): with pips, clear of every tile of ``tiles``, and a tile of them or the
    table beyond each end (one read across a seam between two tiles missed has their other
    halves beyond it, free)."""
    return [
        t
        for t in plain
        if _pips(t) > 0 and not _clashes(p, t, tiles) and _ends_closed(sharp, threshold, tiles, t)
    ]


def _ends_closed(crop: U8, threshold: int, tiles: list[TileReading], t: TileReading) -> bool:
    """Whether beyond each end of ``t`` lies one of ``tiles`` or the table: no face free of
    them (see :func:`_lone_ends`)."""
    _, free, _ = _lone_ends(crop, threshold, [*tiles, t], _tile_width(t))
    return not bool(free[-1].any())


def _room_left(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    tiles: list[TileReading],
    width: float,
    *,
    barred: bool = False,
) -> bool:
    """Is a double's room in a line (:func:`_gap_in_line`) or a square of face
    (:func:`_blank_room`, with ``barred`` as there) left outside every tile of ``tiles``?"""
    return _gap_in_line(crop, threshold, tiles, width, p.tile_aspect) or _blank_room(
        crop, threshold, tiles, width, barred=barred
    )


def _blank_room(
    crop: U8, threshold: int, tiles: list[TileReading], width: float, *, barred: bool = False
) -> bool:
    """Whether a square of face ``BLANK_ROOM`` of a tile width across lies outside every tile
    (on a grid an eighth of a tile width apart: the rims and visible sides of the tiles read
    are narrower, and erode away). A double blank laid crosswise between two tiles read a
    pixel or two too wide leaves about 0.7 w of its face free. With ``barred``, a line of
    the grid one sample thick is bridged first: a double blank's bar splits its face into
    two squares, and with tiles read touching it on two sides (laid lengthwise at a turn of
    the line: for instance, its pips 4.5 px) neither is that wide."""
    if not tiles or width <= 0:
        return False
    return bool(_free_room(crop, threshold, tiles, width, barred=barred)[1].any())


def _free_room(
    crop: U8, threshold: int, tiles: list[TileReading], width: float, *, barred: bool = False
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8], int]:
    """The free face of :func:`_free_face` (with ``barred``, bridged as in
    :func:`_blank_room`), where a square of it ``BLANK_ROOM`` of a tile width across fits
    (1, else 0), and the sampling step."""
    free, step = _free_face(crop, threshold, tiles, width)
    if barred:
        free = cv2.morphologyEx(free, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)).view(np.uint8)
    k = max(1, round(BLANK_ROOM * width / step))
    room: npt.NDArray[np.uint8] = cv2.erode(free, np.ones((k, k), np.uint8)).view(np.uint8)
    return free, room, step


def _free_face(
    crop: U8, threshold: int, tiles: list[TileReading], width: float
) -> tuple[npt.NDArray[np.uint8], int]:
    """The face outside every tile of ``tiles`` (1, else 0), sampled every ``step`` pixels
    (an eighth of a tile ``width``), and that step."""
    step = max(1, int(width / 8))
    face = (crop[::step, ::step] > threshold).view(np.uint8)
    occupied = np.zeros_like(face)
    for t in tiles:
        # a pixel's sample lies at its top left corner: the tile grown by one sample
        cv2.fillConvexPoly(occupied, np.rint(np.array(t.corners) / step).astype(np.int32), 1)
    free: npt.NDArray[np.uint8] = face & (cv2.dilate(occupied, np.ones((3, 3), np.uint8)) == 0)
    return free, step


#: the widths, as shares of the scene's, a double blank is looked for at in a room of free
#: face (see :func:`_blanks_in_rooms`)
ROOM_WIDTHS = (1.0, 0.92, 1.08)
#: the least and most area of such a room, as shares of a tile's (its rims and the seams
#: beside it are not free face; a room larger is the faces of more than one)
ROOM_AREA = (0.5, 1.3)


def _blanks_in_rooms(
    p: RecognitionParams,
    frames: list[U8],
    threshold: int,
    *,
    tiles: list[TileReading],
    width: float,
) -> list[TileReading]:
    """Double blanks read in the rooms of free face (see :func:`_blank_room`) that no other
    look filled and that are a tile's face in area (``ROOM_AREA``): each read where its
    room's face is centred, along the room's longer way of
    the tiles' edges first, at each of ``ROOM_WIDTHS``, in the first of ``frames`` that
    reads it; kept with its bar seen in a frame and clear of ``tiles``. A double blank laid
    crosswise between two tiles and standing out of their line joins their faces, and no
    outline of its own places it (for instance: a 0-0 of thick tiles at blur 1.5 and JPEG
    55, between a 2-0 and a 0-3, read deconvolved at 0.92 of the scene's width; its bar dips
    6.2 there and 5.3 in the frame as it was, under the 5.5 that a double blank read
    elsewhere needs: here the room is the evidence that a tile lies). In focus too, where
    the scene's other widths read none (for instance: a lone 0-0 a pixel or two from a
    5-5, 1.06 of the scene's width near a tilted camera; its outline, fitted at the scene's
    width and at the pips' spacing, placed it 6-8 px off its bar)."""
    free, room, step = _free_room(frames[-1], threshold, tiles, width)
    if not room.any():
        return []
    _, labels = cv2.connectedComponents(free, connectivity=8)
    base = _edge_angle(tiles)
    u = np.array([math.cos(base), math.sin(base)])
    v = np.array([-u[1], u[0]])
    regions = _regions_of(p, frames, threshold)
    found: list[TileReading] = []
    for label in np.unique(labels[room > 0]).tolist():
        ys, xs = np.nonzero(labels == label)
        if not ROOM_AREA[0] <= xs.size * step**2 / (2 * width**2) <= ROOM_AREA[1]:
            continue  # not a tile's face: a part of one, or of many
        xy = np.column_stack([xs, ys]).astype(np.float64) * step
        centre = xy.mean(axis=0)
        spread = [float(np.var(xy @ a)) for a in (u, v)]
        axes = [u, v] if spread[0] >= spread[1] else [v, u]
        places = [
            (
                _pose_proposal(
                    TilePose((float(centre[0]), float(centre[1])), (float(a[0]), float(a[1])), 0.0),
                    0.0,
                    0.0,
                    w * width,
                ),
                w * width,
            )
            for a in axes
            for w in ROOM_WIDTHS
        ]

        def keeps(r: TileReading, centre: F64 = centre) -> bool:
            return (
                _pips(r) == 0
                and math.dist(r.center, centre) <= 0.25 * width
                and any(_bar_seen(p, frame, r) for frame in frames)
                and not _clashes(p, r, tiles + found)
            )

        got = _first_read(p, frames, regions, places=places, threshold=threshold, keep=keeps)
        if got is not None:
            found.append(got)
    return found


def _gap_in_line(
    crop: U8, threshold: int, tiles: list[TileReading], width: float, aspect: float
) -> bool:
    """Whether two tiles read lie end to end in a line a tile width apart, with face between
    them and no tile read there: the room of a double laid crosswise, unread (see
    :func:`_line_gaps`)."""
    return bool(_line_gaps(crop, threshold, tiles, width, aspect))


def _line_gaps(
    crop: U8, threshold: int, tiles: list[TileReading], width: float, aspect: float
) -> list[tuple[F64, F64]]:
    """``(centre, along the line)`` of each room of a double laid crosswise, unread: two
    tiles read end to end in a line about a tile width apart, face between them and no tile
    read there. A double blank there between two blank halves leaves a
    square of free face too small for :func:`_blank_room` once the tiles either side are
    read a pixel or two long, and looking everywhere at that size costs half again on frames
    in focus. The room is looked for from half a tile width: thick tiles seen from a tilted
    camera read wider than their faces (their visible sides), and a line running away from
    it is foreshortened, both of which shorten the room measured in the scene's widths (seed
    another: 0.63 of one, a crosswise 0-0 between two blank halves, tilt 18 degrees)."""
    if width <= 0 or len(tiles) < 2:
        return []
    centre, u = _axes(tiles)
    rel = centre[None, :, :] - centre[:, None, :]  # (tile, other, xy)
    along = np.abs((rel * u[:, None, :]).sum(axis=-1))
    across = np.abs(rel[..., 1] * u[:, None, 0] - rel[..., 0] * u[:, None, 1])
    gap = along / width - aspect  # between the two tiles' near ends, in tile widths
    pairs = (np.abs(u @ u.T) > 0.95) & (across < 0.25 * width) & (gap > 0.5) & (gap < 1.3)
    rooms: list[tuple[F64, F64]] = []
    for i, j in zip(*np.nonzero(np.triu(pairs)), strict=True):
        mid = (centre[i] + centre[j]) / 2
        if np.hypot(*(centre - mid).T).min() < 0.75 * width:
            continue  # a tile read there (the double, or one beside the line)
        # the double's bar, if it is one, runs along the line through the middle
        if _face_share(crop, threshold, mid, u[i], 0.25 * width) >= 0.75:
            rooms.append((mid, u[i]))
    return rooms


def _gap_blanks(
    p: RecognitionParams, crop: U8, threshold: int, tiles: list[TileReading], width: float
) -> list[TileReading]:
    """Double blanks read in the rooms of :func:`_line_gaps` still empty: placed across the
    line, centred between the tiles either side, kept with their bar seen and clear of every
    tile read. Their neighbours, read at the scene's width (a thick tile's visible side
    widens it), can reach a few pixels into such a room on both sides, which then has no
    space for the outline stage to fit a tile of that width."""
    rooms = _line_gaps(crop, threshold, tiles, width, p.tile_aspect)
    if not rooms:
        return []
    labels, blobs = _dark_regions(p, crop, threshold, half_dark=True)
    proposals = [
        _placed((float(mid[0]), float(mid[1])), (-float(u[1]), float(u[0])), width, measured=False)
        for mid, u in rooms
    ]
    read = _read_places(
        p, crop, labels, blobs, proposals, threshold=threshold, width=width, lattice=True
    )
    found: list[TileReading] = []
    for t in _blanks_seen(p, read, crop):
        if not _clashes(p, t, tiles + found):
            found.append(t)
    return found


def _face_share(crop: U8, threshold: int, centre: F64, axis: F64, half_side: float) -> float:
    """The share of face in a square 5x5 grid of samples ``half_side`` either side of
    ``centre``, its sides along ``axis`` and square to it (0 where it leaves the crop)."""
    g = np.linspace(-half_side, half_side, 5)
    ga, gb = (m.ravel() for m in np.meshgrid(g, g))
    (ux, uy), (cx, cy) = axis, centre
    xs = np.rint(cx + ga * ux - gb * uy).astype(np.intp)
    ys = np.rint(cy + ga * uy + gb * ux).astype(np.intp)
    hh, ww = crop.shape
    if not ((xs >= 0) & (xs < ww) & (ys >= 0) & (ys < hh)).all():
        return 0.0
    return float((crop[ys, xs] > threshold).mean())


def _lengthwise_doubles(crop: U8, threshold: int, tiles: list[TileReading], width: float) -> bool:
    """Whether a double lies with no tile along its long sides but one or face beyond an end:
    one read across a seam of a line lies lengthwise in it (a double laid crosswise has the
    line's tiles along its sides), with the line's next tile beyond it, or the other halves of
    the two tiles it straddles, unread (a double standing alone has the table round it)."""
    if width <= 0 or len(tiles) < 2:
        return False
    beside, beyond = _neighbours(tiles, width)
    alone = _doubles(tiles) & ~beside
    if (alone & beyond).any():
        return True
    centre, axis = _axes(tiles)
    for i in np.flatnonzero(alone).tolist():
        for end in (-1.5 * width, 1.5 * width):
            at = centre[i] + end * axis[i]
            if _face_share(crop, threshold, at, axis[i], 0.35 * width) >= 0.6:
                return True
    return False


def _half_axis(t: TileReading) -> Point | None:
    """The unit vector from ``t``'s first half's centre towards its second's (``None`` where
    they coincide); see :func:`_axes` for many tiles at once."""
    (ax, ay), (bx, by) = t.halves[0].center, t.halves[1].center
    d = math.hypot(bx - ax, by - ay)
    return None if d <= 0 else ((bx - ax) / d, (by - ay) / d)


def _doubles(tiles: list[TileReading]) -> npt.NDArray[np.bool_]:
    """Per tile: are both its halves alike?"""
    return np.array([t.halves[0].pips == t.halves[1].pips for t in tiles], dtype=np.bool_)


def _axes(tiles: list[TileReading]) -> tuple[F64, F64]:
    """``(centre, axis)``, each ``(T, 2)``: per tile, its centre and the unit vector from its
    first half's centre towards its second's."""
    half = np.array([[h.center for h in t.halves] for t in tiles], dtype=np.float64)
    axis = half[:, 1] - half[:, 0]
    axis /= np.maximum(np.hypot(axis[:, 0], axis[:, 1]), 1e-9)[:, None]
    return half.mean(axis=1), axis


def _neighbours(
    tiles: list[TileReading], width: float
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Per tile: is another tile's centre beside it (along a long side, the other tile square
    to it: a crosswise double's line), and beyond an end (in line with it, within three and a
    half tile widths). A tile of the next row of a line that turned back lies beside a tile
    of this row too, but parallel to it."""
    centre, u = _axes(tiles)
    rel = centre[None, :, :] - centre[:, None, :]  # (tile, other, xy)
    along = np.abs((rel * u[:, None, :]).sum(axis=-1))
    across = np.abs(rel[..., 1] * u[:, None, 0] - rel[..., 0] * u[:, None, 1])
    square = np.abs(u @ u.T) < 0.5
    beside = (along < width) & (across > 0.5 * width) & (across < 2 * width) & square
    beyond = (across < 0.5 * width) & (along > 0.5 * width) & (along < 3.5 * width)
    return beside.any(axis=1), beyond.any(axis=1)


#: how far along, in scene widths, the next double of a chain read across a line's seams lies
#: from one (a tile's length, two widths, where the scene's width is right; see
#: :func:`_straddling_chains`)
CHAIN_ALONG = (1.7, 2.6)


def _straddling_chains(
    tiles: list[TileReading],
    lone: npt.NDArray[np.bool_],
    open_end: npt.NDArray[np.bool_],
    width: float,
) -> npt.NDArray[np.bool_]:
    """Per tile: is it one of a chain of tiles read across successive seams of a line? The
    halves either side of a seam match, so each such tile is a double, lengthwise, end to
    end with the next: a chain of doubles from a lone square beyond one end of the chain to
    an ``open`` end beyond the other (free face, or the table: the line turned there, and
    the tile at the turn lies across the chain's first square; see :func:`_lone_ends`), or
    of two doubles or more with an open end beyond each end of the chain (no line holds two
    doubles end to end)."""
    n = len(tiles)
    marked = np.zeros(n, dtype=np.bool_)
    centre, axis = _axes(tiles)  # axis: towards the second half's end
    double = _doubles(tiles)
    flanked, _ = _neighbours(tiles, width)

    def beyond(i: int, end: int) -> tuple[int, int] | None:
        """The double end to end with tile ``i`` beyond its ``end``, and its far end (a
        tile read across a seam may be read at another scale: the scene's width counts).
        Its centre lies a tile's length along, ``CHAIN_ALONG`` scene widths: where a look
        set the scene's width from a seam read as a bar, the width can be a sixth short
        (for instance, blur 1.5: a "0-0" at 18 px in a scene of 21, the chain's doubles
        42.5 px apart)."""
        step = (1.0 if end else -1.0) * axis[i]
        d = (centre - centre[i]) / width
        along = d @ step
        across = np.abs(d @ np.array([-step[1], step[0]]))
        lo, hi = CHAIN_ALONG
        near = double & (along > lo) & (along < hi) & (across < 0.3)
        near = np.flatnonzero(near & (np.abs(axis @ axis[i]) > 0.95))
        if near.size != 1:
            return None
        j = int(near[0])
        return j, int(axis[j] @ step > 0)

    for i in np.flatnonzero(double & open_end.any(axis=1)).tolist():
        # walk away from the lone square, else from the open end
        start_lone = bool(lone[i].any())
        end = (0 if lone[i, 1] else 1) if start_lone else (0 if open_end[i, 1] else 1)
        chain, at = [i], beyond(i, end)
        if start_lone and open_end[i, end]:
            marked[i] = True  # a chain of one: the table (a turn) beyond its other end
        while at is not None and at[0] not in chain:
            j, far = at
            chain.append(j)
            if open_end[j, far]:
                # from a lone square; or two doubles or more end to end, lengthwise (no
                # tile beside them), which no line holds: a double's neighbour along it
                # is no double, each tile being unique (crosswise doubles either side of
                # a turn may lie end to end, with their lines' tiles beside them)
                if start_lone or (len(chain) >= 2 and not flanked[chain].any()):
                    marked[chain] = True
                break
            at = beyond(j, far)
        else:
            # no double in line beyond the last one, and no open end: from a lone square,
            # two doubles or more end to end, lengthwise, are no line's either (for instance: 6-6,
            # 5-5, 3-3 read across the seams of a line's last four tiles, the
            # last one's 3 and the next row's met at the turn, read as a 3-3 too)
            if start_lone and len(chain) >= 2 and not flanked[chain].any():
                marked[chain] = True
    return marked


def _aligned(crop: U8, t: TileReading, width: float) -> TileReading:
    """``t`` turned to the strongest edges around it (a tile and its line's neighbours),
    when they differ by a little: a tile proposed by a short straight seam, a pixel wide, can
    lie square to the pixel grid while its line is a few degrees off it."""
    cx, cy = t.center
    r = int(1.5 * width) + 1
    hh, ww = crop.shape
    x0, y0 = max(0, int(cx) - r), max(0, int(cy) - r)
    patch = crop[y0 : min(hh, int(cy) + r + 1), x0 : min(ww, int(cx) + r + 1)]
    if min(patch.shape) < r:
        return t
    (ax, ay), (bx, by) = t.halves[0].center, t.halves[1].center
    turn = (dominant_angle(patch) - math.atan2(by - ay, bx - ax)) % (math.pi / 2)
    turn = turn - math.pi / 2 if turn > math.pi / 4 else turn
    if not math.radians(0.5) <= abs(turn) <= math.radians(12):
        return t
    return _rotated(t, turn)


def _centred_across(face: npt.NDArray[np.bool_], t: TileReading, width: float) -> TileReading:
    """``t`` moved square to its axis into the middle of the band of ``face`` (faces with
    their pips and seams closed up) it lies in, where that band is about a tile wide: a
    seam read as a bar can be placed a fifth of a tile off its line's middle, and the
    squares beyond its ends then reach off the line."""
    axis = _half_axis(t)
    if axis is None or width <= 0:
        return t
    (ux, uy), (cx, cy) = axis, t.center
    offsets = np.arange(-round(width), round(width) + 1, dtype=np.float64)
    along = np.linspace(-0.9, 0.9, 9) * width
    xs = np.rint(cx + along[None, :] * ux - offsets[:, None] * uy).astype(np.intp)
    ys = np.rint(cy + along[None, :] * uy + offsets[:, None] * ux).astype(np.intp)
    hh, ww = face.shape
    if xs.min() < 0 or ys.min() < 0 or xs.max() >= ww or ys.max() >= hh:
        return t
    band = face[ys, xs].mean(axis=1) >= 0.5  # per offset across
    mid = len(offsets) // 2
    if not band[mid]:
        return t
    outside = np.flatnonzero(~band)
    below, above = outside[outside < mid], outside[outside > mid]
    if not below.size or not above.size:
        return t  # face all the way: no line's band (a crosswise double, a block)
    lo, hi = offsets[below[-1] + 1], offsets[above[0] - 1]
    if abs((hi - lo + 1) / width - 1) > 0.2:
        return t
    shift = (lo + hi) / 2
    if shift == 0:
        return t
    return t.shifted(-shift * uy, shift * ux)


def _unstraddled(
    p: RecognitionParams, crop: U8, threshold: int, tiles: list[TileReading], width: float
) -> list[TileReading]:
    """``tiles`` with the tiles read across a seam read again (see :func:`_unstraddled_once`),
    until none is (at most three times): a tile read again can uncover the square beyond
    one read across the next seam (the straddles of a 6-6 and a 4-4 across both seams of a
    6-4, at a turn)."""
    for _ in range(3):
        out = _unstraddled_once(p, crop, threshold, tiles, width)
        if out == tiles:
            break
        tiles = out
    return tiles


def _unstraddled_once(
    p: RecognitionParams, crop: U8, threshold: int, tiles: list[TileReading], width: float
) -> list[TileReading]:
    """``tiles`` with each tile read across a seam read again a scene tile width either way
    of it. Where bars and seams are equally faint (white tiles, a deblurred frame), a tile
    can be read across a seam, one half of each of two touching tiles; the two read in its
    place replace it (either one, if the other does not read). Such a tile is one with a
    lone square of face beyond one end and free face beyond the other (see
    :func:`_lone_ends`; its neighbour beyond the lone square has that lone square too, but a
    tile read or the table beyond its other end), or one of a chain of doubles (see
    :func:`_straddling_chains`). A double with free face beyond both ends is replaced only
    where both tiles read."""
    if not tiles or width <= 0:
        return tiles
    double = _doubles(tiles)
    # a tile read across a seam is a double: it is looked at along its line's edges, and
    # in the middle of its line's band of face
    face = _line_faces(crop, threshold, width)
    axed = [
        _centred_across(face, _aligned(crop, t, width), width) if d else t
        for t, d in zip(tiles, double, strict=True)
    ]
    lone, free, table = _lone_ends(crop, threshold, axed, width, face)
    both = (lone[:, 0] & free[:, 1]) | (lone[:, 1] & free[:, 0])
    both |= _straddling_chains(axed, lone, free | table, width)
    # a double with a lone square beyond one end and a tile read beyond the other: one read
    # across the seam between a tile's half and a crosswise double's middle (for instance: a 0-0
    # across a 5-0's blank half and the 0-0 laid across the line after it, the
    # 0-1 beyond); read again, what reads clear of the tiles kept replaces it
    closed = ~free & ~table
    both |= double & ((lone[:, 0] & closed[:, 1]) | (lone[:, 1] & closed[:, 0]))
    # a double with free face beyond both ends: read again too, but replaced only by two
    # tiles (a double lengthwise between two tiles unread reads the same way)
    pair = double & free[:, 0] & free[:, 1] & ~both
    # a double with the table beyond one end and face beyond the other: at a turn, one read
    # across the seam between the tile laid across the turn and the next; read again as
    # those two, replaced only where both read (see _round_turn). One with a lone square
    # beyond its other end (a chain of one, above) too: read only a tile either way, its half
    # at the table was left to the outline stage, which reads the frame as it was (for instance: a
    # 3-3 read across the 3-3 laid lengthwise at a turn and the 3 of the 4-3 before
    # it; the 3-3 was then read 3-2 at 0.48 in the blurred frame, and dropped)
    turn = double & ~pair & ((table[:, 0] & free[:, 1]) | (table[:, 1] & free[:, 0]))
    if not (both | pair | turn).any():
        return tiles
    labels, blobs = _dark_regions(p, crop, threshold, half_dark=True)
    turns = {
        i: _round_turn(
            p,
            crop,
            face,
            labels,
            blobs,
            threshold=threshold,
            tiles=tiles,
            i=i,
            end=int(table[i, 1]),
            width=width,
        )
        for i in np.flatnonzero(turn).tolist()
    }
    # where the double had a lone square beyond its other end, its reading round the turn
    # is kept only where it reads the double's halves as the double did: a tile either way
    # reads it as well, and a half read deconvolved can ring into another count (for instance: a 5-0
    # across a turn read 2-0 so, at 0.52; the outline stage reads it 5-0)
    turns = {
        i: got
        for i, got in turns.items()
        if got and (not both[i] or _halves_kept(tiles[i], got, width))
    }
    for i in turns:
        pair[i] = True
    out = [t for t, off in zip(tiles, both | pair, strict=True) if not off]
    again: list[TileReading] = []

    def either_side(t: TileReading) -> list[TileReading]:
        """What reads a scene tile width either way of ``t`` along its axis (its centre lies
        on the seam whatever its size: a look at another scale reads it smaller)."""
        axis = _half_axis(t)
        if axis is None:
            return []
        (ux, uy), (cx, cy), shifts = axis, t.center, (-width, width)
        poses = [TilePose((cx + s * ux, cy + s * uy), (ux, uy), 0.0) for s in shifts]
        places = [_pose_proposal(pose, 0.0, 0.0, width) for pose in poses]
        return _read_places(p, crop, labels, blobs, places, threshold=threshold, width=width)

    def clear(got: list[TileReading]) -> list[TileReading]:
        """The tiles of ``got`` that clash with no tile kept."""
        return [
            r for r in got if not any(_clash(p, r, k, width, p.look_overlap_max_rel) for k in out)
        ]

    # along the line's edges and along its own axis (a pixel or a degree decides whether a
    # blurred half reads): the one that reads more, then more surely
    def rank(got: list[TileReading]) -> tuple[int, float]:
        """How many of ``got`` clash with no tile kept, then how surely they read."""
        fit = clear(got)
        return len(fit), sum(r.confidence for r in fit)

    looks = {
        i: turns.get(i)
        or max((either_side(a) for a in ((ta, t) if ta is not t else (t,))), key=rank)
        for i, (t, ta, off) in enumerate(zip(tiles, axed, both | pair, strict=True))
        if off
    }
    # a tile whose two neighbours both read goes first: a double read right, beside a tile
    # sharing its number, reads a double again half a tile along (across their seam), where
    # the tile read across the seam beyond that tile places its neighbour
    for i in sorted(looks, key=lambda i: -len(clear(looks[i]))):
        t, got = tiles[i], looks[i]
        read = clear(got)
        if bool(pair[i]) and len(read) < 2:
            out.append(t)
            continue
        again += read
        # kept where neither place reads, unless a tile of its chain read again lies there
        if not read and not any(_clash(p, k, t, width, p.look_overlap_max_rel) for k in again):
            read = [t]
        out += read
    return out


def _halves_kept(t: TileReading, got: list[TileReading], width: float) -> bool:
    """Does each half of ``t`` have a half of ``got`` within half a ``width`` of it, with as
    many pips?"""
    for h in t.halves:
        near = [
            k.pips for g in got for k in g.halves if math.dist(k.center, h.center) <= 0.5 * width
        ]
        if near != [h.pips]:
            return False
    return True


def _round_turn(
    p: RecognitionParams,
    crop: U8,
    face: npt.NDArray[np.bool_],
    labels: I32,
    blobs: _Blobs,
    *,
    threshold: int,
    tiles: list[TileReading],
    i: int,
    end: int,
    width: float,
) -> list[TileReading]:
    """The double ``tiles[i]``, with the table beyond its ``end`` (0: its first half's),
    read again as the two tiles it may lie across at a turn: its half at that end and a
    square of face beside it in no tile (``face``: :func:`_line_faces`), the tile laid
    across the turn; and its other half with the square beyond it. Both, or nothing (seed
    another: a 4-4 read across the 4s of a 4-3 laid down the turn and the 0-4 after it,
    the 3 left beside it, and the 0-4's blank half beyond it)."""
    t = tiles[i]
    axis = _half_axis(t)
    if axis is None:
        return []
    u = np.array(axis)
    v = np.array([-u[1], u[0]])
    turned = np.array(t.halves[end].center)
    g = np.linspace(-0.35, 0.35, 5) * width
    grid = np.stack([m.ravel() for m in np.meshgrid(g, g)], axis=1)  # (25, 2)
    hh, ww = face.shape
    others = [k for j, k in enumerate(tiles) if j != i]
    beside: list[F64] = []
    for side in (-1.0, 1.0):
        pts = turned + side * width * v + grid
        xi, yi = np.rint(pts[:, 0]).astype(np.intp), np.rint(pts[:, 1]).astype(np.intp)
        if xi.min() < 0 or yi.min() < 0 or xi.max() >= ww or yi.max() >= hh:
            continue
        taken = _in_tiles(pts, others).any(axis=1) if others else np.zeros(len(pts), np.bool_)
        if (face[yi, xi] & ~taken).mean() >= 0.9:
            beside.append(side * v)
    if len(beside) != 1:
        return []
    step = (1.0 if end else -1.0) * u  # from the centre towards the turn
    poses = [
        TilePose(tuple(turned + 0.5 * width * beside[0]), tuple(beside[0]), 0.0),
        TilePose(tuple(np.array(t.center) - width * step), axis, 0.0),
    ]
    places = [_pose_proposal(q, 0.0, 0.0, width) for q in poses]
    got = _read_places(p, crop, labels, blobs, places, threshold=threshold, width=width)
    if len(got) != 2 or any(_clashes(p, k, others) for k in got):
        return []
    return got


def _unstraddled_placed(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    tiles: list[TileReading],
    width: float,
    *,
    seen: U8,
    spots: F64,
    blanks: bool,
) -> list[TileReading]:
    """``tiles`` after :func:`_unstraddled` in ``seen`` (the frame they were read in), and
    where it read a tile again, after the outline stage once more on ``crop`` (see
    :func:`_read_outlines`): the tile read again can be what the outline stage had tiled a
    face round, placing the next tile of its line half a tile off or not at all."""
    unstraddled = _unstraddled(p, seen, threshold, tiles, width)
    if unstraddled == tiles:
        return tiles
    return _read_outlines(
        p, crop, threshold, tiles=unstraddled, width=width, spots=spots, blanks=blanks
    )


def _read_places(
    p: RecognitionParams,
    crop: U8,
    labels: I32,
    blobs: _Blobs,
    proposals: list[_Proposal],
    *,
    threshold: int,
    width: float,
    lattice: bool = False,
) -> list[TileReading]:
    """The confident tiles at places found without their bar (``proposals``): each centred on
    its pips (``lattice``: see :func:`_centred_on_pips`) and labelled, or where blur joined
    or lost pips, read as dark peaks; each half on face at ``threshold`` (see
    :func:`_on_face`)."""
    if not proposals:
        return []
    pip_ids = _pip_candidates(p, blobs, width)
    placed = proposals
    proposals = [_centred_on_pips(pr, blobs, pip_ids, lattice=lattice) for pr in placed]
    read = _read_tiles(
        p, crop, labels, blobs, proposals, width=width, spacing_hint=STANDARD_SPACING
    )
    read = [t for t in read if t.confidence >= p.upscale_min_confidence]
    for pr, at in zip(proposals, placed, strict=True):
        if any(math.dist(t.center, pr.center) < 0.3 * width for t in read):
            continue
        tile = _peak_tile(p, crop, pr)
        if (tile is None or tile.confidence < p.upscale_min_confidence) and at is not pr:
            # pips blur joined unevenly pull the centring off (for instance: the left
            # column of a 6 one region, the right one none, and the 6 moved a quarter of
            # a tile across): the place as found is read too, kept only with its halves'
            # centres as its counts say in this frame (see _centres_seen), checked now: a
            # place across two tiles takes their room from the right ones (for instance:
            # 4-5 at 0.48, across a crosswise 4-4 and the 5 beside it)
            tile = _peak_tile(p, crop, at)
            if tile is not None and not _centres_seen(p, crop, [tile])[0]:
                tile = None
        if tile is not None and tile.confidence >= p.upscale_min_confidence:
            read.append(tile)
    # a face without a pip may be a tile lying face down: a double blank only with its bar
    read = [t for t in read if _pips(t) > 0 or _bar_seen(p, crop, t)]
    return [t for t in read if _on_face(p, crop, threshold, t)]


def _on_face(p: RecognitionParams, crop: U8, threshold: int, t: TileReading) -> bool:
    """Is each half of ``t`` face (``half_face_min``)? A place found without its bar can be
    slid off the tiles (a look either side of a seam, at a line's end), and dark spots on the
    table beyond read as pips (for instance: a "0-9" over a blank half and the dark rim a
    deconvolved frame draws round the line, read across the seam beside it)."""
    axis = _half_axis(t)
    if axis is None:
        return False
    u, side = np.array(axis), 0.4 * _tile_width(t)
    return all(
        _face_share(crop, threshold, np.array(h.center), u, side) >= p.half_face_min
        for h in t.halves
    )


def _pips(t: TileReading) -> int:
    return t.halves[0].pips + t.halves[1].pips


def _bar_seen(p: RecognitionParams, crop: U8, t: TileReading) -> bool:
    """Is there a dividing bar across the middle of ``t`` (see :func:`peaks.bar_dip`)?"""
    (ax, ay), (bx, by) = t.halves[0].center, t.halves[1].center
    half = math.hypot(bx - ax, by - ay)
    if half <= 0:
        return False
    along = ((bx - ax) / half, (by - ay) / half)
    side = math.dist(t.corners[0], t.corners[3])  # across the tile
    dip = bar_dip(crop, t.center, along, side, 2 * half)
    return dip >= p.blank_bar_min_dip


#: where a double blank's sides and ends are looked at (see :func:`_blank_bounded`), in
#: widths out from its halves' middles: its edges lie 0.5 out. Every look found an edge by
#: 0.6 out at the double blanks read right in seeds 1 and 16's sweeps (502) and on ddd-dev
#: (145); piles of light backs (``scripts/pile_eval.py``) read 44 false double blanks
#: looking 0.85 out, 15 looking 0.65 out. With :func:`_bar_runs_on`, 0.65 out: 7 (and a
#: "0-2"); 0.7 out: 8; 0.8 out: 14 or more. Held out, four 0-0s read right were dropped
#: looking 0.65 out, their edges 0.7-0.8 out (another: a 0-0 at a corner of tiles 8 mm
#: thick, their lit sides seen; three others: halves read closer together
#: than their squares are wide, blur about 1); three are kept looking 0.7 out, the fourth by the
#: look on past a side whose other side is bounded near (``_EDGE_FAR``)
_EDGE_REACH = np.arange(0.35, 0.701, 0.05)


#: how much further a double blank's side is looked at where the other side of that half is
#: bounded near (see :func:`_blank_bounded`): a tile read small and off its face's middle
#: towards a neighbour finds its far edge up to a (read) width out. Held out, another,
#: another and another: 0-0s read 0.80-0.85 of the scene's width, 4.9-5.7 px towards
#: the tile or edge beside them, their far edges 0.84-0.91 out
_EDGE_FAR = np.arange(0.75, 1.001, 0.05)


#: where a look from a double blank's half meets a tile read beside it (see
#: :func:`_blank_bounded`), in widths out from the half's middle: the middle of the half
#: beside it lies 1.0 out
BESIDE_REACH = 0.8


def _blank_bounded(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    t: TileReading,
    beside: Sequence[TileReading] = (),
) -> bool:
    """Whether the face of double blank ``t`` ends where its outline does: at fewer than
    ``blank_open_sides`` of its halves' sides and outer ends does the face run on (no seam,
    no table, up to ``blank_edge_level``: see :class:`RecognitionParams`; out to
    ``_EDGE_REACH``) into no tile of ``beside`` (at ``BESIDE_REACH``: white tiles blurred
    1.5 px show no seam between them in the frame as it was; for instance, a 0-0 laid
    lengthwise at a turn, ran on into the 6-0 and the 0-1 beside it, and was dropped).

    A pile of tiles lying face down with light backs reads as double blanks across the
    edges where one lies over another (the edge for a bar, a square of each back for the
    halves), most of all once blur and JPEG blunt those backs' outlines; such a "tile" lies
    on the faces of bigger ones, which run on past its sides. A double blank laid among
    tiles meets them at seams, which are darker than its face even blurred a pixel wide: of
    the double blanks read right in seed 1's sweep (257), none had a look reach 0.9, and the
    faintest seams met in the held-out sweeps reach 0.93 (for instance: two looks at 0.92
    and 0.93, kept at ``blank_edge_level`` 0.95). Over twelve piles of 30 light-backed
    tiles, each sharp and blurred 0.7, 1.0 and 1.5 px, with and without noise and JPEG 55
    (96 images, ``scripts/pile_eval.py``), 213 double blanks were read in 80 images without
    this look; with it, looking 0.85 of a width out, 44 in 33; 0.65 out, 15 in 13. A look
    past a side that runs on along a line carrying the bar on (:func:`_bar_runs_on`) refuses
    the tile outright: 7 in 7 (with the "0-2", 8 tiles in 8 images, from 16 in 14; 0.7 out,
    9 in 9). How far out to look is a trade (see ``_EDGE_REACH``): 0.7 of a width. Where
    one side of a half is bounded near (its edge by 0.35 out, or a tile beside) and only the
    other runs on, the tile may have been read off its face's middle towards the near side:
    the other is looked at on to a width (``_EDGE_FAR``). The piles still read 9 in 9, the
    same tiles: there each look from the "tile" meets another back's edge near where its own
    would be. Those are refused after this, by the face no tile explains round them
    (:func:`_free_face_beside`): none left."""
    axis = _half_axis(t)
    if axis is None:
        return False
    u = np.array(axis, dtype=np.float64)
    v = np.array([-u[1], u[0]])
    w = math.dist(t.halves[0].center, t.halves[1].center)
    inner = np.array([(a, b) for a in (-0.3, 0.0, 0.3) for b in (-0.3, 0.3)]) * w
    others = list(beside)
    middle = np.mean([h.center for h in t.halves], axis=0)
    open_ = 0
    for half, out in zip(t.halves, (-u, u), strict=True):
        c = np.array(half.center, dtype=np.float64)
        face = float(np.median(_sampled(crop, c + inner[:, :1] * u + inner[:, 1:] * v)))
        if face <= threshold:
            return False
        looks = np.stack([v, -v, out])
        probes = c + _EDGE_REACH[None, :, None] * w * looks[:, None, :]
        levels = (_sampled(crop, probes) - threshold) / (face - threshold)
        runs_on = levels.min(axis=1) >= p.blank_edge_level
        near = levels[:, 0] < p.blank_edge_level  # the face ends short of its edge
        if others:
            # a face running on into a tile with pips read is a seam blur hid, not a back
            # (read a little short of the seam, as blur leaves it: for instance and
            # another, a crosswise 0-0 between the blank halves of the tiles either side)
            reached = c + BESIDE_REACH * w * looks
            met = _in_tiles(reached, others, across=0.6, along=0.6).any(axis=1)
            runs_on &= ~met
            near |= met
        for side in np.flatnonzero(runs_on[:2]):
            level = _bar_runs_on(crop, middle, w * looks[side], w * out, face - threshold)
            if level >= p.blank_bar_run_level:
                return False
        ran = np.flatnonzero(runs_on[:2]).tolist()
        if len(ran) == 1 and near[1 - ran[0]]:
            # the other side bounded near (an edge, or a tile beside): a tile read off its
            # face's middle towards that side finds this side's edge a little further on
            far = _sampled(crop, c + _EDGE_FAR[:, None] * w * looks[ran[0]]).min()
            runs_on[ran[0]] = (far - threshold) / (face - threshold) >= p.blank_edge_level
        open_ += int(runs_on.sum())
    return open_ < p.blank_open_sides


#: where a double blank's bar is looked for past its sides (see :func:`_bar_runs_on`), in
#: widths from its middle: its sides lie 0.5 out
BAR_RUN_ALONG = np.array([0.6, 0.7, 0.8])
#: how far either side of that line, in widths across the bar, the darkest point is taken:
#: the bar's line as read is a degree or two off
BAR_RUN_SLACK = np.linspace(-0.06, 0.06, 5)


#: the band looked at beyond each side of a tile's halves (see
#: :func:`_free_face_beside`), in widths out from that side (0.15 leaves the blur of its edge
#: and a lit side out) and in widths along it either side of the half's middle
FREE_BAND_OUT = np.arange(0.15, 0.601, 0.05)
FREE_BAND_ALONG = np.linspace(-0.4, 0.4, 9)


def _free_face_beside(
    crop: U8, threshold: int, tiles: list[TileReading], least: float = 0.0
) -> F64:
    """Per tile of ``tiles`` and per half (``(T, 2)``), the largest share, over the three
    bands beyond the half (either side of it, and past its end; ``FREE_BAND_OUT`` by
    ``FREE_BAND_ALONG``), that is face (half way from ``threshold`` up to that half's face)
    and lies in no other tile; a band less than ``least`` face counts 0 (it cannot reach
    ``least``, and the look for the tiles its face lies in is saved).

    A tile laid on a table is bounded by the table, or by the tiles it meets; a "tile" read
    on a pile of face-down tiles is part of a back with more backs round it, face that no
    tile read explains. On twelve piles of 30 light backs (96 images,
    ``scripts/pile_eval.py``) each of the 124 double blanks read before :func:`_blank_bounded`
    had a band 0.7 or more face (the eight it kept, 0.9 or more), and the one tile with pips
    left (pile 9's "0-2", its 2 the table between backs) 1.0. Of the 613 double blanks read
    right in seeds 1 and 16's sweeps and the held-out scenes of the tests, none had a band
    over 0.66 (another, read off its face's middle; 99 in 100 under 0.25); of the 8,214
    tiles with pips read right in seed 1's sweep, none over 0.12, and of ddd-dev's (44 of
    its photos), none over 0.56. The tiles that explain face must be all those kept, double
    blanks too: ddd-dev's boards are played with two sets, and 1_18, 4_05 and 4_08 have two
    0-0s end to end, each the face beside the other (counting tiles with pips only, 308 of
    seed 1's tiles with pips have a band of 0.8 or more; the one looked at, a 0-0 beside
    it).

    A tile with pips is refused only where both halves have such a band (the "0-2": 0.9 and
    1.0): a tile beside one not read has one too (for instance, held out: a 1-1 beside an
    unread 5-1 and 5-3, 0.87 beyond one half, 0.36 beyond the other)."""
    out = np.zeros((len(tiles), 2))
    axes = [_half_axis(t) for t in tiles]
    idx = [i for i, a in enumerate(axes) if a is not None]
    if not idx:
        return out
    u = np.array([axes[i] for i in idx], dtype=np.float64)  # (T, 2)
    v = np.stack([-u[:, 1], u[:, 0]], axis=1)
    w = np.array([_tile_width(tiles[i]) for i in idx])[:, None]  # (T, 1)
    c = np.array([[h.center for h in tiles[i].halves] for i in idx], dtype=np.float64)  # T,2,2
    grid = [(a, b) for a in (-1, 0, 1) for b in (-1, 1)]
    inner = 0.3 * w[:, None, :] * np.stack([a * u + b * v for a, b in grid], axis=1)  # T,6,2
    face = np.median(_sampled(crop, c[:, :, None, :] + inner[:, None]), axis=2)  # (T, 2)
    ends = np.stack([-u, u], axis=1)  # (T, 2, 2): each half's end
    vv = np.broadcast_to(v[:, None], ends.shape)
    looks = np.stack([vv, -vv, ends], axis=2)  # (T, 2 halves, 3 looks, 2)
    spans = np.stack([ends, ends, vv], axis=2)  # along each look's side
    ww = w[:, :, None, None, None, None]
    points = (
        c[:, :, None, None, None, :]
        + (0.5 + FREE_BAND_OUT)[None, None, None, :, None, None] * ww * looks[:, :, :, None, None]
        + FREE_BAND_ALONG[None, None, None, None, :, None] * ww * spans[:, :, :, None, None]
    )  # (T, 2, 3, out, along, 2)
    n = len(idx)
    flat = points.reshape(n, -1, 2)
    contrast = np.maximum(face - threshold, 1e-9)
    level = (_sampled(crop, flat).reshape(n, 2, -1) - threshold) / contrast[:, :, None]
    lit = (level >= 0.5).reshape(n, 2, 3, -1)
    # only a band at least ``least`` face can be that much face no tile explains: the rest
    # are not looked at against the tiles (in a line, most bands lie on the table)
    tried = lit.mean(axis=3) >= least
    if len(tiles) > 1 and tried.any():
        which = np.broadcast_to(tried[..., None], lit.shape) & lit
        owner = np.broadcast_to(np.arange(n)[:, None, None, None], lit.shape)[which]
        within = _in_tiles(flat.reshape((*lit.shape, 2))[which], tiles, across=0.55, along=0.55)
        within[np.arange(owner.size), np.array(idx)[owner]] = False  # its own outline
        lit[which] = ~within.any(axis=1)
    share = np.where(tried, lit.mean(axis=3), 0.0).max(axis=2)  # (T, 2)
    share[face <= threshold] = 0.0
    out[idx] = share
    return out


def _bar_runs_on(crop: U8, middle: F64, side: F64, out: F64, contrast: float) -> float:
    """How far a dark line carries the bar of a double blank (middle ``middle``) on past
    its side ``side`` (a width long) beside one half (``out``: a width from the bar towards
    it): the least, over three points 0.6-0.8 of a width out along the bar's line, of the
    face beside the point on the half's side less the point, in shares of ``contrast`` (the
    face above the threshold). A bar ends at its tile's sides; in a pile of light backs, the
    "bar" read is one back's edge lying over another, which runs on past the "tile" as that
    back's outline, with that back's face beside it on one side (eight of the sixteen tiles
    the twelve piles of ``scripts/pile_eval.py`` invented; with it, each of the 502 scenes
    of seeds 1 and 16's sweeps that hold a double blank still reads right)."""
    line = middle + BAR_RUN_ALONG[:, None] * side
    dark = _sampled(crop, line[:, None, :] + BAR_RUN_SLACK[None, :, None] * out).min(axis=1)
    face = _sampled(crop, line + 0.2 * out)
    return float(((face - dark) / contrast).min())


def _sampled(crop: U8, points: F64) -> F64:
    """The grey of ``crop`` at ``points`` (..., 2: x, y), bilinear, edges replicated."""
    n = math.prod(points.shape[:-1])
    if n == 0:
        return np.zeros(points.shape[:-1])
    # remap's maps are images: fewer than 32767 rows (SHRT_MAX) and columns
    cols = 1 if n < SAMPLED_COLUMNS else SAMPLED_COLUMNS
    rows = -(-n // cols)
    xs, ys = (
        np.resize(np.asarray(points[..., k], dtype=np.float32).ravel(), rows * cols).reshape(
            rows, cols
        )
        for k in (0, 1)
    )
    grey = cv2.remap(crop, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    out: F64 = grey.ravel()[:n].reshape(points.shape[:-1]).astype(np.float64)
    return out


#: the width of the maps :func:`_sampled` hands remap where the points are many
SAMPLED_COLUMNS = 4096


def _face_boxes(
    crop: U8,
    threshold: int,
    occupied: U8,
    spots: F64,
    width: float,
    *,
    blanks: bool,
    most: float = 80.0,
) -> list[tuple[int, int, int, int]]:
    """Boxes ``(x0, y0, x1, y1)`` round the faces (touching tiles together: a whole line)
    that hold one of ``spots`` (with ``blanks``, or room for a whole tile) and a tile's area
    outside the ``occupied`` pixels, and are no larger than ``most`` squares of ``width``
    (a whole double-six set: 56), with a margin."""
    k = max(3, 2 * round(0.2 * width) + 1)
    face = closed_faces(crop, threshold, k).view(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(face, connectivity=8)
    free = np.bincount(labels[occupied == 0].ravel(), minlength=n)
    pad = round(0.5 * width) + 4
    boxes: list[tuple[int, int, int, int]] = []
    hgt, wid = crop.shape
    xi = _clamped(spots[:, 0].astype(np.intp), 0, wid - 1)
    yi = _clamped(spots[:, 1].astype(np.intp), 0, hgt - 1)
    seeded = np.zeros(n, dtype=np.bool_)
    seeded[labels[yi, xi]] = True
    # a face with no spot at all is looked at only if it can hold a whole tile (a double
    # blank, kept only with its bar seen)
    if blanks:
        seeded |= free >= 2 * BLANK_FREE * width * width
    area = stats[:, 4]
    wanted = seeded & (free >= width * width) & (area <= most * width * width)
    for lab in np.flatnonzero(wanted).tolist():
        if lab == 0:
            continue
        x, y, w, h = (int(v) for v in stats[lab, :4])
        if min(w, h) < 0.8 * width or max(w, h) < 1.6 * width:
            continue
        boxes.append(
            (max(0, x - pad), max(0, y - pad), min(wid, x + w + pad), min(hgt, y + h + pad))
        )
    return boxes


def _strip_width(crop: U8, threshold: int, spots: F64) -> float:
    """The tile width as the width of the faces' strips (a line of tiles end to end is one
    tile wide): twice the typical distance from the strips' middles to their edges, pips
    closed up. Only the faces holding a spot count where any does: the white borders of the
    markers at the table's corners are strips too, narrower than tiles (for instance: two
    tiles alone at blur 1.5, 21 px wide, measured 16 with the markers, 24 without; nothing
    was read)."""
    if spots.shape[0] == 0:
        return 0.0
    k = 4 * round(float(np.median(spots[:, 2]))) + 1
    face = closed_faces(crop, threshold, k).view(np.uint8)
    if face.all():
        return 0.0  # face everywhere (a sheet, noise): no strips
    dist = cv2.distanceTransform(face, cv2.DIST_L2, 5)
    ridge = (dist >= k / 2) & (dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8)))
    _, lab = cv2.connectedComponents(face, connectivity=8)
    hh, ww = face.shape
    xs = _clamped(spots[:, 0].astype(np.intp), 0, ww - 1)
    ys = _clamped(spots[:, 1].astype(np.intp), 0, hh - 1)
    held = np.unique(lab[ys, xs])
    held = held[held > 0]
    if held.size:
        mine = ridge & np.isin(lab, held)
        if int(mine.sum()) >= 2 * k:
            ridge = mine
    if int(ridge.sum()) < 2 * k:
        return 0.0
    width = 2.0 * float(np.percentile(dist[ridge], 75))
    return width if width < min(crop.shape) else 0.0


def _pitch_width(p: RecognitionParams, spots: F64) -> float:
    """The tile width from the spacing of the pips, 0 with fewer than 6 spots: in a six (and
    seven to nine) neighbouring pips lie ``STANDARD_SPACING`` half units apart, nearer than
    any two pips of other layouts, so the shortest distances to a neighbour are that
    spacing (a scene without such a half gives a width too large: one guess among others)."""
    if spots.shape[0] < 6:
        return 0.0
    xy = spots[:, :2]
    nearest = np.empty(len(xy))
    for i in range(0, len(xy), 256):  # in blocks: a noisy frame has thousands of spots
        d = np.hypot(
            xy[i : i + 256, None, 0] - xy[None, :, 0], xy[i : i + 256, None, 1] - xy[None, :, 1]
        )
        d[np.arange(len(d)), np.arange(i, i + len(d))] = np.inf
        nearest[i : i + 256] = d.min(axis=1)
    width = float(np.percentile(nearest, 10)) / (STANDARD_SPACING / 2)
    # a tile is about five pips wide: spots further apart are no tile's pips
    return width if width <= p.pitch_max_spots * float(np.median(spots[:, 2])) else 0.0


def _outline_width(crop: U8, threshold: int, spots: F64) -> float:
    """The tile width from faces standing alone (a bright region, pips closed up, whose
    bounding rectangle is twice as long as wide and filled), 0 if there is none."""
    size = float(np.median(spots[:, 2]))
    k = 2 * round(size) + 1
    face = closed_faces(crop, threshold, k).view(np.uint8)
    contours, _ = cv2.findContours(face, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    widths: list[float] = []
    for c in contours:
        (_, _), (a, b), _ = cv2.minAreaRect(c)
        short, long = min(a, b), max(a, b)
        if short < 3 * size or not 1.8 <= long / short <= 2.2:
            continue
        if cv2.contourArea(c) >= 0.9 * short * long:
            widths.append(short)
    return float(np.median(widths)) if widths else 0.0


#: the other scales a place is read at as dark peaks where it reads too unsure at its own
#: (see :func:`_peak_tile`): a tile nearer or farther from a tilted camera than most looks
#: up to a tenth wider or narrower than the scene's width, or more
PEAK_SCALES = (1.08, 0.93)


def _peak_tile(p: RecognitionParams, crop: U8, pr: _Proposal) -> TileReading | None:
    """The tile of ``pr`` with its pips counted as dark peaks (see
    :mod:`vision.recognition.peaks`), slid along its axis by up to a quarter of its width and
    across it by up to an eighth, to where its halves read best (a tile placed by its outline
    may be that far off, and a pip beside a seam then falls outside its half), or
    ``None`` when every place has a half with more than a standard layout or with dark
    marks that are no pips. Where it reads under ``upscale_min_confidence``, it is read at
    ``PEAK_SCALES`` too; a tile read at another scale must have its halves' centres as its
    counts say (see :func:`_centres_seen`): a 5 read at too small a scale is a 2 (its
    diagonal), and taking the place, keeps the tile it is from out. A tile its callers would
    keep is ``None`` too where it lies on a calibration marker (see :func:`_on_marker`)."""
    ux, uy = pr.along
    best: TileReading | None = None
    for scale in (1.0, *PEAK_SCALES):
        if best is not None and best.confidence >= p.upscale_min_confidence:
            break
        found: TileReading | None = None
        for across, step in itertools.product((0, 1, -1, 2, -2), (0, 1, -1, 2, -2, 3, -3, 4, -4)):
            shift, side = 0.06 * step * pr.width, 0.06 * across * pr.width
            centre = (pr.center[0] + shift * ux - side * uy, pr.center[1] + shift * uy + side * ux)
            at = dataclasses.replace(pr, center=centre, width=scale * pr.width)
            tile = _peaks_at(p, crop, at)
            if tile is not None and (found is None or tile.confidence > found.confidence + 0.02):
                found = tile
        if found is None or (best is not None and found.confidence <= best.confidence + 0.02):
            continue
        if scale == 1.0 or _centres_seen(p, crop, [found])[0]:
            best = found
    least = min(p.upscale_min_confidence, p.carve_min_confidence)  # what its callers keep
    if best is not None and best.confidence >= least and _on_marker(crop, best):
        return None
    return best


#: how far round a tile a calibration marker is looked for (see :func:`_on_marker`), in tile
#: widths either way of its centre: a table's markers are two to four tiles wide
MARKER_REACH = 5.0


def _on_marker(crop: U8, t: TileReading) -> bool:
    """Whether ``t``'s centre lies on an ArUco marker of the table's default dictionary (see
    :func:`vision.calibration.detect_markers`), or within a quarter of its width of one,
    looked for in a window ``MARKER_REACH`` widths round it. With no table file the markers
    at the table's corners are in view, and as dark peaks their cells and black border, with
    the table beyond, read like pips on a face (for instance: a "0-6" over a white cell,
    the border and the table). Marker codes are made to be told apart from anything else,
    so a tile beside one is never taken for it; the look costs about a millisecond and is
    made only for a tile read as dark peaks, a few per blurred scene."""
    width = _tile_width(t)
    reach = MARKER_REACH * width
    cx, cy = t.center
    hh, ww = crop.shape
    x0, y0 = max(0, int(cx - reach)), max(0, int(cy - reach))
    x1, y1 = min(ww, int(cx + reach) + 1), min(hh, int(cy + reach) + 1)
    if x1 - x0 < width or y1 - y0 < width:
        return False
    for marker in detect_markers(crop[y0:y1, x0:x1], expected=1):
        quad = np.array(marker.corners, dtype=np.float32)
        sides = np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
        if sides.min() < 0.5 * width:
            continue  # a few pixels that decode by chance (for instance: 6 x 2 px)
        if cv2.pointPolygonTest(quad, (cx - x0, cy - y0), True) >= -0.25 * width:
            return True
    return False


def _peaks_at(p: RecognitionParams, crop: U8, pr: _Proposal) -> TileReading | None:
    """The tile of ``pr`` read as dark peaks just where it is (see :func:`_peak_tile`)."""
    ux, uy = pr.along
    q = pr.width * _aspect(p, pr) / 4
    centres = [(pr.center[0] + s * q * ux, pr.center[1] + s * q * uy) for s in (-1.0, 1.0)]
    patches = [half_patch(crop, c, pr.along, pr.width) for c in centres]
    level = float(np.percentile(np.concatenate([q_.ravel() for q_ in patches]), 90))
    contrast = p.peak_contrast_rel * level
    found = [half_peaks(patch, face=level, contrast=contrast) for patch in patches]
    depths = np.concatenate([f.depth for f in found])
    # a mark that is no pip but nearly as dark as the pips is print, a seam or a neighbour
    limit = 0.75 * (float(np.median(depths)) if depths.size else 2.5 * contrast)
    halves: list[HalfReading] = []
    confs: list[float] = []
    for c, got in zip(centres, found, strict=True):
        n = got.points.shape[0]
        if n > min(p.max_pips, MAX_LAYOUT) or got.rest >= limit:
            return None
        rms, spacing = layout_fit(got.points)
        conf = 1.0 / (1.0 + (rms / p.layout_rms_soft) ** 2)
        if spacing > 0:
            # as in _score_tile: a standard layout at a spacing far from the standard one is
            # part of another seen through a half placed off its tile (for instance: a
            # 3's top pip lost in the seam beside it, its middle and corner pips a "2" at
            # half the spacing, on a place nudged a quarter of a half along: "2-0" for 3-0)
            conf /= _spacing_divisor(p, spacing, STANDARD_SPACING)
        if n >= 2:
            conf *= min(1.0, 2.0 * float(got.depth.min() / got.depth.max()))
        conf *= 1.0 - 0.5 * got.rest / limit
        halves.append(HalfReading(center=c, pips=n, confidence=round(conf, 4)))
        confs.append(conf)
    conf = min(confs) * 0.85  # not measured on a bar
    return TileReading(_corners(p, pr), (halves[0], halves[1]), conf)


def _centred_on_pips(
    pr: _Proposal, blobs: _Blobs, pip_ids: I32, *, lattice: bool = False
) -> _Proposal:
    """``pr`` moved so that its halves' centres are the centres of their pips (every standard
    layout is symmetric about the half's centre), by at most a quarter of the width: a tile
    placed by its outline is a pixel or two off, which can put a pip in the wrong half.
    ``lattice`` (a place from the faces' outline): also moved, by up to 0.3 w along and 0.1 w
    across, to where its pips fit the lattice of pip places much better."""
    w = pr.width
    ux, uy = pr.along
    vx, vy = pr.across
    dx, dy = blobs.cx[pip_ids] - pr.center[0], blobs.cy[pip_ids] - pr.center[1]
    a = (dx * ux + dy * uy) / w  # along, in widths: halves at -0.5 and +0.5
    b = (dx * vx + dy * vy) / w
    area = blobs.area[pip_ids].astype(np.float64)
    inside = (np.abs(a) <= 0.95) & (np.abs(b) <= 0.45)
    shifts: list[tuple[float, float]] = []
    for sign in (-1.0, 1.0):
        mine = inside & (a * sign > 0.05)
        if mine.any():
            wt = area[mine] / area[mine].sum()
            shifts.append((float((a[mine] * wt).sum()) - 0.5 * sign, float((b[mine] * wt).sum())))
    if not shifts:
        return pr
    sa = float(np.mean([s[0] for s in shifts]))
    sb = float(np.mean([s[1] for s in shifts]))
    if math.hypot(sa, sb) > 0.25:
        sa = sb = 0.0
    near = (np.abs(a) <= 1.0) & (np.abs(b) <= 0.5)
    if lattice and near.sum() >= 3:
        # a tile placed by an outline that takes in a visible side or a neighbour's corner
        # can be a quarter of a width off, which puts a row of pips in the other half: the
        # means of the halves' pips then agree with the wrong place. The pips of a tile lie
        # on one lattice (rows a layout's spacing apart, none across the seam): where it fits
        # them much better elsewhere, the tile moves there.
        pa, pb = a[near], b[near]
        fit = _lattice_cost(pa - sa, pb - sb)
        grid = np.arange(-0.3, 0.301, 0.02)
        ga, gb = np.meshgrid(grid, grid[np.abs(grid) <= 0.1], indexing="ij")
        costs = _lattice_cost(pa[None, :] - ga.reshape(-1, 1), pb[None, :] - gb.reshape(-1, 1))
        k = int(np.argmin(costs))
        if costs[k] < 0.5 * fit:
            sa, sb = float(ga.reshape(-1)[k]), float(gb.reshape(-1)[k])
    if sa == 0.0 and sb == 0.0:
        return pr
    center = (pr.center[0] + (sa * ux + sb * vx) * w, pr.center[1] + (sa * uy + sb * vy) * w)
    return dataclasses.replace(pr, center=center)


#: the looser look of the pip lattice (see :func:`_lattice_tiles`): a width this many times the
#: scene's is tried too (and this many times less), and a spot off its place by up to this
#: much of a width is not off it
LOOSE_WIDER = 1.1
LOOSE_OFF_MAX = 0.15
#: Where the pips of a tile can lie, in tile widths from its centre: along it (three rows per
#: half, at its centre +-0.5 w and ``STANDARD_SPACING`` half-squares, 0.28 w, either side of
#: it) and across it.
_LATTICE_ALONG = np.array([-0.78, -0.5, -0.22, 0.22, 0.5, 0.78])
_LATTICE_ACROSS = np.array([-0.28, 0.0, 0.28])
#: every standard layout as a mask of a half's 3x3 lattice places (see layouts.grid_masks)
_GRID_MASKS = np.array(sorted(grid_masks()))


#: the most spots left whose own spacing the pip lattice is also tried at (a few tiles' pips;
#: see :func:`_lattice_tiles`)
LATTICE_PITCH_SPOTS = 64


def _lattice_tiles(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    *,
    tiles: list[TileReading],
    width: float,
    spots: F64,
    loose: bool = False,
    also: U8 | None = None,
) -> list[TileReading]:
    """``tiles`` plus tiles placed on the pips still unexplained. Every spot is tried at every
    place of the pip lattice (see :func:`_lattice_cost`) of a tile square to the tiles read,
    at the scene's width and at the width of the tile read nearest it (along and across
    apart: a tile along a tilted camera's view is foreshortened along it). Places on face
    whose lattice takes in the most spots, each within a tenth of a width of a pip place,
    and no spot off it, are read like outline places (``loose``, a look after the others at
    what they left: at ``LOOSE_WIDER`` times the scene's width too and as many times less
    (for instance: a 1-5 of thick white tiles at blur 1.5, 20.8 px wide between tiles
    read at 23, their visible sides taken in; its 1 read a tenth of a width off its half's
    centre there, a tile too unsure to keep), and a spot off its place
    by up to ``LOOSE_OFF_MAX`` of a width is neither taken in nor off it); not those well
    into a tile read, nor those overlapping a place whose lattice takes in more spots. A
    place is kept only clear of every tile, with a tile or the table beyond each end (a
    place across the seam between two tiles has their other halves beyond it), and leaving
    no unexplained spot beside it (two tiles side by side read across leave their other
    halves' pips). ``also``: the deconvolved frame of a blurred ``crop``, where a place that
    reads nothing in ``crop`` is read too."""
    if not tiles:
        return tiles
    left = _unexplained(spots, tiles)
    if not 2 <= left.shape[0] <= p.look_max_spots:
        return tiles
    if width <= 0:  # placed by outlines alone
        width = float(np.median([_tile_width(t) for t in tiles]))
    xy = left[:, :2]
    # each spot is tried at the width of the tile read nearest it too (tiles far from a
    # tilted camera, or thick ones, look narrower than the scene's tiles)
    centres_read = np.array([t.center for t in tiles], dtype=np.float64)
    widths_read = np.array([_tile_width(t) for t in tiles])
    nearest = np.argmin(((xy[:, None, :] - centres_read[None]) ** 2).sum(axis=-1), axis=1)
    la, lb = np.meshgrid(_LATTICE_ALONG, _LATTICE_ACROSS, indexing="ij")
    la, lb = la.ravel(), lb.ravel()
    base = _edge_angle(tiles)
    face = crop > threshold
    hh, ww = crop.shape
    # face samples between the pip places (along, across; in the scales along and across)
    along_samples = [-0.92, -0.64, -0.36, 0.36, 0.64, 0.92]
    ga, gb = (m.ravel() for m in np.meshgrid(along_samples, [-0.14, 0.14]))
    inner = np.abs(ga) < 0.9
    chosen: list[tuple[int, _Proposal]] = []  # (spots on its lattice, place)
    tried = sorted({round(width, 1), *np.round(widths_read[nearest], 1).tolist()})
    # and at the width the spots' own spacing gives (for instance: a crosswise 6-6 at
    # blur 1.5, 21 px wide, between tiles read at the scene's 23.25, which put its pips off
    # every place of a lattice that wide)
    pitch = _pitch_width(p, _distinct(left)) if left.shape[0] <= LATTICE_PITCH_SPOTS else 0.0
    if pitch > 0 and _near(pitch, width, p):
        tried = sorted({*tried, round(pitch, 1)})
    fit = 0.01  # a spot within a tenth of a width of a pip place (squared) is taken in
    off_max = LOOSE_OFF_MAX**2 if loose else fit  # and one further is off the place
    if loose:
        tried = sorted({*tried, round(LOOSE_WIDER * width, 1), round(width / LOOSE_WIDER, 1)})
    # a tile along the view of a tilted camera is foreshortened along, not across
    scales = [(wa, wb) for wa in tried for wb in tried if 0.8 <= wa / wb <= 1.05]
    # the spots' own grid too, where it lies a few degrees off the tiles read (a line's one
    # tile read, turned 8 degrees off it: for instance), and first: of two places a few
    # pixels apart, the one found first is kept (for instance: a 2-4, 4-5 and 5-6 in a
    # line 5 degrees off the one tile read before it; with places at both angles the walk
    # along the chain, finding two next places, stopped)
    angles = [base]
    grid = _spot_angle(xy, width)
    if grid is not None and abs(_turned_by(grid, base)) > math.radians(2):
        angles.insert(0, grid)
    for (wa, wb), angle in itertools.product(scales, [a + r for a in angles for r in _RIGHT]):
        u = np.array([math.cos(angle), math.sin(angle)])
        v = np.array([-u[1], u[0]])
        # (S * L, 2): each spot at each lattice place gives a centre
        centres = xy[:, None, :] - (wa * la[None, :, None] * u + wb * lb[None, :, None] * v)
        centres = centres.reshape(-1, 2)
        d = xy[None, :, :] - centres[:, None, :]  # (C, S, 2)
        a, b = d @ u / wa, d @ v / wb
        inside = (np.abs(a) <= 1.0) & (np.abs(b) <= 0.5)
        ia = np.abs(a[..., None] - _LATTICE_ALONG).argmin(axis=-1)
        ib = np.abs(b[..., None] - _LATTICE_ACROSS).argmin(axis=-1)
        da, db = a - _LATTICE_ALONG[ia], b - _LATTICE_ACROSS[ib]
        off = da**2 + db**2
        fits = inside & (off <= fit)
        n_fit = fits.sum(axis=1)
        bad = (inside & (off > off_max)).sum(axis=1)
        # of places taking in as many spots, those where the spots lie in each half as a
        # standard layout come first (the two pips of a 1-1 fit places a pip column aside
        # too, a place apart from one another: for instance)
        bit = np.where(fits, 1 << (3 * (ia % 3) + ib), 0)
        masks = [(bit * (ia // 3 == h)).sum(axis=1) for h in (0, 1)]
        valid = np.isin(masks[0], _GRID_MASKS) & np.isin(masks[1], _GRID_MASKS)
        order = np.lexsort((~valid, -n_fit))
        order = order[(n_fit[order] >= 2) & (bad[order] == 0)]
        c = centres[order]  # (K, 2), most fits first
        if c.shape[0] == 0:
            continue
        pts = c[:, None, :] + wa * ga[:, None] * u + wb * gb[:, None] * v  # (K, samples, 2)
        xi, yi = np.rint(pts[..., 0]).astype(np.intp), np.rint(pts[..., 1]).astype(np.intp)
        ok = ((xi >= 0) & (xi < ww) & (yi >= 0) & (yi < hh)).all(axis=1)
        on_face = np.zeros(len(c))
        on_face[ok] = face[yi[ok], xi[ok]].mean(axis=1)
        ok &= on_face >= 0.9
        # a place well into a tile read would clash with it (see _clashes): not read (its
        # ends may overlap a tile read a little too long)
        probe = np.concatenate([c[:, None, :], pts[:, inner]], axis=1).reshape(-1, 2)
        ok &= ~_in_tiles(probe, tiles, across=0.45, along=0.45).reshape(len(c), -1).any(axis=1)
        for (cx, cy), n in zip(c[ok].tolist(), n_fit[order][ok].tolist(), strict=True):
            centre = (cx, cy)
            if any(math.dist(centre, q.center) < 0.3 * wb and q.width == wb for _, q in chosen):
                continue
            along = (float(u[0]), float(u[1]))
            chosen.append((n, _placed(centre, along, wb, measured=True, aspect=2 * wa / wb)))
    # of two places overlapping, the one whose lattice holds fewer of the spots is not read;
    # but where every place that overlaps it so reads no tile, it is read after all (seed
    # another: a 6-2 and a 2-0 end to end, their 2s beside each other across the seam,
    # three spots on a place across it that reads nothing, and the 2-0's place left out)
    over = [
        [k for k, (m, r) in enumerate(chosen) if m > n and _place_overlaps(q, r)] for n, q in chosen
    ]
    places = [q for (_, q), o in zip(chosen, over, strict=True) if not o]
    if not places:
        return tiles
    labels, blobs = _dark_regions(p, crop, threshold, half_dark=True)
    read = _read_at_widths(p, crop, labels, blobs, places, threshold=threshold, widths=tried)
    empty = {
        k
        for k, (_, q) in enumerate(chosen)
        if not over[k] and not any(math.dist(t.center, q.center) < 0.5 * q.width for t in read)
    }
    later = [q for (_, q), o in zip(chosen, over, strict=True) if o and set(o) <= empty]
    read += _read_at_widths(p, crop, labels, blobs, later, threshold=threshold, widths=tried)
    if also is not None:
        # a blurred frame's place can read right, but too unsure, where its deconvolved one
        # reads it surely (for instance: a 4-4 at a turn, read across with the 5-4's 4
        # deconvolved, that one taken out; on its place 0.31-0.40 blurred, 0.62-0.77 sharp)
        missed = [
            q
            for (_, q), o in zip(chosen, over, strict=True)
            if (not o or set(o) <= empty)
            and not any(math.dist(t.center, q.center) < 0.5 * q.width for t in read)
        ]
        if missed:
            labels, blobs = _dark_regions(p, also, threshold, half_dark=True)
            read += _read_at_widths(
                p, also, labels, blobs, missed, threshold=threshold, widths=tried
            )
    found = [
        t
        for t in read
        if not _clashes(p, t, [_narrowed(k, _tile_width(t)) for k in tiles])
        and _unexplained(left, [t]).shape[0] < left.shape[0]
    ]
    # a place read at two of the widths tried is one place, the surer reading standing for
    # it (the walk along chains below stopped where it found two next places: for instance, a 2-4,
    # 4-5 and 5-6 in a blurred line, the 4-5 read at 20.5 and 21.7 px)
    found = [
        t
        for k, t in enumerate(found)
        if not any(
            (u.confidence, -j) > (t.confidence, -k) and _same_place(t, u, 0.3 * width)
            for j, u in enumerate(found)
        )
    ]
    closed = [_ends_closed(crop, threshold, tiles, t) for t in found]
    ends = [t for t, c in zip(found, closed, strict=True) if c]
    open_ = [t for t, c in zip(found, closed, strict=True) if not c]
    # a place closed so can close another's end in turn (for instance: a crosswise 6-6
    # and the 6-4 beside it, neither read before; the 6-6's ends are on the table, the
    # 6-4's lie on the 6-6 and the 4-4 read)
    while open_ and ends:
        closed = [_ends_closed(crop, threshold, tiles + ends, t) for t in open_]
        if not any(closed):
            break
        ends += [t for t, c in zip(open_, closed, strict=True) if c]
        open_ = [t for t, c in zip(open_, closed, strict=True) if not c]
    found = ends + _closed_chains(crop, threshold, tiles, open_, width)
    added = _add_missing(p, [], found, width)
    # two tiles side by side read across (a half of each, their seam for a bar) leave the
    # other halves' pips beside it unexplained: a tile placed so must leave none near it
    # (within three quarters of a width of its axis, out to a tile's length beyond its ends)
    while added:
        rest = _unexplained(left, tiles + added)
        near = [bool(_inside(rest, t, across=0.75, along=1.0).any()) for t in added]
        if not any(near):
            break
        added = [t for t, n in zip(added, near, strict=True) if not n]
    return tiles + added


def _place_overlaps(q: _Proposal, r: _Proposal) -> bool:
    """Whether lattice place ``q`` lies within 0.9 of ``r``'s width of ``r``."""
    return math.dist(q.center, r.center) < 0.9 * r.width


def _read_at_widths(
    p: RecognitionParams,
    crop: U8,
    labels: I32,
    blobs: _Blobs,
    places: list[_Proposal],
    *,
    threshold: int,
    widths: list[float],
) -> list[TileReading]:
    """The tiles read at ``places``, each place read at its own width of ``widths``."""
    read: list[TileReading] = []
    for w in widths:
        mine = [q for q in places if q.width == w]
        if mine:
            read += _read_places(p, crop, labels, blobs, mine, threshold=threshold, width=w)
    return read


def _closed_chains(
    crop: U8, threshold: int, tiles: list[TileReading], places: list[TileReading], width: float
) -> list[TileReading]:
    """Of ``places`` (tiles read on the pip lattice, one per place, clear of ``tiles``, with
    face free beyond an end), the chains end to end along a line from a closed end (a tile of
    ``tiles`` or the table beyond it) to another: where none of a line's last tiles was read,
    each has only the next beyond it (for instance: a 3-4, a 4-5 and a 5-3 after the 6-3
    read, the table beyond the 5-3; the lattice places tiles across their seams too, a 4-4
    and a 5-5, whose ends both lie on face no tile takes)."""
    if not places:
        return []
    face = _line_faces(crop, threshold, width)
    centre, axis = _axes(places)
    length = np.array([_tile_width(t) for t in places]) * 2.0

    def open_ends(chain: list[int]) -> npt.NDArray[np.bool_]:
        """Per end of the chain's last place: face no tile takes beyond it?"""
        _, free, _ = _lone_ends(crop, threshold, [*tiles, *(places[k] for k in chain)], width, face)
        out: npt.NDArray[np.bool_] = free[-1]
        return out

    out: list[TileReading] = []
    taken: set[int] = set()
    for i in range(len(places)):
        if i in taken:
            continue
        free = open_ends([i])
        if free.all() or not free.any():
            continue
        chain, k, end = [i], i, int(free[1])  # walk towards the open end
        while True:
            step = (1.0 if end else -1.0) * axis[k]
            gap = np.hypot(*(centre - (centre[k] + step * length[k])).T)
            near = np.flatnonzero((gap < 0.3 * width) & (np.abs(axis @ axis[k]) > 0.95))
            near = np.array([j for j in near.tolist() if j not in chain and j not in taken])
            if near.size != 1:
                break
            k = int(near[0])
            end = int(axis[k] @ step > 0)
            chain.append(k)
            if not open_ends(chain)[end]:
                out += [places[j] for j in chain]
                taken.update(chain)
                break
    return out


#: a direction modulo a right angle, and the one square to it
_RIGHT = (0.0, math.pi / 2)


def _spot_angle(xy: F64, width: float) -> float | None:
    """The direction (radians, modulo a right angle) of the grid the spots ``xy`` lie on:
    spots a pip step apart (0.2-0.36 of a tile ``width``; diagonal steps are 0.4) or two
    (0.47-0.58: a 4's or a 5's corners; a step and two across are 0.6) lie along their
    tile or across it. ``None`` with fewer than three such pairs. Two steps count: no pip
    of a 4 or a 5 is a step from another (for instance: a 0-5 and a 5-2 down a turn
    at blur 1.5, leaning 7 degrees off the tiles read, by the camera's angle; on places
    at the tiles' angle the 5-2's pips fit no layout well, and both were unread)."""
    d = xy[None, :, :] - xy[:, None, :]
    dist = np.hypot(d[..., 0], d[..., 1])
    near = (dist >= 0.2 * width) & (dist <= 0.36 * width)
    step = np.triu(near | ((dist >= 0.47 * width) & (dist <= 0.58 * width)), 1)
    if np.count_nonzero(step) < 3:
        return None
    z = np.exp(4j * np.arctan2(d[..., 1][step], d[..., 0][step])).sum()
    return float(np.angle(z) / 4) % (math.pi / 2)


def _turned_by(a: float, b: float) -> float:
    """How far direction ``a`` lies from ``b``, both modulo a right angle (radians, within
    plus or minus an eighth of a turn)."""
    return (a - b + math.pi / 4) % (math.pi / 2) - math.pi / 4


def _lattice_cost(a: F64, b: F64) -> F64:
    """Per row of ``a`` and ``b`` (pip positions, tile widths from a centre tried; the last
    axis runs over the pips): how far the pips lie from the lattice of pip places, each
    pip's squared distance capped at a tenth of a width squared (a neighbour's pip)."""
    da = np.abs(a[..., None] - _LATTICE_ALONG).min(axis=-1)
    db = np.abs(b[..., None] - _LATTICE_ACROSS).min(axis=-1)
    out: F64 = np.minimum(da**2 + db**2, 0.01).sum(axis=-1)
    return out


def _edge_angle(tiles: list[TileReading]) -> float:
    """The tiles' edge direction (radians, modulo a right angle), averaged."""
    z = 0j
    for t in tiles:
        (x0, y0), (x1, y1) = t.halves[0].center, t.halves[1].center
        z += complex(
            math.cos(4 * math.atan2(y1 - y0, x1 - x0)), math.sin(4 * math.atan2(y1 - y0, x1 - x0))
        )
    return (math.atan2(z.imag, z.real) / 4) % (math.pi / 2)


def _pose_proposal(
    pose: TilePose, dx: float, dy: float, width: float, aspect: float = 0.0
) -> _Proposal:
    """A tile placed by its outline, as a proposal of a bar not seen (``aspect``: see
    :class:`_Proposal`)."""
    center = (pose.center[0] + dx, pose.center[1] + dy)
    return _placed(center, pose.along, width, measured=False, aspect=aspect)


def _placed(
    center: tuple[float, float],
    along: tuple[float, float],
    width: float,
    *,
    measured: bool,
    aspect: float = 0.0,
) -> _Proposal:
    """A tile placed without its bar (by its outline, its squares or its pips), as a proposal
    of a bar not seen, its first half left or top as for bar proposals (see
    :class:`_Proposal`)."""
    ux, uy = along
    if (abs(ux) >= abs(uy) and ux < 0) or (abs(ux) < abs(uy) and uy < 0):
        ux, uy = -ux, -uy
    across = (-uy, ux)
    bar = _Bar(-1, center, across, 0.8 * width, 1.0, width / 2, width / 2, width, width)
    return _Proposal(bar, center, (ux, uy), across, width, measured, aspect)


def _clusters(spots: F64, margin: float, shape: tuple[int, ...]) -> list[tuple[int, int, int, int]]:
    """Boxes ``(x0, y0, x1, y1)`` round groups of ``spots`` (rows x, y, ...), each spot with
    ``margin`` round it; spots closer than two margins share a box."""
    hh, ww = shape[:2]
    step = max(4.0, margin / 2)
    grid = np.zeros((int(hh / step) + 1, int(ww / step) + 1), dtype=np.uint8)
    gx = (spots[:, 0] / step).astype(np.intp)
    gy = (spots[:, 1] / step).astype(np.intp)
    grid[gy, gx] = 1
    r = 2 * math.ceil(margin / step) + 1
    grid = np.asarray(cv2.dilate(grid, np.ones((r, r), np.uint8)), dtype=np.uint8)
    _, labels = cv2.connectedComponents(grid, connectivity=8)
    boxes: list[tuple[int, int, int, int]] = []
    for lab in np.unique(labels[gy, gx]).tolist():
        mine = spots[labels[gy, gx] == lab]
        boxes.append(
            (
                max(0, int(mine[:, 0].min() - margin)),
                max(0, int(mine[:, 1].min() - margin)),
                min(ww, int(mine[:, 0].max() + margin) + 1),
                min(hh, int(mine[:, 1].max() + margin) + 1),
            )
        )
    return boxes


def _unexplained(spots: F64, tiles: list[TileReading], *, rim: float = 0.55) -> F64:
    """The rows of ``spots`` (x, y, size) whose centre lies in no tile, and (once some pips
    were read) that are at least half as large as the pips read: specks are not pips.
    ``rim``: how far out from a tile's centre a spot is in it, in its sizes (a little more
    than half: blur and a thick tile's side can push a pip to the edge)."""
    if not tiles or spots.shape[0] == 0:
        return spots
    inside = _in_tiles(spots[:, :2], tiles, across=rim, along=rim).any(axis=1)
    left = ~inside
    if inside.any():
        left &= spots[:, 2] >= 0.5 * float(np.median(spots[inside, 2]))
    out: F64 = spots[left]
    return out


def _clamped(a: npt.NDArray[np.intp], lo: int, hi: int) -> npt.NDArray[np.intp]:
    """``np.clip(a, lo, hi)`` for pixel indices: np.clip looks up the integer type's limits
    on every call, which costs more than the clipping on the small arrays here."""
    return np.minimum(np.maximum(a, lo), hi)


def _near(width: float, scene: float, p: RecognitionParams) -> bool:
    """Is ``width`` the scene's tile width ``scene``, within ``width_tolerance_rel``?"""
    return abs(width / scene - 1) <= p.width_tolerance_rel


def _agree(width: float, scene: float, p: RecognitionParams) -> bool:
    """Is ``width`` the scene's tile width ``scene``, within ``look_width_agree_rel``?"""
    return abs(width / scene - 1) <= p.look_width_agree_rel


def _tile_width(t: TileReading) -> float:
    """The width of a tile read (its half centres lie one width apart)."""
    return math.dist(t.halves[0].center, t.halves[1].center)


def _in_tiles(
    xy: F64, tiles: list[TileReading], *, across: float = 0.5, along: float = 0.5
) -> npt.NDArray[np.bool_]:
    """``(P, T)``: whether each point of ``xy`` (rows x, y) lies in each tile, at most
    ``across`` tile widths and ``along`` tile lengths from its centre (0.5 is its edge)."""
    poly = np.array([t.corners for t in tiles], dtype=np.float64)  # (T, 4, 2), as _corners
    c = poly.mean(axis=1)
    u = (poly[:, 1] + poly[:, 2] - poly[:, 0] - poly[:, 3]) / 2  # each tile's length
    v = (poly[:, 2] + poly[:, 3] - poly[:, 0] - poly[:, 1]) / 2  # each tile's width
    a = np.abs(xy @ u.T - (c * u).sum(axis=1)) / np.maximum((u * u).sum(axis=1), 1e-9)
    b = np.abs(xy @ v.T - (c * v).sum(axis=1)) / np.maximum((v * v).sum(axis=1), 1e-9)
    out: npt.NDArray[np.bool_] = (a <= along) & (b <= across)
    return out


def _inside(
    spots: F64, tile: TileReading, *, across: float = 0.55, along: float = 0.55
) -> npt.NDArray[np.bool_]:
    """Per row of ``spots`` (x, y, ...): does its centre lie in ``tile`` (see
    :func:`_in_tiles`)?"""
    out: npt.NDArray[np.bool_] = _in_tiles(spots[:, :2], [tile], across=across, along=along)[:, 0]
    return out


def _add_missing(
    p: RecognitionParams, tiles: list[TileReading], found: list[TileReading], width: float
) -> list[TileReading]:
    """``tiles`` plus the tiles of ``found`` (most confident first) that overlap none of them
    by more than ``look_overlap_max_rel`` (real tiles do not overlap, but touching tiles read
    a little too wide do, by a pixel or two; a tile read straddling a known one and the
    board beside it overlaps it by half)."""
    kept = list(tiles)
    for t in sorted(found, key=lambda t: -t.confidence):
        if not any(_clash(p, t, k, width, p.look_overlap_max_rel) for k in kept):
            kept.append(t)
    return kept


def _enlarged(crop: U8, k: float, sharpen: float, sigma: float) -> U8:
    """``crop`` enlarged ``k`` times and, with ``sharpen`` > 0, sharpened (unsharp mask of
    Gaussian ``sigma`` original pixels), which gives back some of the contrast that blur took
    from a bar about a pixel thick."""
    big = crop
    if k != 1:
        big = np.asarray(cv2.resize(crop, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC))
    if sharpen <= 0:
        return np.asarray(big, dtype=np.uint8)
    soft = cv2.GaussianBlur(big, (0, 0), sigma * k)
    return np.asarray(cv2.addWeighted(big, 1 + sharpen, soft, -sharpen, 0), dtype=np.uint8)


def _read_crop(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    *,
    faint_scale: float = 0.0,
    faint_ratio: float = 0.6,
) -> tuple[list[TileReading], float, F64]:
    """Tiles read in ``crop`` (crop pixels), the scene's tile width (0 without bars) and the
    pip-like spots seen (``(n, 3)``: x, y, size). ``faint_scale`` > 0: also count faint
    line-like marks as dark, in a crop enlarged that many times (see :func:`_faint_marks`)."""
    labels, blobs = _dark_regions(
        p, crop, threshold, faint_scale=faint_scale, faint_ratio=faint_ratio
    )
    bars = _find_bars(p, crop, labels, blobs)
    if not bars:
        return [], 0.0, _pip_like(p, blobs, 0.0)
    width = _scene_width(p, bars)
    proposals = _propose_tiles(p, bars, width)
    blobs = _with_pips(blobs, [row for pr in proposals for row in pr.bar.split_pips])
    tiles = _read_tiles(p, crop, labels, blobs, proposals, width=width)
    # a tile too small to report (see identify) is print or a group of pips: it must not set
    # the scene's width, which decides what a pip-like spot is (a 9 px "tile" read from the
    # pips of a blurred scene left it no spot, so it was neither deconvolved nor looked at)
    tiles = [t for t in tiles if _tile_width(t) >= p.min_tile_width_px]
    kept = _suppress_overlaps(p, tiles, width)
    if not kept:
        width = 0.0  # the bars were no tile's: their width says nothing
    spots = _pip_like(p, blobs, width)
    log.debug(
        "%d bar candidates, tile width %.1f px, %d proposals, %d tiles read",
        len(bars),
        width,
        len(proposals),
        len(kept),
    )
    return kept, width, spots


def _pip_like(p: RecognitionParams, blobs: _Blobs, width: float) -> F64:
    """``(n, 3)``: centre and size of the enclosed, round dark spots of pip size (at most
    ``spot_max_rel`` of the tile width across, or ``spot_max_px`` when no width is known)."""
    bw, bh, area = blobs.w, blobs.h, blobs.area
    side = p.spot_max_rel * width if width > 0 else p.spot_max_px
    fill = area / np.maximum(bw * bh * (math.pi / 4), 1.0)
    longest = np.maximum(bw, bh)
    ok = blobs.enclosed & (area >= p.pip_min_area_px) & (longest <= side)
    ok &= (fill >= p.pip_min_fill) & (longest <= 1.5 * np.minimum(bw, bh))
    idx = np.flatnonzero(ok)
    out: F64 = np.column_stack([blobs.cx[idx], blobs.cy[idx], longest[idx].astype(np.float64)])
    return out


def _region(region: Sequence[Point] | None) -> npt.NDArray[np.float32] | None:
    if region is None:
        return None
    try:
        polygon = np.asarray(region, dtype=np.float32).reshape(-1, 2)
    except (TypeError, ValueError) as exc:
        raise InvalidImageError(f"region must be a list of (x, y) points: {exc}") from exc
    if len(polygon) < 3 or not np.isfinite(polygon).all():
        raise InvalidImageError("region needs at least 3 finite (x, y) points")
    return polygon


# --------------------------------------------------------------------------- stage 1: faces


def _darkest_channel(p: RecognitionParams, image: npt.NDArray[np.generic]) -> U8:
    """``(H, W)`` uint8: per pixel the darkest of B, G, R (grey images pass through)."""
    if not isinstance(image, np.ndarray):
        raise InvalidImageError(f"expected a numpy image, got {type(image).__name__}")
    if image.dtype != np.uint8:
        raise InvalidImageError(f"expected a uint8 image, got dtype {image.dtype}")
    if image.ndim in (2, 3) and min(image.shape[:2]) < p.min_image_side_px:
        raise InvalidImageError(
            f"image of shape {image.shape} is smaller than {p.min_image_side_px} px"
        )
    if image.ndim == 3 and image.shape[2] == 1:
        image = image[:, :, 0]
    if image.ndim == 2:
        grey = image
    elif image.ndim == 3 and image.shape[2] in (3, 4):
        channels = cv2.split(np.ascontiguousarray(image))
        grey = cv2.min(cv2.min(channels[0], channels[1]), channels[2])
    else:
        raise InvalidImageError(
            f"expected an (H, W), (H, W, 3) or (H, W, 4) image, got {image.shape}"
        )
    return np.ascontiguousarray(grey).astype(np.uint8, copy=False)


def _white_threshold(p: RecognitionParams, grey: U8) -> int:
    if p.white_threshold is not None:
        return p.white_threshold
    small = grey[:: max(1, grey.shape[0] // 360), :: max(1, grey.shape[1] // 640)]
    otsu, _ = cv2.threshold(
        np.ascontiguousarray(small), 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU
    )
    # A light gradient or a bright table can put Otsu's split inside the table (the faces
    # are a small share of the frame): the faces are the brightest pixels, so the threshold
    # is at least a quarter of the way from the typical pixel (the table) to them.
    sample = small[::2, ::2]
    cum = np.cumsum(np.bincount(sample.ravel(), minlength=256)) / sample.size
    median, top = (float(np.searchsorted(cum, q)) for q in (0.5, 0.999))
    otsu = max(otsu, median + p.white_above_table_rel * (top - median))
    return int(min(max(otsu, p.white_threshold_min), p.white_threshold_max))


def _face_box(grey: U8, threshold: int) -> tuple[int, int, int, int] | None:
    """``(x0, y0, x1, y1)``: the part of the frame holding bright pixels, with a margin, so
    the region labelling below skips empty table."""
    step, margin = 4, 12
    coarse = grey[::step, ::step] > threshold
    rows, cols = np.flatnonzero(coarse.any(axis=1)), np.flatnonzero(coarse.any(axis=0))
    if rows.size == 0:
        return None
    h, w = grey.shape
    x0, x1 = max(0, cols[0] * step - margin), min(w, (cols[-1] + 1) * step + margin)
    y0, y1 = max(0, rows[0] * step - margin), min(h, (rows[-1] + 1) * step + margin)
    return int(x0), int(y0), int(x1), int(y1)


def _scaled(t: TileReading, k: float) -> TileReading:
    c = tuple((x * k, y * k) for x, y in t.corners)
    halves = tuple(
        HalfReading((h.center[0] * k, h.center[1] * k), h.pips, h.confidence) for h in t.halves
    )
    return TileReading((c[0], c[1], c[2], c[3]), (halves[0], halves[1]), t.confidence)


def _rotated(t: TileReading, angle: float) -> TileReading:
    """``t`` turned by ``angle`` (radians) about its centre."""
    if angle == 0:
        return t
    ca, sa = math.cos(angle), math.sin(angle)
    ox, oy = t.center

    def turn(pt: Point) -> Point:
        dx, dy = pt[0] - ox, pt[1] - oy
        return (ox + ca * dx - sa * dy, oy + sa * dx + ca * dy)

    c = tuple(turn(q) for q in t.corners)
    halves = tuple(HalfReading(turn(h.center), h.pips, h.confidence) for h in t.halves)
    return TileReading((c[0], c[1], c[2], c[3]), (halves[0], halves[1]), t.confidence)


def _at_width(t: TileReading, width: float) -> TileReading:
    """``t`` scaled about its centre to ``width``."""
    cx, cy = t.center
    return _scaled(t.shifted(-cx, -cy), width / _tile_width(t)).shifted(cx, cy)


def _narrowed(t: TileReading, width: float) -> TileReading:
    """``t`` shrunk about its centre to ``width`` where read wider."""
    return t if width >= _tile_width(t) else _at_width(t, width)


def _blocks_paired(
    p: RecognitionParams, crop: U8, threshold: int, tiles: list[TileReading], seen: list[bool]
) -> tuple[list[TileReading], list[bool]]:
    """``tiles`` with each two read across the seam of two tiles lying side by side paired
    the other way, where that is what the frame shows. Two tiles long side to long side and
    not staggered are a block of four squares that reads as two tiles either way, with the
    same pips; only the lines between the squares tell: the one through the tiles' bars is
    ink inside the faces, stopping short of their edges, the one between the tiles a seam,
    a gap the table shows through from one end of the block to the other. Two tiles read
    across such a gap (see :func:`_block_squares`) whose bars make it, while the line
    between them does not reach the table, are the block read the wrong way round (seed
    another, blur 1.0: a 1-5 above a 5-6, read deconvolved as a 1-5 and a 5-6 standing
    beside each other)."""
    if len(tiles) < 2:
        return tiles, seen
    # such two tiles lie at most a width apart (see _block_squares)
    centres = np.array([t.center for t in tiles], dtype=np.float64)
    widths = np.array([_tile_width(t) for t in tiles])
    apart = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    near = np.triu(apart <= 1.05 * widths[:, None], k=1)
    done: set[int] = set()
    paired: list[TileReading] = []
    for i, j in np.argwhere(near).tolist():
        if i in done or j in done or not (seen[i] and seen[j]):
            continue
        a, b = tiles[i], tiles[j]
        squares = _block_squares(a, b)
        if squares is None:
            continue
        if not _block_turned(crop, threshold, squares, 0.5 * (_tile_width(a) + _tile_width(b))):
            continue
        (a0, a1), (b0, b1) = squares
        conf = min(a.confidence, b.confidence)
        paired += [_tile_of(p, a0, b0, conf), _tile_of(p, a1, b1, conf)]
        done |= {i, j}
    if not done:
        return tiles, seen
    out = [t for k, t in enumerate(tiles) if k not in done] + paired
    return out, [s for k, s in enumerate(seen) if k not in done] + [True] * len(paired)


def _block_squares(
    a: TileReading, b: TileReading
) -> tuple[tuple[HalfReading, HalfReading], tuple[HalfReading, HalfReading]] | None:
    """The halves of ``a`` and of ``b`` ordered so that each half of ``a`` lies beside the
    same half of ``b``, where the two could be read across the seam of two tiles side by
    side: parallel, staggered by at most a quarter of a width, and 0.6 to 0.97 of their
    width apart across (each half of a tile read so lies on the other side of the gap from
    its other half, and the gap widens it: 0.65 to 0.8 in the blocks of 1,200 rendered
    scenes, seeds 1 and 36, where tiles read right lie 1.15 to 1.5 apart); ``None`` if
    they could not."""
    ua, ub = _half_axis(a), _half_axis(b)
    if ua is None or ub is None:
        return None
    w = _tile_width(a)
    dot = ua[0] * ub[0] + ua[1] * ub[1]
    if abs(dot) < 0.97 or abs(_tile_width(b) / w - 1) > 0.2:
        return None
    dx, dy = b.center[0] - a.center[0], b.center[1] - a.center[1]
    along, across = dx * ua[0] + dy * ua[1], abs(-dx * ua[1] + dy * ua[0])
    if abs(along) > 0.25 * w or not 0.6 * w <= across <= 0.97 * w:
        return None
    b0, b1 = b.halves if dot > 0 else b.halves[::-1]
    return (a.halves[0], a.halves[1]), (b0, b1)


def _block_turned(
    crop: U8,
    threshold: int,
    squares: tuple[tuple[HalfReading, HalfReading], tuple[HalfReading, HalfReading]],
    width: float,
) -> bool:
    """Whether two tiles read across a block's seam (see :func:`_block_squares`) are read
    the wrong way round: the line through their bars is a gap (a path of pixels at the face
    ``threshold`` or darker, in a band a half width wide along the line, joining the table
    beyond both ends of the block; each line is followed a third of a width past them), and
    the line between them is none. Where neither line or both are, the reading stands."""
    (a0, a1), (b0, b1) = (
        tuple(np.array(h.center, dtype=np.float64) for h in pair) for pair in squares
    )
    u = (a1 - a0) / max(float(np.linalg.norm(a1 - a0)), 1e-9)
    v = np.array([-u[1], u[0]])
    middle = (a0 + a1 + b0 + b1) / 4
    reach = float(np.linalg.norm((b0 + b1) / 2 - (a0 + a1) / 2)) / 2 + 0.5 * width
    return _gap_along(
        crop, threshold, middle, v, reach=reach + width / 3, band=width / 4
    ) and not _gap_along(crop, threshold, middle, u, reach=width + width / 3, band=width / 4)


def _gap_along(crop: U8, threshold: int, middle: F64, d: F64, *, reach: float, band: float) -> bool:
    """Whether pixels at ``threshold`` or darker join the two ends of the strip ``reach``
    either way along ``d`` from ``middle`` and ``band`` either side of that line (8-connected,
    sampled a pixel apart)."""
    n = np.array([-d[1], d[0]])
    s = np.arange(-round(reach), round(reach) + 1, dtype=np.float64)
    o = np.arange(-round(band), round(band) + 1, dtype=np.float64)
    pts = middle + s[:, None, None] * d + o[None, :, None] * n
    dark = (_sampled(crop, pts) <= threshold).view(np.uint8)
    if not dark.any(axis=1).all():
        return False  # a path from end to end has a pixel at every step
    _, parts = cv2.connectedComponents(dark, connectivity=8)
    return bool(np.intersect1d(parts[0][parts[0] > 0], parts[-1]).size)


def _tile_of(p: RecognitionParams, h0: HalfReading, h1: HalfReading, conf: float) -> TileReading:
    """The tile whose halves are ``h0`` and ``h1`` (as they are), at the width between them."""
    (ax, ay), (bx, by) = h0.center, h1.center
    size = max(math.hypot(bx - ax, by - ay), 1e-9)
    centre = ((ax + bx) / 2, (ay + by) / 2)
    pr = _placed(centre, ((bx - ax) / size, (by - ay) / size), size, measured=False)
    first, second = (h0, h1) if (bx - ax) * pr.along[0] + (by - ay) * pr.along[1] > 0 else (h1, h0)
    return TileReading(_corners(p, pr), (first, second), conf)


@dataclass(frozen=True, slots=True)
class _Blobs:
    """Per dark region (index = label): bounding box, area, centroid, and whether it is a
    small enclosed hole (pip, bar, letter) rather than background. Box, area and centroid
    are 0 for the regions that cannot be enclosed (see :func:`_inner_stats`)."""

    x: I32
    y: I32
    w: I32
    h: I32
    area: I32
    cx: F64
    cy: F64
    enclosed: npt.NDArray[np.bool_]
    #: True for labels that may lie on a clean face: the face itself (0) and pip candidates.
    clean: npt.NDArray[np.bool_]
    #: Grey level below which a pixel is surely ink.
    ink: float
    #: Typical grey level of a tile face.
    face: float
    #: The face threshold the regions were found at.
    threshold: int
    #: Per region, in a look with faint marks: made of faint marks alone, no pixel of it at
    #: the face threshold. A bar a pixel thick can be; a pip never is (None: no such look).
    marks: npt.NDArray[np.bool_] | None = None


def _dark_regions(
    p: RecognitionParams,
    grey: U8,
    threshold: int,
    *,
    faint_scale: float = 0.0,
    faint_ratio: float = 0.6,
    half_dark: bool = False,
) -> tuple[I32, _Blobs]:
    """Label dark regions (4-connected); label 0 is the white face.

    ``half_dark``: every pixel below the face threshold is dark, also in thin bridges (a
    blurred pip is then as large as it was before the blur, but may touch its neighbours).

    ``faint_scale`` > 0 (a second look, in a crop enlarged that many times): a pixel darker
    than ``faint_ratio`` of the brightest face near it is dark too, so a dividing bar about a
    pixel thick in the original frame, blurred to half contrast, still shows. The regions
    made of such marks alone are flagged (``_Blobs.marks``): they are never pips."""
    loose = grey <= threshold
    faces = grey[::4, ::4][~loose[::4, ::4]]
    ink = float(threshold)
    face = 255.0
    if faces.size:
        face = float(np.median(faces))
        ink = min(float(threshold), p.ink_ratio * face)
        # Half-dark pixels stay dark inside broad dark areas (table, board) but not in the
        # one- or two-pixel bridges between ink marks.
        if half_dark:
            dark = loose.astype(np.uint8)  # holds the other two: ink <= threshold
        else:
            # OpenCV's ops, not numpy's: the same mask (grey <= ink, an integer image), the
            # 28-tile scene 5% faster (scripts/reader_ab.py, session 26)
            eroded = cv2.erode(loose.view(np.uint8), np.ones((3, 3), np.uint8))
            _, inked = cv2.threshold(grey, ink, 1, cv2.THRESH_BINARY_INV)
            dark = cv2.bitwise_or(inked, eroded).view(np.uint8)
        if faint_scale > 0:
            marks = _faint_marks(p, grey, dark, threshold, scale=faint_scale, ratio=faint_ratio)
            dark |= marks.view(np.uint8)
    else:
        dark = loose.astype(np.uint8)
    n, found = cv2.connectedComponents(dark, connectivity=4)
    labels = found.astype(np.int32, copy=False)
    faint_only = None
    if faint_scale > 0:
        # deconvolution rings between two rows of dark pips; enlarged and sharpened, the
        # ring is a faint streak about two pips' area, which had been counted as two pips
        faint_only = np.ones(n, dtype=np.bool_)
        faint_only[labels[loose]] = False
    hh, ww = grey.shape
    edge = np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))
    x, y, w, h, area, cx, cy = _inner_stats(labels, n, edge)
    touches = np.zeros(n, dtype=np.bool_)
    touches[edge] = True
    enclosed = ~touches & (area * 50 < hh * ww)
    enclosed[0] = False
    clean = np.zeros(n, dtype=np.bool_)
    clean[0] = True
    blobs = _Blobs(x, y, w, h, area, cx, cy, enclosed, clean, ink, face, threshold, faint_only)
    return labels, blobs


def _inner_stats(labels: I32, n: int, edge: I32) -> tuple[I32, I32, I32, I32, I32, F64, F64]:
    """Per label below ``n``: x, y, w, h, area, cx, cy as ``cv2.connectedComponentsWithStats``
    gives them, for the dark regions that do not touch the image's edge (labels ``edge``
    do); the face (label 0) and the regions at the edge are left 0.

    Those are never enclosed, and no stage reads the box, area or centre of a region that is
    not. The table is most of the frame: OpenCV's stats, kept for every pixel, cost twice the
    labelling; the pixels of the regions measured here are a few percent of the frame."""
    if edge.size <= 8:
        # a few comparisons over the frame are cheaper than one lookup per pixel
        inner = labels != 0
        for lab in edge.tolist():
            inner &= labels != lab
    else:
        measured = np.ones(n, dtype=np.bool_)
        measured[0] = False
        measured[edge] = False
        inner = np.take(measured, labels)
    flat = np.flatnonzero(inner)
    lab = labels.ravel()[flat]
    ys, xs = np.divmod(flat, labels.shape[1])
    area = np.bincount(lab, minlength=n)
    # the sums of pixel coordinates are whole numbers far below 2**53, exact in float64, so
    # the centroids are OpenCV's to the last bit (it divides its integer sums by the area)
    cx = np.bincount(lab, weights=xs, minlength=n) / np.maximum(area, 1)
    cy = np.bincount(lab, weights=ys, minlength=n) / np.maximum(area, 1)
    x0 = np.full(n, labels.shape[1], dtype=np.intp)
    y0 = np.full(n, labels.shape[0], dtype=np.intp)
    x1 = np.full(n, -1, dtype=np.intp)
    y1 = np.full(n, -1, dtype=np.intp)
    np.minimum.at(x0, lab, xs)
    np.minimum.at(y0, lab, ys)
    np.maximum.at(x1, lab, xs)
    np.maximum.at(y1, lab, ys)
    found = area > 0
    w = np.where(found, x1 - x0 + 1, 0).astype(np.int32)
    h = np.where(found, y1 - y0 + 1, 0).astype(np.int32)
    x = np.where(found, x0, 0).astype(np.int32)
    y = np.where(found, y0, 0).astype(np.int32)
    return x, y, w, h, area.astype(np.int32), cx, cy


def _faint_marks(
    p: RecognitionParams, grey: U8, dark: U8, threshold: int, *, scale: float, ratio: float
) -> npt.NDArray[np.bool_]:
    """``(H, W)`` bool: pixels darker than ``ratio`` of the brightest face near them and
    clear of the spots (small enclosed dark regions) already found: a thin bar, never the
    half-dark gaps between pips or between a pip and the bar (those stay face). A faint line
    that runs into the table (the seam between two touching tiles) joins the table. Sizes are
    original pixels times ``scale``."""
    k = 2 * round(p.faint_window_px * scale / 2) + 1
    near = cv2.dilate(grey, np.ones((k, k), np.uint8))
    faint = (grey.astype(np.float32) <= ratio * near) & (near > threshold)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=4)
    hh, ww = grey.shape
    x, y, w, h = stats[:, 0], stats[:, 1], stats[:, 2], stats[:, 3]
    small = (x > 0) & (y > 0) & (x + w < ww) & (y + h < hh) & (stats[:, 4] * 50 < hh * ww)
    # pips (and pips run together), not pieces of a bar: thick, and no longer than a half
    small &= np.maximum(w, h) <= p.look_upscale_below_width_px * scale / 2
    small &= np.minimum(w, h) >= 2 * scale
    small[0] = False
    spots = small[labels].view(np.uint8)
    gap = 2 * round(scale) + 1
    clear = cv2.dilate(spots, np.ones((gap, gap), np.uint8)) == 0
    marks = (faint & clear).view(np.uint8)
    # only line-like marks: a faint smudge on a face must not become a pip
    _, lab, st, _ = cv2.connectedComponentsWithStats(marks, connectivity=8)
    long_side = np.maximum(st[:, 2], st[:, 3])
    line = long_side >= p.bar_min_aspect * np.minimum(st[:, 2], st[:, 3])
    line |= st[:, 4] < 0.5 * st[:, 2] * st[:, 3]  # a diagonal line fills little of its box
    line &= long_side >= p.bar_min_length_px * scale
    line[0] = False
    out: npt.NDArray[np.bool_] = line[lab]
    return out


# --------------------------------------------------------------------------- stage 2: bars


@dataclass(frozen=True, slots=True)
class _Bar:
    label: int
    center: tuple[float, float]
    across: tuple[float, float]  # unit vector along the bar = across the tile
    length: float
    thickness: float
    plus: float  # face extent from the bar centre along ``across``
    minus: float  # ... and along ``-across``
    reach: float  # the shorter face extent from the bar centre along the long axis
    width: float  # face width measured on this tile (too large if neighbours touch both ways)
    #: Pips split off this bar (blob stat rows: x, y, w, h, area, cx, cy).
    split_pips: tuple[tuple[int, int, int, int, int, float, float], ...] = ()


def _find_bars(p: RecognitionParams, grey: U8, labels: I32, blobs: _Blobs) -> list[_Bar]:
    """Bar candidates (some split off pips that had blurred into them)."""
    bw, bh, area = blobs.w, blobs.h, blobs.area
    longest = np.maximum(bw, bh)
    box_fill = area / np.maximum(bw * bh, 1)
    elongated = (np.maximum(bw, bh) >= p.bar_min_aspect * np.minimum(bw, bh)) | (box_fill < 0.5)
    cand = np.flatnonzero(blobs.enclosed & (longest >= p.bar_min_length_px * 0.7) & elongated)
    bars: list[_Bar] = []
    stout: list[tuple[int, _Bar | None]] = []
    for lab, bar in zip(cand.tolist(), _measure_bars(p, grey, labels, blobs, cand), strict=True):
        if bar is None or bar.length < p.bar_split_aspect * bar.thickness:
            stout.append((lab, bar))
        else:
            bars.append(bar)
    # Split only regions about as long as the clean bars (all of them if none is clean).
    typical = float(np.median([b.length for b in bars])) if bars else 0.0
    for lab, unsplit in stout:
        side = float(longest[lab])
        split = None
        plausible = 0.6 * typical <= side <= 1.4 * typical and area[lab] <= typical**2
        if typical == 0.0 or plausible:
            split = _split_bar(p, grey, labels, blobs, lab)
        chosen = split or unsplit
        if chosen is not None:
            bars.append(chosen)
    return _join_fragments(p, labels, blobs, bars)


def _join_fragments(
    p: RecognitionParams, labels: I32, blobs: _Blobs, bars: list[_Bar]
) -> list[_Bar]:
    """Join pieces of one bar broken by noise or glare: collinear, parallel, and together no
    longer than a typical bar (bars of tiles side by side are collinear but far longer
    together)."""
    if len(bars) < 2:
        return bars
    typical = float(np.median([b.length for b in bars]))
    out = list(bars)
    joined = True
    while joined:
        joined = False
        for i, a in enumerate(out):
            for j in range(i + 1, len(out)):
                b = out[j]
                dot = a.across[0] * b.across[0] + a.across[1] * b.across[1]
                if abs(dot) < math.cos(math.radians(15)):
                    continue
                dx, dy = b.center[0] - a.center[0], b.center[1] - a.center[1]
                along_gap = dx * a.across[0] + dy * a.across[1]
                off_line = abs(-dx * a.across[1] + dy * a.across[0])
                span = abs(along_gap) + (a.length + b.length) / 2
                if off_line > max(a.thickness, b.thickness) + 1.5:
                    continue
                if span > p.bar_join_max_rel * typical or span <= max(a.length, b.length):
                    continue
                lo = min(-a.length / 2, along_gap - b.length / 2)
                hi = max(a.length / 2, along_gap + b.length / 2)
                mid = (lo + hi) / 2
                centre = (a.center[0] + mid * a.across[0], a.center[1] + mid * a.across[1])
                owner = a if a.length >= b.length else b
                merged = _bar_at(
                    p,
                    labels,
                    blobs,
                    owner.label,
                    centre=centre,
                    across=a.across,
                    length=hi - lo,
                    thickness=max(a.thickness, b.thickness),
                )
                if merged is None:
                    continue
                out = [c for k, c in enumerate(out) if k not in (i, j)] + [merged]
                joined = True
                break
            if joined:
                break
    return out


def _split_bar(p: RecognitionParams, grey: U8, labels: I32, blobs: _Blobs, lab: int) -> _Bar | None:
    """A bar that pips have blurred into: re-threshold its region darker, measure the longest
    slender core as the bar; what lies off the bar's line comes back as ``split_pips``."""
    x0, y0, ww, hh = int(blobs.x[lab]), int(blobs.y[lab]), int(blobs.w[lab]), int(blobs.h[lab])
    mine = labels[y0 : y0 + hh, x0 : x0 + ww] == lab
    values = grey[y0 : y0 + hh, x0 : x0 + ww]
    darkest = float(values[mine].min())
    found: list[_Bar] = []
    # Ink is not equally dark everywhere (a faint bar beside black pips): try a few levels
    # and keep the longest slender core.
    for fraction in p.bar_split_levels:
        level = darkest + fraction * (blobs.ink - darkest)
        core = (mine & (values <= level)).astype(np.uint8)
        n, sub, stats, cents = cv2.connectedComponentsWithStats(core, connectivity=4)
        for k in range(1, n):
            if max(stats[k][2], stats[k][3]) < p.bar_min_length_px * 0.7:
                continue
            m = cv2.moments((sub == k).astype(np.uint8), binaryImage=True)
            centre = (x0 + float(cents[k][0]), y0 + float(cents[k][1]))
            bar = _bar_from_moments(p, grey, labels, blobs, lab, m=m, centre=centre)
            if bar is not None and bar.length >= p.bar_split_aspect * bar.thickness:
                found.append(bar)
    if not found:
        return None
    best = max(found, key=lambda b: b.length)
    # Whatever of the region lies off the bar's line is pips.
    band = np.zeros(mine.shape, dtype=np.uint8)
    half = best.length / 2 + 1
    (bx, by), (ax, ay) = best.center, best.across
    ends = [(bx - x0 + s * half * ax, by - y0 + s * half * ay) for s in (-1.0, 1.0)]
    thick = max(3, round(best.thickness) + 2)
    p1, p2 = ((round(ex), round(ey)) for ex, ey in ends)
    cv2.line(band, p1, p2, 1, thick)
    rest_mask = (mine & (band == 0)).astype(np.uint8)
    n, sub, stats, cents = cv2.connectedComponentsWithStats(rest_mask, connectivity=4)
    rest = [
        _stat_row(stats[k], x0, y0, (x0 + float(cents[k][0]), y0 + float(cents[k][1])))
        for k in range(1, n)
        if stats[k][4] >= p.pip_min_area_px
    ]
    if any(r[4] > best.length**2 for r in rest):
        # no pip is that large: a slender core at the rim of a dark region (the table
        # between two rows of tiles), which is no bar
        return None
    return dataclasses.replace(best, split_pips=tuple(rest))


def _stat_row(
    st: npt.NDArray[np.int32], x0: int, y0: int, c: tuple[float, float]
) -> tuple[int, int, int, int, int, float, float]:
    """A blob stat row (x, y, w, h, area, cx, cy) in crop coordinates."""
    return (int(st[0]) + x0, int(st[1]) + y0, int(st[2]), int(st[3]), int(st[4]), c[0], c[1])


def _with_pips(blobs: _Blobs, rows: list[tuple[int, int, int, int, int, float, float]]) -> _Blobs:
    """``blobs`` with extra enclosed regions appended (their pixels keep their old label)."""
    if not rows:
        return blobs
    cols = list(zip(*rows, strict=True))
    ints = [
        np.concatenate([a, np.array(c, dtype=np.int32)])
        for a, c in zip((blobs.x, blobs.y, blobs.w, blobs.h, blobs.area), cols[:5], strict=True)
    ]
    cx = np.concatenate([blobs.cx, np.array(cols[5], dtype=np.float64)])
    cy = np.concatenate([blobs.cy, np.array(cols[6], dtype=np.float64)])
    enclosed = np.concatenate([blobs.enclosed, np.ones(len(rows), dtype=np.bool_)])
    clean = np.concatenate([blobs.clean, np.zeros(len(rows), dtype=np.bool_)])
    x, y, w, h, area = ints
    marks = blobs.marks
    if marks is not None:
        marks = np.concatenate([marks, np.zeros(len(rows), dtype=np.bool_)])
    return _Blobs(
        x, y, w, h, area, cx, cy, enclosed, clean, blobs.ink, blobs.face, blobs.threshold, marks
    )


def _measure_bars(
    p: RecognitionParams, grey: U8, labels: I32, blobs: _Blobs, labs: npt.NDArray[np.intp]
) -> list[_Bar | None]:
    """Per region of ``labs``: the bar it is (``None`` if none), measured from its moments
    as :func:`_bar_from_moments` measures one, to the same bit. The lines each bar is
    followed along and the rays its face is measured on are sampled for all bars at once:
    one set of array operations instead of one per bar, whose fixed cost was most of it."""
    shapes: list[tuple[int, tuple[float, float], tuple[float, float], float, float]] = []
    for lab in labs.tolist():
        x0, y0, ww, hh = int(blobs.x[lab]), int(blobs.y[lab]), int(blobs.w[lab]), int(blobs.h[lab])
        crop = (labels[y0 : y0 + hh, x0 : x0 + ww] == lab).astype(np.uint8)
        shape = _bar_shape(p, cv2.moments(crop, binaryImage=True))
        if shape is not None:
            centre = (float(blobs.cx[lab]), float(blobs.cy[lab]))
            shapes.append((lab, centre, *shape))
    found: dict[int, _Bar | None] = dict.fromkeys(labs.tolist())
    if not shapes:
        return list(found.values())
    own = np.array([s[0] for s in shapes], dtype=np.intp)
    cx, cy = (np.array([s[1][k] for s in shapes]) for k in (0, 1))
    ax, ay = (np.array([s[2][k] for s in shapes]) for k in (0, 1))
    length = np.array([s[3] for s in shapes])
    thickness = np.array([s[4] for s in shapes])
    spans = _bar_spans(
        p, grey, blobs, cx=cx, cy=cy, ax=ax, ay=ay, length=length, thickness=thickness
    )
    scan = (3 * length).astype(np.intp) + 4
    cap = 0.3 * np.maximum(length, spans) ** 2
    # rows per bar: along +across, -across, then both ways along the tile (see _bar_at)
    dirs = np.stack(
        [np.stack(d, axis=1) for d in ((ax, ay), (-ax, -ay), (-ay, ax), (ay, -ax))], axis=1
    )
    ext = _face_extents_many(labels, blobs, cx, cy, dirs, reach=scan, own=own, hole_cap=cap)
    for k, (lab, centre, across, ln, th) in enumerate(shapes):
        bar = _bar_of(
            p, lab, centre=centre, across=across, length=ln, thickness=th, ext=ext[k].tolist()
        )
        # a bar stays inside its tile's face; a gap between two tiles lying long side to
        # long side runs twice as far, out onto the table (for instance: a 5-0 above a
        # 0-0, their bars paler than the face threshold, a fragment of the gap read as the
        # bar of a "0-0" across both)
        if (
            bar is not None
            and spans[k] >= p.seam_span_rel * bar.width
            and _opens_onto_table(grey, labels, blobs, lab, reach=spans[k] / 2 + 3)
        ):
            bar = None
        found[lab] = bar
    return list(found.values())


def _opens_onto_table(grey: U8, labels: I32, blobs: _Blobs, lab: int, *, reach: float) -> bool:
    """Whether region ``lab``'s pixels at the face threshold join the edge of a square
    ``reach`` either side of its centre (a bar's are enclosed by its tile's face)."""
    hh, ww = grey.shape
    r = math.ceil(reach)
    x0, y0 = max(0, int(blobs.cx[lab]) - r), max(0, int(blobs.cy[lab]) - r)
    x1, y1 = min(ww, int(blobs.cx[lab]) + r + 1), min(hh, int(blobs.cy[lab]) + r + 1)
    loose = grey[y0:y1, x0:x1] <= blobs.threshold
    own = (labels[y0:y1, x0:x1] == lab) & loose  # faint marks can lie above it
    if not own.any():
        return False
    _, parts = cv2.connectedComponents(loose.view(np.uint8), connectivity=4)
    seam = parts[own][0]
    rim = np.concatenate([parts[0], parts[-1], parts[:, 0], parts[:, -1]])
    return bool((rim == seam).any())


def _bar_spans(
    p: RecognitionParams,
    grey: U8,
    blobs: _Blobs,
    *,
    cx: F64,
    cy: F64,
    ax: F64,
    ay: F64,
    length: F64,
    thickness: F64,
) -> F64:
    """Per bar (arrays, one entry per bar): how far it runs along its line in ``grey`` (at
    least its ``length``). A blurred bar is ink only in its middle, but darker than the face on
    both sides of it to its ends (a pip beside it darkens one side only; the table or a seam
    at its end darkens both): four lines along it are sampled, two on it (half a pixel each
    side) and two beside it, and the run of samples where both sides are lighter is followed
    from the middle outwards (see :func:`_run_length`)."""
    nx, ny = -ay, ax
    off = thickness / 2 + 2.0
    reach = (2.5 * length).astype(np.intp) + 4
    most = int(reach.max())
    s = np.arange(-most, most + 1, dtype=np.float64)
    hgt, wid = grey.shape
    shifts = np.stack([np.full_like(off, 0.5), np.full_like(off, -0.5), off, -off], axis=1)
    col = (slice(None), None, None)
    xs = _clamped(
        np.rint(cx[col] + shifts[:, :, None] * nx[col] + s * ax[col]).astype(np.intp), 0, wid - 1
    )
    ys = _clamped(
        np.rint(cy[col] + shifts[:, :, None] * ny[col] + s * ay[col]).astype(np.intp), 0, hgt - 1
    )
    v = grey[ys, xs].astype(np.float64)
    line = np.minimum(v[:, 0], v[:, 1])
    side = np.minimum(v[:, 2], v[:, 3])
    dips = side - line >= max(6.0, p.bar_follow_dip * blobs.face)
    out = np.empty(len(reach))
    for k, r in enumerate(reach.tolist()):
        on = dips[k, most - r : most + r + 1].tolist()
        out[k] = max(float(length[k]), _run_length(on, r))
    return out


def _run_length(on: list[bool], middle: int) -> float:
    """How many samples of ``on`` the run through ``on[middle]`` covers, bridging gaps of a
    pixel or two (from the middle outwards)."""
    ends = []
    for step in (1, -1):
        k, gap = middle, 0
        while 0 <= k + step < len(on) and gap <= 2:
            k += step
            gap = 0 if on[k] else gap + 1
        ends.append(k - step * gap)
    return float(ends[0] - ends[1] + 1)


def _face_extents_many(
    labels: I32,
    blobs: _Blobs,
    cx: F64,
    cy: F64,
    directions: F64,
    *,
    reach: npt.NDArray[np.intp],
    own: npt.NDArray[np.intp],
    hole_cap: F64,
) -> F64:
    """``(n, rays)``: per start (``cx``, ``cy``) and per direction (``directions`` is ``(n,
    rays, 2)``, unit vectors), the distance to the first pixel that is not tile face (white,
    the region ``own`` itself, or a small enclosed hole such as a pip: at most ``hole_cap``
    pixels), looked for up to ``reach`` (``reach``, ``own`` and ``hole_cap`` one per start)."""
    t = np.arange(int(reach.max()) + 1, dtype=np.float64)
    col = (slice(None), None, None)
    xs = np.rint(cx[col] + directions[:, :, :1] * t).astype(np.intp)
    ys = np.rint(cy[col] + directions[:, :, 1:] * t).astype(np.intp)
    hgt, wid = labels.shape
    inside = (xs >= 0) & (ys >= 0) & (xs < wid) & (ys < hgt)
    lab = labels[_clamped(ys, 0, hgt - 1), _clamped(xs, 0, wid - 1)]
    face = inside & (
        (lab == 0) | (lab == own[col]) | (blobs.enclosed[lab] & (blobs.area[lab] <= hole_cap[col]))
    )
    blocked = ~face & (t <= reach[col])
    first = np.argmax(blocked, axis=2).astype(np.float64) - 0.5
    out: F64 = np.where(blocked.any(axis=2), first, reach[:, None].astype(np.float64))
    return out


def _bar_from_moments(
    p: RecognitionParams,
    grey: U8,
    labels: I32,
    blobs: _Blobs,
    lab: int,
    *,
    m: dict[str, float],
    centre: tuple[float, float],
) -> _Bar | None:
    shape = _bar_shape(p, m)
    if shape is None:
        return None
    across, length, thickness = shape
    span = _bar_span(
        p, grey, blobs, centre=centre, across=across, length=length, thickness=thickness
    )
    return _bar_at(
        p,
        labels,
        blobs,
        lab,
        centre=centre,
        across=across,
        length=length,
        thickness=thickness,
        span=span,
    )


def _bar_shape(
    p: RecognitionParams, m: dict[str, float]
) -> tuple[tuple[float, float], float, float] | None:
    """The direction, length and thickness of a bar from a region's moments (``None`` if it
    is too short or too stout for one)."""
    if m["m00"] <= 0:
        return None
    mu20, mu02, mu11 = m["mu20"] / m["m00"], m["mu02"] / m["m00"], m["mu11"] / m["m00"]
    common = math.sqrt(max(((mu20 - mu02) / 2) ** 2 + mu11**2, 0.0))
    lam1 = (mu20 + mu02) / 2 + common
    lam2 = max((mu20 + mu02) / 2 - common, 0.0)
    length = math.sqrt(12 * lam1)
    thickness = max(math.sqrt(12 * lam2), 1.0)
    if length < p.bar_min_length_px or length < p.bar_min_aspect * thickness:
        return None
    theta = 0.5 * math.atan2(2 * mu11, mu20 - mu02)
    return (math.cos(theta), math.sin(theta)), length, thickness


def _bar_span(
    p: RecognitionParams,
    grey: U8,
    blobs: _Blobs,
    *,
    centre: tuple[float, float],
    across: tuple[float, float],
    length: float,
    thickness: float,
) -> float:
    """How far the bar runs along its line in ``grey`` (at least ``length``; see
    :func:`_bar_spans`, of which this is the one-bar case)."""
    spans = _bar_spans(
        p,
        grey,
        blobs,
        cx=np.array([centre[0]]),
        cy=np.array([centre[1]]),
        ax=np.array([across[0]]),
        ay=np.array([across[1]]),
        length=np.array([length]),
        thickness=np.array([thickness]),
    )
    return float(spans[0])


def _bar_at(
    p: RecognitionParams,
    labels: I32,
    blobs: _Blobs,
    lab: int,
    *,
    centre: tuple[float, float],
    across: tuple[float, float],
    length: float,
    thickness: float,
    span: float = 0.0,
) -> _Bar | None:
    """Measure the face around a bar of this geometry (``None`` if it cannot be a bar).
    ``span``: how far the bar runs when followed in the image (a blurred bar's thresholded
    core is shorter); it sizes what counts as a hole in the face (a pip)."""
    cx, cy = centre
    scan = int(3 * length) + 4
    cap = 0.3 * max(length, span) ** 2

    ax, ay = across
    dirs = np.array([[ax, ay], [-ax, -ay], [-ay, ax], [ay, -ax]], dtype=np.float64)
    ext = _face_extents_many(
        labels,
        blobs,
        np.array([cx]),
        np.array([cy]),
        dirs[None],
        reach=np.array([scan], dtype=np.intp),
        own=np.array([lab], dtype=np.intp),
        hole_cap=np.array([cap]),
    )[0]
    return _bar_of(
        p,
        lab,
        centre=(cx, cy),
        across=across,
        length=length,
        thickness=thickness,
        ext=ext.tolist(),
    )


def _bar_of(
    p: RecognitionParams,
    lab: int,
    *,
    centre: tuple[float, float],
    across: tuple[float, float],
    length: float,
    thickness: float,
    ext: list[float],
) -> _Bar | None:
    """The bar, from its face extents (along ``across``, against it, and both ways along the
    tile), or ``None`` if the face around it is no tile's."""
    plus, minus = ext[0], ext[1]
    reach = min(ext[2], ext[3])
    # A neighbour touching the side spoils the width across the bar, one touching the end
    # spoils the length: a touching face only ever makes a measurement larger.
    width = min(plus + minus, 2 * reach / p.tile_aspect)
    if width <= 0 or length / width > p.bar_max_rel:
        return None
    return _Bar(lab, centre, across, length, thickness, plus, minus, reach, width)


def _scene_width(p: RecognitionParams, bars: list[_Bar]) -> float:
    """Median tile width over bars of plausible proportions (all bars if none is)."""
    ok = [b.width for b in bars if b.length >= p.bar_min_rel * b.width]
    return float(np.median(ok or [b.width for b in bars]))


def _fill_gaps(
    p: RecognitionParams,
    crop: U8,
    threshold: int,
    *,
    tiles: list[TileReading],
    width: float,
    late: list[TileReading],
) -> list[TileReading]:
    """Tiles in the parts of ``crop`` where a good share of face lies in no tile of ``tiles``
    (read at ``width``): there each part is labelled again and its thin lines carved into
    bars (see :func:`_carved_tiles`), then its faces split by a bar are read (see
    :func:`_split_tiles`). Tiles read from their pips' dark peaks go to ``late``."""
    if width < p.min_tile_width_px or not tiles:
        return []
    hh, ww = crop.shape
    read = np.zeros((hh, ww), dtype=np.uint8)
    for t in tiles:
        cv2.fillConvexPoly(read, np.rint(np.array(t.corners)).astype(np.int32), 1)
    # looked for at a coarse step: the share of face in squares half a tile wide
    step = max(1, int(width / 8))
    white = (crop[::step, ::step] > threshold).astype(np.uint8)
    unread = read[::step, ::step] == 0
    # a face as narrow as a crosswise double's between the tiles read either side: its pips
    # (and bar) take most of the share, the more so once deconvolution widens them. Closed
    # over, it is looked at too where no part was (the parts found already stay as they are)
    # if it is half a tile at least (the white corners of a marker are less)
    closed = np.asarray(cv2.morphologyEx(white, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))) > 0
    if np.count_nonzero(closed & unread) < 0.5 * (width / step) ** 2:
        return []  # less unread face, pips closed over, than any part is made of
    boxes, grown = _gap_parts(p, _gap_faces(p, (white > 0) & unread, step, width), step, width)
    more = _gap_faces(p, closed & unread, step, width)
    _, lab, stats, _ = cv2.connectedComponentsWithStats(more, connectivity=8)
    skip = stats[:, 4] < (width / step) ** 2
    skip[lab[grown > 0]] = True
    more[skip[lab]] = 0
    boxes += _gap_parts(p, more, step, width)[0]
    added: list[TileReading] = []
    for lx, ly, lw, lh in boxes:
        rx0, ry0 = max(0, lx), max(0, ly)
        rx1, ry1 = min(ww, lx + lw), min(hh, ly + lh)
        part = crop[ry0:ry1, rx0:rx1]
        if min(part.shape) < p.min_image_side_px:
            continue
        labels, blobs = _dark_regions(p, part, threshold)
        known = [t.shifted(-rx0, -ry0) for t in tiles + added]
        found = _carved_tiles(p, part, labels, blobs, tiles=known, width=width)
        split, peaked = _split_tiles(p, part, labels, blobs, tiles=known + found, width=width)
        added += [t.shifted(rx0, ry0) for t in found + split]
        late += [t.shifted(rx0, ry0) for t in peaked]
    return added


def _gap_faces(p: RecognitionParams, face: npt.NDArray[np.bool_], step: int, width: float) -> U8:
    """Where (``face`` sampled every ``step`` pixels: face outside every tile read) a good
    share of a square half a tile wide is face (see :func:`_fill_gaps`)."""
    r = max(3, 2 * round(width / 4 / step) + 1)
    share = cv2.boxFilter(face.astype(np.float32), -1, (r, r))
    left = (share >= p.carve_face_share).astype(np.uint8)
    # at least half a tile's half (slivers beside tiles read are no tile), and no large ring
    # (the white border of a marker)
    _, lab, stats, _ = cv2.connectedComponentsWithStats(left, connectivity=8)
    extent = np.maximum(stats[:, 2], stats[:, 3]) * step / width
    fill = stats[:, 4] / np.maximum(stats[:, 2] * stats[:, 3], 1)
    skip = (stats[:, 4] < 0.5 * (width / step) ** 2) | ((fill < 0.5) & (extent > 2.2))
    skip[0] = True
    left[skip[lab]] = 0
    return left


def _gap_parts(
    p: RecognitionParams, left: U8, step: int, width: float
) -> tuple[list[tuple[int, int, int, int]], U8]:
    """The boxes (``x, y, w, h``, pixels) round the parts of ``left`` (see :func:`_gap_faces`)
    with a margin; parts closer than the margin make one box. And the margins' map."""
    pad = round(1.5 * width)
    grown = cv2.dilate(left, np.ones((2 * (pad // step) + 1,) * 2, np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    boxes = [(x * step, y * step, w * step, h * step) for x, y, w, h, _ in stats[1:n].tolist()]
    return boxes, np.asarray(grown, dtype=np.uint8)


def _split_tiles(
    p: RecognitionParams,
    grey: U8,
    labels: I32,
    blobs: _Blobs,
    *,
    tiles: list[TileReading],
    width: float,
) -> tuple[list[TileReading], list[TileReading]]:
    """Tiles whose bar runs right across the face (into the table, or into the seams of a
    double laid crosswise), read from the two square halves it splits the face into.

    The face outside every tile read, pips filled in, falls apart into ``w x w`` squares
    where such a bar cuts a tile in two (see :func:`_face_squares`). Two squares side by
    side, a thin line apart, are a tile's halves; but two such tiles touching end to end make
    four squares in a row, and the middle two (the seam between them) look just as good. So
    squares are paired from the ends of such rows inward (see :func:`_pair_squares`). A bar
    that stops just short of the sides leaves the face whole: a ``w x 2w`` face with a thin
    line right across its middle is a tile centred on that line (a tile lying face down has
    none). Each is read like a bar proposal, its halves on the squares (or either side of
    the line; pips joined to the bar cut off it, see :func:`_cut_at_bar`), with the
    distance between them as its width: a slanted view can make a tile
    shorter than ``2w``. Confident tiles that overlap no tile read by more than
    ``carve_overlap_max_rel`` are kept. Those whose pips were counted as dark peaks (where
    they join the sides or the bar) come second."""
    hh, ww = labels.shape
    read = np.zeros((hh, ww), dtype=np.uint8)
    for t in tiles:
        cv2.fillConvexPoly(read, np.rint(np.array(t.corners)).astype(np.int32), 1)
    squares, whole, face = _face_squares(p, grey, labels, blobs, read=read, width=width)
    pairs = _pair_squares(p, squares, face, width)
    halves: list[tuple[tuple[float, float], tuple[float, float]]] = [
        (squares[i][0], squares[j][0]) for i, j in pairs
    ]
    for (cx, cy), edge, long_side, _ in whole:
        # a face looks larger than its tile (blur, a bright rim), never smaller, but a slanted
        # view can make a tile shorter than 2w
        half = min(long_side / 2, width) / 2
        q = (half * math.cos(edge), half * math.sin(edge))
        halves.append(((cx - q[0], cy - q[1]), (cx + q[0], cy + q[1])))
    found: list[TileReading] = []
    peaks: list[TileReading] = []
    for k, ((xi, yi), (xj, yj)) in enumerate(halves):
        centre = ((xi + xj) / 2, (yi + yj) / 2)
        d = math.hypot(xj - xi, yj - yi)
        w = d if _near(d, width, p) else width  # the halves are the squares
        pr = _placed(centre, ((xj - xi) / d, (yj - yi) / d), w, measured=w == d)
        # one at a time: the pip spacing of one tile's halves says nothing of another's
        cut_labels, cut_blobs = _cut_at_bar(p, labels, blobs, pr)
        got = _read_tiles(
            p, grey, cut_labels, cut_blobs, [pr], width=width, spacing_hint=STANDARD_SPACING
        )
        if k < len(pairs) and not any(t.confidence >= p.carve_min_confidence for t in got):
            # pips joined to the sides or to the bar (deconvolution widens them): counted as
            # dark peaks instead, on the tile the two squares make (the centres of faces cut
            # by a bar or a seam are a pixel or two off, too far for the direction and width)
            i, j = pairs[k]
            tile = _peak_tile(p, grey, _square_pair(p, pr, squares[i], squares[j]))
            peaks += [tile] if tile is not None else []
        found += got
    kept = list(tiles)
    for t in sorted(found, key=lambda t: -t.confidence):
        if t.confidence < p.carve_min_confidence:
            continue
        if not any(_clash(p, t, k, width, p.carve_overlap_max_rel) for k in kept):
            kept.append(t)
    n = len(kept)
    for t in sorted(peaks, key=lambda t: -t.confidence):
        if t.confidence < p.carve_min_confidence:
            continue
        if not any(_clash(p, t, k, width, p.carve_overlap_max_rel) for k in kept):
            kept.append(t)
    return kept[len(tiles) : n], kept[n:]


def _square_pair(p: RecognitionParams, pr: _Proposal, a: _Square, b: _Square) -> _Proposal:
    """``pr`` (the tile of the face squares ``a`` and ``b``) along the squares' edges, nearest
    its own direction, and as wide as their sides across it if that is near its width."""
    step = math.atan2(pr.along[1], pr.along[0])
    turns = []
    for _, edge, *_ in (a, b):
        d = (step - edge) % (math.pi / 2)
        turns.append(d if d < math.pi / 4 else d - math.pi / 2)
    angle = step - sum(turns) / 2
    ux, uy = math.cos(angle), math.sin(angle)
    across = sum(_side_along(angle + math.pi / 2, s[1], s[2], s[3]) for s in (a, b)) / 2
    w = across if _near(across, pr.width, p) else pr.width
    return dataclasses.replace(pr, along=(ux, uy), across=(-uy, ux), width=w)


_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def _cut_at_bar(
    p: RecognitionParams, labels: I32, blobs: _Blobs, pr: _Proposal
) -> tuple[I32, _Blobs]:
    """``labels`` and ``blobs`` with every pip-sized dark region that reaches into the bar of
    ``pr`` (a band a tenth of the width thick across its centre) cut there: a pip joined to
    a faint bar a pixel away is a pip, not a run of three. The pieces either side are new
    regions; unchanged when no region reaches the bar."""
    w = pr.width
    hh, ww = labels.shape
    r = int(w) + 2
    x0, y0 = max(0, int(pr.center[0]) - r), max(0, int(pr.center[1]) - r)
    x1, y1 = min(ww, int(pr.center[0]) + r + 1), min(hh, int(pr.center[1]) + r + 1)
    ys, xs = np.mgrid[y0:y1, x0:x1]
    s = (xs - pr.center[0]) * pr.along[0] + (ys - pr.center[1]) * pr.along[1]
    t = (xs - pr.center[0]) * pr.across[0] + (ys - pr.center[1]) * pr.across[1]
    band = (np.abs(s) <= max(1.5, 0.1 * w)) & (np.abs(t) <= 0.5 * w)
    box = labels[y0:y1, x0:x1]
    crossing = np.unique(box[band])
    limit = 2.5 * p.pip_max_area_rel * w * w
    crossing = crossing[(crossing > 0) & blobs.enclosed[crossing] & (blobs.area[crossing] <= limit)]
    if crossing.size == 0:
        return labels, blobs
    out = labels.copy()
    rows: list[tuple[int, int, int, int, int, float, float]] = []
    nxt = int(blobs.area.shape[0])
    for lab in crossing.tolist():
        rest = ((box == lab) & ~band).astype(np.uint8)
        n, sub, stats, cents = cv2.connectedComponentsWithStats(rest, connectivity=4)
        for k in range(1, n):
            if stats[k][4] < p.pip_min_area_px:
                continue
            out[y0:y1, x0:x1][sub == k] = nxt + len(rows)
            centre = (x0 + float(cents[k][0]), y0 + float(cents[k][1]))
            rows.append(_stat_row(stats[k], x0, y0, centre))
    if not rows:
        return labels, blobs
    cut = _with_pips(blobs, rows)  # new arrays: ``blobs`` stays as it was
    cut.enclosed[crossing] = False  # what is left of them is the bar
    return out, cut


#: A face square: centre, edge direction (radians), side along that direction, other side.
_Square = tuple[tuple[float, float], float, float, float]


def _face_squares(
    p: RecognitionParams, grey: U8, labels: I32, blobs: _Blobs, *, read: U8, width: float
) -> tuple[list[_Square], list[_Square], U8]:
    """The parts of the face outside the ``read`` pixels that are squares about ``width``
    across, and those that are whole tiles (``w x 2w``, the long side along the edge
    direction) with a thin dark line right across their middle: a bar that falls short of
    the sides only just. Faint lines (a thin bar) cut the face too; the pips and the faint
    rims round them are filled in (a pip near a side can reach the table through its rim)."""
    hh, ww = labels.shape
    face = ((labels == 0) & ~_faint(p, grey, blobs, width)).astype(np.uint8)
    bw, bh = blobs.w, blobs.h
    pips = blobs.enclosed & (blobs.area <= p.pip_max_area_rel * width * width)
    pips &= np.maximum(bw, bh) <= 1.5 * np.minimum(bw, bh)  # round: no piece of a bar
    pips[0] = False
    face |= cv2.dilate(pips[labels].view(np.uint8), np.ones((3, 3), np.uint8))
    face &= read == 0
    cut = face.copy()
    _, comp, stats, _ = cv2.connectedComponentsWithStats(1 - face, connectivity=4)
    hx, hy, hw, hh_, ha = (stats[:, i] for i in range(5))
    hole = (hx > 0) & (hy > 0) & (hx + hw < ww) & (hy + hh_ < hh) & (ha <= 0.3 * width**2)
    hole[0] = False
    face |= hole[comp].view(np.uint8)
    # a bar that stops a pixel or two short of a side still cuts the face in two
    face = np.asarray(cv2.morphologyEx(face, cv2.MORPH_OPEN, _CROSS), dtype=np.uint8)
    n, comp, stats, cents = cv2.connectedComponentsWithStats(face, connectivity=4)
    squares: list[_Square] = []
    whole: list[_Square] = []
    for c in range(1, n):
        if not 0.5 <= stats[c, 4] / width**2 <= 2.6:
            continue
        x, y, w, h = (int(v) for v in stats[c, :4])
        pts = cv2.findNonZero((comp[y : y + h, x : x + w] == c).astype(np.uint8))
        (_, _), (a, b), angle = cv2.minAreaRect(pts)
        a, b = a + 1.0, b + 1.0  # pixel centres to pixel edges
        if min(a, b) < 0.7 * width or stats[c, 4] < 0.65 * a * b:
            continue
        centre = (float(cents[c][0]), float(cents[c][1]))
        edge = math.radians(angle)
        if max(a, b) <= 1.3 * width:
            squares.append((centre, edge, a, b))
        elif max(a, b) >= 1.6 * width and max(a, b) <= 2.4 * width and min(a, b) <= 1.3 * width:
            a, b = max(a, b), min(a, b)
            # the long axis from the moments: a rounded or blurred outline turns the
            # smallest rectangle round it by a few degrees
            m = cv2.moments((comp[y : y + h, x : x + w] == c).astype(np.uint8), binaryImage=True)
            edge = 0.5 * math.atan2(2 * m["mu11"], m["mu20"] - m["mu02"])
            shift = _line_across(cut, centre, edge, b)
            ux, uy = math.cos(edge), math.sin(edge)
            # a tile, not the halves of two beside the seam between them: table (or tiles
            # read) at both ends, no face
            ends = [_clear_beyond(face, centre, (e * ux, e * uy), a / 2, b) for e in (-1, 1)]
            if shift is not None and all(ends):  # the bar is the tile's middle
                bar = (centre[0] + shift * ux, centre[1] + shift * uy)
                whole.append((bar, edge, a, b))
    return squares, whole, face


def _line_across(cut: U8, centre: tuple[float, float], edge: float, side: float) -> float | None:
    """Where (pixels along ``edge`` from ``centre``, within a quarter of the short ``side``)
    a thin line, no face, runs across the middle 70% of a tile whose long axis runs along
    ``edge`` (radians), with face a fifth of the side either way; ``None`` if nowhere: a
    face-down tile has no bar."""
    ux, uy = math.cos(edge), math.sin(edge)
    t = np.linspace(-0.35 * side, 0.35 * side, 15)
    hh, ww = cut.shape

    def face_at(shift: float) -> npt.NDArray[np.bool_]:
        xs = np.rint(centre[0] + shift * ux - t * uy).astype(np.intp)
        ys = np.rint(centre[1] + shift * uy + t * ux).astype(np.intp)
        ok = (xs >= 0) & (ys >= 0) & (xs < ww) & (ys < hh)
        out: npt.NDArray[np.bool_] = ok & (
            cut[_clamped(ys, 0, hh - 1), _clamped(xs, 0, ww - 1)] > 0
        )
        return out

    shifts = np.arange(-0.25 * side, 0.25 * side + 0.5, 0.5)
    cover = np.array([1.0 - float(face_at(float(s)).mean()) for s in shifts])
    best = float(shifts[int(np.argmax(cover - 1e-3 * np.abs(shifts)))])
    if cover.max() < 0.8:
        return None
    beside = [float(face_at(best + s * 0.2 * side).mean()) for s in (-1.0, 1.0)]
    return best if min(beside) >= 0.8 else None


def _pair_squares(
    p: RecognitionParams, squares: list[_Square], face: U8, width: float
) -> list[tuple[int, int]]:
    """Pairs of ``squares`` that are one tile's halves: side by side along an edge, a thin
    line (at most a bar's thickness) apart. A square with only one such neighbour takes it
    if it ends a row: no ``face`` (the squares' map) lies just beyond its other side (the
    table or a tile read; a square missed there would put every pair of the row a half
    off). The pairs taken free the next ones (a row of squares is paired from its ends
    inward); what stays ambiguous is left alone."""
    partners: dict[int, set[int]] = {i: set() for i in range(len(squares))}
    for i, ((xi, yi), *si) in enumerate(squares):
        for j in range(i + 1, len(squares)):
            (xj, yj), *sj = squares[j]
            d = math.hypot(xj - xi, yj - yi)
            if not 0.75 * width <= d <= 1.3 * width:
                continue
            step = math.atan2(yj - yi, xj - xi)
            if any(_off_axis(step, s[0]) > math.radians(12) for s in (si, sj)):
                continue
            sides = sum(_side_along(step, *s) for s in (si, sj))
            if d - sides / 2 <= p.bar_max_thickness_rel * width:  # a line, no strip of table
                partners[i].add(j)
                partners[j].add(i)
    pairs: list[tuple[int, int]] = []
    paired: set[int] = set()
    changed = True
    while changed:
        changed = False
        for i in sorted(partners):
            left = partners[i] - paired
            if i in paired or len(left) != 1:
                continue
            j = next(iter(left))
            if not partners[i] - {j} and not _row_end(face, squares[i], squares[j][0]):
                continue  # (a square whose other partners are taken ended its row already)
            pairs.append((i, j))
            paired |= {i, j}
            changed = True
    return pairs


def _row_end(face: U8, square: _Square, partner: tuple[float, float]) -> bool:
    """Is there no face just beyond the side of ``square`` away from ``partner``?"""
    (cx, cy), edge, a, b = square
    dx, dy = cx - partner[0], cy - partner[1]
    d = math.hypot(dx, dy)
    along = _side_along(math.atan2(dy, dx), edge, a, b)
    return _clear_beyond(face, (cx, cy), (dx / d, dy / d), along / 2, a + b - along)


def _clear_beyond(
    face: U8, centre: tuple[float, float], out: tuple[float, float], reach: float, side: float
) -> bool:
    """Is there no ``face`` just beyond the side ``reach`` from ``centre`` in the direction
    ``out`` (from 2 px to a quarter of ``side`` further, over the middle half of the side,
    ``side`` long)? The table or a tile read lies there, not a face left unread."""
    hh, ww = face.shape
    s, t = np.meshgrid(
        np.linspace(reach + 2, reach + max(3.0, side / 4), 4),
        np.linspace(-side / 4, side / 4, 7),
    )
    xs = np.rint(centre[0] + s * out[0] - t * out[1]).astype(np.intp)
    ys = np.rint(centre[1] + s * out[1] + t * out[0]).astype(np.intp)
    ok = (xs >= 0) & (ys >= 0) & (xs < ww) & (ys < hh)
    beyond = face[_clamped(ys, 0, hh - 1), _clamped(xs, 0, ww - 1)] > 0
    return float((beyond & ok).mean()) < 0.25


def _side_along(direction: float, edge: float, a: float, b: float) -> float:
    """The side of a rectangle (side ``a`` along ``edge``, ``b`` across it) that runs most
    nearly along ``direction`` (radians)."""
    d = (direction - edge) % math.pi
    return a if min(d, math.pi - d) < math.pi / 4 else b


def _off_axis(direction: float, edge: float) -> float:
    """How far (radians) ``direction`` is from the nearest of the edge directions ``edge``
    and ``edge`` + a right angle."""
    d = (direction - edge) % (math.pi / 2)
    return min(d, math.pi / 2 - d)


def _carved_tiles(
    p: RecognitionParams,
    grey: U8,
    labels: I32,
    blobs: _Blobs,
    *,
    tiles: list[TileReading],
    width: float,
) -> list[TileReading]:
    """Tiles whose bar runs into other thin dark lines, or is fainter than ink (at ``width``,
    beside ``tiles`` read before).

    A double laid crosswise between two tiles touches their ends with both long sides: its
    bar runs into the seams there, so its dark region is not bar-shaped, or joins the table.
    Here the thin lines off the tiles read (dark regions an opening about a bar thick
    removes, and marks darker than ``carve_faint_ratio`` of the face near them) are cut into
    straight pieces. A piece is a bar if it runs into no broad dark area (a seam runs into
    the table) and, when it is faint, stops on clean face at both ends (a faint seam between
    two tiles ends at their corners). Confident tiles from these bars that overlap no tile
    read by more than ``carve_overlap_max_rel`` are kept.
    """
    hh, ww = labels.shape
    read = np.zeros((hh, ww), dtype=np.uint8)
    for t in tiles:
        cv2.fillConvexPoly(read, np.rint(np.array(t.corners)).astype(np.int32), 1)
    k = max(3, 2 * round(p.carve_kernel_rel * width) + 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    lo, hi = p.bar_min_rel * width, p.bar_max_rel * width
    dark = (labels != 0).astype(np.uint8)
    broad = cv2.morphologyEx(dark, cv2.MORPH_OPEN, kernel)
    faint = _faint(p, grey, blobs, width)
    clean = (dark == 0) & ~faint
    near_broad = cv2.dilate(broad, np.ones((3, 3), np.uint8))
    taken = np.zeros_like(dark)
    rows: list[tuple[int, int, int, int, int, float, float]] = []
    marks: list[bool] = []  # per piece: made of faint marks alone
    pieces: list[tuple[tuple[float, float], tuple[float, float], float, float, I32, I32]] = []
    # first the dark thin lines, then the faint ones too (whose pieces must end on clean face)
    for with_faint in (False, True):
        thin = (dark | faint) if with_faint else dark > 0
        thin &= (broad == 0) & (read == 0) & (taken == 0)
        _, comp, stats, _ = cv2.connectedComponentsWithStats(thin.astype(np.uint8), connectivity=8)
        longest = np.maximum(stats[:, 2], stats[:, 3])
        cand = np.flatnonzero((longest >= lo) & (longest <= 3 * width) & (stats[:, 4] >= 3))
        for c in cand[cand > 0].tolist():
            sx, sy, sw, sh = (int(v) for v in stats[c, :4])
            x0, y0 = max(0, sx - 2), max(0, sy - 2)
            x1, y1 = min(ww, sx + sw + 2), min(hh, sy + sh + 2)
            mask = (comp[y0:y1, x0:x1] == c).astype(np.uint8)
            for piece, ((cx, cy), (ax, ay), length, thick) in _straight_pieces(p, mask, lo, hi):
                ends = [
                    (
                        round(x0 + cx + e * (length / 2 + d) * ax),
                        round(y0 + cy + e * (length / 2 + d) * ay),
                    )
                    for e in (-1.0, 1.0)
                    for d in ((1.0, 2.0) if with_faint else (1.0,))
                ]
                if any(not (0 <= ex < ww and 0 <= ey < hh) for ex, ey in ends):
                    continue
                if any(near_broad[ey, ex] for ex, ey in ends) and not _face_beyond(
                    dark, (x0 + cx, y0 + cy), (ax, ay), length / 2, reach=max(3.0, width / 4)
                ):
                    continue  # a seam runs into the table; a bar into a gap between tiles
                if with_faint and not all(clean[ey, ex] for ex, ey in ends):
                    continue  # a faint seam between two tiles ends at their corners
                ys, xs = np.nonzero(piece)
                gx, gy = (xs + x0).astype(np.int32), (ys + y0).astype(np.int32)
                taken[gy, gx] = 1
                marks.append(with_faint and not bool(dark[gy, gx].any()))
                centre = (cx + x0, cy + y0)
                pieces.append((centre, (ax, ay), length, thick, gx, gy))
                rows.append(
                    (
                        int(gx.min()),
                        int(gy.min()),
                        int(gx.max() - gx.min()) + 1,
                        int(gy.max() - gy.min()) + 1,
                        int(gx.size),
                        centre[0],
                        centre[1],
                    )
                )
    if not pieces:
        return []
    carved = _with_pips(blobs, rows)
    if any(marks):
        # a piece of faint marks alone is no pip where it is no bar either (for instance:
        # noise sharpened by deconvolution, a wiggle of pixels a tenth darker than the face
        # between the two columns of a 6, carved into a piece and counted as a seventh pip)
        was = blobs.marks if blobs.marks is not None else np.zeros(blobs.area.shape[0], np.bool_)
        carved = dataclasses.replace(carved, marks=np.concatenate([was, np.array(marks, np.bool_)]))
    new_labels = labels.copy()
    bars: list[_Bar] = []
    for lab, (centre, across, length, thick, gx, gy) in enumerate(pieces, blobs.area.shape[0]):
        new_labels[gy, gx] = lab
        bar = _bar_at(
            p, new_labels, carved, lab, centre=centre, across=across, length=length, thickness=thick
        )
        if bar is not None:
            bars.append(bar)
    proposals = _propose_tiles(p, bars, width)
    if not proposals:
        return []
    found = _read_tiles(p, grey, new_labels, carved, proposals, width=width)
    ink = ((dark > 0) | faint) & (new_labels < blobs.area.shape[0])
    found = [t for t in found if _ink_fits(p, ink.astype(np.uint8), t, width)]
    # real tiles do not overlap, but a neighbour read a pixel or two too long does
    kept = list(tiles)
    for t in sorted(found, key=lambda t: -t.confidence):
        if t.confidence < p.carve_min_confidence:
            continue
        if not any(_clash(p, t, k, width, p.carve_overlap_max_rel) for k in kept):
            kept.append(t)
    return kept[len(tiles) :]


def _faint(p: RecognitionParams, grey: U8, blobs: _Blobs, width: float) -> npt.NDArray[np.bool_]:
    """Pixels darker than ``carve_faint_ratio`` of the brightest face within a quarter of a
    tile width: a bar about a pixel thick is fainter than ink."""
    window = np.ones((2 * round(width / 4) + 1,) * 2, np.uint8)
    near = cv2.dilate(grey, window).astype(np.float32)
    out: npt.NDArray[np.bool_] = (grey <= p.carve_faint_ratio * near) & (near > blobs.ink)
    return out


def _ink_fits(p: RecognitionParams, ink: U8, tile: TileReading, width: float) -> bool:
    """Is the ink (dark or faint) inside each half of ``tile`` (its square shrunk by a fifth,
    so no seam or bar) at most what its pips and one more could cover? Pips run together
    into a blob too large for a pip are not counted: a half of them must not pass for blank."""
    limit = p.pip_max_area_rel * width * width
    c = np.array(tile.corners, dtype=np.float64)
    centre = c.mean(axis=0)
    mid = (c[1] + c[2]) / 2 - centre  # from the centre to the end of the second half
    side = (c[2] + c[3]) / 2 - centre  # from the centre to a long side
    for sign, half in zip((-1.0, 1.0), tile.halves, strict=True):
        hc = centre + sign * mid / 2
        square = np.array(
            [hc + 0.8 * (a * mid / 2 + b * side) for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        )
        inside = np.zeros_like(ink)
        cv2.fillConvexPoly(inside, np.rint(square).astype(np.int32), 1)
        if int((ink & inside).sum()) > (half.pips + 1) * limit:
            return False
    return True


def _face_beyond(
    dark: U8, centre: tuple[float, float], along: tuple[float, float], half: float, *, reach: float
) -> bool:
    """Beyond both ends of the line ``centre`` +- ``half`` * ``along``, is there face (not
    ``dark``) within ``reach`` pixels? A bar that runs into a gap between tiles finds the
    neighbour's face beyond it; a seam that runs into the table does not."""
    hh, ww = dark.shape
    t = np.arange(1.0, reach + 1.0)
    for e in (-1.0, 1.0):
        xs = np.rint(centre[0] + e * (half + t) * along[0]).astype(np.intp)
        ys = np.rint(centre[1] + e * (half + t) * along[1]).astype(np.intp)
        ok = (xs >= 0) & (ys >= 0) & (xs < ww) & (ys < hh)
        if not (dark[ys[ok], xs[ok]] == 0).any():
            return False
    return True


def _straight_pieces(
    p: RecognitionParams, mask: U8, lo: float, hi: float
) -> list[tuple[U8, tuple[tuple[float, float], tuple[float, float], float, float]]]:
    """Straight, bar-shaped pieces of the thin line(s) in ``mask``, ``lo`` to ``hi`` long, each
    with its centre, unit direction, length and thickness (``mask`` pixels)."""
    segs = cv2.HoughLinesP(
        mask * 255, 1, math.pi / 180, max(3, int(lo)), minLineLength=lo, maxLineGap=2
    )
    if segs is None:
        return []
    out: list[tuple[U8, tuple[tuple[float, float], tuple[float, float], float, float]]] = []
    used = np.zeros_like(mask)
    ends: list[list[int]] = segs.reshape(-1, 4).astype(int).tolist()
    for sx0, sy0, sx1, sy1 in sorted(ends, key=lambda s: -math.hypot(s[2] - s[0], s[3] - s[1])):
        band = np.zeros_like(mask)
        cv2.line(band, (sx0, sy0), (sx1, sy1), 1, 3)
        piece = mask & band & (used == 0)
        if int(piece.sum()) < lo:
            continue
        grown = np.asarray(cv2.dilate(band, np.ones((3, 3), np.uint8)), dtype=np.uint8)
        used |= grown & mask
        mo = cv2.moments(piece, binaryImage=True)
        if mo["m00"] <= 0:
            continue
        mu20, mu02, mu11 = (mo[key] / mo["m00"] for key in ("mu20", "mu02", "mu11"))
        common = math.sqrt(max(((mu20 - mu02) / 2) ** 2 + mu11**2, 0.0))
        length = math.sqrt(12 * ((mu20 + mu02) / 2 + common))
        thick = max(math.sqrt(12 * max((mu20 + mu02) / 2 - common, 0.0)), 1.0)
        if not lo <= length <= hi or length < p.bar_min_aspect * thick:
            continue
        theta = 0.5 * math.atan2(2 * mu11, mu20 - mu02)
        centre = (mo["m10"] / mo["m00"], mo["m01"] / mo["m00"])
        out.append((piece, (centre, (math.cos(theta), math.sin(theta)), length, thick)))
    return out


# --------------------------------------------------------------------------- stage 3: tiles


@dataclass(frozen=True, slots=True)
class _Proposal:
    bar: _Bar
    center: tuple[float, float]
    along: tuple[float, float]  # unit vector of the long axis
    across: tuple[float, float]
    width: float
    measured: bool  # the width was measured on this tile, not taken from the scene
    #: length / width; 0: the params' ``tile_aspect`` (a tile far from a tilted camera and
    #: lying along its view looks shorter, see :func:`_read_outlines`)
    aspect: float = 0.0


def _aspect(p: RecognitionParams, pr: _Proposal) -> float:
    return pr.aspect or p.tile_aspect


def _propose_tiles(p: RecognitionParams, bars: list[_Bar], width: float) -> list[_Proposal]:
    out: list[_Proposal] = []
    for bar in bars:
        # Each measurement is spoilt by something different: across the bar by a neighbour
        # beside the tile, along it by one at its end, twice the nearer side by a bar that
        # runs into the tile's edge. Take the one nearest the scene's width.
        options = (
            bar.plus + bar.minus,
            2 * bar.reach / p.tile_aspect,
            2 * min(bar.plus, bar.minus),
        )
        best = min(options, key=lambda o: abs(o - width))
        measured = abs(best / width - 1) <= p.width_tolerance_rel
        w = best if measured else width
        # The bar is in the middle of the tile: move off it only to centre a face whose both
        # edges were seen (a touching neighbour or print beside the tile spoils one side).
        consistent = abs(bar.plus + bar.minus - w) <= p.width_tolerance_rel * w
        shift = (bar.plus - bar.minus) / 2 if consistent else 0.0
        if not p.bar_min_rel <= bar.length / w <= p.bar_max_rel:
            continue
        if bar.thickness > p.bar_max_thickness_rel * w:
            continue
        if bar.reach < p.body_min_reach_rel * w:
            continue
        ax, ay = bar.across
        center = (bar.center[0] + shift * ax, bar.center[1] + shift * ay)
        along = (-ay, ax)
        # Long axis points right (or down when nearer vertical): the first half is left/top.
        if (abs(along[0]) >= abs(along[1]) and along[0] < 0) or (
            abs(along[0]) < abs(along[1]) and along[1] < 0
        ):
            along = (-along[0], -along[1])
        across = (-along[1], along[0])
        out.append(_Proposal(bar, center, along, across, w, measured))
    return out


@dataclass(frozen=True, slots=True)
class _Half:
    center: Point
    pips: int
    rms: float
    dirt: float
    pip_areas: tuple[float, ...]
    spacing: float  # fitted pip spacing (half-square units), 0 for fewer than 2 pips
    points: F64  # pip positions (half-square units), (n, 2)
    ghosts: int = 0  # pip-like dark spots on the layout grid that were not counted

    def completed(self, rms: float, spacing: float, ghosts: int) -> _Half:
        # as dataclasses.replace, at a fraction of its cost (it runs for every half)
        h = self
        return _Half(h.center, h.pips, rms, h.dirt, h.pip_areas, spacing, h.points, ghosts)


def _read_tiles(
    p: RecognitionParams,
    grey: U8,
    labels: I32,
    blobs: _Blobs,
    proposals: list[_Proposal],
    *,
    width: float,
    spacing_hint: float = 0.0,
) -> list[TileReading]:
    """Read the halves of ``proposals``. ``spacing_hint``: the pip spacing (half-square
    units) at which uncounted pips are looked for when no half read has two pips."""
    pip_ids = _pip_candidates(p, blobs, width)
    bar_labels = np.array([pr.bar.label for pr in proposals], dtype=np.int32)
    pip_ids = pip_ids[~np.isin(pip_ids, bar_labels)]
    blobs.clean[pip_ids] = True
    ref_area = _reference_pip_area(p, blobs, pip_ids, proposals)
    ratios = np.array([pr.bar.length / pr.width for pr in proposals]) if proposals else np.zeros(0)
    typical_ratio = float(np.median(ratios)) if ratios.size else 0.0
    dirt = _face_dirt(p, labels, blobs, proposals)
    centres, candidates = _half_pips(p, blobs, pip_ids, proposals)
    pale = _pale_marks(p, grey, labels, blobs, candidates, ref_area=ref_area)
    if pale:
        candidates = [[c for c in found if c[0] not in pale] for found in candidates]
    refs = _proposal_pip_areas(p, blobs, candidates, ref_area)
    read: list[tuple[_Proposal, float, float, list[tuple[_Half, bool]]]] = []
    for k, (pr, ratio) in enumerate(zip(proposals, ratios.tolist(), strict=True)):
        got: list[tuple[_Half, bool]] = []
        for j in range(2):
            half = _read_half(
                p,
                blobs,
                candidates[2 * k + j],
                centre=centres[2 * k + j],
                ref_area=refs[k],
                pr=pr,
                dirt=float(dirt[k, j]),
            )
            if half is None:
                break
            got.append(half)
        if len(got) == 2:
            read.append((pr, ratio, refs[k], got))
    flat = [(pr, h, fit) for pr, _, _, hs in read for h, fit in hs]
    # the layouts of all halves read, fitted together (see layout_fits)
    fits = iter(layout_fits([h.points for _, h, fit in flat if fit]))
    layouts = [next(fits) if fit else (h.rms, h.spacing) for _, h, fit in flat]
    spacings = sorted(s for _, s in layouts if s > 0)
    spacing = spacings[len(spacings) // 2] if spacings else spacing_hint
    ghosts = _count_ghosts(p, grey, blobs, [(pr, h) for pr, h, _ in flat], spacing=spacing)
    done = iter(
        h.completed(rms, s, g) for (_, h, _), (rms, s), g in zip(flat, layouts, ghosts, strict=True)
    )
    tiles: list[TileReading] = []
    # the halves' own spacing is checked against the typical one where a few halves give it
    typical_spacing = spacing if len(spacings) >= 3 else STANDARD_SPACING
    for pr, ratio, ref, _ in read:
        halves = [next(done), next(done)]
        tile = _score_tile(
            p,
            pr,
            halves,
            ratio=ratio,
            typical_ratio=typical_ratio,
            ref_area=ref,
            spacing=typical_spacing,
        )
        if tile is not None:
            tiles.append(tile)
    return tiles


def _proposal_pip_areas(
    p: RecognitionParams, blobs: _Blobs, candidates: list[list[_Candidate]], ref_area: float
) -> list[float]:
    """Per proposal, the pip area its halves are counted by: the scene's (``ref_area``, the
    median single pip near the proposals), or, where the proposal's halves hold at least
    ``pip_uniform_min`` round candidates (box aspect under 1.5) alike in area (the largest
    at most ``pip_uniform_ratio`` times the smallest), one of them large enough to count as
    pips run together (``pip_merge_ratio``), their median. A tile nearer a tilted camera has
    larger pips than the line's, and pips running together are long or unlike the others.
    Counted by the line's pip, each pip of for instance revealed 5-5 (26 px wide among 22
    px tiles) was 1.6-1.7 of it, and one counted twice made it a "6-6"."""
    out: list[float] = []
    merged = p.pip_merge_ratio * ref_area
    for k in range(len(candidates) // 2):
        found = candidates[2 * k] + candidates[2 * k + 1]
        if ref_area <= 0 or all(c[1] < merged for c in found):
            out.append(ref_area)  # nothing counted as pips run together (most tiles)
            continue
        areas = [
            area
            for lab, area, _, _ in found
            if area >= p.pip_min_ref_ratio * ref_area
            and max(blobs.w[lab], blobs.h[lab]) < 1.5 * min(blobs.w[lab], blobs.h[lab])
        ]
        uniform = (
            len(areas) >= p.pip_uniform_min
            and max(areas) <= p.pip_uniform_ratio * min(areas)
            and max(areas) >= merged
        )
        out.append(float(np.median(areas)) if uniform else ref_area)
    return out


def _pip_candidates(p: RecognitionParams, blobs: _Blobs, width: float) -> I32:
    """Labels of enclosed, roundish dark regions of pip size (possibly several touching)."""
    bw, bh, area = blobs.w, blobs.h, blobs.area
    fill = area / np.maximum(bw * bh * (math.pi / 4), 1.0)
    aspect = np.maximum(bw, bh) / np.maximum(np.minimum(bw, bh), 1)
    lo = max(p.pip_min_area_px, p.pip_min_area_rel * width * width)
    hi = p.pip_max_area_rel * width * width * 2.5  # room for touching pips, checked later
    ok = blobs.enclosed & (area >= lo) & (area <= hi)
    ok &= (fill >= p.pip_min_fill) | (aspect > 1.4)  # two touching pips fill their box less
    ok &= aspect <= 2 * p.pip_max_aspect
    if blobs.marks is not None:
        ok &= ~blobs.marks  # faint marks alone are no pip (see _Blobs)
    return np.flatnonzero(ok).astype(np.int32)


def _reference_pip_area(
    p: RecognitionParams, blobs: _Blobs, pip_ids: I32, proposals: list[_Proposal]
) -> float:
    """Median area of single pips near the proposed tiles (the scene's pip size)."""
    if pip_ids.size == 0 or not proposals:
        return 0.0
    aspect = np.maximum(blobs.w[pip_ids], blobs.h[pip_ids]) / np.maximum(
        np.minimum(blobs.w[pip_ids], blobs.h[pip_ids]), 1
    )
    single = pip_ids[aspect <= 1.4]
    if single.size == 0:
        single = pip_ids
    centers = np.array([pr.center for pr in proposals])
    px, py = blobs.cx[single], blobs.cy[single]
    d2 = (px[:, None] - centers[None, :, 0]) ** 2 + (py[:, None] - centers[None, :, 1]) ** 2
    radius = np.array([pr.width for pr in proposals]) * 1.2
    near = (d2 <= radius[None, :] ** 2).any(axis=1)
    areas = blobs.area[single][near]
    return float(np.median(areas)) if areas.size else 0.0


#: A pip candidate inside a half's square: label, area, and its centre in half-square units
#: (along the tile, across it).
_Candidate = tuple[int, float, float, float]


def _half_pips(
    p: RecognitionParams, blobs: _Blobs, pip_ids: I32, proposals: list[_Proposal]
) -> tuple[list[Point], list[list[_Candidate]]]:
    """Per half of each proposal (first the one at ``-along``, then ``+along``): its centre,
    and the pip candidates whose centre lies in its square (in the order of ``pip_ids``).

    All halves at once: one numpy pass over every candidate and half, instead of a few numpy
    calls on a handful of pips per half."""
    centres: list[Point] = []
    frames: list[tuple[float, float, float, float, float, float]] = []
    for pr in proposals:
        half_len = pr.width * _aspect(p, pr) / 4  # half of the half's extent along the tile
        half_wid = pr.width / 2
        for sign in (-1.0, 1.0):
            centres.append(
                (
                    pr.center[0] + sign * half_len * pr.along[0],
                    pr.center[1] + sign * half_len * pr.along[1],
                )
            )
            frames.append((half_len, half_wid, *pr.along, *pr.across))
    found: list[list[_Candidate]] = [[] for _ in centres]
    if not centres or pip_ids.size == 0:
        return centres, found
    c = np.array(centres)  # (H, 2)
    f = np.array(frames)  # (H, 6)
    dx = blobs.cx[pip_ids][None, :] - c[:, :1]  # (H, N)
    dy = blobs.cy[pip_ids][None, :] - c[:, 1:]
    a = (dx * f[:, 2:3] + dy * f[:, 3:4]) / f[:, :1]
    b = (dx * f[:, 4:5] + dy * f[:, 5:6]) / f[:, 1:2]
    lim = 1 - p.half_margin_rel
    rows, cols = np.nonzero((np.abs(a) <= lim) & (np.abs(b) <= lim))
    areas = blobs.area[pip_ids].astype(np.float64)
    for half, lab, area, pa, pb in zip(
        rows.tolist(),
        pip_ids[cols].tolist(),
        areas[cols].tolist(),
        a[rows, cols].tolist(),
        b[rows, cols].tolist(),
        strict=True,
    ):
        found[half].append((lab, area, pa, pb))
    return centres, found


def _pale_marks(
    p: RecognitionParams,
    grey: U8,
    labels: I32,
    blobs: _Blobs,
    candidates: list[list[_Candidate]],
    *,
    ref_area: float,
) -> set[int]:
    """The labels of the candidates that are no pip: runs (large enough to count as
    touching pips, see :func:`_read_half`) and streaks (longer than ``pip_max_aspect`` times
    their thickness, which is under 0.6 of the scene's pip diameter) that are pale, darker
    than the face on average by less than ``pip_run_min_contrast`` of what the single pips
    there are at their centres. Deconvolution rings between two rows of pips; sharpened in
    an enlarged look, the ring can reach the face threshold as a streak or a run three pips
    long. Only those regions are measured (a few per frame)."""
    if ref_area <= 0:
        return set()
    labs = np.unique(np.array([c[0] for found in candidates for c in found], dtype=np.intp))
    short = np.minimum(blobs.w[labs], blobs.h[labs])
    long = np.maximum(blobs.w[labs], blobs.h[labs])
    thin = 0.6 * math.sqrt(4 * ref_area / math.pi)
    is_mark = blobs.area[labs] >= p.pip_merge_ratio * ref_area
    is_mark |= (long > p.pip_max_aspect * short) & (short < thin)
    marks, ids = labs[is_mark].tolist(), labs[~is_mark]
    if not marks or ids.size == 0:
        return set()
    hgt, wid = grey.shape
    xs = _clamped(np.rint(blobs.cx[ids]).astype(np.intp), 0, wid - 1)
    ys = _clamped(np.rint(blobs.cy[ids]).astype(np.intp), 0, hgt - 1)
    pip_dark = blobs.face - float(np.median(grey[ys, xs]))
    if pip_dark <= 0:
        return set()
    pale: set[int] = set()
    for lab in marks:
        x, y, w, h = int(blobs.x[lab]), int(blobs.y[lab]), int(blobs.w[lab]), int(blobs.h[lab])
        inside = labels[y : y + h, x : x + w] == lab
        if not inside.any():
            continue  # a pip split off a bar (see _with_pips) is no region of ``labels``
        mean = float(grey[y : y + h, x : x + w][inside].mean())
        if blobs.face - mean < p.pip_run_min_contrast * pip_dark:
            pale.add(lab)
    return pale


def _read_half(
    p: RecognitionParams,
    blobs: _Blobs,
    found: list[_Candidate],
    *,
    centre: Point,
    ref_area: float,
    pr: _Proposal,
    dirt: float,
) -> tuple[_Half, bool] | None:
    """The half centred on ``centre`` with the pip candidates ``found`` in its square (see
    :func:`_half_pips`), and whether its layout is still to be fitted to its ``points``
    (rms and spacing 0 until then; see :func:`_read_tiles`). Plain Python: a half holds a
    handful of candidates."""
    if dirt > p.face_max_dirt:
        return None
    half_len = pr.width * _aspect(p, pr) / 4
    half_wid = pr.width / 2
    w2 = pr.width * pr.width
    most = p.pip_max_area_rel * w2 * (1.0 if ref_area <= 0 else 2.5)
    least = p.pip_min_ref_ratio * ref_area
    pips = [c for c in found if least <= c[1] <= most]
    if len(pips) > 1:
        # two candidates on one spot are one pip (pips of a layout lie at least 0.56 half
        # units apart): a ring of faint ringing round a deconvolved pip, carved into a piece,
        # has its centre on the pip's. Of such a pair the larger stays (the first if equal).
        dropped: set[int] = set()
        for i, (_, area_i, ai, bi) in enumerate(pips):
            for j in range(i + 1, len(pips)):
                _, area_j, aj, bj = pips[j]
                da, db = ai - aj, bi - bj
                if da * da + db * db < 0.25**2:
                    dropped.add(i if area_j > area_i else j)
        pips = [c for i, c in enumerate(pips) if i not in dropped]
    counts = [1] * len(pips)
    if ref_area > 0:
        for i, (lab, area, a, b) in enumerate(pips):
            merged = area >= p.pip_merge_ratio * ref_area
            bw, bh = int(blobs.w[lab]), int(blobs.h[lab])
            # a large region is one pip, where the candidates one each fit their layout, if
            # centred beyond every place a pip of a layout has (no two of them run together
            # there, but one pip joined by a mark beyond it: for instance, a 5's corner
            # pip joined by the bar, 1.75 pips big, made the 5 a 6) or shaped as one pip
            # (pips run together are longer one way, or, diagonally, fill their box far
            # less: for instance, a 4's two pips grown by the blurred seam to the next
            # tile, 1.7 pips big each, made the 4 a 6)
            one = max(abs(a), abs(b)) > OFF_GRID or _one_pip_shape(area, bw, bh)
            if merged and one and _fits_as_counted(p, pips):
                continue
            if merged:
                # round() rounds half to even, as np.rint
                counts[i] = max(1, round(area / ref_area))
            # no standard layout has more than three pips in a row: a long run is at most
            # three (the thin bridges between pips run together add area, not pips)
            if max(bw, bh) >= 1.5 * min(bw, bh):
                counts[i] = min(counts[i], 3)
    n = sum(counts)
    if n > min(p.max_pips, MAX_LAYOUT):
        return None
    points = np.array([(c[2], c[3]) for c in pips], dtype=np.float64).reshape(-1, 2)
    areas = tuple(c[1] for c in pips)
    if all(c == 1 for c in counts):
        return _Half(centre, n, 0.0, dirt, areas, 0.0, points), True
    # Touching pips in a row (small pips whose gap blurred shut): spread them along the
    # run's long side, so the layout is still checked and their places are not ghosts.
    ids = [c[0] for c in pips]
    rows = _spread_runs(blobs, ids, counts, points, pr=pr, half_len=half_len, half_wid=half_wid)
    if rows is None:
        return _Half(centre, n, p.layout_rms_soft, dirt, areas, 0.0, points), False
    per_pip = tuple(a / c for a, c in zip(areas, counts, strict=True))
    return _Half(centre, n, 0.0, dirt, per_pip, 0.0, rows), True


#: In half-square units: a pip candidate centred farther from the half's centre than this,
#: across or along, lies off the grid of every layout (outer pips sit at the spacing, 0.56
#: in a common set, about 0.6 at most).
OFF_GRID = 0.68


#: The least share of its box's inscribed ellipse that a region fills to be one pip however
#: large: a disc fills about 0.8-0.95 of it at pip sizes, two pips run together diagonally
#: about 0.6-0.7, three 0.4.
ONE_PIP_MIN_FILL = 0.78


def _one_pip_shape(area: float, bw: int, bh: int) -> bool:
    """Is a region of ``area`` pixels in a ``bw x bh`` box shaped as one pip: round (neither
    side 1.5 times the other) and filling its box's ellipse (``ONE_PIP_MIN_FILL``)?"""
    round_box = max(bw, bh) < 1.5 * min(bw, bh)
    return round_box and area >= ONE_PIP_MIN_FILL * bw * bh * math.pi / 4


def _fits_as_counted(p: RecognitionParams, pips: list[_Candidate]) -> bool:
    """Do the candidates' centres, one pip each, fit the layout of as many pips as they are
    (RMS within ``layout_rms_soft``)? A pip joined by a mark is still about where its layout
    has it."""
    points = np.array([(c[2], c[3]) for c in pips], dtype=np.float64).reshape(-1, 2)
    return layout_fit(points)[0] <= p.layout_rms_soft


def _spread_runs(
    blobs: _Blobs,
    ids: list[int],
    counts: list[int],
    points: F64,
    *,
    pr: _Proposal,
    half_len: float,
    half_wid: float,
) -> F64 | None:
    """``(n, 2)`` pip positions (half-square units) with every run of ``c`` touching pips
    replaced by ``c`` points along its long side; ``None`` if a run is not clearly longer one
    way (pips run together diagonally)."""
    out: list[tuple[float, float]] = []
    for k, c in enumerate(counts):
        if c == 1:
            out.append((float(points[k, 0]), float(points[k, 1])))
            continue
        bw, bh = float(blobs.w[ids[k]]), float(blobs.h[ids[k]])
        long_side, short_side = max(bw, bh), min(bw, bh)
        if long_side < 1.5 * short_side:
            return None
        axis = (1.0, 0.0) if bw >= bh else (0.0, 1.0)
        step = (long_side - short_side) / (c - 1)
        da = (axis[0] * pr.along[0] + axis[1] * pr.along[1]) * step / half_len
        db = (axis[0] * pr.across[0] + axis[1] * pr.across[1]) * step / half_wid
        for i in range(c):
            t = i - (c - 1) / 2
            out.append((float(points[k, 0]) + t * da, float(points[k, 1]) + t * db))
    return np.asarray(out, dtype=np.float64).reshape(-1, 2)


def _count_ghosts(
    p: RecognitionParams,
    grey: U8,
    blobs: _Blobs,
    halves: list[tuple[_Proposal, _Half]],
    *,
    spacing: float,
) -> list[int]:
    """Per half, the places of the 3x3 pip grid (every standard layout is part of it) that
    hold no counted pip but are clearly darker than the face: pips too faint or blurred to
    count. Such a reading is unsure rather than silently short of a pip."""
    if spacing <= 0 or not halves:
        return [0] * len(halves)
    n = len(halves)
    grid = _GRID * spacing  # (9, 2)
    pts = np.full((n, MAX_LAYOUT, 2), np.nan)
    for k, (_, h) in enumerate(halves):
        pts[k, : len(h.points)] = h.points[:MAX_LAYOUT]
    diff = grid[None, :, None, :] - pts[:, None, :, :]  # (n, 9, MAX, 2)
    dist = np.sqrt((diff**2).sum(axis=-1))
    occupied = (np.nan_to_num(dist, nan=np.inf) <= p.ghost_match_rel * spacing).any(axis=2)
    centre = np.array([h.center for _, h in halves])  # (n, 2)
    along = np.array([pr.along for pr, _ in halves])
    across = np.array([pr.across for pr, _ in halves])
    width = np.array([pr.width for pr, _ in halves])[:, None]
    aspect = np.array([_aspect(p, pr) for pr, _ in halves])[:, None]
    half_len, half_wid = width * aspect / 4, width / 2
    xs = centre[:, :1] + grid[None, :, 0] * half_len * along[:, :1]
    xs += grid[None, :, 1] * half_wid * across[:, :1]
    ys = centre[:, 1:] + grid[None, :, 0] * half_len * along[:, 1:]
    ys += grid[None, :, 1] * half_wid * across[:, 1:]
    hgt, wid = grey.shape
    xi = _clamped(np.rint(xs).astype(np.intp), 1, wid - 2)
    yi = _clamped(np.rint(ys).astype(np.intp), 1, hgt - 2)
    darkest = grey[yi, xi]
    for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        darkest = np.minimum(darkest, grey[yi + dy, xi + dx])
    ghost = ~occupied & (darkest.astype(np.float64) < p.ghost_level * blobs.face)
    return [int(g) for g in ghost.sum(axis=1)]


_GRID = np.array([(x, y) for x in (-1.0, 0.0, 1.0) for y in (-1.0, 0.0, 1.0)])


def _face_dirt(p: RecognitionParams, labels: I32, blobs: _Blobs, proposals: list[_Proposal]) -> F64:
    """``(P, 2)``: per proposal and half (first the one at ``-along``), the fraction of a
    sample grid over the half that is dark but neither a pip candidate nor the tile's bar
    (1 when the half leaves the image)."""
    if not proposals:
        return np.zeros((0, 2))
    ga, gb = _sample_grid(p.face_samples, p.face_inset_rel)
    ga, gb = ga.ravel()[None, :], gb.ravel()[None, :]
    centre = np.array([pr.center for pr in proposals])
    along = np.array([pr.along for pr in proposals])
    across = np.array([pr.across for pr in proposals])
    width = np.array([pr.width for pr in proposals])[:, None]
    bars = np.array([pr.bar.label for pr in proposals])[:, None]
    aspect = np.array([_aspect(p, pr) for pr in proposals])[:, None]
    half_len, half_wid = width * aspect / 4, width / 2
    hgt, wid = labels.shape
    out = np.ones((len(proposals), 2))
    for k, sign in enumerate((-1.0, 1.0)):
        hx = centre[:, :1] + sign * half_len * along[:, :1]
        hy = centre[:, 1:] + sign * half_len * along[:, 1:]
        xi = np.rint(hx + ga * half_len * along[:, :1] + gb * half_wid * across[:, :1])
        yi = np.rint(hy + ga * half_len * along[:, 1:] + gb * half_wid * across[:, 1:])
        xi, yi = xi.astype(np.intp), yi.astype(np.intp)
        inside = ((xi >= 0) & (yi >= 0) & (xi < wid) & (yi < hgt)).all(axis=1)
        lab = labels[_clamped(yi, 0, hgt - 1), _clamped(xi, 0, wid - 1)]
        ok = blobs.clean[lab] | (lab == bars)
        out[:, k] = np.where(inside, 1.0 - ok.mean(axis=1), 1.0)
    return out


@cache
def _sample_grid(n: int, inset: float) -> tuple[F64, F64]:
    g = np.linspace(-1 + inset, 1 - inset, n)
    ga, gb = np.meshgrid(g, g)
    return ga, gb


def _spacing_divisor(p: RecognitionParams, spacing: float, typical: float) -> float:
    """What a half's layout factor is divided by for pips fitted at ``spacing`` where
    ``typical`` is expected: 1 within ``spacing_free_log`` of it, growing fast beyond."""
    off = max(0.0, abs(math.log(spacing / typical)) - p.spacing_free_log)
    return 1.0 + (off / 0.1) ** 2


def _score_tile(
    p: RecognitionParams,
    pr: _Proposal,
    halves: list[_Half],
    *,
    ratio: float,
    typical_ratio: float,
    ref_area: float,
    spacing: float = 0.0,
) -> TileReading | None:
    half_conf: list[float] = []
    for h in halves:
        layout = 1.0 / (1.0 + (h.rms / p.layout_rms_soft) ** 2)
        if h.spacing > 0 and spacing > 0:
            # every standard layout has the same spacing: pips that fit one at a spacing far
            # from it are part of a layout seen through a half placed off its tile (the
            # centre and a corner pip of a 3 fit a 2 at half the spacing)
            layout /= _spacing_divisor(p, h.spacing, spacing)
        clean = 1.0 - 0.5 * h.dirt / p.face_max_dirt if p.face_max_dirt > 0 else 1.0
        size = 1.0
        if h.pip_areas and ref_area > 0:
            spread = max(abs(math.log(a / ref_area)) for a in h.pip_areas if a > 0)
            size = 1.0 / (1.0 + (spread / 1.2) ** 2)
        ghost = p.ghost_penalty**h.ghosts
        half_conf.append(layout * clean * size * ghost)
    bar = 1.0 / (1.0 + ((ratio - typical_ratio) / 0.2) ** 2) if typical_ratio > 0 else 1.0
    conf = min(half_conf) * (0.5 + 0.5 * bar) * (1.0 if pr.measured else 0.85)
    if conf < p.min_confidence:
        return None
    readings = tuple(
        HalfReading(center=h.center, pips=h.pips, confidence=round(c, 4))
        for h, c in zip(halves, half_conf, strict=True)
    )
    return TileReading(_corners(p, pr), (readings[0], readings[1]), conf)


def _corners(p: RecognitionParams, pr: _Proposal) -> tuple[Point, Point, Point, Point]:
    """The outline of the tile ``pr`` proposes, going round."""
    hl, hw = pr.width * _aspect(p, pr) / 2, pr.width / 2
    (cx, cy), (ux, uy), (vx, vy) = pr.center, pr.along, pr.across
    c = [
        (cx + su * hl * ux + sv * hw * vx, cy + su * hl * uy + sv * hw * vy)
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))
    ]
    return (c[0], c[1], c[2], c[3])


def _suppress_overlaps(
    p: RecognitionParams, tiles: list[TileReading], width: float
) -> list[TileReading]:
    """Keep the most confident of tiles that overlap (real tiles never overlap much).

    Then a tile kept that lies across two dropped ones which do not overlap each other (nor
    any other tile kept) gives way to them: it was read from the seam between two touching
    tiles as if it were a bar (two blank halves side by side make a perfect 0-0), and the
    two explain more of the face."""
    kept: list[TileReading] = []
    dropped: list[TileReading] = []
    ranked = sorted(tiles, key=lambda t: -t.confidence)
    # only tiles whose centres are within 2.2 widths (or the duplicate distance) can clash
    # (see _clash): the pairs farther apart are left out in one array operation, with a
    # margin for rounding; _clash decides the rest
    centres = np.array([t.center for t in ranked], dtype=np.float64).reshape(-1, 2)
    gaps = np.hypot(*(centres[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
    reach = max(2.2, p.duplicate_distance_rel) * width
    near = (gaps < reach * 1.001 + 1e-6).tolist()
    kept_at: list[int] = []
    for i, t in enumerate(ranked):
        row = near[i]
        if any(_clash(p, t, ranked[k], width, p.overlap_max_rel) for k in kept_at if row[k]):
            dropped.append(t)
        else:
            kept.append(t)
            kept_at.append(i)
    for t in [t for t in kept if len(dropped) >= 2]:
        rivals = [d for d in dropped if d.confidence >= 0.5 and _clash(p, t, d, width, 0.3)]
        others = [k for k in kept if k is not t]
        pair = next(
            (
                (b, c)
                for i, b in enumerate(rivals)
                for c in rivals[i + 1 :]
                if not _clash(p, b, c, width, p.overlap_max_rel)
                and not any(
                    _clash(p, d, k, width, p.overlap_max_rel) for d in (b, c) for k in others
                )
            ),
            None,
        )
        if pair is not None:
            kept = [*others, *pair]
            dropped = [d for d in dropped if d not in pair]
    return kept


def _clash(
    p: RecognitionParams, a: TileReading, b: TileReading, width: float, overlap: float
) -> bool:
    """Are ``a`` and ``b`` one tile (centres close, or overlapping by more than ``overlap`` of
    a tile's area)?"""
    dist = math.dist(a.center, b.center)
    if dist < p.duplicate_distance_rel * width:
        return True
    if dist >= 2.2 * width:
        return False
    pa = np.array(a.corners, dtype=np.float32)
    pb = np.array(b.corners, dtype=np.float32)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    return bool(inter > overlap * p.tile_aspect * width * width)
