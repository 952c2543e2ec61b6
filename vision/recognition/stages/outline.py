"""Stage 4: a tile proposed round each bar.

A tile's axis is square to its bar. Its sides are the strongest steps of the face image (or a
seam of thin ink) on lines from the bar's centre along the bar, looked for between
``side_search`` shares of the width the pip size suggests; its ends the strongest steps along
the axis (median of three lines), between ``end_search`` shares of the width just measured.
Steps, not levels: a face is told from the table by its edge whether the table is darker or
lighter than the tile. Where the edges do not show at all (a white tile on white paper),
:func:`from_bars` guesses the outline from the bar's length alone; where a bar does not show
(two halves full of pips, blurred), :func:`beyond` guesses it where a line of tiles goes on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.stages.bars import Bar
from vision.recognition.stages.ink import Ink
from vision.recognition.stages.params import StagedParams

F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Proposal:
    """An oriented tile: ``center`` on its bar, unit ``across`` (along the bar) and ``axis``
    (along the tile), ``width``, ``ends`` (distance from the centre to each end, the first
    along ``+axis``) and the ``bar`` it was proposed round (None: a bar guessed where none was
    seen, the centre then halfway between the ends). ``measured``: False where the outline is
    guessed from the bar alone (see :func:`from_bars`). Working pixels."""

    center: tuple[float, float]
    across: tuple[float, float]
    axis: tuple[float, float]
    width: float
    ends: tuple[float, float]
    bar: Bar | None = None
    measured: bool = True

    def corners(self) -> F64:
        """``(4, 2)``: the outline, going round."""
        c, u, n = np.array(self.center), np.array(self.across), np.array(self.axis)
        w2, la, lb = self.width / 2, self.ends[0], self.ends[1]
        return np.array(
            [c - u * w2 - n * lb, c + u * w2 - n * lb, c + u * w2 + n * la, c - u * w2 + n * la]
        )


#: Rows of steps measured at once (the memory their samples take).
_ROWS = 256


class _Profiles:
    def __init__(self, ink: Ink, share: float) -> None:
        self.share = share
        self.offset = 0.5 * ink.pip_px
        self.ink = ink

    def _images(
        self, xs: npt.NDArray[np.float32], ys: npt.NDArray[np.float32]
    ) -> tuple[F32, F32, int, int]:
        """The face image and the seams (thin ink's contrast), as float32, over the part of
        the frame that samples at ``xs, ys`` read (with the pixels bilinear sampling takes
        beside them, or the frame's edge they are replicated from); and its corner."""
        h, w = self.ink.face.shape
        x0 = int(np.clip(np.floor(xs.min()) - 1, 0, w - 1))
        y0 = int(np.clip(np.floor(ys.min()) - 1, 0, h - 1))
        x1 = int(np.clip(np.ceil(xs.max()) + 2, x0 + 1, w))
        y1 = int(np.clip(np.ceil(ys.max()) + 2, y0 + 1, h))
        face = self.ink.face[y0:y1, x0:x1].astype(np.float32)
        part = np.s_[y0:y1, x0:x1]
        seams = self.ink.contrast[part].astype(np.float32) * (self.ink.thin[part] > 0)
        return face, seams, x0, y0

    def strongest_steps(self, starts: F64, vs: F64, t0: F64, t1: F64) -> F64:
        """:meth:`_steps` of the rows, ``_ROWS`` at a time (a row's step is its own)."""
        parts = [
            self._steps(starts[c], vs[c], t0[c], t1[c])
            for c in (slice(at, at + _ROWS) for at in range(0, len(starts), _ROWS))
        ]
        return np.concatenate(parts) if parts else np.zeros(0)

    def _steps(self, starts: F64, vs: F64, t0: F64, t1: F64) -> F64:
        """For each row of ``starts`` and ``vs`` (``(K, 2)``), the distance from the start
        along ``v`` (between the row's ``t0`` and ``t1``, ``(K,)``) of the nearest step of
        the face image or thin-ink line that is at least ``share`` of the row's strongest: a
        tile's top face ends before the side a tilted view also shows. A seam counts where
        thin ink crosses the line (it is there half a pip to either side), not where it runs
        along it (the bar a line across a tile starts on). Each row is sampled every half
        pixel from ``t0 - 2`` to ``t1 + 2`` and smoothed, reflected at its ends; one
        resampling serves every row."""
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
        side = np.stack([-vs[:, 1], vs[:, 0]], axis=1) * self.offset
        rows = len(starts)
        dx = np.concatenate([-side[:, :1], side[:, :1]]).astype(np.float32)
        dy = np.concatenate([-side[:, 1:], side[:, 1:]]).astype(np.float32)
        sx, sy = np.concatenate([xs, xs]) + dx, np.concatenate([ys, ys]) + dy
        face, seams, x0, y0 = self._images(np.concatenate([xs, sx]), np.concatenate([ys, sy]))
        rep = cv2.BORDER_REPLICATE
        f = cv2.remap(face, xs - x0, ys - y0, cv2.INTER_LINEAR, borderMode=rep)
        both = cv2.remap(seams, sx - x0, sy - y0, cv2.INTER_LINEAR, borderMode=rep)
        seam = np.minimum(both[:rows], both[rows:])
        smooth = cv2.GaussianBlur(f, (9, 1), 1.0, sigmaY=0.0)
        grad = np.empty_like(smooth)
        grad[:, 1:-1] = (smooth[:, 2:] - smooth[:, :-2]) / 2.0
        grad[:, 0] = smooth[:, 1] - smooth[:, 0]
        grad[:, -1] = smooth[:, -1] - smooth[:, -2]
        score = 2 * np.abs(grad) + seam
        lo, hi = t0.astype(np.float32)[:, None], t1.astype(np.float32)[:, None]
        within = (k < lengths[:, None]) & (ts >= lo) & (ts <= hi)
        inside = np.where(within, score, -1.0)
        strong = inside >= self.share * inside.max(axis=1, keepdims=True)
        prev = np.concatenate([inside[:, -1:], inside[:, :-1]], axis=1)
        after = np.concatenate([inside[:, 1:], inside[:, :1]], axis=1)
        peaks = strong & (inside >= prev) & (inside >= after)
        at = ts[np.arange(rows), np.argmax(peaks, axis=1)].astype(np.float64)
        found = peaks.any(axis=1) & (lengths >= 3)
        return np.where(found, at, t1)


def propose(
    bars: list[Bar],
    ink: Ink,
    p: StagedParams,
    width: float | None = None,
    *,
    guessed: bool = False,
) -> list[Proposal]:
    """Proposals round each bar: one per share of ``step_shares`` (the nearest step at least
    that share of the strongest is the edge), the same outline given once. ``width``: the
    scene's tile width where tiles were read already (all tiles of a set are alike); each
    side is then looked for within ``side_search_known`` of it, else within ``side_search``
    of the width the pip size suggests. ``guessed``: the bars are guesses (see
    :func:`~.bars.lone_faces`); each tile is centred between its ends."""
    d = ink.pip_px
    if width is None:
        expected, sides = d / p.pip_width_ratio, p.side_search
    else:
        expected, sides = width, p.side_search_known
    out = _Distinct(0.5 * d)
    for share in p.step_shares:
        for prop in _around(bars, _Profiles(ink, share), expected, sides, p):
            out.add(_centred(prop) if guessed else prop)
    return out.proposals


def from_bars(bars: list[Bar], known: list[Proposal], d: float, p: StagedParams) -> list[Proposal]:
    """Each bar's tile guessed from the bar alone, where ``known`` (measured outlines) holds
    none like it: as wide as the bar is long over ``bar_width_share``, each half square. A
    white tile on white paper shows its bar and pips; its edges may not show at all."""
    out = _Distinct(0.5 * d, known)
    for bar in bars:
        u = bar.direction
        w = bar.length / p.bar_width_share
        out.add(Proposal(bar.center, u, (-u[1], u[0]), w, (w, w), bar, measured=False))
    return out.proposals[len(known) :]


def beyond(tiles: list[tuple[Proposal, bool]], width: float, p: StagedParams) -> list[Bar]:
    """Bars guessed where a line goes on from each tile read (``(proposal, is_double)``), for
    tiles ``width`` wide: beyond each end, a tile laid end to end (its bar a width past the
    end, across the line) and a double laid crosswise (its bar half a width past, along the
    line); beyond a double's sides too (the line goes on from a double laid crosswise). Each
    is also shifted along the line by each of ``line_shifts``. The bars are as long as a bar
    of that width (see :func:`from_bars`)."""
    at: list[F64] = []
    along: list[F64] = []
    for prop, double in tiles:
        c, u, n = np.array(prop.center), np.array(prop.across), np.array(prop.axis)
        ways = [(n, prop.ends[0], u), (-n, prop.ends[1], u)]
        if double:
            ways += [(u, prop.width / 2, n), (-u, prop.width / 2, n)]
        for v, reach, across in ways:
            end = c + v * reach
            for centre, bar in ((end + v * width, across), (end + v * width / 2, v)):
                for shift in p.line_shifts:
                    at.append(centre + v * shift * width)
                    along.append(bar)
    if not at:
        return []
    # the tiles of a scene are read many times over: each place and direction once
    xy, uv = np.array(at), np.array(along)
    uv *= np.where(uv[:, :1] < 0, -1.0, 1.0)
    key = np.hstack([np.rint(xy / (0.1 * width)), np.rint(uv * 20)])
    _, first = np.unique(key, axis=0, return_index=True)
    length = width * p.bar_width_share
    return [
        Bar((float(xy[i, 0]), float(xy[i, 1])), (float(uv[i, 0]), float(uv[i, 1])), length)
        for i in sorted(first.tolist())
    ]


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
    return replace(prop, center=(float(c[0]), float(c[1])), ends=(half, half), bar=None)


class _Distinct:
    """Proposals, each outline given once: one whose centre, width and ends all lie within
    ``tol`` of one already held is left out."""

    def __init__(self, tol: float, held: list[Proposal] | None = None) -> None:
        self.tol = tol
        self.proposals: list[Proposal] = []
        self._keys = np.zeros((0, 5))
        for prop in held or []:
            self.add(prop, check=False)

    def add(self, prop: Proposal, *, check: bool = True) -> None:
        key = np.array([*prop.center, prop.width, *prop.ends])
        if check and bool((np.abs(self._keys - key) < self.tol).all(axis=1).any()):
            return
        self.proposals.append(prop)
        self._keys = np.vstack([self._keys, key])


def _around(
    bars: list[Bar],
    prof: _Profiles,
    expected: float,
    sides: tuple[float, float],
    p: StagedParams,
) -> list[Proposal]:
    """The outline round each bar, all measured at once."""
    if not bars:
        return []
    c = np.array([b.center for b in bars], dtype=np.float64)
    u = np.array([b.direction for b in bars], dtype=np.float64)
    n = np.stack([-u[:, 1], u[:, 0]], axis=1)
    length = np.array([b.length for b in bars], dtype=np.float64)
    lo = np.maximum(np.minimum(0.4 * length, sides[1] * expected), sides[0] * expected)
    hi = np.full(len(bars), sides[1] * expected)
    e = prof.strongest_steps(np.vstack([c, c]), np.vstack([u, -u]), np.tile(lo, 2), np.tile(hi, 2))
    e1, e2 = e[: len(bars)], e[len(bars) :]
    w = e1 + e2
    cc = c + u * ((e1 - e2) / 2)[:, None]
    # three lines along the axis each way, a quarter width apart: rows bar-major
    offsets = np.array([-0.25, 0.0, 0.25, -0.25, 0.0, 0.25])
    starts = (cc[:, None, :] + u[:, None, :] * (w[:, None] * offsets)[:, :, None]).reshape(-1, 2)
    signs = np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0])
    vs = (n[:, None, :] * signs[None, :, None]).reshape(-1, 2)
    a, b = np.repeat(p.end_search[0] * w, 6), np.repeat(p.end_search[1] * w, 6)
    ends = prof.strongest_steps(starts, vs, a, b).reshape(-1, 6)
    la, lb = np.median(ends[:, :3], axis=1), np.median(ends[:, 3:], axis=1)
    return [
        Proposal(
            (float(cc[i, 0]), float(cc[i, 1])),
            (float(u[i, 0]), float(u[i, 1])),
            (float(n[i, 0]), float(n[i, 1])),
            float(w[i]),
            (float(la[i]), float(lb[i])),
            bars[i],
        )
        for i in range(len(bars))
    ]
