"""Stage 4: a tile proposed round each bar.

A tile's axis is square to its bar. Its sides are the strongest steps of the face image (or a
seam of thin ink) on lines from the bar's centre along the bar, looked for between
``side_search`` shares of the width the pip size suggests; its ends the strongest steps along
the axis (median of three lines), between ``end_search`` shares of the width just measured.
Steps, not levels: a face is told from the table by its edge whether the table is darker or
lighter than the tile.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    along ``+axis``) and the ``bar`` it was proposed round. Working pixels."""

    center: tuple[float, float]
    across: tuple[float, float]
    axis: tuple[float, float]
    width: float
    ends: tuple[float, float]
    bar: Bar | None = None

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

    def strongest_step(self, start: F64, v: F64, t0: float, t1: float) -> float:
        """Distance from ``start`` along ``v`` (between ``t0`` and ``t1``) of the nearest
        step of the face image or thin-ink line that is at least half as strong as the
        strongest: a tile's top face ends before the side a tilted view also shows. A seam
        counts where thin ink crosses the line (it is there half a pip to either side), not
        where it runs along it (the bar a line across a tile starts on)."""
        ts = np.arange(t0 - 2, t1 + 2, 0.5, dtype=np.float32)
        if len(ts) < 3:
            return t1
        xs = (start[0] + v[0] * ts).astype(np.float32)[None]
        ys = (start[1] + v[1] * ts).astype(np.float32)[None]
        f = cv2.remap(self.face, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)[0]
        side = np.array([-v[1], v[0]]) * self.offset
        seam = np.minimum(
            *(
                cv2.remap(
                    self.seams,
                    xs + np.float32(k * side[0]),
                    ys + np.float32(k * side[1]),
                    cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE,
                )[0]
                for k in (-1, 1)
            )
        )
        smooth = cv2.GaussianBlur(f.reshape(1, -1), (0, 0), 1.0).ravel()
        score = 2 * np.abs(np.gradient(smooth)) + seam
        inside = np.where((ts >= t0) & (ts <= t1), score, -1.0)
        strong = inside >= self.share * inside.max()
        peaks = strong & (inside >= np.roll(inside, 1)) & (inside >= np.roll(inside, -1))
        return float(ts[int(np.argmax(peaks))]) if peaks.any() else t1


def propose(
    bars: list[Bar], ink: Ink, p: StagedParams, width: float | None = None
) -> list[Proposal]:
    """Proposals round each bar: one per share of ``step_shares`` (the nearest step at least
    that share of the strongest is the edge), the same outline given once. ``width``: the
    scene's tile width where tiles were read already (all tiles of a set are alike); each
    side is then looked for within ``side_search_known`` of it, else within ``side_search``
    of the width the pip size suggests."""
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
            if not any(_same(prop, q, 0.5 * d) for q in out):
                out.append(prop)
    return out


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
    e1 = prof.strongest_step(c, u, lo, hi)
    e2 = prof.strongest_step(c, -u, lo, hi)
    w = e1 + e2
    cc = c + u * (e1 - e2) / 2
    a, b = p.end_search[0] * w, p.end_search[1] * w
    offsets = (-0.25 * w, 0.0, 0.25 * w)
    la = float(np.median([prof.strongest_step(cc + u * o, n, a, b) for o in offsets]))
    lb = float(np.median([prof.strongest_step(cc + u * o, -n, a, b) for o in offsets]))
    return Proposal(
        (float(cc[0]), float(cc[1])),
        (float(u[0]), float(u[1])),
        (float(n[0]), float(n[1])),
        w,
        (la, lb),
        bar,
    )
