"""The tile reader's entry: image -> :class:`~vision.types.SceneReading`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import InvalidImageError
from vision.recognition import halfnet
from vision.recognition.stages import arbitrate, bars, halves, ink, outline, scale
from vision.recognition.stages.params import StagedParams
from vision.types import SURE_CONFIDENCE, HalfReading, Point, SceneReading, TileReading

_DEFAULT = StagedParams()
#: The confidence of a doubted tile (beside unexplained pips, or read otherwise by the learned
#: half reader): just under sure.
_UNSURE = SURE_CONFIDENCE * 0.98


def identify(
    image: npt.NDArray[np.generic],
    params: StagedParams | None = None,
    *,
    region: Sequence[Point] | None = None,
    max_pips: int = 6,
    window: tuple[int, int, int, int] | None = None,
) -> SceneReading:
    """Every tile read in ``image`` (``uint8`` ``(H, W)`` grey or ``(H, W, 3|4)`` BGR(A)), in
    its own pixels, top to bottom then left to right. ``region``: only tiles whose centre lies
    inside this polygon. ``max_pips``: the set's largest half (6 for double-six). ``window``:
    ``x0, y0, x1, y1``, only this rectangle of the image is read (the tiles still in the
    image's pixels). Raises :class:`~vision.errors.InvalidImageError` for an array that cannot
    be an image, a ``region`` of fewer than three finite points, or a window that leaves less
    than 8x8 pixels of it.

    Each scale :func:`~.scale.candidates` offers is read (stages 2-6); the reading with the
    most tiles is kept; where none reads a tile, the scales seen closer are read too. A tile
    is sure only where the learned half reader agrees with both halves and no pip that no
    tile explains lies beside it."""
    p = params or _DEFAULT
    _check_image(image)
    poly = None if region is None else _polygon(region)
    full_h, full_w = image.shape[:2]
    x0, y0, x1, y1 = window or (0, 0, full_w, full_h)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(full_w, x1), min(full_h, y1)
    if min(x1 - x0, y1 - y0) < 8:
        raise InvalidImageError(f"window {window} leaves less than 8x8 pixels of {image.shape}")
    frame = np.asarray(image[y0:y1, x0:x1], dtype=np.uint8)
    grey = scale.darkest_channel(frame)
    h, w = grey.shape
    tiles: tuple[TileReading, ...] = ()
    tried: list[scale.Scale] = []
    for closer in (False, True):
        for found in scale.candidates(grey, p, closer=closer):
            if found not in tried:
                tried.append(found)
                read = _read_at(grey, found, p, max_pips)
                tiles = read if len(read) > len(tiles) else tiles
        if tiles or max(h, w) <= p.scale_view_px:
            break
    if x0 or y0:
        tiles = tuple(t.shifted(x0, y0) for t in tiles)
    if poly is not None:
        tiles = tuple(t for t in tiles if cv2.pointPolygonTest(poly, t.center, False) >= 0)
    tiles = tuple(sorted(tiles, key=lambda t: (round(t.center[1]), t.center[0])))
    length = 2 * float(np.median([t.half_spacing for t in tiles])) if tiles else 0.0
    return SceneReading(tiles, full_w, full_h, length)


def _check_image(image: object) -> None:
    """:class:`~vision.errors.InvalidImageError` unless ``image`` is an 8-bit grey, BGR or
    BGRA array of at least 8x8 pixels."""
    shape = getattr(image, "shape", None)
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        kind = getattr(image, "dtype", type(image).__name__)
        raise InvalidImageError(f"not an 8-bit image array: {shape} {kind}")
    if not (image.ndim == 2 or (image.ndim == 3 and image.shape[2] in (1, 3, 4))):
        raise InvalidImageError(f"not a grey, BGR or BGRA image: shape {shape}")
    if min(image.shape[:2]) < 8:
        raise InvalidImageError(f"smaller than 8x8 pixels: shape {shape}")


def _polygon(region: Sequence[Point]) -> npt.NDArray[np.float32]:
    """``region`` as a ``(N, 2)`` float32 polygon; :class:`~vision.errors.InvalidImageError`
    unless it has three or more finite points."""
    try:
        poly = np.array(region, dtype=np.float32).reshape(-1, 2)
    except (TypeError, ValueError) as exc:
        raise InvalidImageError(f"region is not a list of x, y points: {exc}") from None
    if len(poly) < 3 or not np.isfinite(poly).all():
        raise InvalidImageError(f"region needs three or more finite x, y points: {region!r}")
    return poly


@dataclass(frozen=True, slots=True)
class _View:
    """What one scale is read from: ``grey``, the darkest channel at the working scale, the
    ink ``seen`` on it, the parameters and the set's largest half."""

    grey: npt.NDArray[np.uint8]
    seen: ink.Ink
    p: StagedParams
    max_pips: int
    #: ``(N, 2)``: the centres of the :func:`~.arbitrate.spots` (pieces of ink not thin).
    spots: npt.NDArray[np.float64]
    #: ``(M, 2)``: the centres of those shaped like one pip (:func:`~.arbitrate.pip_spots`).
    pips: npt.NDArray[np.float64]

    @classmethod
    def of(
        cls, grey: npt.NDArray[np.uint8], seen: ink.Ink, p: StagedParams, max_pips: int
    ) -> _View:
        """The view of ``grey`` read as ``seen``, its spots found."""
        found = arbitrate.spots(seen)
        return cls(grey, seen, p, max_pips, found[1], arbitrate.pip_spots(found, seen.pip_px))


def _read_at(
    grey: npt.NDArray[np.uint8], found: scale.Scale, p: StagedParams, max_pips: int
) -> tuple[TileReading, ...]:
    """Stages 2-6 at scale ``found``; tiles in the input's pixels."""
    f = found.factor
    work = grey if f == 1.0 else scale.resized(grey, f)
    seen = ink.find(work, found.pip_px * f, p, None if found.blobs is None else found.blobs * f)
    found_bars = bars.find(seen, p)
    proposals = outline.propose(found_bars, seen, p)
    proposals += outline.from_bars(found_bars, proposals, seen.pip_px, p)
    proposals += outline.propose(bars.lone_faces(seen, p), seen, p, guessed=True)
    view = _View.of(work, seen, p, max_pips)
    readable = _readable(proposals, view)
    kept = arbitrate.keep(readable, p, contest=False)
    if len(kept) >= p.min_tiles_for_width:
        # every tile of a set is alike: look again round each bar no tile read explains, at
        # the scene's width
        width = _scene_width(kept)
        at = np.array([b.center for b in found_bars]).reshape(-1, 2)
        held = outline.inside(at, [r.proposal.corners() for r in kept])
        unread = [b for b, h in zip(found_bars, held, strict=True) if not h]
        again = outline.propose(unread, seen, p, width)
        readable += _readable(again, view, known=readable)
        kept = arbitrate.keep(readable, p, contest=False)
    chained = _along_chains(kept, readable, view)
    if chained:
        readable += chained
        kept = arbitrate.keep(readable, p, contest=False)
    if kept:
        readable += _follow_lines(kept, readable, view)
    kept = arbitrate.keep(readable, p)
    # a double is what a seam read as a bar gives: any spot of ink beside one doubts it
    loose, beside_doubles = arbitrate.unexplained_pips(kept, view.pips, seen, p)
    return tuple(
        _tile(
            r,
            f,
            doubted=_doubted(r, seen, beside_doubles if _double(r) else loose, p)
            or _open_ended(r, view),
        )
        for r in kept
    )


def _follow_lines(
    kept: list[arbitrate.Read], readable: list[arbitrate.Read], view: _View
) -> list[arbitrate.Read]:
    """The tiles read where the lines of the tiles read (``readable``, of which ``kept`` were
    chosen) go on (:func:`~.outline.beyond`; ``line_rounds`` rounds, each from the tiles the
    last one read). Between two halves full of pips, blurred, a bar may not show, nor the
    outline round a bar guessed there (the pips' columns cross it like seams): each guess is
    read both measured round its bar and as a tile of the scene's width centred on it. Such a
    tile is a guess: it needs pips on both halves that the learned half reader reads so. Every
    tile read that the learned half reader reads so seeds guesses, not only those kept: where
    one bar of a line does not show, its seams read as a line of tiles shifted by a half, kept
    until the tile whose bar is missing is read beyond a neighbour that was not kept. No guess
    is made inside a tile kept, on a table darker than the faces, nor with its bar outside the
    frame (half its tile would be)."""
    seen, p = view.seen, view.p
    found: list[arbitrate.Read] = []
    width = _scene_width(kept)
    outlines = [r.proposal.corners() for r in kept if not _double(r)]
    seeds = readable
    for _ in range(p.line_rounds):
        tiles = [
            (r.proposal, r.halves[0].pips == r.halves[1].pips)
            for r in seeds
            if _agrees(r, p) and not (r.inline or r.learned)
        ]
        bars_guessed = outline.beyond(tiles, width, p)
        at = np.array([b.center for b in bars_guessed]).reshape(-1, 2)
        h, w = seen.face.shape
        framed = (at[:, 0] >= 0) & (at[:, 0] < w) & (at[:, 1] >= 0) & (at[:, 1] < h)
        free = framed & ~outline.inside(at, outlines) & _on_face(at, seen)
        guesses = [b for b, ok in zip(bars_guessed, free, strict=True) if ok]
        seeds = _guessed(guesses, view, width, [*readable, *found])
        if not seeds:
            break
        found += seeds
    return found


def _scene_width(kept: list[arbitrate.Read]) -> float:
    """The median width of the tiles ``kept`` (every tile of a set is alike)."""
    return float(np.median([r.proposal.width for r in kept]))


def _double(read: arbitrate.Read) -> bool:
    """Whether ``read`` is a double. In a line, the halves either side of a seam always match,
    so a seam taken for a bar reads as one."""
    return read.halves[0].pips == read.halves[1].pips


def _along_chains(
    kept: list[arbitrate.Read], readable: list[arbitrate.Read], view: _View
) -> list[arbitrate.Read]:
    """The tiles read round bars guessed along the chains of lit faces (see
    :func:`~.bars.along_chains`) that no tile of ``kept`` explains, at the width of the tiles
    kept. A double kept may be a seam: the faces it holds are looked at too, and a double
    with faces beyond both ends does not explain its own. None is kept across a tile kept
    round a bar seen that is no double: such a tile is firm (where neighbouring halves need
    not match, as on a board game's grid, a guess across a seam reads as a tile too)."""
    held = np.zeros(view.seen.face.shape, dtype=np.uint8)
    explained = held.copy()
    for r in kept:
        corners = np.rint(r.proposal.corners()).astype(np.int32)
        if not _double(r):
            cv2.fillConvexPoly(held, corners, 1)
        if not r.inline:
            cv2.fillConvexPoly(explained, corners, 1)
    width = _scene_width(kept) if kept else None
    guesses = bars.along_chains(view.seen, view.p, width=width, held=held, explained=explained)
    reads = _guessed(guesses, view, width, readable)
    firm = [r for r in kept if r.proposal.bar is not None and not _double(r)]
    clash = arbitrate.clashing(reads, firm, view.p)
    return [r for r, c in zip(reads, clash, strict=True) if not c]


def _guessed(
    guesses: list[bars.Bar],
    view: _View,
    width: float | None,
    known: Sequence[arbitrate.Read],
) -> list[arbitrate.Read]:
    """The tiles read round bars guessed where none was seen: each measured round its bar
    and as a tile of ``width`` (or as wide as the bar suggests), read as guesses (see
    :func:`_believable`)."""
    guesses = _with_pips(guesses, view)
    if not guesses:
        return []
    seen, p = view.seen, view.p
    props = outline.propose(guesses, seen, p, width) + outline.from_bars(
        guesses, [], seen.pip_px, p
    )
    return _readable([replace(q, measured=False, bar=None) for q in props], view, known=known)


def _with_pips(guesses: list[bars.Bar], view: _View) -> list[bars.Bar]:
    """The ``guesses`` a tile may be read round (see :func:`_believable`): with a spot of ink
    on each side of the bar within a tile's reach (the farthest its sides and ends are looked
    for, and a pip's diameter more), or on one side where the other is a lit face on a table
    darker than the faces. A guess with no pip to read is not measured or read at all."""
    if not guesses or len(view.spots) == 0:
        return []
    p, d = view.p, view.seen.pip_px
    c = np.array([g.center for g in guesses], dtype=np.float64)  # (G, 2)
    u = np.array([g.direction for g in guesses], dtype=np.float64)
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    width = np.array([g.length for g in guesses]) / p.bar_width_share
    rel = view.spots[None, :, :] - c[:, None, :]  # (G, N, 2)
    along = np.einsum("gnk,gk->gn", rel, n)
    across = np.abs(np.einsum("gnk,gk->gn", rel, u))
    # a side is looked for within side_search_known of the scene's width, or where none is
    # known yet, within side_search of the width the pip size suggests
    side = np.maximum(p.side_search_known[1] * width, p.side_search[1] * d / p.pip_width_ratio)
    reach = p.end_search[1] * 2 * side + d
    near = across <= (side + d)[:, None]
    ahead = (near & (along > 0) & (along <= reach[:, None])).any(axis=1)
    behind = (near & (along < 0) & (along >= -reach[:, None])).any(axis=1)
    lit = np.zeros(len(guesses), dtype=bool)
    one = ahead ^ behind
    if one.any():
        side = np.where(ahead, -1.0, 1.0)[:, None] * n * (width / 2)[:, None]
        lit = one & _on_face(c + side, view.seen, lit=True)
    keep = (ahead & behind) | lit
    return [g for g, k in zip(guesses, keep, strict=True) if k]


def _on_face(
    points: npt.NDArray[np.float64], seen: ink.Ink, *, lit: bool = False
) -> npt.NDArray[np.bool_]:
    """For each of ``points`` ``(N, 2)``, whether it may lie on a tile's face: where the table
    is darker than the faces, whether the face image there is lit (``lit``: whether it is so,
    False on a table as light as the faces)."""
    if seen.table >= seen.lit:
        return np.full(len(points), not lit, dtype=bool)
    h, w = seen.face.shape
    xs = np.clip(np.rint(points[:, 0]), 0, w - 1).astype(np.intp)
    ys = np.clip(np.rint(points[:, 1]), 0, h - 1).astype(np.intp)
    return np.asarray(seen.face[ys, xs] >= seen.lit)


def _readable(
    proposals: list[outline.Proposal], view: _View, *, known: Sequence[arbitrate.Read] = ()
) -> list[arbitrate.Read]:
    """The plausible proposals whose two halves both read on the pip grid, each half's count
    settled with the learned half reader (see :func:`settle`); those it settles to no tile,
    and those not :func:`_believable`, are left out. ``known``: tiles read already, whose
    outlines count for :func:`~.arbitrate.inline_double` too."""
    seen, p, max_pips = view.seen, view.p, view.max_pips
    plausible = [prop for prop in proposals if _plausible(prop, seen.pip_px, p)]
    reads = [
        arbitrate.Read(prop, pair)
        for prop, pair in zip(plausible, halves.read_all(plausible, seen, p, max_pips), strict=True)
    ]
    reads = [r for r in reads if all(h.pips is not None for h in r.halves)]
    out: list[arbitrate.Read] = []
    for r, probs in zip(reads, _half_probabilities(reads, view.grey), strict=True):
        settled = settle(r.halves, probs, p, max_pips)
        if settled is not None:
            pair, agree, learned = settled
            if learned and r.proposal.measured:
                # a guess's outline may cut a half short at a seam: its count stays the
                # learned reader's, whatever the spots
                learned = not _pips_seen(r.proposal, r.halves, pair, view.pips)
            read = replace(r, halves=pair, agree=agree, learned=learned)
            more = all((b.pips or 0) >= (a.pips or 0) for a, b in zip(r.halves, pair, strict=True))
            if _believable(read, seen, p, more_seen=more) and _bounded(read, view):
                out.append(read)
    outlines = [r.proposal.corners().astype(np.float32) for r in [*known, *out]]
    return [replace(r, inline=arbitrate.inline_double(r, seen, p, outlines)) for r in out]


def _pips_seen(
    prop: outline.Proposal,
    grid: tuple[halves.Half, halves.Half],
    pair: tuple[halves.Half, halves.Half],
    pips: npt.NDArray[np.float64],
) -> bool:
    """Whether each half whose count the learned half reader set (``pair`` against the pip
    grid's ``grid``) holds that many spots shaped like a pip (within 0.45 of the width of its
    centre, along and across): two readers that agree (a set whose pips sit closer together
    than the grid's spacings, read at a wider one)."""
    u, n, w = np.array(prop.across), np.array(prop.axis), prop.width
    for g, half in zip(grid, pair, strict=True):
        if g.pips == half.pips:
            continue
        rel = pips - np.array(half.center)
        inside = (np.abs(rel @ u) < 0.45 * w) & (np.abs(rel @ n) < 0.45 * w)
        if int(inside.sum()) != half.pips:
            return False
    return True


def _believable(
    read: arbitrate.Read, seen: ink.Ink, p: StagedParams, *, more_seen: bool = False
) -> bool:
    """A double blank has no pips to confirm it: it needs a bar seen (a tile lying face down is
    a lone face too) and the learned half reader reading both halves blank at least
    ``agree_p`` (a back, the table, a sheet of paper), or ``blank_guess_p`` where its outline
    is guessed from the bar (its edges not measured). A
    tile with a guessed outline needs both halves read so by the learned half reader (or its
    counts taken where ``more_seen``: it read more pips than the grid, whose positions a blurred
    half's weaker corner pips can fall between; a pip is missed far more often than made up),
    and pips on both, or on one and a blank half that is a lit face on a table darker than the
    faces (a blank half guessed beside a tile on a light table is the table)."""
    blank = not any(h.pips for h in read.halves)
    if blank and (read.proposal.bar is None or read.agree < p.agree_p):
        return False
    if read.proposal.measured:
        return True
    if blank:
        return read.agree >= p.blank_guess_p
    if read.agree < p.agree_p or (read.learned and not more_seen):
        return False
    empty = [h.center for h in read.halves if not h.pips]
    return not empty or bool(_on_face(np.array(empty, dtype=np.float64), seen, lit=True).all())


def _bounded(read: arbitrate.Read, view: _View) -> bool:
    """Whether each blank half of ``read`` (no pips to confirm it) shows both its sides:
    across each side the grey level ranges (:func:`_edge_range`) by ``blank_side_share`` of
    the distance between the face's level at the half's centre and the table's, and by
    ``blank_edge_share`` of the ink level. A tile's side meets the table, or a seam where a
    tile touches it. Where the edge of a tile and its shadow on a light table are read as a
    bar, the "blank half" beyond is the table, with no sides; where a light back lies across
    another on a pile, its edge for a bar, the square beyond the edge is the upper back, which
    runs on past the "tile's" sides. Halves with pips are not looked at."""
    seen, prop = view.seen, read.proposal
    u, n, w = np.array(prop.across), np.array(prop.axis), prop.width
    for half in read.halves:
        if half.pips:
            continue
        need = max(_face_step(half, view), view.p.blank_edge_share * seen.threshold)
        c = np.array(half.center)
        if min(_edge_range(view.grey, c, (u, n), k * w / 2, w) for k in (-1, 1)) < need:
            return False
    return True


def _open_ended(read: arbitrate.Read, view: _View) -> bool:
    """Whether ``read`` is a double blank one of whose ends does not show: across it the grey
    level ranges by less than ``blank_side_share`` of the face's distance from the table's
    level. Where one face-down back lies over another's end, the edge of the upper one reads
    as a bar, and one "half" is the upper back's, which runs on past the "tile's" end. (In a
    line, a blank half's end can be a seam too faint to show: such a tile is read, unsure.)"""
    if any(h.pips for h in read.halves):
        return False
    prop = read.proposal
    u, n, w = np.array(prop.across), np.array(prop.axis), prop.width
    for half in read.halves:
        c = np.array(half.center)
        out = float(np.dot(c - np.array(prop.center), n))  # from the half's centre to its end
        if _edge_range(view.grey, c, (n, u), out, w) < _face_step(half, view):
            return True
    return False


def _face_step(half: halves.Half, view: _View) -> float:
    """``blank_side_share`` of how far the face image at ``half``'s centre is from the
    table's level."""
    face = view.seen.face
    h, w = face.shape
    x, y = (int(np.clip(round(v), 0, m - 1)) for v, m in zip(half.center, (w, h), strict=True))
    return view.p.blank_side_share * abs(float(face[y, x]) - view.seen.table)


def _edge_range(
    grey: npt.NDArray[np.uint8],
    c: npt.NDArray[np.float64],
    axes: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]],
    reach: float,
    w: float,
) -> float:
    """The median, over four places along an edge of a half centred at ``c`` (``reach`` from
    it along ``axes[0]``, at -0.3, -0.1, 0.1 and 0.3 of the width ``w`` along ``axes[1]``), of
    how far the grey level ranges across it (a band 0.4 widths wide)."""
    normal, tangent = axes
    along = np.array([-0.3, -0.1, 0.1, 0.3]) * w
    across = np.linspace(-0.2, 0.2, 9) * w
    pts = c + (reach + across)[None, :, None] * normal + along[:, None, None] * tangent
    h, wd = grey.shape
    xs = np.clip(np.rint(pts[..., 0]), 0, wd - 1).astype(np.intp)
    ys = np.clip(np.rint(pts[..., 1]), 0, h - 1).astype(np.intp)
    values = grey[ys, xs].astype(np.float64)
    return float(np.median(values.max(axis=1) - values.min(axis=1)))


def settle(
    pair: tuple[halves.Half, halves.Half],
    probs: npt.NDArray[np.float32],
    p: StagedParams,
    max_pips: int,
) -> tuple[tuple[halves.Half, halves.Half], float, bool] | None:
    """Each half's count settled between the pip grid (``pair``) and the learned half
    reader's probabilities ``probs`` (``(2, N_CLASSES)``): the grid's count where the learned
    reader gives it at least ``refute_p``; else (pips off the grid) the learned reader's own
    count, where it gives it ``adopt_p`` or more; else nothing (no tile: a half and the
    table beside it, print, a shadow's edge). Returns the two halves, their agreement (the
    smaller probability of the two counts) and whether a count is the learned reader's (such
    a tile is reported unsure)."""
    out: list[halves.Half] = []
    learned = False
    for half, prob in zip(pair, probs, strict=True):
        if _probability(prob, half.pips) >= p.refute_p:
            out.append(half)
            continue
        best = int(np.argmax(prob[: halfnet.NOT_A_HALF]))
        if prob[best] < p.adopt_p or best > max_pips:
            return None
        out.append(replace(half, pips=best, confidence=float(prob[best])))
        learned = True
    agree = min(_probability(prob, h.pips) for prob, h in zip(probs, out, strict=True))
    return (out[0], out[1]), agree, learned


def _half_probabilities(
    reads: list[arbitrate.Read], grey: npt.NDArray[np.uint8]
) -> list[npt.NDArray[np.float32]]:
    """For each read, the learned half reader's (:mod:`vision.recognition.halfnet`)
    probabilities ``(2, N_CLASSES)`` for its two halves, first along ``+axis``."""
    if not reads:
        return []
    patches = []
    for r in reads:
        prop = r.proposal
        c, u, n, w = (np.array(v) for v in (prop.center, prop.across, prop.axis, prop.width))
        for sign in (1.0, -1.0):
            side = [c - u * w / 2, c + u * w / 2]
            far = [q + sign * n * w for q in side]
            patches.append(halfnet.half_patch(grey, np.array([*side, far[1], far[0]])))
    probs = halfnet.classify(np.stack(patches))
    return [probs[2 * k : 2 * k + 2] for k in range(len(reads))]


def _probability(probs: npt.NDArray[np.float32], pips: int | None) -> float:
    """The learned reader's probability for ``pips``. It reads 0-6 pips only: for a
    double-nine set's 7-9, the probability that the patch is a half at all."""
    if pips is None or pips < 0:
        return 0.0
    if pips >= halfnet.NOT_A_HALF:
        return 1.0 - float(probs[halfnet.NOT_A_HALF])
    return float(probs[pips])


def _doubted(
    read: arbitrate.Read, seen: ink.Ink, loose: list[tuple[float, float]], p: StagedParams
) -> bool:
    """Whether a kept tile is reported unsure: contested, a count the learned half reader's
    or not read so by it, beside unexplained pips, or a double with tiles beyond both its
    ends."""
    return (
        read.contested
        or read.learned
        or not _agrees(read, p)
        or arbitrate.doubted(read, loose)
        or (p.doubt_inline_doubles and read.inline)
    )


def _agrees(read: arbitrate.Read, p: StagedParams) -> bool:
    """Whether the learned half reader gives both counts at least ``agree_p``; a count it
    cannot read (7-9) is never sure."""
    return read.agree >= p.agree_p and all(
        h.pips is not None and h.pips < halfnet.NOT_A_HALF for h in read.halves
    )


def _plausible(prop: outline.Proposal, d: float, p: StagedParams) -> bool:
    lo, hi = p.half_length
    return (
        p.width_d[0] * d <= prop.width <= p.width_d[1] * d
        and min(prop.ends) >= lo * prop.width
        and max(prop.ends) <= hi * prop.width
    )


def _tile(read: arbitrate.Read, f: float, *, doubted: bool) -> TileReading:
    corners = read.proposal.corners() / f
    a, b = read.halves
    return TileReading(
        tuple((float(x), float(y)) for x, y in corners),  # type: ignore[arg-type]
        (
            HalfReading((a.center[0] / f, a.center[1] / f), a.pips or 0, a.confidence),
            HalfReading((b.center[0] / f, b.center[1] / f), b.pips or 0, b.confidence),
        ),
        min(read.confidence, _UNSURE) if doubted else read.confidence,
    )
