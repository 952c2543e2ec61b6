"""Stage 3: dividing bars, as straight segments of ink.

Two sources: ink blobs that are long and narrow (a bar standing free, however thick), and
Hough segments (``cv2.HoughLinesP``, run on each connected piece of thin ink on its own) of
the thin ink (a bar joined to a pip or to a tile's shaded side, which no blob shows). Pieces
that are collinear within ``bar_merge_d`` pips across and overlap or nearly meet along are one
bar (a bar's two edges, or a bar broken by a pip beside it), kept where the face is alike on
both sides. Segments longer than ``bar_max_d`` pips are seams or a tile's sides and are not
bars; a run longer than ``bar_split_d`` is also split where gaps between tiles cross it.
:func:`lone_faces` guesses a bar across each lone face shaped like a tile, for a bar too
faint to find.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.stages.ink import Ink
from vision.recognition.stages.params import StagedParams
from vision.recognition.stages.scale import components

F64 = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Bar:
    """A straight segment: ``center`` (x, y), unit ``direction`` along it, ``length``
    (working pixels)."""

    center: tuple[float, float]
    direction: tuple[float, float]
    length: float


def find(ink: Ink, p: StagedParams) -> list[Bar]:
    """The bars in ``ink.thin``, longest first."""
    d = ink.pip_px
    pieces = [_hough_pieces(ink.thin, d, p), _long_blobs(ink, p)]
    segs = np.concatenate(pieces)
    if len(segs) == 0:
        return []
    lengths = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    segs = segs[np.argsort(-lengths)[: p.max_segments]]
    used = np.zeros(len(segs), dtype=bool)
    bars: list[Bar] = []
    for i in range(len(segs)):
        if used[i]:
            continue
        used[i] = True
        bar = _merged(segs, used, i, p.bar_merge_d * d, 0.5 * d)
        whole = bar.length <= p.bar_max_d * d and _face_both_sides(bar, ink, p)
        if whole:
            bars.append(bar)
        if bar.length > p.bar_split_d * d:
            # the bars of tiles side by side line up, with the gaps between the tiles across
            # them: the stretches between gaps are bars too
            bars.extend(
                run
                for run in _runs_inside_faces(bar, ink, p)
                if p.bar_min_d * d <= run.length <= p.bar_max_d * d
                and not (whole and run.length > bar.length - d)
            )
    return bars


def _hough_pieces(thin: npt.NDArray[np.uint8], d: float, p: StagedParams) -> F64:
    """``(N, 4)`` Hough segments (``cv2.HoughLinesP``) of each connected piece of thin ink
    long enough to hold a bar, found piece by piece: the probabilistic transform over the
    whole frame lets lines voted for by ink far away consume a bar's pixels. Each piece gives
    its ``piece_segments`` longest at most: the blotches of a strongly patterned table give
    hundreds each, which would fill the frame's ``max_segments`` and leave a tile's bar out."""
    shortest = p.bar_min_d * d
    _, labels, stats, _ = components(thin)
    out: list[F64] = []
    for i in np.flatnonzero(np.maximum(stats[:, 2], stats[:, 3]) >= shortest).tolist():
        if i == 0:
            continue
        x, y, w, h = (int(v) for v in stats[i][:4])
        piece = ((labels[y : y + h, x : x + w] == i) * 255).astype(np.uint8)
        found = cv2.HoughLinesP(
            piece,
            1,
            np.pi / 180,
            int(1.5 * d),
            minLineLength=int(shortest),
            maxLineGap=max(1, int(0.3 * d)),
        )
        if found is not None:
            seg = found.reshape(-1, 4).astype(np.float64)
            length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
            seg = seg[np.argsort(-length, kind="stable")[: p.piece_segments]]
            out.append(seg + np.array([x, y, x, y]))
    return np.concatenate(out) if out else np.zeros((0, 4))


def _face_both_sides(bar: Bar, ink: Ink, p: StagedParams) -> bool:
    """A bar lies inside a face: the face image is alike a pip's width to either side of it
    (a tile's edge or shaded side has the table on one side). Each side's level is the
    brightest of 7 samples along the bar: the face image keeps the pips of a blurred half
    beside the bar (a six's rows run up to it) where they run into one another."""
    c, u = np.array(bar.center), np.array(bar.direction)
    n = np.array([-u[1], u[0]]) * ink.pip_px
    ts = np.linspace(-0.35, 0.35, 7)[:, None] * bar.length * u
    h, w = ink.face.shape
    sides = []
    for k in (-1.0, 1.0):
        pts = np.rint(c + ts + k * n).astype(int)
        pts[:, 0] = np.clip(pts[:, 0], 0, w - 1)
        pts[:, 1] = np.clip(pts[:, 1], 0, h - 1)
        sides.append(float(ink.face[pts[:, 1], pts[:, 0]].max()))
    a, b = sides
    return abs(a - b) <= max(p.face_step_floor, p.face_step_share * max(a, b))


def _runs_inside_faces(bar: Bar, ink: Ink, p: StagedParams) -> list[Bar]:
    """The stretches of ``bar`` that lie inside a face: where the face image a pip's width to
    either side is alike (see :func:`_face_both_sides`) and not table on both sides."""
    c, u = np.array(bar.center), np.array(bar.direction)
    n = np.array([-u[1], u[0]]) * ink.pip_px
    ts = np.arange(-bar.length / 2, bar.length / 2 + 0.5, 1.0)
    h, w = ink.face.shape
    sides = []
    for k in (-1.0, 1.0):
        pts = np.rint(c + ts[:, None] * u + k * n).astype(int)
        pts[:, 0] = np.clip(pts[:, 0], 0, w - 1)
        pts[:, 1] = np.clip(pts[:, 1], 0, h - 1)
        sides.append(ink.face[pts[:, 1], pts[:, 0]].astype(np.float64))
    a, b = sides
    brighter = np.maximum(a, b)
    alike = np.abs(a - b) <= np.maximum(p.face_step_floor, p.face_step_share * brighter)
    lit = brighter >= p.face_step_floor + (1 - p.face_step_share * 2) * np.percentile(brighter, 90)
    # a seam crossing the run (thin ink half a pip to either side of it) is a gap between tiles
    crossed = np.ones(len(ts), dtype=bool)
    for k in (-0.5, 0.5):
        pts = np.rint(c + ts[:, None] * u + k * n).astype(int)
        pts[:, 0] = np.clip(pts[:, 0], 0, w - 1)
        pts[:, 1] = np.clip(pts[:, 1], 0, h - 1)
        crossed &= ink.thin[pts[:, 1], pts[:, 0]] > 0
    inside = alike & lit & ~crossed
    runs: list[Bar] = []
    start = None
    for k, ok in enumerate([*inside.tolist(), False]):
        if ok and start is None:
            start = k
        elif not ok and start is not None:
            t0, t1 = ts[start], ts[k - 1]
            mid = c + u * (t0 + t1) / 2
            runs.append(Bar((float(mid[0]), float(mid[1])), bar.direction, float(t1 - t0)))
            start = None
    return runs


def _long_blobs(ink: Ink, p: StagedParams) -> F64:
    """``(N, 4)`` segments ``x1, y1, x2, y2`` along the ink blobs that are bar-shaped."""
    d = ink.pip_px
    n, labels, stats, _ = components(ink.mask)
    out: list[list[float]] = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < 0.25 * d * d or max(w, h) < p.bar_min_d * d * 0.7:
            continue
        ys, xs = np.nonzero(labels[y : y + h, x : x + w] == i)
        pts = np.column_stack([xs + x, ys + y]).astype(np.float64)
        mean = pts.mean(axis=0)
        values, vectors = np.linalg.eigh(np.cov((pts - mean).T))
        # a uniform segment of length L has variance L**2 / 12 along it
        length, thick = np.sqrt(12 * max(values[1], 1e-9)), np.sqrt(12 * max(values[0], 1e-9))
        if p.bar_min_d * d <= length <= p.bar_max_d * d and thick < 0.9 * d and length > 3 * thick:
            u = vectors[:, 1] * length / 2
            out.append([mean[0] - u[0], mean[1] - u[1], mean[0] + u[0], mean[1] + u[1]])
    return np.array(out, dtype=np.float64).reshape(-1, 4)


def _merged(segs: F64, used: npt.NDArray[np.bool_], i: int, across: float, gap: float) -> Bar:
    """Segment ``i`` grown by every unused segment collinear with it (marked used)."""
    p1, p2 = segs[i, :2], segs[i, 2:]
    u = (p2 - p1) / max(1e-9, float(np.linalg.norm(p2 - p1)))
    n = np.array([-u[1], u[0]])
    q1, q2 = segs[:, :2] - p1, segs[:, 2:] - p1
    v = q2 - q1
    v_len = np.maximum(np.hypot(v[:, 0], v[:, 1]), 1e-9)
    a, b = q1 @ u, q2 @ u
    lo_j, hi_j = np.minimum(a, b), np.maximum(a, b)
    lo, hi = 0.0, float(np.linalg.norm(p2 - p1))
    near = (
        ~used
        & (np.abs(v @ u) / v_len >= 0.97)
        & (np.maximum(np.abs(q1 @ n), np.abs(q2 @ n)) <= across)
    )
    grew = True
    while grew:  # a piece may reach another only once the bar has grown to it
        joined = near & (lo_j <= hi + gap) & (hi_j >= lo - gap)
        grew = bool(joined.any())
        if grew:
            lo, hi = min(lo, float(lo_j[joined].min())), max(hi, float(hi_j[joined].max()))
            used |= joined
            near &= ~joined
    c = p1 + u * (lo + hi) / 2
    return Bar((float(c[0]), float(c[1])), (float(u[0]), float(u[1])), hi - lo)


def lone_faces(ink: Ink, p: StagedParams) -> list[Bar]:
    """A bar guessed across the middle of each lit face that stands alone and is shaped like
    one tile: its long side ``lone_face_aspect`` times its short side, which is a tile's width
    (``width_d``), filling ``lone_face_fill`` of that rectangle. A small blurred tile's bar can
    be too faint to find; its pips and its face on a darker table are not."""
    d = ink.pip_px
    lo, hi = p.width_d[0] * d, p.width_d[1] * d
    n, labels, stats, _ = components((ink.face >= ink.lit).astype(np.uint8))
    out: list[Bar] = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if not lo * lo * p.lone_face_aspect[0] <= area <= hi * hi * p.lone_face_aspect[1]:
            continue
        piece = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
        contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))
        short, long = min(rw, rh), max(rw, rh)
        aspect_lo, aspect_hi = p.lone_face_aspect
        if (
            lo <= short <= hi
            and aspect_lo * short <= long <= aspect_hi * short
            and area >= p.lone_face_fill * rw * rh
        ):
            t = np.deg2rad(angle)
            # the bar runs along the rectangle's short side
            u = (np.cos(t), np.sin(t)) if rw < rh else (-np.sin(t), np.cos(t))
            out.append(Bar((cx + x, cy + y), (float(u[0]), float(u[1])), short))
    return out


def along_chains(
    ink: Ink,
    p: StagedParams,
    *,
    width: float | None = None,
    held: npt.NDArray[np.uint8] | None = None,
    explained: npt.NDArray[np.uint8] | None = None,
) -> list[Bar]:
    """Bars guessed along each chain of lit faces on a table darker than the faces: tiles
    touching end to end, blurred, their bars too faint to find and their faces one piece.
    Every half ``width`` from either end of the chain (and ``line_shifts`` of a width either
    way: an end is measured a little off), a bar across the chain where it is about a width
    across (a tile laid along it, its bar a width or more from the ends), along it where it
    is about two (a double laid across it, or a tile where the line turns).
    ``width``: the scene's tile width, else ``chain_width_share`` of the chain's commonest
    thickness (a blurred face looks wider than it is); ``held``: a mask of the faces the tiles
    read explain, left out; ``explained``: a wider mask of them, where a chain must show
    ``chain_min_tiles`` tiles' area outside it to be looked at (a double read stands on its
    own faces). Reading decides which guesses are tiles."""
    if ink.table >= ink.lit:
        return []
    d = ink.pip_px
    lo, hi = p.width_d[0] * d, p.width_d[1] * d
    lit = (ink.face >= ink.lit).astype(np.uint8)
    if held is not None:
        lit[held > 0] = 0
    n, labels, stats, _ = components(lit)
    least = p.chain_min_tiles * 2 * (width or lo) ** 2
    out: list[Bar] = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < least:  # most pieces, specks of a lit table's texture, stop here
            continue
        piece = labels[y : y + h, x : x + w] == i
        if explained is not None:
            area = int(np.count_nonzero(piece & (explained[y : y + h, x : x + w] == 0)))
            if area < least:
                continue
        ys, xs = np.nonzero(piece)
        pts = np.stack([xs + x, ys + y], axis=1).astype(np.float64)
        box = ink.face[max(0, y - 2) : y + h + 2, max(0, x - 2) : x + w + 2].astype(np.float32)
        chain = _Chain(pts, _square_angle(box))
        thick = chain.thickness()
        w_tile = width if width is not None else p.chain_width_share * thick
        if lo <= w_tile <= hi:
            out += chain.bars(w_tile, p)
    return out


def _square_angle(image: npt.NDArray[np.float32]) -> float:
    """The angle (radians, modulo a right angle) of the edges in ``image``: tiles are
    rectangles and a chain's doubles lie square to its other tiles, so every edge votes for
    one angle, by its strength (each edge's angle taken four times over)."""
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1)
    m = np.hypot(gx, gy)
    phi = 4 * np.arctan2(gy, gx)
    return float(np.arctan2((m * np.sin(phi)).sum(), (m * np.cos(phi)).sum()) / 4)


class _Chain:
    """One chain of faces: its pixels ``pts`` (``(N, 2)`` x, y) in slabs one pixel thick
    across its long direction (``along``), each slab's extent across and middle."""

    def __init__(self, pts: F64, angle: float) -> None:
        a = np.array([np.cos(angle), np.sin(angle)])
        b = np.array([-a[1], a[0]])
        self.origin = pts.mean(axis=0)
        rel = pts - self.origin
        if np.ptp(rel @ b) > np.ptp(rel @ a):
            a, b = b, -a
        self.along, self.across = a, b
        t = np.rint(rel @ a).astype(np.int64)
        s = rel @ b
        self.first = int(t.min())
        bins = t - self.first
        top = np.full(int(bins.max()) + 1, -np.inf)
        bottom = np.full(len(top), np.inf)
        np.maximum.at(top, bins, s)
        np.minimum.at(bottom, bins, s)
        filled = np.isfinite(top)
        self.extent = np.zeros(len(top))  # 0 and 0 where no pixel of the chain lies
        self.mid = np.zeros(len(top))
        self.extent[filled] = top[filled] - bottom[filled] + 1
        self.mid[filled] = (top[filled] + bottom[filled]) / 2

    def thickness(self) -> float:
        return float(np.median(self.extent[self.extent > 0]))

    def bars(self, w: float, p: StagedParams) -> list[Bar]:
        body = np.nonzero(self.extent >= 0.5 * w)[0]
        if len(body) == 0:
            return []
        start, stop = int(body[0]), int(body[-1]) + 1
        halves = range(1, round((stop - start) / (w / 2)))
        steps: list[float] = []
        for s in sorted(
            end + sign * k * w / 2 + shift * w
            for end, sign in ((start, 1), (stop, -1))
            for k in halves
            for shift in p.line_shifts
        ):
            if not steps or s - steps[-1] > 0.1 * w:  # both ends give about the same places
                steps.append(s)
        a, b = self.along, self.across
        out: list[Bar] = []
        for s in steps:
            k = int(np.clip(round(s), 0, len(self.extent) - 1))
            c = self.origin + a * (s + self.first) + b * self.mid[k]
            centre = (float(c[0]), float(c[1]))
            end = min(s - start, stop - s) < 0.75 * w  # half a width in: a double's bar only
            across = self.extent[k] / w
            if not end and p.chain_one_wide[0] <= across <= p.chain_one_wide[1]:
                out.append(Bar(centre, (float(b[0]), float(b[1])), p.bar_width_share * w))
            elif p.chain_two_wide[0] <= across <= p.chain_two_wide[1]:
                out.append(Bar(centre, (float(a[0]), float(a[1])), p.bar_width_share * w))
        return out
