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
from vision.recognition.stages.arbitrate import Read
from vision.recognition.stages.arrays import F32, F64, U8, sample
from vision.recognition.stages.bars import Bar
from vision.recognition.stages.halves import Half
from vision.recognition.stages.outline import Proposal
from vision.recognition.stages.params import StagedParams
from vision.types import SURE_CONFIDENCE, HalfReading, Point, SceneReading, TileReading

Pair = tuple[Half, Half]

_DEFAULT = StagedParams()
#: The confidence of a doubted tile (see :func:`_doubted`): just under sure.
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
    its pixels, top to bottom then left to right: only those centred in ``region``, read only
    in ``window`` (``x0, y0, x1, y1``) if given; ``max_pips``: the set's largest half. Raises
    :class:`~vision.errors.InvalidImageError` for a bad image, region or window (under 8x8).

    Each scale :func:`~.scale.candidates` offers is read (stages 2-6) and the reading with the
    most tiles kept; where none reads a tile, or (in a frame wider than ``scale_view_px``) the
    one kept leaves over ``unexplained_share`` of the pips seen outside every tile, the scales
    seen closer are read too, and one of them replaces it only with more tiles and fewer of the
    pips left unexplained. A tile is sure only where the learned half reader agrees with both
    halves and no loose pip lies beside it (:func:`_doubted`)."""
    p = params or _DEFAULT
    _check_image(image)
    poly = None if region is None else _polygon(region)
    full_h, full_w = image.shape[:2]
    x0, y0, x1, y1 = window or (0, 0, full_w, full_h)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(full_w, x1), min(full_h, y1)
    if min(x1 - x0, y1 - y0) < 8:
        raise InvalidImageError(f"window {window} leaves less than 8x8 pixels of {image.shape}")
    grey = scale.darkest_channel(np.asarray(image[y0:y1, x0:x1], dtype=np.uint8))
    tiles: tuple[TileReading, ...] = ()
    left = 1.0  # the share of the pips seen outside every tile of ``tiles``
    tried: list[scale.Scale] = []
    for closer in (False, True):
        for found in scale.candidates(grey, p, closer=closer):
            if found not in tried:
                tried.append(found)
                read, unexplained = _read_at(grey, found, p, max_pips)
                if len(read) > len(tiles) and not (closer and tiles and unexplained >= left):
                    tiles, left = read, unexplained
        if tiles and (left <= p.unexplained_share or max(grey.shape) <= p.scale_view_px):
            break
    if x0 or y0:
        tiles = tuple(t.shifted(x0, y0) for t in tiles)
    if poly is not None:
        tiles = tuple(t for t in tiles if cv2.pointPolygonTest(poly, t.center, False) >= 0)
    tiles = tuple(sorted(tiles, key=lambda t: (round(t.center[1]), t.center[0])))
    length = 2 * float(np.median([t.half_spacing for t in tiles])) if tiles else 0.0
    return SceneReading(tiles, full_w, full_h, length)


def _check_image(image: object) -> None:
    """:class:`~vision.errors.InvalidImageError` unless ``image`` is 8-bit grey/BGR(A), 8x8+."""
    shape = getattr(image, "shape", None)
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        kind = getattr(image, "dtype", type(image).__name__)
        raise InvalidImageError(f"not an 8-bit image array: {shape} {kind}")
    if not (image.ndim == 2 or (image.ndim == 3 and image.shape[2] in (1, 3, 4))):
        raise InvalidImageError(f"not a grey, BGR or BGRA image: shape {shape}")
    if min(image.shape[:2]) < 8:
        raise InvalidImageError(f"smaller than 8x8 pixels: shape {shape}")


def _polygon(region: Sequence[Point]) -> F32:
    """``region`` as a ``(N, 2)`` polygon of three or more finite points, else an error."""
    try:
        poly = np.array(region, dtype=np.float32).reshape(-1, 2)
    except (TypeError, ValueError) as exc:
        raise InvalidImageError(f"region is not a list of x, y points: {exc}") from None
    if len(poly) < 3 or not np.isfinite(poly).all():
        raise InvalidImageError(f"region needs three or more finite x, y points: {region!r}")
    return poly


@dataclass(frozen=True, slots=True)
class _View:
    """A scale's darkest channel, ink, and centres of :func:`~.arbitrate.spots` and pips."""

    grey: U8
    seen: ink.Ink
    p: StagedParams
    max_pips: int
    spots: F64
    pips: F64

    @classmethod
    def of(cls, grey: U8, seen: ink.Ink, p: StagedParams, max_pips: int) -> _View:
        found = arbitrate.spots(seen)
        return cls(grey, seen, p, max_pips, found[1], arbitrate.pip_spots(found, seen.pip_px))


def _read_at(
    grey: U8, found: scale.Scale, p: StagedParams, max_pips: int
) -> tuple[tuple[TileReading, ...], float]:
    """Stages 2-6 at scale ``found``: the tiles in the input's pixels, and the share of the
    pips seen that lie outside all of them (0 where none is seen)."""
    f = found.factor
    work = found.view if found.view is not None else grey if f == 1.0 else scale.resized(grey, f)
    seen = ink.find(work, found.pip_px * f, p, None if found.blobs is None else found.blobs * f)
    found_bars = bars.find(seen, p)
    proposals = outline.propose(found_bars, seen, p)
    proposals += outline.from_bars(found_bars, proposals, seen.pip_px, p)
    proposals += outline.propose(bars.lone_faces(seen, p), seen, p, guessed=True)
    view = _View.of(work, seen, p, max_pips)
    readable = _readable(proposals, view)
    kept = arbitrate.keep(readable, p, contest=False)
    if len(kept) >= p.min_tiles_for_width:
        # tiles of a set are alike: look again round each bar left unread, at the scene's width
        held = outline.inside(_centers(found_bars), [r.proposal.corners() for r in kept])
        unread = [b for b, h in zip(found_bars, held, strict=True) if not h]
        again = outline.propose(unread, seen, p, _scene_width(kept))
        readable += _readable(again, view, known=readable)
        kept = arbitrate.keep(readable, p, contest=False)
    # chains and lines are followed where a pip lies outside every tile kept or two kept tiles
    # lie close enough to be in a line: elsewhere a guess could only read their pips again
    explained = outline.inside(view.pips, [r.proposal.corners() for r in kept]).all()
    if not kept or not explained or not _apart(kept, p.line_reach):
        chained = _along_chains(kept, readable, view)
        if chained:
            readable += chained
            kept = arbitrate.keep(readable, p, contest=False)
        if kept:
            readable += _follow_lines(kept, readable, view)
    kept = arbitrate.keep(readable, p)
    # a seam read as a bar reads as a double: any loose spot of ink beside one doubts it
    loose, beside_doubles = arbitrate.unexplained_pips(kept, view.pips, seen, p)
    doubted = [
        _doubted(r, beside_doubles if _double(r) else loose, p) or _open_ended(r, view)
        for r in kept
    ]
    held = outline.inside(view.pips, [r.proposal.corners() for r in kept])
    unexplained = float(1.0 - held.mean()) if len(held) else 0.0
    return tuple(_tile(r, f, doubted=d) for r, d in zip(kept, doubted, strict=True)), unexplained


def _apart(kept: list[Read], reach: float) -> bool:
    """Whether no two of ``kept`` lie within ``reach`` widths (the widest's), centre to centre
    (tiles end to end lie 2 widths apart, a double crosswise at a tile's end 1.5, side by side 1
    width)."""
    c = np.array([r.proposal.center for r in kept])
    gap = np.hypot(*(c[:, None] - c[None]).transpose(2, 0, 1)) + np.diag(np.full(len(c), np.inf))
    return bool((gap > reach * max(r.proposal.width for r in kept)).all())


def _follow_lines(kept: list[Read], readable: list[Read], view: _View) -> list[Read]:
    """The tiles read where the lines of ``readable`` go on (:func:`~.outline.beyond`), in
    ``line_rounds`` rounds, each seeded by the last: between two blurred halves full of pips a
    bar may not show. Tiles not kept seed too (where one bar of a line does not show, its
    seams read as a line shifted by a half). No guess lies inside a tile kept, past the
    frame's edge, or under ``guess_face_share`` on faces (where a level tells them)."""
    seen, p = view.seen, view.p
    found: list[Read] = []
    width = _scene_width(kept)
    outlines = [r.proposal.corners() for r in kept if not _double(r)]
    h, w = seen.face.shape
    seeds = readable
    for _ in range(p.line_rounds):
        agreed = [r for r in seeds if _agrees(r, p) and not (r.inline or r.learned)]
        bars_guessed = outline.beyond([(r.proposal, _double(r)) for r in agreed], width, p)
        at = _centers(bars_guessed)
        # the whole tile guessed lies in the frame: a half cut by its edge cannot be read
        u = np.array([b.direction for b in bars_guessed], dtype=np.float64).reshape(-1, 2)
        reach = np.abs(u) * width / 2 + np.abs(u[:, ::-1]) * width
        framed = ((at - reach >= 0) & (at + reach < np.array([w, h]))).all(axis=1)
        faced = _face_share(at, u, np.full(len(at), width), np.full((len(at), 2), width), seen)
        free = framed & (faced >= p.guess_face_share) & ~outline.inside(at, outlines)
        guesses = [b for b, ok in zip(bars_guessed, free, strict=True) if ok]
        seeds = _guessed(guesses, view, width, [*readable, *found])
        if not seeds:
            break
        found += seeds
    return found


def _scene_width(kept: list[Read]) -> float:
    """The median width of the tiles ``kept`` (every tile of a set is alike)."""
    return float(np.median([r.proposal.width for r in kept]))


def _double(read: Read) -> bool:
    return read.halves[0].pips == read.halves[1].pips


def _centers(found: Sequence[Bar]) -> F64:
    return np.array([b.center for b in found], dtype=np.float64).reshape(-1, 2)


def _along_chains(kept: list[Read], readable: list[Read], view: _View) -> list[Read]:
    """The tiles read round bars guessed along chains of lit faces (:func:`~.bars.along_chains`)
    that ``kept`` do not explain; none clashing with a tile kept round a bar seen (no double)."""
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
    guesses: list[Bar], view: _View, width: float | None, known: Sequence[Read]
) -> list[Read]:
    """The tiles read as guesses round ``guesses``, measured and as ``width`` wide if given."""
    guesses = _with_pips(guesses, view)
    if not guesses:
        return []
    seen, p = view.seen, view.p
    props = outline.propose(guesses, seen, p, width)
    props += outline.from_bars(guesses, [], seen.pip_px, p)
    return _readable([replace(q, measured=False, bar=None) for q in props], view, known=known)


def _with_pips(guesses: list[Bar], view: _View) -> list[Bar]:
    """The ``guesses`` with ink near on both sides, or on one and a lit face on the other."""
    if not guesses or len(view.spots) == 0:
        return []
    p, d = view.p, view.seen.pip_px
    c = _centers(guesses)
    u = np.array([g.direction for g in guesses], dtype=np.float64)
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    width = np.array([g.length for g in guesses]) / p.bar_width_share
    rel = view.spots[None, :, :] - c[:, None, :]  # (G, N, 2)
    along = np.einsum("gnk,gk->gn", rel, n)
    across = np.abs(np.einsum("gnk,gk->gn", rel, u))
    side = np.maximum(p.side_search_known[1] * width, p.side_search[1] * d / p.pip_width_ratio)
    reach = p.end_search[1] * 2 * side + d
    near = across <= (side + d)[:, None]
    ahead = (near & (along > 0) & (along <= reach[:, None])).any(axis=1)
    behind = (near & (along < 0) & (along >= -reach[:, None])).any(axis=1)
    other = np.where(ahead, -1.0, 1.0)[:, None] * n * (width / 2)[:, None]  # to the inkless side
    lit = (ahead ^ behind) & _on_face(c + other, view.seen, lit=True)
    return [g for g, k in zip(guesses, (ahead & behind) | lit, strict=True) if k]


def _on_faces(props: list[Proposal], seen: ink.Ink, p: StagedParams) -> list[Proposal]:
    """``props`` less those under ``tile_face_share`` on the faces of a darker table (on a
    lighter one, the faces' level is told from the pips and may not cover a tile whole)."""
    if not props or seen.faces is None or seen.table >= seen.lit:
        return props
    c, u = np.array([q.center for q in props]), np.array([q.across for q in props])
    w, ends = np.array([q.width for q in props]), np.array([q.ends for q in props])
    share = _face_share(c, u, w, ends, seen)
    return [q for q, ok in zip(props, share >= p.tile_face_share, strict=True) if ok]


def _face_share(c: F64, u: F64, w: F64, ends: F64, seen: ink.Ink) -> F64:
    """For tiles ``(N, ...)`` centred at ``c``, unit ``u`` across (their axis square to it),
    ``w`` wide, their ``ends`` from the centre (along the axis, then against it): the share of
    12 points inside each (at 0 and 0.3 widths to either side of the axis, a quarter and three
    quarters of the way to either end) where :func:`_on_face`."""
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    across = np.array([-0.3, 0.0, 0.3]) * w[:, None]  # (N, 3)
    along = np.array([0.75, 0.25, -0.25, -0.75]) * ends[:, [0, 0, 1, 1]]  # (N, 4)
    pts = (
        c[:, None, None]
        + across[..., None, None] * u[:, None, None]
        + along[:, None, :, None] * n[:, None, None]
    )
    return np.asarray(_on_face(pts.reshape(-1, 2), seen).reshape(len(c), 12).mean(axis=1))


def _on_face(points: F64, seen: ink.Ink, *, lit: bool = False) -> npt.NDArray[np.bool_]:
    """For ``points`` ``(N, 2)``, whether a face is there (:attr:`~.ink.Ink.faces`; ``not lit``
    on a table as light as the faces)."""
    if seen.faces is None:
        return np.full(len(points), not lit, dtype=bool)
    return np.asarray(sample(seen.faces, points) > 0)


def _readable(proposals: list[Proposal], view: _View, *, known: Sequence[Read] = ()) -> list[Read]:
    """The ``proposals`` (:func:`_plausible`, :func:`_on_faces`) with a half read on the grid,
    settled (:func:`settle`), :func:`_believable` and :func:`_bounded`; ``known`` tiles count for
    :func:`~.arbitrate.inline_double` too."""
    seen, p, max_pips = view.seen, view.p, view.max_pips
    plausible = _on_faces([q for q in proposals if _plausible(q, seen.pip_px, p)], seen, p)
    pairs = halves.read_all(plausible, seen, p, max_pips)
    reads = [Read(prop, pair) for prop, pair in zip(plausible, pairs, strict=True)]
    reads = [r for r in reads if any(h.pips is not None for h in r.halves)]
    out: list[Read] = []
    for r, probs in zip(reads, _half_probabilities(reads, view.grey), strict=True):
        settled = settle(r.halves, probs, p, max_pips)
        if settled is not None:
            pair, agree, learned = settled
            if learned and r.proposal.measured:
                # a guess's outline may cut a half short at a seam: its count stays learned
                learned = not _pips_seen(r.proposal, r.halves, pair, view.pips)
            read = replace(r, halves=pair, agree=agree, learned=learned)
            more = all((b.pips or 0) >= (a.pips or 0) for a, b in zip(r.halves, pair, strict=True))
            unread = any(h.pips is None for h in r.halves)
            if _believable(read, seen, p, more_seen=more, unread=unread) and _bounded(read, view):
                out.append(read)
    outlines = [r.proposal.corners().astype(np.float32) for r in [*known, *out]]
    return [replace(r, inline=arbitrate.inline_double(r, seen, p, outlines)) for r in out]


def _pips_seen(prop: Proposal, grid: Pair, pair: Pair, pips: F64) -> bool:
    """Whether each half of ``pair`` not counted as in ``grid`` has that many ``pips`` near."""
    _, u, n, w = prop.frame()
    for g, half in zip(grid, pair, strict=True):
        if g.pips == half.pips:
            continue
        rel = pips - np.array(half.center)
        inside = (np.abs(rel @ u) < 0.45 * w) & (np.abs(rel @ n) < 0.45 * w)
        if int(inside.sum()) != half.pips:
            return False
    return True


def _believable(
    read: Read, seen: ink.Ink, p: StagedParams, *, more_seen: bool = False, unread: bool = False
) -> bool:
    """Whether ``read`` may be a tile. A double blank has no pips to confirm it: it needs a bar
    seen and the learned reader's ``agree_p`` (``blank_guess_p`` where its outline is guessed
    or a half was ``unread`` on the grid: squares of face-down backs read so). Any other
    guessed outline needs ``agree_p``, the grid's counts (or ``more_seen``: blur hides pips, it
    does not make them up) and, on each half, pips or a lit face on a darker table (a blank
    "half" guessed beside a tile's end there is table); on a light table :func:`_bounded`
    looks for a blank half's end."""
    blank = not any(h.pips for h in read.halves)
    if blank and (read.proposal.bar is None or read.agree < p.agree_p):
        return False
    if blank and unread and read.agree < p.blank_guess_p:
        return False
    if read.proposal.measured:
        return True
    if blank:
        return read.agree >= p.blank_guess_p
    if read.agree < p.agree_p or (read.learned and not more_seen):
        return False
    empty = np.array([h.center for h in read.halves if not h.pips], dtype=np.float64)
    return seen.table >= seen.lit or bool(_on_face(empty.reshape(-1, 2), seen, lit=True).all())


def _bounded(read: Read, view: _View) -> bool:
    """Whether each blank half of ``read`` shows both its sides: across each, the grey range
    (:func:`_edge_range`) reaches :func:`_face_step` and ``blank_edge_share`` of the ink level.
    A tile's edge and its shadow read as a bar leave a "half" of table beyond, with no sides;
    so does a back lying over another's edge on a pile. On a table as light as the faces, a
    blank half of a guessed outline shows its end too (no level tells it from the table)."""
    centre, u, n, w = read.proposal.frame()
    light = view.seen.table >= view.seen.lit and not read.proposal.measured
    for half in read.halves:
        if half.pips:
            continue
        need = max(_face_step(half, view), view.p.blank_edge_share * view.seen.threshold)
        c = np.array(half.center)
        edges = [(u, n, -w / 2), (u, n, w / 2)]
        if light:
            edges.append((n, u, float(np.dot(c - centre, n))))  # to the half's end
        if min(_edge_range(view.grey, c, (a, b), reach, w) for a, b, reach in edges) < need:
            return False
    return True


def _open_ended(read: Read, view: _View) -> bool:
    """Whether ``read`` is a double blank one of whose ends does not show (the grey range
    across it under :func:`_face_step`): where one back lies over another's end, its edge
    reads as a bar and one "half" runs on past the "tile's" end. Such a tile is unsure."""
    if any(h.pips for h in read.halves):
        return False
    centre, u, n, w = read.proposal.frame()
    for half in read.halves:
        c = np.array(half.center)
        out = float(np.dot(c - centre, n))  # from the half's centre to its end
        if _edge_range(view.grey, c, (n, u), out, w) < _face_step(half, view):
            return True
    return False


def _face_step(half: Half, view: _View) -> float:
    """``blank_side_share`` of how far the face image at ``half`` is from the table's level."""
    face = float(sample(view.seen.face, np.array(half.center)))
    return view.p.blank_side_share * abs(face - view.seen.table)


def _edge_range(grey: U8, c: F64, axes: tuple[F64, F64], reach: float, w: float) -> float:
    """The median grey range across an edge ``reach`` from ``c`` along ``axes[0]``, at four
    places along ``axes[1]``, over 0.4 widths ``w``."""
    normal, tangent = axes
    along = np.array([-0.3, -0.1, 0.1, 0.3]) * w
    across = np.linspace(-0.2, 0.2, 9) * w
    pts = c + (reach + across)[None, :, None] * normal + along[:, None, None] * tangent
    values = sample(grey, pts).astype(np.float64)
    return float(np.median(values.max(axis=1) - values.min(axis=1)))


def settle(
    pair: Pair, probs: F32, p: StagedParams, max_pips: int
) -> tuple[Pair, float, bool] | None:
    """``pair``'s counts kept where ``probs`` ``(2, N_CLASSES)`` give them ``refute_p``, else the
    learned reader's at ``adopt_p``, else None; with their least probability and if learned.
    A half the grid could not read (None) takes only a blank: on a small tile the outline's
    edges reach the grid's outer positions, and a blank half has no pips to outweigh them."""
    out: list[Half] = []
    learned = False
    for half, prob in zip(pair, probs, strict=True):
        if _probability(prob, half.pips) >= p.refute_p:
            out.append(half)
            continue
        best = int(np.argmax(prob[: halfnet.NOT_A_HALF]))
        if prob[best] < p.adopt_p or best > max_pips or (half.pips is None and best != 0):
            return None
        out.append(replace(half, pips=best, confidence=float(prob[best])))
        learned = True
    agree = min(_probability(prob, h.pips) for prob, h in zip(probs, out, strict=True))
    return (out[0], out[1]), agree, learned


def _half_probabilities(reads: list[Read], grey: U8) -> list[F32]:
    """Each read's halves' learned probabilities ``(2, N_CLASSES)``, first along ``+axis``."""
    if not reads:
        return []
    quads = []
    for r in reads:
        c, u, n, w = r.proposal.frame()
        for sign in (1.0, -1.0):
            side = [c - u * w / 2, c + u * w / 2]
            far = [q + sign * n * w for q in side]
            quads.append([*side, far[1], far[0]])
    probs = halfnet.classify(halfnet.half_patches(grey, quads))
    return [probs[2 * k : 2 * k + 2] for k in range(len(reads))]


def _probability(probs: F32, pips: int | None) -> float:
    """The learned reader's probability for ``pips`` (for 7-9: that the patch is a half)."""
    if pips is None or pips < 0:
        return 0.0
    if pips >= halfnet.NOT_A_HALF:
        return 1.0 - float(probs[halfnet.NOT_A_HALF])
    return float(probs[pips])


def _doubted(read: Read, loose: list[Point], p: StagedParams) -> bool:
    """Whether a kept tile is unsure: contested, learned, not agreed, a double blank read so
    under ``blank_sure_p`` (no pip vouches for it), inline, by ``loose`` pips."""
    return (
        read.contested
        or (not any(h.pips for h in read.halves) and read.agree < p.blank_sure_p)
        or read.learned
        or not _agrees(read, p)
        or arbitrate.doubted(read, loose)
        or (p.doubt_inline_doubles and read.inline)
    )


def _agrees(read: Read, p: StagedParams) -> bool:
    """Whether the learned half reader gives both counts ``agree_p`` (never for 7-9)."""
    in_range = all(h.pips is not None and h.pips < halfnet.NOT_A_HALF for h in read.halves)
    return read.agree >= p.agree_p and in_range


def _plausible(prop: Proposal, d: float, p: StagedParams) -> bool:
    lo, hi = p.half_length
    return (
        p.width_d[0] * d <= prop.width <= p.width_d[1] * d
        and min(prop.ends) >= lo * prop.width
        and max(prop.ends) <= hi * prop.width
    )


def _tile(read: Read, f: float, *, doubted: bool) -> TileReading:
    corners = tuple((float(x), float(y)) for x, y in read.proposal.corners() / f)
    a, b = (
        HalfReading((h.center[0] / f, h.center[1] / f), h.pips or 0, h.confidence)
        for h in read.halves
    )
    confidence = min(read.confidence, _UNSURE) if doubted else read.confidence
    return TileReading(corners, (a, b), confidence)  # type: ignore[arg-type]
