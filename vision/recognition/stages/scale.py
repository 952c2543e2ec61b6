"""Stage 1: the pip diameter (the scene's unit: the commonest size of round dark blobs in the
darkest channel, so coloured pips count, or what the bars suggest) and the working resolution."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.stages.arrays import F64, U8
from vision.recognition.stages.params import StagedParams


@dataclass(frozen=True, slots=True)
class Scale:
    """``pip_px``: pip diameter (input px); ``factor``: working px per input px; ``blobs``: the
    :func:`round_blobs` measured (input px) in a view at least as fine as the working image
    where neither is enlarged or that view is it, else None; ``view``: the working image where
    that view (reduced or enlarged) is it."""

    pip_px: float
    factor: float
    blobs: F64 | None = field(default=None, compare=False, repr=False)
    view: U8 | None = field(default=None, compare=False, repr=False)


def darkest_channel(image: U8) -> U8:
    """``(H, W)`` uint8: the lowest of B, G, R per pixel (grey images pass through)."""
    if image.ndim == 2:
        return image
    if image.shape[2] == 1:
        return np.ascontiguousarray(image[:, :, 0])
    b, g, r = image[:, :, 0], image[:, :, 1], image[:, :, 2]
    return np.asarray(cv2.min(cv2.min(b, g), r), dtype=np.uint8)


def measure(grey: U8, p: StagedParams) -> Scale | None:
    """The likeliest of :func:`candidates`, or None where nothing looks like a pip or a bar."""
    return next(iter(candidates(grey, p)), None)


def candidates(grey: U8, p: StagedParams, *, closer: bool = False) -> list[Scale]:
    """Scales to read ``grey`` at, likeliest first: the common blob sizes, else the largest
    blobs' (lone pips) and the bars'. ``closer``: look twice as wide, offer twice as many common
    sizes, each less ``blob_bias`` too (the detector's size of a blob runs a pixel of the view
    it is found in over the disc's, a large share of a small pip, more so in a reduced view),
    and lone faces' sizes (a table's blotches can outnumber a tile or two's pips)."""
    blobs, own, seen_at, view = _round_blobs_seen(grey, p, 2 * p.scale_view_px if closer else None)
    sizes = blobs[:, 2][blobs[:, 2] >= p.min_pip_px]
    common = _common_sizes(sizes, p, 2 * p.common_sizes if closer else p.common_sizes)
    if closer:
        less = [c - p.blob_bias / seen_at for c in common]
        common += [c for c in less if c >= p.min_pip_px]
        faces = _face_sizes(grey, p, 2 * p.scale_view_px)
        common += [f for f in faces if all(abs(f - c) > 0.15 * c for c in common)]
    if not common:
        common = sorted({round(float(v), 1) for v in sizes}, reverse=True)[: p.lone_pip_guesses]
        common += _bar_sizes(grey, p)
    return [_scale(grey, c, p, (own, seen_at, view)) for c in common]


def _scale(grey: U8, pip: float, p: StagedParams, seen: tuple[F64, float, U8]) -> Scale:
    """The working scale for pips ``pip`` wide; ``seen``: the blobs, scale and image of the
    finest view measured, which is the working image where its scale is within ``view_snap``."""
    own, seen_at, view = seen
    h, w = grey.shape
    enlarge = max(1.0, p.min_side_px / max(h, w))
    factor = p.work_pip_px / pip
    if factor > 0.85 * enlarge:  # pips not much larger than wanted: not reduced
        small = enlarge > 1.0 or factor < p.min_enlarge
        factor = enlarge if small else min(factor, p.max_enlarge)
    if seen_at != 1.0 and abs(factor / seen_at - 1.0) <= p.view_snap:
        return Scale(pip, seen_at, own, view)
    return Scale(pip, factor, own if factor <= seen_at <= 1.0 else None)


def resized(grey: U8, factor: float) -> U8:
    """``grey`` resized by ``factor``: by area if reduced (no grain aliased to blobs), or cubic."""
    interp = cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
    return np.asarray(cv2.resize(grey, None, fx=factor, fy=factor, interpolation=interp))


def _linear(grey: U8, factor: float) -> U8:
    """``grey`` enlarged linearly: fewer small single-tile photos read when cubic."""
    return np.asarray(cv2.resize(grey, None, fx=factor, fy=factor), dtype=np.uint8)


def _round_blobs_seen(
    grey: U8, p: StagedParams, side: int | None = None
) -> tuple[F64, F64, float, U8]:
    """:func:`round_blobs` (input px) of a view ``side`` (default ``scale_view_px``) wide, or twice
    that unless :func:`_trusted`, plus those of the reduced view measurable there that it misses
    (noise can roughen a blurred pip); those the last view saw itself; that view's scale; and
    that view."""
    h, w = grey.shape
    side = side or p.scale_view_px
    coarse = np.zeros((0, 3))  # what the reduced view measured
    while True:
        s = min(1.0, side / max(h, w))
        if max(h, w) < p.min_side_px:
            s = p.min_side_px / max(h, w)
        view = grey if s == 1.0 else resized(grey, s) if s < 1.0 else _linear(grey, s)
        own = np.asarray(round_blobs(view, p) / s, dtype=np.float64)
        gap = np.hypot(*(coarse[:, None, :2] - own[None, :, :2]).transpose(2, 0, 1))
        blobs = np.concatenate([own, coarse[~(gap < coarse[:, 2:3]).any(axis=1)]])
        if s >= 1.0 or side >= 2 * p.scale_view_px or _trusted(blobs[:, 2] * s, p):
            break
        coarse = blobs[blobs[:, 2] * s >= p.min_view_pip_px]
        side *= 2
    return blobs, own, s, view


def _trusted(sizes: F64, p: StagedParams) -> bool:
    """Whether a reduced view's commonest blob size is large and shared enough to trust."""
    common = _common_sizes(sizes, p)
    if not common:
        return False
    near = np.abs(np.log(sizes) - math.log(common[0])) < p.pip_size_tolerance
    return common[0] >= p.min_view_pip_px and int(near.sum()) >= p.min_view_support


def round_blobs(grey: U8, p: StagedParams) -> F64:
    """``(N, 3)``: ``x, y, diameter`` of the round dark blobs of ``grey`` (pixels), on its light
    regions only where the table is darker (:func:`table_cleared`)."""
    b = cv2.SimpleBlobDetector_Params()  # type: ignore[attr-defined]
    b.minThreshold, b.maxThreshold, b.thresholdStep, b.minRepeatability = 10, 240, 15, 3
    b.filterByColor, b.blobColor = True, 0
    b.filterByArea, b.minArea = True, 5
    b.filterByCircularity, b.minCircularity = True, 0.7
    b.filterByInertia, b.minInertiaRatio = True, 0.5
    b.filterByConvexity, b.minConvexity = True, 0.85
    b.maxArea = 0.01 * grey.size
    detector = cv2.SimpleBlobDetector_create(b)  # type: ignore[attr-defined]
    found = [(k.pt[0], k.pt[1], k.size) for k in detector.detect(table_cleared(grey, p))]
    return np.array(found, dtype=np.float64).reshape(-1, 3)


def table_cleared(grey: U8, p: StagedParams) -> U8:
    """``grey`` with a darker table set black: all but the light regions (Otsu's split of a
    view ``table_view_px`` wide, holes filled, grown by ``table_margin`` of that width). A pip
    lies inside a face, so it stays as it was; the table's texture, the blob detector's costliest
    contours at every threshold, becomes one smooth region (black, not white: at thresholds above
    a face's level the face still runs into the table, as on the table itself). On a table as
    light as the faces or lighter, or not much darker (the dark side's mean over
    ``table_dark_share`` of the light side's: light falling off across white paper splits it, a
    face in its shade and all), or no wider than that view (few contours to save), ``grey`` as
    it is."""
    h, w = grey.shape
    if max(h, w) <= p.table_view_px:
        return grey
    view = resized(grey, p.table_view_px / max(h, w))
    _, light = cv2.threshold(view, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if 2 * cv2.countNonZero(light) >= light.size:
        return grey  # the light side holds the median: the table is not the darker
    dark, lit = cv2.mean(view, cv2.bitwise_not(light))[0], cv2.mean(view, light)[0]
    if dark > p.table_dark_share * lit:
        return grey  # not much darker: uneven light on one table may split it so, tiles and all
    outlines, _ = cv2.findContours(light, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    kept = cv2.drawContours(np.zeros_like(light), outlines, -1, 255, -1)
    r = max(1, round(p.table_margin * p.table_view_px))
    kept = cv2.dilate(kept, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    kept = cv2.resize(kept, (w, h), interpolation=cv2.INTER_NEAREST)
    return np.asarray(cv2.bitwise_and(grey, kept), dtype=np.uint8)


def components(binary: U8) -> tuple[int, npt.NDArray[np.int32], npt.NDArray[np.int32], F64]:
    """``cv2.connectedComponentsWithStats`` (8-connected) by BBDT, some 3x faster than default."""
    n, labels, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(
        binary, 8, cv2.CV_32S, cv2.CCL_BBDT
    )
    return (
        int(n),
        np.asarray(labels, dtype=np.int32),
        np.asarray(stats, dtype=np.int32),
        np.asarray(centres, dtype=np.float64),
    )


def _common_sizes(sizes: F64, p: StagedParams, most: int | None = None) -> list[float]:
    """Up to ``most`` (default ``common_sizes``) sizes, best supported first, each of at least
    ``min_pips_for_scale`` blobs and half the first's (a marker's cells are round and alike)."""
    out: list[float] = []
    logs = np.log(sizes)
    first = 0
    while len(logs) >= p.min_pips_for_scale and len(out) < (most or p.common_sizes):
        near = np.abs(logs[:, None] - logs[None, :]) < p.pip_size_tolerance
        support = near.sum(axis=1) + logs / 100.0  # ties go to the larger size
        members = near[int(np.argmax(support))]
        count = int(members.sum())
        if count < max(p.min_pips_for_scale, first / 2):
            break
        first = first or count
        out.append(float(math.exp(float(np.median(logs[members])))))
        logs = logs[~members]
    return out


def _face_sizes(grey: U8, p: StagedParams, side: int) -> list[float]:
    """Pip sizes of the light faces shaped like one tile in a view ``side`` wide, largest first,
    picked as in :func:`_bar_sizes`. Light: a third of the way from the median to the brightest
    or more (blur dims a small face)."""
    h, w = grey.shape
    s = min(1.0, side / max(h, w))
    view = grey if s == 1.0 else resized(grey, s)
    table = float(np.median(view))
    light = (view > table + (float(cv2.blur(view, (3, 3)).max()) - table) / 3).astype(np.uint8)
    n, labels, stats, _ = components(light)
    vh, vw = view.shape
    narrowest = p.min_pip_px / p.pip_width_ratio * s  # a face's least width in the view
    least = p.lone_face_fill * p.lone_face_aspect[0] * narrowest**2  # and its least area
    out: list[float] = []
    for i in sorted(range(1, n), key=lambda k: -int(stats[k][4])):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        if len(out) >= p.bar_guesses or area < least:
            break  # largest first: the rest are smaller still
        if x == 0 or y == 0 or x + bw == vw or y + bh == vh or min(bw, bh) < narrowest:
            continue  # cut by the frame's edge
        ys, xs = np.nonzero(labels[y : y + bh, x : x + bw] == i)
        _, (rw, rh), _ = cv2.minAreaRect(np.stack([xs, ys], axis=1).astype(np.float32))
        short, long = min(rw, rh), max(rw, rh)
        pip = short * p.pip_width_ratio / s
        fits = p.lone_face_aspect[0] * short <= long <= p.lone_face_aspect[1] * short
        apart = all(abs(pip - q) > 0.15 * q for q in out)
        if fits and apart and area >= p.lone_face_fill * rw * rh and pip >= p.min_pip_px:
            out.append(pip)
    return out


def _bar_sizes(grey: U8, p: StagedParams) -> list[float]:
    """Pip sizes of the longest straight dark segments (bars), up to ``bar_guesses`` 15% apart,
    each ``bar_seen_share`` of ``min_pip_px`` or more; small frames are enlarged to
    ``min_side_px`` only (a thin bar enlarged further outgrows the line filter)."""
    h, w = grey.shape
    s = min(p.scale_view_px / max(h, w), max(1.0, p.min_side_px / max(h, w)))
    view = resized(grey, s)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    contrast = cv2.morphologyEx(view, cv2.MORPH_BLACKHAT, kernel)
    otsu, _ = cv2.threshold(contrast, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink = (contrast > max(otsu, 15.0)).astype(np.uint8) * 255
    segments = cv2.HoughLinesP(ink, 1, np.pi / 180, 12, minLineLength=10, maxLineGap=2)
    if segments is None:
        return []
    seg = segments.reshape(-1, 4).astype(np.float64)
    lengths = np.sort(np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]))[::-1]
    out: list[float] = []
    for length in lengths.tolist():
        pip = length / s / p.bar_length_d
        if pip < p.bar_seen_share * p.min_pip_px or len(out) >= p.bar_guesses:
            break
        if all(abs(pip - q) > 0.15 * q for q in out):
            out.append(pip)
    return out
