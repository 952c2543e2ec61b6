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
    (along the tile), ``width``, and ``ends`` (distance from the centre to each end, the
    first along ``+axis``). Working pixels."""

    center: tuple[float, float]
    across: tuple[float, float]
    axis: tuple[float, float]
    width: float
    ends: tuple[float, float]

    def corners(self) -> F64:
        """``(4, 2)``: the outline, going round."""
        c, u, n = np.array(self.center), np.array(self.across), np.array(self.axis)
        w2, la, lb = self.width / 2, self.ends[0], self.ends[1]
        return np.array(
            [c - u * w2 - n * lb, c + u * w2 - n * lb, c + u * w2 + n * la, c - u * w2 + n * la]
        )


class _Profiles:
    def __init__(self, ink: Ink) -> None:
        self.face = ink.face.astype(np.float32)
        self.seams = ink.contrast.astype(np.float32) * (ink.thin > 0)

    def strongest_step(
        self, start: F64, v: F64, t0: float, t1: float, own_ink: float = 0.0
    ) -> float:
        """Distance from ``start`` along ``v`` (between ``t0`` and ``t1``) of the nearest
        step of the face image or thin-ink line that is at least half as strong as the
        strongest: a tile's top face ends before the side a tilted view also shows. Thin ink
        nearer than ``own_ink`` is the bar the line starts on, not a seam."""
        ts = np.arange(t0 - 2, t1 + 2, 0.5, dtype=np.float32)
        if len(ts) < 3:
            return t1
        xs = (start[0] + v[0] * ts).astype(np.float32)[None]
        ys = (start[1] + v[1] * ts).astype(np.float32)[None]
        f = cv2.remap(self.face, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)[0]
        seam = cv2.remap(self.seams, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)[0]
        smooth = cv2.GaussianBlur(f.reshape(1, -1), (0, 0), 1.0).ravel()
        score = 2 * np.abs(np.gradient(smooth)) + np.where(ts > own_ink, seam, 0.0)
        inside = np.where((ts >= t0) & (ts <= t1), score, -1.0)
        strong = inside >= 0.5 * inside.max()
        peaks = strong & (inside >= np.roll(inside, 1)) & (inside >= np.roll(inside, -1))
        return float(ts[int(np.argmax(peaks))]) if peaks.any() else t1


def propose(bars: list[Bar], ink: Ink, p: StagedParams) -> list[Proposal]:
    """One proposal per bar (none for a bar longer than ``bar_max_d`` pips)."""
    d = ink.pip_px
    prof = _Profiles(ink)
    expected = d / p.pip_width_ratio
    out: list[Proposal] = []
    for bar in bars:
        c, u = np.array(bar.center), np.array(bar.direction)
        n = np.array([-u[1], u[0]])
        lo = max(0.4 * bar.length, p.side_search[0] * expected)
        hi = p.side_search[1] * expected
        own = bar.length / 2 + 0.5 * d
        e1 = prof.strongest_step(c, u, lo, hi, own)
        e2 = prof.strongest_step(c, -u, lo, hi, own)
        w = e1 + e2
        cc = c + u * (e1 - e2) / 2
        a, b = p.end_search[0] * w, p.end_search[1] * w
        offsets = (-0.25 * w, 0.0, 0.25 * w)
        la = float(np.median([prof.strongest_step(cc + u * o, n, a, b) for o in offsets]))
        lb = float(np.median([prof.strongest_step(cc + u * o, -n, a, b) for o in offsets]))
        out.append(
            Proposal(
                (float(cc[0]), float(cc[1])),
                (float(u[0]), float(u[1])),
                (float(n[0]), float(n[1])),
                w,
                (la, lb),
            )
        )
    return out
