"""Stage 6: one arbitration over every tile read (:func:`keep`), and the pips it leaves
unexplained (:func:`unexplained_pips`), which make the tiles beside them unsure."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.polygons import overlap_area
from vision.recognition.stages.arrays import F64
from vision.recognition.stages.halves import Half
from vision.recognition.stages.ink import Ink
from vision.recognition.stages.outline import Proposal
from vision.recognition.stages.params import StagedParams
from vision.recognition.stages.scale import components

Spots = tuple[npt.NDArray[np.int32], F64]
Loose = list[tuple[float, float]]  # centres of pips no kept tile explains (working px)


@dataclass(frozen=True, slots=True)
class Read:
    """A proposal with both halves read. ``agree``: the lesser of the learned half reader's
    probabilities for the two counts; ``inline``: see :func:`inline_double`; ``contested``: see
    :func:`keep`; ``learned``: a half's count is the learned reader's, not the pip grid's."""

    proposal: Proposal
    halves: tuple[Half, Half]
    agree: float = 1.0
    inline: bool = False
    contested: bool = False
    learned: bool = False

    @property
    def pips(self) -> int:
        return sum(h.pips or 0 for h in self.halves)

    @property
    def confidence(self) -> float:
        return min(h.confidence for h in self.halves)


def keep(reads: list[Read], p: StagedParams, *, contest: bool = True) -> list[Read]:
    """The subset of ``reads`` without a clash (overlap over ``clash_share`` of a half) that
    explains the most tiles and pips, then the surest; where ``contest``, a tile is marked
    ``contested`` if its clash group without it explains nearly as much. Solved exactly per
    clash group (a line read across its seams is one), within ``arbitration_budget`` steps."""
    polys = [r.proposal.corners().astype(np.float32) for r in reads]
    x, y, w, h = np.array([cv2.boundingRect(q) for q in polys]).reshape(-1, 4).T
    # pairs whose bounding boxes meet, each once (i < j)
    meet = (x[None, :] <= x[:, None] + w[:, None]) & (x[:, None] <= x[None, :] + w[None, :])
    meet &= (y[None, :] <= y[:, None] + h[:, None]) & (y[:, None] <= y[None, :] + h[None, :])
    near: list[set[int]] = [set() for _ in reads]
    for i, j in zip(*np.nonzero(np.triu(meet, 1)), strict=True):
        if overlap_area(polys[i], polys[j]) > p.clash_share * reads[i].proposal.width ** 2:
            near[i].add(int(j))
            near[j].add(int(i))
    weight = [
        (1.0 + p.tile_conf_weight * r.confidence + p.tile_pip_weight * r.pips)
        * (p.doubt_weight + (1.0 - p.doubt_weight) * r.agree)
        * (p.inline_double_weight if r.inline else 1.0)
        * (p.learned_guess_weight if r.learned and not r.proposal.measured else 1.0)
        for r in reads
    ]
    out: list[Read] = []
    for group in _groups(near):
        chosen = _best_set(group, near, weight, p.arbitration_budget)
        if not contest:
            out += [reads[i] for i in chosen]
            continue
        total = sum(weight[i] for i in chosen)
        for i in chosen:
            # the best reading of the group without this tile (nor other outlines of it)
            rivals = group - {j for j in group if _same_tile(reads[i], reads[j])}
            other = _best_set(rivals, near, weight, p.contest_budget, total - p.contest_margin)
            contested = sum(weight[j] for j in other) >= total - p.contest_margin
            out.append(replace(reads[i], contested=contested) if contested else reads[i])
    return out


def clashing(reads: list[Read], others: list[Read], p: StagedParams) -> list[bool]:
    """For each of ``reads``, whether it clashes with one of ``others`` (see :func:`keep`)."""
    theirs = [r.proposal.corners().astype(np.float32) for r in others]
    out = []
    for r in reads:
        mine = r.proposal.corners().astype(np.float32)
        limit = p.clash_share * r.proposal.width**2
        out.append(any(overlap_area(mine, q) > limit for q in theirs))
    return out


def _same_tile(a: Read, b: Read) -> bool:
    """Whether ``a`` and ``b`` read the same pips within a quarter width of each other."""
    (ax, ay), (bx, by) = a.proposal.center, b.proposal.center
    same_pips = sorted(h.pips or 0 for h in a.halves) == sorted(h.pips or 0 for h in b.halves)
    return same_pips and np.hypot(ax - bx, ay - by) < 0.25 * a.proposal.width


def _groups(near: list[set[int]]) -> list[frozenset[int]]:
    """The connected groups of the clash graph."""
    seen: set[int] = set()
    out = []
    for start in range(len(near)):
        if start in seen:
            continue
        group, todo = {start}, [start]
        while todo:
            for j in near[todo.pop()] - group:
                group.add(j)
                todo.append(j)
        seen |= group
        out.append(frozenset(group))
    return out


def _best_set(
    group: frozenset[int],
    near: list[set[int]],
    weight: list[float],
    budget: int,
    enough: float | None = None,
) -> set[int]:
    """The heaviest pairwise non-clashing subset of ``group`` by branch and bound from the greedy
    set, or the best found in ``budget`` steps, or the first found weighing ``enough`` (a
    contest asks only whether one does). Members are ranked heaviest first (ties by index) and
    sets of them are bit masks of ranks: the lowest bit is the heaviest member."""
    order = sorted(group, key=lambda k: (-weight[k], k))
    rank = {i: r for r, i in enumerate(order)}
    w = [weight[i] for i in order]
    clash = [sum(1 << rank[j] for j in near[i] if j in rank) for i in order]
    best = 0
    for r in range(len(order)):
        if not clash[r] & best:
            best |= 1 << r
    best_total = sum(w[r] for r in _bits(best))
    steps = 0

    def search(left: int, chosen: int, total: float) -> None:
        nonlocal best, best_total, steps
        steps += 1
        while (found := _scan(left, clash, w))[0] >= 0:
            take = found[0]
            chosen |= 1 << take
            total += w[take]
            left &= ~(clash[take] | 1 << take)
        if total > best_total + 1e-9:
            best, best_total = chosen, total
        if not left or steps > budget or (enough is not None and best_total >= enough):
            return
        # what a set must outweigh to matter
        floor = best_total if enough is None else max(best_total, enough - 1e-9)
        if total + _clique_bound(left, clash, w) <= floor:
            return
        v = found[1]
        search(left & ~(clash[v] | 1 << v), chosen | 1 << v, total + w[v])
        search(left & ~(1 << v), chosen, total)

    search(_undominated(clash), 0, 0.0)
    return {order[r] for r in _bits(best)}


def _undominated(clash: list[int]) -> int:
    """All ranks but those a heavier rival dominates: a member whose clashes (and itself) take in
    all of a heavier rival's clashes (and that rival) can be replaced by it in any set, as one
    outline of a tile by another."""
    left = (1 << len(clash)) - 1
    for r, mine in enumerate(clash):
        own = mine | 1 << r
        if any((clash[a] | 1 << a) & ~own == 0 for a in _bits(mine & left & ((1 << r) - 1))):
            left &= ~(1 << r)
    return left


def _bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _clique_bound(left: int, clash: list[int], w: list[float]) -> float:
    """An upper bound on the weight of a clash-free subset of ``left``: it is split into groups
    that all clash with one another (a set holds one of each at most), each counted at its
    heaviest, its lowest bit."""
    bound = 0.0
    while left:
        first = left & -left
        bound += w[first.bit_length() - 1]
        clique, joinable = first, clash[first.bit_length() - 1] & left
        while joinable:
            low = joinable & -joinable
            clique |= low
            joinable &= clash[low.bit_length() - 1]
        left &= ~clique
    return bound


def _scan(left: int, clash: list[int], w: list[float]) -> tuple[int, int]:
    """A member of ``left`` in some heaviest set (unclashed or outweighing its one rival), or -1;
    and the member to branch on: the most clashed within ``left``, then the heaviest."""
    branch, most = -1, -1
    rest = left
    while rest:
        low = rest & -rest
        rest ^= low
        r = low.bit_length() - 1
        rivals = clash[r] & left
        if not rivals or (rivals & (rivals - 1) == 0 and w[r] >= w[rivals.bit_length() - 1]):
            return r, branch
        if (degree := rivals.bit_count()) > most:
            branch, most = r, degree
    return -1, branch


def spots(ink: Ink) -> Spots:
    """:func:`~.scale.components` stats and centres (working px) of the ink that is not thin."""
    _, _, stats, centres = components(((ink.mask > 0) & (ink.thin == 0)).astype(np.uint8))
    return stats[1:], centres[1:]


def pip_spots(found: Spots, pip_px: float) -> F64:
    """``(M, 2)`` centres of the :func:`spots` about the size and shape of a pip ``pip_px`` wide."""
    stats, centres = found
    area = np.pi * pip_px * pip_px / 4
    w, h, a = stats[:, 2], stats[:, 3], stats[:, 4]
    ok = (a >= 0.3 * area) & (a <= 2.5 * area) & (np.maximum(w, h) <= 2 * np.minimum(w, h) + 2)
    return np.asarray(centres[ok], dtype=np.float64).reshape(-1, 2)


def unexplained_pips(kept: list[Read], pips: F64, ink: Ink, p: StagedParams) -> tuple[Loose, Loose]:
    """Those of ``pips`` beyond ``loose_margin`` of every kept tile with at most ``loose_ring_ink``
    of eight points a pip's diameter round them on ink or off the faces; and, a superset, those
    where only ink counts (the face image's closing fills the table between tiles)."""
    outlines = [
        (r.proposal.corners().astype(np.float32), p.loose_margin * r.proposal.width) for r in kept
    ]
    h, w = ink.contrast.shape
    t = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    ring = np.stack([np.cos(t), np.sin(t)], axis=1) * ink.pip_px
    # a pip outside a tile's bounding box grown by its margin is beyond that margin of it
    corners = np.array([q for q, _ in outlines], dtype=np.float64).reshape(-1, 4, 2)
    margin = np.array([m for _, m in outlines])[:, None]
    lo, hi = corners.min(axis=1) - margin, corners.max(axis=1) + margin
    boxed = ((pips[:, None] >= lo) & (pips[:, None] <= hi)).all(axis=2)  # (pips, tiles)
    on_faces: Loose = []
    by_ink: Loose = []
    for (x, y), near in zip(pips.tolist(), boxed, strict=True):
        tested = (outlines[k] for k in np.flatnonzero(near).tolist())
        if not all(cv2.pointPolygonTest(q, (x, y), True) < -m for q, m in tested):
            continue
        at = np.rint(np.array([x, y]) + ring).astype(np.intp)
        xs, ys = np.clip(at[:, 0], 0, w - 1), np.clip(at[:, 1], 0, h - 1)
        inked = ink.contrast[ys, xs] > ink.threshold
        if int(inked.sum()) <= p.loose_ring_ink:
            by_ink.append((x, y))
            if int((inked | (ink.face[ys, xs] < ink.lit)).sum()) <= p.loose_ring_ink:
                on_faces.append((x, y))
    return on_faces, by_ink


def doubted(read: Read, loose: Loose) -> bool:
    """Whether a loose pip lies within half a tile width of ``read``'s outline."""
    poly = read.proposal.corners().astype(np.float32)
    return any(cv2.pointPolygonTest(poly, c, True) > -0.5 * read.proposal.width for c in loose)


def inline_double(
    read: Read, ink: Ink, p: StagedParams, outlines: Sequence[npt.NDArray[np.float32]] = ()
) -> bool:
    """Whether ``read`` is a double with a face beyond both ends: lit on a table darker than the
    faces, or inside one of ``outlines`` (float32 corners). A seam taken for a bar reads as such
    a double; real doubles mostly lie across the line."""
    if read.halves[0].pips != read.halves[1].pips:
        return False
    dark_table = ink.table < ink.lit  # else faces cannot be told from the table by level
    prop = read.proposal
    c, u, n, _ = prop.frame()
    h, w = ink.face.shape
    for sign, end in ((1.0, prop.ends[0]), (-1.0, prop.ends[1])):
        beyond = c + sign * n * (end + 0.5 * prop.width)
        pts = [beyond + u * k * prop.width for k in (-0.25, 0, 0.25)]
        levels = [
            float(ink.face[int(np.clip(y, 0, h - 1)), int(np.clip(x, 0, w - 1))]) for x, y in pts
        ]
        lit = dark_table and float(np.median(levels)) >= ink.lit
        mid = (float(pts[1][0]), float(pts[1][1]))
        if not lit and not any(cv2.pointPolygonTest(q, mid, False) > 0 for q in outlines):
            return False
    return True
