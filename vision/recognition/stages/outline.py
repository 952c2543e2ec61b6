"""Stage 4: a tile proposed round each bar (working pixels throughout).

A tile's axis is square to its bar; its sides and ends are the strongest steps of the face image
(or of a thin-ink seam) along the bar and along the axis. Steps, not levels: a table may be
darker or lighter than the tiles. :func:`from_bars` and :func:`beyond` guess what does not show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.stages.arrays import F32, F64, pair, unique_rows
from vision.recognition.stages.bars import Bar
from vision.recognition.stages.ink import Ink
from vision.recognition.stages.params import StagedParams


@dataclass(frozen=True, slots=True)
class Proposal:
    """An oriented tile: ``center`` on its ``bar`` (None: guessed, the centre then halfway
    between the ends), unit ``across`` (along the bar) and ``axis``, ``width``, ``ends`` (from
    the centre, the first along ``+axis``); ``measured`` False: see :func:`from_bars`."""

    center: tuple[float, float]
    across: tuple[float, float]
    axis: tuple[float, float]
    width: float
    ends: tuple[float, float]
    bar: Bar | None = None
    measured: bool = True

    def frame(self) -> tuple[F64, F64, F64, float]:
        """``center``, ``across`` and ``axis`` as arrays, and ``width``."""
        return np.array(self.center), np.array(self.across), np.array(self.axis), self.width

    def corners(self) -> F64:
        """``(4, 2)``: the outline, going round."""
        c, u, n, _ = self.frame()
        side, (la, lb) = u * (self.width / 2), self.ends
        return np.array(
            [c - side - n * lb, c + side - n * lb, c + side + n * la, c - side + n * la]
        )


#: Rows of steps measured at once (the memory their samples take).
_ROWS = 256


@dataclass(frozen=True, slots=True)
class _Profiles:
    """Steps along lines across ``ink``: the nearest at least each of ``shares`` of a line's
    strongest (the lines are resampled once for all shares)."""

    ink: Ink
    shares: tuple[float, ...]

    def strongest_steps(self, starts: F64, vs: F64, t0: F64, t1: F64) -> F64:
        """:meth:`_steps` of the rows, ``_ROWS`` at a time (a row's step is its own):
        ``(len(shares), K)``."""
        cuts = [slice(at, at + _ROWS) for at in range(0, len(starts), _ROWS)]
        parts = [self._steps(starts[c], vs[c], t0[c], t1[c]) for c in cuts]
        return np.concatenate(parts, axis=1) if parts else np.zeros((len(self.shares), 0))

    def _steps(self, starts: F64, vs: F64, t0: F64, t1: F64) -> F64:
        """For each share and row (``starts``, ``vs``: ``(K, 2)``), the distance along ``v``
        between ``t0`` and ``t1`` (``(K,)``) of the nearest step of the face or of a seam at
        least that share of the row's strongest (a tilted tile's top face ends before its side),
        else ``t1``. A seam counts where thin ink crosses the line, not where it runs along it
        (a bar)."""
        first = t0 - 2
        lengths = np.ceil(((t1 + 2) - first) / 0.5).astype(np.int64)
        k = np.arange(max(3, int(lengths.max(initial=0))))
        # past its own length a row is its own mirror image, as the smoothing's border
        idx = np.where(k < lengths[:, None], k, np.maximum(2 * (lengths[:, None] - 1) - k, 0))
        # as numpy's float32 arange samples: from the first two values, in float32
        v0 = first.astype(np.float32)
        step = (first + 0.5).astype(np.float32) - v0
        ts = v0[:, None] + idx.astype(np.float32) * step[:, None]
        xs = (starts[:, :1] + vs[:, :1] * ts).astype(np.float32)
        ys = (starts[:, 1:] + vs[:, 1:] * ts).astype(np.float32)
        # seams are read half a pip to either side of the line
        normal = np.stack([-vs[:, 1], vs[:, 0]], axis=1)
        side = (normal * (0.5 * self.ink.pip_px)).astype(np.float32)
        sx = np.concatenate([xs - side[:, :1], xs + side[:, :1]])
        sy = np.concatenate([ys - side[:, 1:], ys + side[:, 1:]])
        (face, seams), rep, rows = self.ink.lines, cv2.BORDER_REPLICATE, len(starts)
        f = cv2.remap(face, xs, ys, cv2.INTER_LINEAR, borderMode=rep)
        both = cv2.remap(seams, sx, sy, cv2.INTER_LINEAR, borderMode=rep)
        grad = _gradient(np.asarray(cv2.GaussianBlur(f, (9, 1), 1.0, sigmaY=0.0), np.float32))
        lo, hi = t0.astype(np.float32)[:, None], t1.astype(np.float32)[:, None]
        within = (k < lengths[:, None]) & (ts >= lo) & (ts <= hi)
        score = np.where(within, 2 * np.abs(grad) + np.minimum(both[:rows], both[rows:]), -1.0)
        local = _local_peaks(score)
        strongest = score.max(axis=1, keepdims=True)
        out = np.empty((len(self.shares), rows))
        for i, share in enumerate(self.shares):
            peaks = local & (score >= share * strongest)
            at = ts[np.arange(rows), np.argmax(peaks, axis=1)].astype(np.float64)
            out[i] = np.where(peaks.any(axis=1) & (lengths >= 3), at, t1)
        return out


def _gradient(rows: F32) -> F32:
    """``np.gradient(rows, axis=1)`` (rows 3 or more long), without its generality's cost."""
    out = np.empty_like(rows)
    out[:, 1:-1] = (rows[:, 2:] - rows[:, :-2]) / 2.0
    out[:, 0], out[:, -1] = rows[:, 1] - rows[:, 0], rows[:, -1] - rows[:, -2]
    return out


def _local_peaks(score: F64) -> npt.NDArray[np.bool_]:
    """Where ``score`` is at least both its neighbours along each row (which wraps round)."""
    out = np.empty(score.shape, dtype=bool)
    mid = score[:, 1:-1]
    out[:, 1:-1] = (mid >= score[:, :-2]) & (mid >= score[:, 2:])
    out[:, 0] = (score[:, 0] >= score[:, -1]) & (score[:, 0] >= score[:, 1])
    out[:, -1] = (score[:, -1] >= score[:, -2]) & (score[:, -1] >= score[:, 0])
    return out


def propose(
    bars: list[Bar], ink: Ink, p: StagedParams, width: float | None = None, *, guessed: bool = False
) -> list[Proposal]:
    """Proposals round each bar, one per share of ``step_shares``, each outline once; sides within
    ``side_search_known`` of the scene's tile ``width`` if known, else ``side_search`` of the
    width the pip size suggests. ``guessed`` bars (:func:`~.bars.lone_faces`): centred tiles."""
    expected = ink.pip_px / p.pip_width_ratio if width is None else width
    sides = p.side_search if width is None else p.side_search_known
    props = _around(bars, _Profiles(ink, p.step_shares), expected, sides, p)
    return _distinct([_centred(q) for q in props] if guessed else props, 0.5 * ink.pip_px)


def from_bars(bars: list[Bar], known: list[Proposal], d: float, p: StagedParams) -> list[Proposal]:
    """Each bar's tile guessed from the bar alone, where ``known`` holds none like it: as wide
    as the bar is long over ``bar_width_share``, each half square."""
    guesses: list[Proposal] = []
    for bar in bars:
        u = bar.direction
        w = bar.length / p.bar_width_share
        guesses.append(Proposal(bar.center, u, (-u[1], u[0]), w, (w, w), bar, measured=False))
    return _distinct(guesses, 0.5 * d, known)


def beyond(tiles: list[tuple[Proposal, bool]], width: float, p: StagedParams) -> list[Bar]:
    """Bars guessed where a line of tiles ``width`` wide goes on from each of ``tiles``
    (``(proposal, is_double)``): beyond each end (and a double's sides), a tile end to end (its
    bar a width on, across the line) or a double crosswise (half a width on, along the line),
    each shifted along the line by each of ``line_shifts``; as long as a bar of that width."""
    at: list[F64] = []
    along: list[F64] = []
    for prop, double in tiles:
        c, u, n, _ = prop.frame()
        ways = [(n, prop.ends[0], u), (-n, prop.ends[1], u)]
        if double:
            ways += [(u, prop.width / 2, n), (-u, prop.width / 2, n)]
        for v, reach, across in ways:
            end = c + v * reach
            for centre, bar in ((end + v * width, across), (end + v * width / 2, v)):
                at += [centre + v * shift * width for shift in p.line_shifts]
                along += [bar] * len(p.line_shifts)
    if not at:
        return []
    # the tiles of a scene are read many times over: each place and direction once
    xy, uv = np.array(at), np.array(along)
    uv *= np.where(uv[:, :1] < 0, -1.0, 1.0)
    key = np.hstack([np.rint(xy / (0.1 * width)), np.rint(uv * 20)])
    first, _ = unique_rows(key)
    length = width * p.bar_width_share
    return [Bar(pair(xy[i]), pair(uv[i]), length) for i in sorted(first.tolist())]


def inside(points: F64, outlines: list[F64]) -> npt.NDArray[np.bool_]:
    """For each of ``points`` ``(N, 2)``, whether it lies inside or on one of ``outlines``
    (convex, ``(4, 2)`` corners going round either way)."""
    if not outlines or len(points) == 0:
        return np.zeros(len(points), dtype=bool)
    q = np.array(outlines, dtype=np.float64)  # (M, 4, 2)
    edge = np.roll(q, -1, axis=1) - q  # (M, 4, 2)
    rel = points[:, None, None, :] - q[None]  # (N, M, 4, 2)
    cross = edge[None, ..., 0] * rel[..., 1] - edge[None, ..., 1] * rel[..., 0]  # (N, M, 4)
    within = (cross >= 0).all(axis=2) | (cross <= 0).all(axis=2)
    return np.asarray(np.any(within, axis=1), dtype=bool)


def _centred(prop: Proposal) -> Proposal:
    """``prop`` with its centre halfway between its ends, round no bar."""
    la, lb = prop.ends
    c = np.array(prop.center) + np.array(prop.axis) * (la - lb) / 2
    half = (la + lb) / 2
    return replace(prop, center=pair(c), ends=(half, half), bar=None)


def _distinct(props: list[Proposal], tol: float, held: Sequence[Proposal] = ()) -> list[Proposal]:
    """``props`` less each whose centre, width and ends all lie within ``tol`` of one of
    ``held`` or of one kept before it."""
    keys = np.array([[*q.center, q.width, *q.ends] for q in [*held, *props]]).reshape(-1, 5)
    kept = np.arange(len(keys)) < len(held)
    # only keys whose x lies within tol (and a hair) can be that near: found by sorting on x
    order = np.argsort(keys[:, 0], kind="stable")
    xs = keys[order, 0]
    reach = tol * (1 + 1e-9) + 1e-9
    lo = np.searchsorted(xs, keys[:, 0] - reach, side="left")
    hi = np.searchsorted(xs, keys[:, 0] + reach, side="right")
    # every pair (i, j), j before i, that near: few, so only their i are settled in turn
    count = hi - lo
    i = np.repeat(np.arange(len(keys)), count)
    j = order[np.arange(count.sum()) - np.repeat(np.cumsum(count) - count - lo, count)]
    alike = (j < i) & (i >= len(held)) & (np.abs(keys[j] - keys[i]) < tol).all(axis=1)
    kept[len(held) :] = True
    i, j = i[alike], j[alike]
    ks, first = np.unique(i, return_index=True)  # i is sorted
    for k, js in zip(ks.tolist(), np.split(j, first)[1:], strict=True):
        kept[k] = not kept[js].any()
    return [q for q, k in zip(props, kept[len(held) :].tolist(), strict=True) if k]


def _around(
    bars: list[Bar], prof: _Profiles, expected: float, sides: tuple[float, float], p: StagedParams
) -> list[Proposal]:
    """The outlines round each bar, one per share of ``prof``, all measured at once: each side
    between ``sides`` shares of ``expected`` (and at least 0.4 of the bar's length out, within
    them), each end (the median of three lines a quarter width apart) between ``end_search``
    shares of the width found. Share-major, each share's in the order of ``bars``."""
    if not bars:
        return []
    c = np.array([b.center for b in bars], dtype=np.float64)
    u = np.array([b.direction for b in bars], dtype=np.float64)
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    length = np.array([b.length for b in bars], dtype=np.float64)
    lo = np.maximum(np.minimum(0.4 * length, sides[1] * expected), sides[0] * expected)
    hi = np.full(len(bars), sides[1] * expected)
    e = prof.strongest_steps(np.vstack([c, c]), np.vstack([u, -u]), np.tile(lo, 2), np.tile(hi, 2))
    k = len(prof.shares)
    e1, e2 = e.reshape(k, 2, -1).transpose(1, 0, 2)  # (shares, bars) each
    w = (e1 + e2).reshape(-1)  # share-major
    uu, nn = np.tile(u, (k, 1)), np.tile(n, (k, 1))
    cc = np.tile(c, (k, 1)) + uu * ((e1 - e2) / 2).reshape(-1, 1)
    # rows outline-major: three lines along +axis, then three along -axis
    offsets, signs = np.tile([-0.25, 0.0, 0.25], 2), np.repeat([1.0, -1.0], 3)
    starts = (cc[:, None, :] + uu[:, None, :] * (w[:, None] * offsets)[:, :, None]).reshape(-1, 2)
    vs = (nn[:, None, :] * signs[None, :, None]).reshape(-1, 2)
    a, b = np.repeat(p.end_search[0] * w, 6), np.repeat(p.end_search[1] * w, 6)
    # where shares found the same sides their rows are the same: each measured once
    first, again = unique_rows(np.column_stack([starts, vs, a, b]))
    steps = prof.strongest_steps(starts[first], vs[first], a[first], b[first])[:, again]
    share_of_row = np.repeat(np.arange(k), 6 * len(bars))
    lines = steps[share_of_row, np.arange(len(share_of_row))].reshape(-1, 2, 3)
    ends = np.sort(lines, axis=2)[..., 1]  # the median of three
    return [
        Proposal(
            pair(cc[i]), pair(uu[i]), pair(nn[i]), float(w[i]), pair(ends[i]), bars[i % len(bars)]
        )
        for i in range(len(w))
    ]
