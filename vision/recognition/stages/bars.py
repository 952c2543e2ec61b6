"""Stage 3: dividing bars, straight segments of ink (working pixels): long narrow ink blobs (a
bar standing free) and Hough segments of thin ink (a bar joined to a pip or a shaded side) that
line up, kept where the face is alike on both sides. :func:`lone_faces` and :func:`along_chains`
guess bars too faint to find.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.stages.arrays import F64, U8, pair, sample
from vision.recognition.stages.ink import Ink
from vision.recognition.stages.params import StagedParams
from vision.recognition.stages.scale import components


@dataclass(frozen=True, slots=True)
class Bar:
    """A straight segment: ``center`` (x, y), unit ``direction`` along it, and ``length``."""

    center: tuple[float, float]
    direction: tuple[float, float]
    length: float


def find(ink: Ink, p: StagedParams) -> list[Bar]:
    """The bars in ``ink``, longest first. A run longer than ``bar_split_d`` pips may be the bars
    of tiles side by side: its stretches inside faces are tried too."""
    d = ink.pip_px
    segs = np.concatenate([_hough_pieces(ink.thin, d, p), _long_blobs(ink, p)])
    lengths = np.hypot(segs[:, 2] - segs[:, 0], segs[:, 3] - segs[:, 1])
    segs = segs[np.argsort(-lengths)[: p.max_segments]]
    used = np.zeros(len(segs), dtype=bool)
    merged: list[Bar] = []
    for i in range(len(segs)):
        if not used[i]:
            merged.append(_merged(segs[i:], used[i:], p.bar_merge_d * d, 0.5 * d))
    bars: list[Bar] = []
    for bar, alike in zip(merged, _face_both_sides(merged, ink, p).tolist(), strict=True):
        whole = bar.length <= p.bar_max_d * d and alike
        if whole:
            bars.append(bar)
        if bar.length > p.bar_split_d * d:
            runs = _runs_inside_faces(bar, ink, p)
            bars.extend(r for r in runs if not (whole and r.length > bar.length - d))
    return bars


def _hough_pieces(thin: U8, d: float, p: StagedParams) -> F64:
    """``(N, 4)`` Hough segments, the ``piece_segments`` longest of each piece of ``thin`` on its
    own: else ink far away takes a bar's pixels, or a patterned table fills ``max_segments``."""
    shortest = p.bar_min_d * d
    votes, gap, min_len = int(1.5 * d), max(1, int(0.3 * d)), int(shortest)
    _, labels, stats, _ = components(thin)
    out: list[F64] = []
    for i in np.flatnonzero(np.maximum(stats[:, 2], stats[:, 3]) >= shortest).tolist():
        if i == 0:
            continue
        x, y, w, h = (int(v) for v in stats[i][:4])
        piece = ((labels[y : y + h, x : x + w] == i) * 255).astype(np.uint8)
        found = cv2.HoughLinesP(piece, 1, np.pi / 180, votes, minLineLength=min_len, maxLineGap=gap)
        if found is not None:
            seg = found.reshape(-1, 4).astype(np.float64)
            length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
            seg = seg[np.argsort(-length, kind="stable")[: p.piece_segments]]
            out.append(seg + np.array([x, y, x, y]))
    return np.concatenate(out) if out else np.zeros((0, 4))


def _beside(image: U8, bar: Bar, ts: F64, k: float, d: float) -> U8:
    """``image`` at ``ts`` along ``bar`` from its centre, shifted ``k`` times ``d`` across."""
    c, u = np.array(bar.center), np.array(bar.direction)
    n = np.array([-u[1], u[0]]) * d
    return sample(image, c + ts[:, None] * u + k * n)


def _face_both_sides(bars: list[Bar], ink: Ink, p: StagedParams) -> npt.NDArray[np.bool_]:
    """For each of ``bars``, whether the face is alike a pip's width to either side of it (not a
    tile's edge), each side the brightest of 7 samples (a blurred half's pips may reach the bar
    in ``face``)."""
    c = np.array([b.center for b in bars], dtype=np.float64).reshape(-1, 1, 2)
    u = np.array([b.direction for b in bars], dtype=np.float64).reshape(-1, 1, 2)
    ts = np.linspace(-0.35, 0.35, 7) * np.array([b.length for b in bars])[:, None]  # (B, 7)
    n = np.concatenate([-u[..., 1:], u[..., :1]], axis=2) * ink.pip_px
    a, b = (sample(ink.face, c + ts[..., None] * u + k * n).max(axis=1, initial=0) for k in (-1, 1))
    a, b = a.astype(np.float64), b.astype(np.float64)
    alike = np.abs(a - b) <= np.maximum(p.face_step_floor, p.face_step_share * np.maximum(a, b))
    return np.asarray(alike, dtype=bool)


def _runs_inside_faces(bar: Bar, ink: Ink, p: StagedParams) -> list[Bar]:
    """The stretches of ``bar`` ``bar_min_d`` to ``bar_max_d`` pips long inside a face: alike on
    both sides (see :func:`_face_both_sides`), lit, not crossed by thin ink (a seam). One too
    long is parted where the ink along it has a ``bar_gap_d`` gap (the bars of tiles side by
    side, the seam between them not showing)."""
    d = ink.pip_px
    ts = np.arange(-bar.length / 2, bar.length / 2 + 0.5, 1.0)
    a, b = (_beside(ink.face, bar, ts, k, d).astype(np.float64) for k in (-1.0, 1.0))
    brighter = np.maximum(a, b)
    alike = np.abs(a - b) <= np.maximum(p.face_step_floor, p.face_step_share * brighter)
    lit = brighter >= p.face_step_floor + (1 - p.face_step_share * 2) * np.percentile(brighter, 90)
    crossed = (_beside(ink.thin, bar, ts, -0.5, d) > 0) & (_beside(ink.thin, bar, ts, 0.5, d) > 0)
    inside = alike & lit & ~crossed
    spans = _spans(inside)
    if any(j - i > p.bar_max_d * d for i, j in spans):
        parted = inside & _inked(ink.mask, bar, ts, d, p)
        spans = [
            s
            for i, j in spans
            for s in (_spans(parted, i, j) if j - i > p.bar_max_d * d else [(i, j)])
        ]
    c, u = np.array(bar.center), np.array(bar.direction)
    runs: list[Bar] = []
    for start, stop in spans:
        t0, t1 = ts[start], ts[stop - 1]
        length = float(t1 - t0)
        if p.bar_min_d * d <= length <= p.bar_max_d * d:
            runs.append(Bar(pair(c + u * (t0 + t1) / 2), bar.direction, length))
    return runs


def _inked(mask: U8, bar: Bar, ts: F64, d: float, p: StagedParams) -> npt.NDArray[np.bool_]:
    """Whether ``mask`` has ink at ``ts`` along ``bar`` (or 0.2 ``d`` to a side), gaps under
    ``bar_gap_d`` filled."""
    on = np.logical_or.reduce([_beside(mask, bar, ts, k, d) for k in (-0.2, 0.0, 0.2)])
    gap = cv2.getStructuringElement(cv2.MORPH_RECT, (max(1, round(p.bar_gap_d * d)) | 1, 1))
    return np.asarray(cv2.morphologyEx(on.astype(np.uint8)[None, :], cv2.MORPH_CLOSE, gap)[0] > 0)


def _spans(on: npt.NDArray[np.bool_], lo: int = 0, hi: int | None = None) -> list[tuple[int, int]]:
    """The ``(start, stop)`` of each stretch of True in ``on[lo:hi]`` (indices of ``on``)."""
    inside = np.concatenate([[False], on[lo:hi], [False]])
    edges = (np.flatnonzero(inside[1:] != inside[:-1]) + lo).tolist()
    return list(zip(edges[::2], edges[1::2], strict=True))


def _long_blobs(ink: Ink, p: StagedParams) -> F64:
    """``(N, 4)`` segments ``x1, y1, x2, y2`` along the ink blobs that are bar-shaped (their
    pixels' spread along and across them, from every blob's moments at once)."""
    d = ink.pip_px
    n, labels, stats, _ = components(ink.mask)
    size = np.maximum(stats[:, 2], stats[:, 3])
    big = (stats[:, 4] >= 0.25 * d * d) & (size >= p.bar_min_d * d * 0.7)
    big[0] = False
    if not big.any():
        return np.zeros((0, 4))
    ys, xs = np.nonzero(labels)
    label = labels[ys, xs]
    count = stats[:, 4].astype(np.float64)
    mean = (
        np.stack([np.bincount(label, v, n) for v in (xs, ys)], axis=1)
        / np.maximum(count, 1)[:, None]
    )
    dx, dy = xs - mean[label, 0], ys - mean[label, 1]
    # a blob's covariance (as np.cov: over n - 1)
    sxx, syy, sxy = (np.bincount(label, w, n) for w in (dx * dx, dy * dy, dx * dy))
    k = np.flatnonzero(big)
    cov = np.stack([sxx[k], sxy[k], sxy[k], syy[k]], axis=1).reshape(-1, 2, 2)
    values, vectors = np.linalg.eigh(cov / np.maximum(count[k] - 1, 1)[:, None, None])
    # a uniform segment of length L has variance L**2 / 12 along it
    length = np.sqrt(12 * np.maximum(values[:, 1], 1e-9))
    thick = np.sqrt(12 * np.maximum(values[:, 0], 1e-9))
    ok = (p.bar_min_d * d <= length) & (length <= p.bar_max_d * d) & (thick < 0.9 * d)
    ok &= length > 3 * thick
    u = vectors[ok, :, 1] * (length[ok] / 2)[:, None]
    c = mean[k[ok]]
    return np.concatenate([c - u, c + u], axis=1).reshape(-1, 4)


def _merged(segs: F64, used: npt.NDArray[np.bool_], across: float, gap: float) -> Bar:
    """The first of ``segs`` grown by every other unused one collinear with it (all marked
    used): parallel, within ``across`` of its line, reaching the bar grown so far by ``gap``."""
    p1, p2 = segs[0, :2], segs[0, 2:]
    lo, hi = 0.0, float(np.linalg.norm(p2 - p1))
    u = (p2 - p1) / max(1e-9, hi)
    n = np.array([-u[1], u[0]])
    q1, q2 = segs[:, :2] - p1, segs[:, 2:] - p1
    v = q2 - q1
    v_len = np.maximum(np.hypot(v[:, 0], v[:, 1]), 1e-9)
    a, b = q1 @ u, q2 @ u
    lo_j, hi_j = np.minimum(a, b), np.maximum(a, b)
    parallel = np.abs(v @ u) / v_len >= 0.97
    used[0] = True
    near = ~used & parallel & (np.maximum(np.abs(q1 @ n), np.abs(q2 @ n)) <= across)
    # a piece may reach another only once the bar has grown to it
    while (joined := near & (lo_j <= hi + gap) & (hi_j >= lo - gap)).any():
        lo, hi = min(lo, float(lo_j[joined].min())), max(hi, float(hi_j[joined].max()))
        used |= joined
        near &= ~joined
    return Bar(pair(p1 + u * (lo + hi) / 2), pair(u), hi - lo)


def lone_faces(ink: Ink, p: StagedParams) -> list[Bar]:
    """A bar guessed across each lone lit face shaped like a tile (``width_d`` wide,
    ``lone_face_aspect`` times as long, ``lone_face_fill`` full): a blurred bar may not show."""
    lo, hi = (share * ink.pip_px for share in p.width_d)
    aspect_lo, aspect_hi = p.lone_face_aspect
    if ink.faces is None:
        return []
    n, labels, stats, _ = components(ink.faces)
    out: list[Bar] = []
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if not lo * lo * aspect_lo <= area <= hi * hi * aspect_hi:
            continue
        piece = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
        contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))
        short, long = min(rw, rh), max(rw, rh)
        tile_shaped = lo <= short <= hi and aspect_lo * short <= long <= aspect_hi * short
        if tile_shaped and area >= p.lone_face_fill * rw * rh:
            t = np.deg2rad(angle)  # the bar runs along the rectangle's short side:
            u = (np.cos(t), np.sin(t)) if rw < rh else (-np.sin(t), np.cos(t))
            out.append(Bar((cx + x, cy + y), (float(u[0]), float(u[1])), short))
    return out


def along_chains(
    ink: Ink,
    p: StagedParams,
    *,
    width: float | None = None,
    held: U8 | None = None,
    explained: U8 | None = None,
) -> list[Bar]:
    """Bars guessed (:meth:`_Chain.bars`) along each chain of lit faces on a darker table:
    blurred tiles end to end. ``width``: the tile width, else ``chain_width_share`` of the
    chain's commonest thickness; ``held``: faces left out; ``explained``: a chain needs
    ``chain_min_tiles`` tiles' area outside it."""
    if ink.faces is None or ink.table >= ink.lit:
        return []  # on a lighter table, a block of tiles side by side read so reads either way
    lit = ink.faces.copy()
    lo, hi = (share * ink.pip_px for share in p.width_d)
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
        w_tile = width if width is not None else p.chain_width_share * chain.thickness
        if lo <= w_tile <= hi:
            out += chain.bars(w_tile, p)
    return out


def _square_angle(image: npt.NDArray[np.float32]) -> float:
    """The angle ``image``'s edges vote for (radians, modulo a right angle: tiles lie square)."""
    gx, gy = cv2.Sobel(image, cv2.CV_32F, 1, 0), cv2.Sobel(image, cv2.CV_32F, 0, 1)
    m = np.hypot(gx, gy)
    phi = 4 * np.arctan2(gy, gx)
    return float(np.arctan2((m * np.sin(phi)).sum(), (m * np.cos(phi)).sum()) / 4)


class _Chain:
    """One chain of faces (``pts``, ``(N, 2)`` x, y) in slabs one pixel thick across its long
    direction ``along``: each slab's ``extent`` across (0 where empty) and ``mid``, and the
    median extent, ``thickness``."""

    def __init__(self, pts: F64, angle: float) -> None:
        a = np.array([np.cos(angle), np.sin(angle)])
        b = np.array([-a[1], a[0]])
        self.origin = pts.mean(axis=0)
        rel = pts - self.origin
        if np.ptp(rel @ b) > np.ptp(rel @ a):
            a, b = b, -a
        self.along, self.across = a, b
        t, s = np.rint(rel @ a).astype(np.int64), rel @ b
        self.first = int(t.min())
        bins = t - self.first
        top = np.full(int(bins.max()) + 1, -np.inf)
        bottom = np.full(len(top), np.inf)
        np.maximum.at(top, bins, s)
        np.minimum.at(bottom, bins, s)
        filled = np.isfinite(top)
        self.extent, self.mid = np.zeros(len(top)), np.zeros(len(top))
        self.extent[filled] = top[filled] - bottom[filled] + 1
        self.mid[filled] = (top[filled] + bottom[filled]) / 2
        self.thickness = float(np.median(self.extent[self.extent > 0]))

    def bars(self, w: float, p: StagedParams) -> list[Bar]:
        """Every half ``w`` from either end (give or take ``line_shifts``), a bar across the chain
        where it is one ``w`` wide (not at an end), along it where two (a double, or a turn)."""
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
        out: list[Bar] = []
        for s in steps:
            k = int(np.clip(round(s), 0, len(self.extent) - 1))
            centre = pair(self.origin + self.along * (s + self.first) + self.across * self.mid[k])
            end = min(s - start, stop - s) < 0.75 * w  # half a width in: a double's bar only
            across = self.extent[k] / w
            if not end and p.chain_one_wide[0] <= across <= p.chain_one_wide[1]:
                out.append(Bar(centre, pair(self.across), p.bar_width_share * w))
            elif p.chain_two_wide[0] <= across <= p.chain_two_wide[1]:
                out.append(Bar(centre, pair(self.along), p.bar_width_share * w))
        return out
