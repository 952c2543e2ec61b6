"""Tile poses from the outline of the faces, for where the dividing bars cannot be seen.

Blur takes a bar about a pixel thick first: pips, the faces and the table stay. Where pips are
left unexplained by the bar-based reading, :func:`fit_poses` tiles the bright faces with
``w x 2w`` rectangles, working outward from what is certain. A rectangle is taken only when

* it is covered by face (pips, bars and seams closed up), overlaps no tile already placed and
  lies wholly in the image (where no place is left, it may overlap the tiles placed by a tenth
  of its area: tiles read by their bars in a blurred frame come out a pixel long or a degree
  off, and then reach into a crosswise double between them),
* both its long sides border the table or a placed tile, and
* at least one of its ends does too: the end of a line, or the tile placed before it.

So a line of touching tiles is read from its ends (or from tiles the bars gave) inward, one
tile at a time, each starting where the last one ends: the seam between two touching tiles is
never needed, and a rectangle straddling two tiles (one half of each) never borders the table at
an end. Among the rectangles allowed, the one whose ends are darkest (seams, table) and whose
bands where no pip can lie (beside the ends and the bar) are brightest wins, at whole pixels in
a frame turned so the tiles' edges run along its axes. Where a line turns, no rectangle may
have both long sides bordered yet: then a few with one side half on a face are tried, and the
one after which the most face gets covered is kept. Before those, a rectangle with the table
beyond both ends and along a good share of both sides is taken: a double laid crosswise,
whose sides stand out of its line by half a tile each. Where no rectangle fits at all, the
faces with only their holes filled may be tiled instead (:func:`filled_faces`: closing up the
pips also closes a gap of a few pixels between two tiles side by side). Pure functions over
arrays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class TilePose:
    """A tile's place: centre and long axis (unit vector) in the input's pixels."""

    center: tuple[float, float]
    along: tuple[float, float]
    score: float


def dominant_angle(grey: U8) -> float:
    """The direction (radians, in ``[0, pi/2)``) of the strongest edges, modulo a right angle:
    the tiles' edges in a crop of one line of tiles."""
    g = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), 1.0)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    mag2 = gx * gx + gy * gy
    phi = np.arctan2(gy, gx)
    z = complex(float((mag2 * np.cos(4 * phi)).sum()), float((mag2 * np.sin(4 * phi)).sum()))
    angle = math.atan2(z.imag, z.real) / 4
    return angle % (math.pi / 2)


def closed_faces(grey: U8, threshold: int, k: int) -> npt.NDArray[np.bool_]:
    """The bright faces of ``grey`` (above ``threshold``) with dark marks narrower than ``k``
    pixels (pips, bars, seams) closed up by a disc."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    out: npt.NDArray[np.bool_] = (
        cv2.morphologyEx((grey > threshold).view(np.uint8), cv2.MORPH_CLOSE, disc) > 0
    )
    return out


def filled_faces(grey: U8, threshold: int) -> npt.NDArray[np.bool_]:
    """The bright faces of ``grey`` (above ``threshold``) with their holes filled: every dark
    region that does not touch the border (pips, bars; a gap between two tiles is open to
    the table at its ends)."""
    dark = (grey <= threshold).view(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=4)
    x, y, w, h = (stats[:, i] for i in range(4))
    hgt, wid = grey.shape
    open_ = (x == 0) | (y == 0) | (x + w >= wid) | (y + h >= hgt)
    open_[0] = False  # the faces
    out: npt.NDArray[np.bool_] = ~open_[labels]
    return out


def fit_poses(
    grey: U8,
    *,
    width: float,
    threshold: int,
    occupied: npt.NDArray[np.bool_],
    angle: float,
    max_tiles: int,
    closed: bool = True,
    aspect: float = 2.0,
) -> list[TilePose]:
    """Rectangles ``width x aspect width`` placed on the bright faces of ``grey`` (see the module
    docstring), at most ``max_tiles``. ``occupied``: pixels of tiles already read (they count
    as borders, and new tiles may not overlap them). ``angle``: the tiles' edge direction
    (radians, modulo a right angle), e.g. from :func:`dominant_angle`. ``closed``: the faces
    are closed up (see :func:`closed_faces`); else only their holes are filled (see
    :func:`filled_faces`: tiles a few pixels apart stay apart, seams open to the table are
    table)."""
    if width < 6 or grey.ndim != 2 or min(grey.shape) < aspect * width:
        return []
    ca, sa = math.cos(angle), math.sin(angle)
    hgt, wid = grey.shape
    corners = np.array([[0, 0], [wid, 0], [0, hgt], [wid, hgt]], dtype=np.float64)
    rot = np.array([[ca, sa], [-sa, ca]])
    turned = corners @ rot.T
    lo = turned.min(axis=0)
    size = np.ceil(turned.max(axis=0) - lo).astype(int) + 1
    m = np.hstack([rot, -lo[:, None]])  # original -> turned
    dsize = (int(size[0]), int(size[1]))
    g = np.asarray(cv2.warpAffine(grey, m, dsize, flags=cv2.INTER_LINEAR, borderValue=0), np.uint8)
    ones = np.full(grey.shape, 255, np.uint8)
    valid = cv2.warpAffine(ones, m, dsize, flags=cv2.INTER_NEAREST, borderValue=0) > 0
    occ = cv2.warpAffine(occupied.view(np.uint8) * 255, m, dsize, flags=cv2.INTER_NEAREST) > 0
    poses = _tile_frame(
        g,
        valid,
        occ,
        width=width,
        threshold=threshold,
        max_tiles=max_tiles,
        closed=closed,
        aspect=aspect,
    )
    inv = cv2.invertAffineTransform(m)
    out: list[TilePose] = []
    for (x, y), horizontal, score in poses:
        cx = inv[0, 0] * x + inv[0, 1] * y + inv[0, 2]
        cy = inv[1, 0] * x + inv[1, 1] * y + inv[1, 2]
        along = (ca, sa) if horizontal else (-sa, ca)
        out.append(TilePose((float(cx), float(cy)), along, score))
    return out


@dataclass(frozen=True, slots=True)
class _Frame:
    """The maps of an axis-aligned frame that tiles are placed in."""

    covered: npt.NDArray[np.bool_]  # face, pips, bars and seams closed up
    valid: npt.NDArray[np.bool_]  # inside the input image
    table: npt.NDArray[np.bool_]  # not face (and not a pip of a face)
    dark: F32  # how much darker than the brightest face near it, 0-1
    width: float
    side: int
    length: int
    #: per orientation (horizontal or not), what does not change as tiles are placed: where a
    #: tile may lie by face and image bounds, and the score of its seams and pip-free bands
    fixed: dict[bool, tuple[npt.NDArray[np.bool_], F64]] = field(default_factory=dict)


#: the share of a place that may lie on tiles placed before (touching tiles read a pixel wide)
CLEAR_OVERLAP = 0.02
#: the same where no place is clear of them (see :func:`_places_either`), and how much further
#: out (pixels) they may border it
LOOSE_OVERLAP = 0.1
LOOSE_REACH_PX = 1
#: what a loose place's score loses per unit of overlap: where the faces give no clear choice
#: (no seam, no bar), the place overlapping least is preferred
LOOSE_OVERLAP_COST = 20.0

_Place = tuple[float, int, int, bool]  # score, x, y (top-left), horizontal
_Tile = tuple[tuple[float, float], bool, float]


def _tile_frame(
    g: U8,
    valid: npt.NDArray[np.bool_],
    occ: npt.NDArray[np.bool_],
    *,
    width: float,
    threshold: int,
    max_tiles: int,
    closed: bool = True,
    aspect: float = 2.0,
) -> list[_Tile]:
    """Tiling of an axis-aligned frame: ``((cx, cy), horizontal, score)`` per tile.

    Tiles with both long sides on the table (or on tiles placed) come first: a line is read
    from its ends inward. When none is left, a tile with a side half on a face may start a
    line (a corner where the line turns, before the tile beside it is placed); of the few best
    such, the one after which the most face gets covered is taken (placing a corner tile the
    wrong way leaves a half on its own further along)."""
    if closed:  # pips, bars and seams closed up
        covered = closed_faces(g, threshold, max(3, 2 * round(0.13 * width) + 1)) & valid
    else:
        covered = filled_faces(g, threshold) & valid
    win = max(3, 2 * round(0.6 * width) + 1)
    ref = np.maximum(cv2.dilate(g, np.ones((win, win), np.uint8)).astype(np.float32), threshold)
    frame = _Frame(
        covered=covered,
        valid=valid,
        table=~covered & valid,
        dark=np.clip((ref - g.astype(np.float32)) / ref, 0.0, 1.0),
        width=width,
        side=max(1, round(width)),
        length=max(2, round(aspect * width)),
    )
    occ = occ.copy()
    out: list[_Tile] = []
    while True:
        _grow(frame, occ, out, max_tiles)
        if len(out) >= max_tiles:
            break
        # before a start, a tile with the table beyond both ends and along a good share of
        # both sides: a double laid crosswise in a line (its sides stand out of the line by
        # half a tile each), which a start along the line, half on it, could take
        crosswise = _places(frame, occ, side_min=0.3, count=1, loose=False, ends_min=0.9)
        if crosswise:
            _place(frame, occ, out, crosswise[0])
            continue
        starts = _places_either(frame, occ, side_min=0.3, count=3)
        if not starts:
            break
        trials = []
        for start in starts:
            occ2, out2 = occ.copy(), list(out)
            _place(frame, occ2, out2, start)
            _grow(frame, occ2, out2, max_tiles)
            left = int((frame.covered & ~occ2).sum())
            trials.append((left, -start[0], occ2, out2))
        left, _, occ, out = min(trials, key=lambda t: (t[0], t[1]))
    return out[:max_tiles]


def _grow(frame: _Frame, occ: npt.NDArray[np.bool_], out: list[_Tile], max_tiles: int) -> None:
    """Place the best tile with both long sides bordered, while there is one."""
    while len(out) < max_tiles:
        places = _places_either(frame, occ, side_min=0.6, count=1)
        if not places:
            return
        _place(frame, occ, out, places[0])


def _place(frame: _Frame, occ: npt.NDArray[np.bool_], out: list[_Tile], place: _Place) -> None:
    score, x, y, horizontal = place
    bw, bh = (frame.length, frame.side) if horizontal else (frame.side, frame.length)
    occ[y : y + bh, x : x + bw] = True
    out.append(((x + (bw - 1) / 2, y + (bh - 1) / 2), horizontal, score))


def _places_either(
    frame: _Frame, occ: npt.NDArray[np.bool_], *, side_min: float, count: int
) -> list[_Place]:
    """The best places clear of the tiles placed (see :func:`_places`), or where there is none,
    the best of those that overlap them a little: a tile read by its bar may come out a degree
    or a pixel off (blur, a line's slope), so that it reaches into a crosswise double beside
    it, or stops a pixel short of it."""
    return _places(frame, occ, side_min=side_min, count=count, loose=False) or _places(
        frame, occ, side_min=side_min, count=count, loose=True
    )


def _places(
    frame: _Frame,
    occ: npt.NDArray[np.bool_],
    *,
    side_min: float,
    count: int,
    loose: bool,
    ends_min: float = 0.0,
) -> list[_Place]:
    """The best ``count`` allowed places of each orientation, best first. ``loose``: a place
    may overlap the tiles placed by up to ``LOOSE_OVERLAP`` of its area, and they border it
    from up to ``LOOSE_REACH_PX`` further out."""
    found: list[_Place] = []
    for horizontal in (True, False):
        maps = (frame.covered, frame.valid, occ, frame.table, frame.dark)
        if not horizontal:
            maps = tuple(m.T for m in maps)  # type: ignore[assignment]
        score, pad = _place_scores(
            *maps,
            frame=frame,
            side_min=side_min,
            horizontal=horizontal,
            loose=loose,
            ends_min=ends_min,
        )
        if score is None:
            continue
        for _ in range(count):
            idx = int(np.argmax(score))
            best = float(score.flat[idx])
            if not math.isfinite(best):
                break
            y, x = divmod(idx, score.shape[1])
            r = frame.side // 2
            score[max(0, y - r) : y + r + 1, max(0, x - r) : x + r + 1] = -np.inf
            x, y = x + pad, y + pad
            found.append((best, x, y, True) if horizontal else (best, y, x, False))
    return sorted(found, key=lambda f: -f[0])


def _sums(ii: F64, bw: int, bh: int) -> F64:
    """``out[y, x]``: the sum over the box ``bw x bh`` with top-left ``(x, y)`` of the image
    whose integral is ``ii``."""
    out: F64 = ii[bh:, bw:] - ii[:-bh, bw:] - ii[bh:, :-bw] + ii[:-bh, :-bw]
    return out


def _box_means(img: npt.NDArray[np.generic], bw: int, bh: int) -> F64:
    """``out[y, x]``: the mean of ``img`` over the box ``bw x bh`` with top-left ``(x, y)``."""
    if img.dtype == np.bool_:
        img = img.view(np.uint8)
    ii = np.asarray(cv2.integral(np.ascontiguousarray(img), sdepth=cv2.CV_64F), np.float64)
    out: F64 = np.asarray(_sums(ii, bw, bh) / float(bw * bh), dtype=np.float64)
    return out


def _place_scores(
    covered: npt.NDArray[np.bool_],
    valid: npt.NDArray[np.bool_],
    occ: npt.NDArray[np.bool_],
    table: npt.NDArray[np.bool_],
    dark: F32,
    *,
    frame: _Frame,
    side_min: float,
    horizontal: bool,
    loose: bool,
    ends_min: float = 0.0,
) -> tuple[F64 | None, int]:
    """``(score, pad)``: ``score[y - pad, x - pad]`` rates a tile lying along x with its
    top-left corner at ``(x, y)`` (``-inf`` where it is not allowed); ``None`` if nowhere.
    ``ends_min``: how much of each end must border the table or a placed tile (the sides
    then ``side_min`` each); else of one end 0.6, and of the sides ``side_min`` and 0.6."""
    hgt, wid = covered.shape
    width = frame.width
    s, length = frame.side, frame.length
    band = 2  # pixels of the bands beside the sides
    slack = max(1, round(0.12 * width))  # the border may lie a bit further out (bright rims)
    margin = max(1, round(0.15 * width))
    pad = band + slack + 1
    ny, nx = hgt - s - 2 * pad + 1, wid - length - 2 * pad + 1
    if ny <= 0 or nx <= 0:
        return None, pad
    inner_w, inner_h = length - 2 * margin, s - 2 * margin

    def at(means: F64, dy: int, dx: int) -> F64:
        # ``means`` of boxes whose top-left is (dx, dy) from each tile's top-left
        out: F64 = means[pad + dy : pad + dy + ny, pad + dx : pad + dx + nx]
        return out

    if horizontal not in frame.fixed:
        allowed = at(_box_means(covered, inner_w, inner_h), margin, margin) >= 0.9
        allowed &= at(_box_means(valid, length + 2 * band, s + 2 * band), -band, -band) >= 0.999
        # the seams themselves, not where the tiles placed before were supposed to end
        ends = _box_means(dark, band, inner_h)
        base = at(ends, margin, -band) + at(ends, margin, length)
        # Pips keep clear of a half's sides: bands just inside the ends and beside the bar
        # must be plain face when the halves sit on the pips.
        z = max(2, round(0.09 * s))
        zones = _box_means(dark, z, inner_h)
        inset, beside = round(0.03 * s), round(0.04 * s)
        for dx in (inset, length - inset - z, s - beside - z, s + beside):
            base = base - 2.0 * at(zones, margin, dx)
        frame.fixed[horizontal] = (allowed, base)
    allowed, base = frame.fixed[horizontal]
    overlap = LOOSE_OVERLAP if loose else CLEAR_OVERLAP
    shared = at(_box_means(occ, length, s), 0, 0)
    ok = allowed & (shared <= overlap)
    if loose:
        base = base - LOOSE_OVERLAP_COST * shared
    if not ok.any():
        return None, pad
    if loose:
        reach = 2 * LOOSE_REACH_PX + 1
        occ = cv2.dilate(occ.view(np.uint8), np.ones((reach, reach), np.uint8)) > 0
    ii = np.asarray(cv2.integral((table | occ).view(np.uint8), sdepth=cv2.CV_64F), np.float64)
    rows = _sums(ii, inner_w, band) / float(inner_w * band)  # beside the long sides
    cols = _sums(ii, band, inner_h) / float(band * inner_h)  # beyond the ends
    top = bottom = left = right = np.zeros((ny, nx))
    for o in range(slack + 1):
        top = np.maximum(top, at(rows, -band - o, margin))
        bottom = np.maximum(bottom, at(rows, s + o, margin))
        left = np.maximum(left, at(cols, margin, -band - o))
        right = np.maximum(right, at(cols, margin, length + o))
    if ends_min > 0:
        ok &= (np.minimum(top, bottom) >= side_min) & (np.minimum(left, right) >= ends_min)
        # a crosswise double touches its line's tiles without a seam to place it by: its
        # sides stand out of the line exactly where the table is just beside them
        base = base + at(rows, -band, margin) + at(rows, s, margin)
    else:
        ok &= (np.minimum(top, bottom) >= side_min) & (np.maximum(top, bottom) >= 0.6)
        ok &= np.maximum(left, right) >= 0.6
    if not ok.any():
        return None, pad
    out: F64 = np.where(ok, base, -np.inf)
    return out, pad
