"""Stage 4: a tile proposed round each bar.

A tile's axis is square to its bar. Its sides are the strongest steps of the face image (or a
seam of thin ink) on lines from the bar's centre along the bar, looked for between
``side_search`` shares of the width the pip size suggests; its ends the strongest steps along
the axis (median of three lines), between ``end_search`` shares of the width just measured.
Steps, not levels: a face is told from the table by its edge whether the table is darker or
lighter than the tile.
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


class _Profiles:
    def __init__(self, ink: Ink, share: float) -> None:
        self.share = share
        self.offset = 0.5 * ink.pip_px
        self.face = ink.face.astype(np.float32)
        self.seams = ink.contrast.astype(np.float32) * (ink.thin > 0)

    def strongest_steps(self, starts: F64, vs: F64, t0: float, t1: float) -> F64:
        """For each row of ``starts`` and ``vs`` (``(K, 2)``), the distance from the start
        along ``v`` (between ``t0`` and ``t1``) of the nearest step of the face image or
        thin-ink line that is at least ``share`` of the strongest: a tile's top face ends
        before the side a tilted view also shows. A seam counts where thin ink crosses the
        line (it is there half a pip to either side), not where it runs along it (the bar a
        line across a tile starts on). One resampling serves every row."""
        ts = np.arange(t0 - 2, t1 + 2, 0.5, dtype=np.float32)
        if len(ts) < 3:
            return np.full(len(starts), t1)
        xs = (starts[:, :1] + vs[:, :1] * ts).astype(np.float32)
        ys = (starts[:, 1:] + vs[:, 1:] * ts).astype(np.float32)
        f = cv2.remap(self.face, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        side = np.stack([-vs[:, 1], vs[:, 0]], axis=1) * self.offset
        k = len(starts)
        dx = np.concatenate([-side[:, :1], side[:, :1]]).astype(np.float32)
        dy = np.concatenate([-side[:, 1:], side[:, 1:]]).astype(np.float32)
        both = cv2.remap(
            self.seams,
            np.concatenate([xs, xs]) + dx,
            np.concatenate([ys, ys]) + dy,
            cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_REPLICATE,
        )
        seam = np.minimum(both[:k], both[k:])
        smooth = cv2.GaussianBlur(f, (9, 1), 1.0, sigmaY=0.0)
        grad = np.empty_like(smooth)
        grad[:, 1:-1] = (smooth[:, 2:] - smooth[:, :-2]) / 2.0
        grad[:, 0] = smooth[:, 1] - smooth[:, 0]
        grad[:, -1] = smooth[:, -1] - smooth[:, -2]
        score = 2 * np.abs(grad) + seam
        inside = np.where((ts >= t0) & (ts <= t1), score, -1.0)
        strong = inside >= self.share * inside.max(axis=1, keepdims=True)
        prev = np.concatenate([inside[:, -1:], inside[:, :-1]], axis=1)
        after = np.concatenate([inside[:, 1:], inside[:, :1]], axis=1)
        peaks = strong & (inside >= prev) & (inside >= after)
        at = ts[np.argmax(peaks, axis=1)].astype(np.float64)
        return np.where(peaks.any(axis=1), at, t1)


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
    out: list[Proposal] = []
    for share in p.step_shares:
        prof = _Profiles(ink, share)
        for bar in bars:
            prop = _around(bar, prof, expected, sides, p)
            if guessed:
                prop = _centred(prop)
            if not any(_same(prop, q, 0.5 * d) for q in out):
                out.append(prop)
    return out


def from_bars(bars: list[Bar], known: list[Proposal], d: float, p: StagedParams) -> list[Proposal]:
    """Each bar's tile guessed from the bar alone, where ``known`` (measured outlines) holds
    none like it: as wide as the bar is long over ``bar_width_share``, each half square. A
    white tile on white paper shows its bar and pips; its edges may not show at all."""
    out: list[Proposal] = []
    for bar in bars:
        u = bar.direction
        w = bar.length / p.bar_width_share
        prop = Proposal(bar.center, u, (-u[1], u[0]), w, (w, w), bar, measured=False)
        if not any(_same(prop, q, 0.5 * d) for q in known + out):
            out.append(prop)
    return out


def _centred(prop: Proposal) -> Proposal:
    """``prop`` with its centre halfway between its ends, round no bar."""
    la, lb = prop.ends
    c = np.array(prop.center) + np.array(prop.axis) * (la - lb) / 2
    half = (la + lb) / 2
    return replace(prop, center=(float(c[0]), float(c[1])), ends=(half, half), bar=None)


def _same(a: Proposal, b: Proposal, tol: float) -> bool:
    return (
        abs(a.center[0] - b.center[0]) < tol
        and abs(a.center[1] - b.center[1]) < tol
        and abs(a.width - b.width) < tol
        and abs(a.ends[0] - b.ends[0]) < tol
        and abs(a.ends[1] - b.ends[1]) < tol
    )


def _around(
    bar: Bar, prof: _Profiles, expected: float, sides: tuple[float, float], p: StagedParams
) -> Proposal:
    c, u = np.array(bar.center), np.array(bar.direction)
    n = np.array([-u[1], u[0]])
    lo = max(min(0.4 * bar.length, sides[1] * expected), sides[0] * expected)
    hi = sides[1] * expected
    e1, e2 = (float(e) for e in prof.strongest_steps(np.stack([c, c]), np.stack([u, -u]), lo, hi))
    w = e1 + e2
    cc = c + u * (e1 - e2) / 2
    a, b = p.end_search[0] * w, p.end_search[1] * w
    starts = np.stack([cc + u * o for o in (-0.25 * w, 0.0, 0.25 * w)] * 2)
    ends = prof.strongest_steps(starts, np.stack([n] * 3 + [-n] * 3), a, b)
    la, lb = float(np.median(ends[:3])), float(np.median(ends[3:]))
    return Proposal(
        (float(cc[0]), float(cc[1])),
        (float(u[0]), float(u[1])),
        (float(n[0]), float(n[1])),
        w,
        (la, lb),
        bar,
    )
