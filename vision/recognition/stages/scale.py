"""Stage 1: how big the tiles are, and the resolution to read them at.

The pip diameter is the scene's unit. It is measured as the commonest size among round dark
blobs (``cv2.SimpleBlobDetector`` on the darkest colour channel, so coloured pips count);
a tile shows 0 to 12 pips, so with fewer than two of one size the straight dark segments
(dividing bars, about ``bar_length_d`` pips long) set it instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.stages.params import StagedParams

U8 = npt.NDArray[np.uint8]


@dataclass(frozen=True, slots=True)
class Scale:
    """``pip_px``: pip diameter in the input image's pixels; ``factor``: input pixels times
    ``factor`` are working pixels. ``blobs``: ``(N, 3)`` ``x, y, diameter`` of the round dark
    blobs the scale was measured on (input pixels), when they were seen in the very image the
    ink stage reads (neither resampled), so it need not look for them again; else None."""

    pip_px: float
    factor: float
    blobs: npt.NDArray[np.float64] | None = field(default=None, compare=False, repr=False)


def darkest_channel(image: U8) -> U8:
    """``(H, W)`` uint8: the lowest of B, G, R per pixel (grey images, ``(H, W)`` or
    ``(H, W, 1)``, pass through)."""
    if image.ndim == 2:
        return image
    if image.shape[2] == 1:
        return np.ascontiguousarray(image[:, :, 0])
    b, g, r = image[:, :, 0], image[:, :, 1], image[:, :, 2]
    return np.asarray(cv2.min(cv2.min(b, g), r), dtype=np.uint8)


def measure(grey: U8, p: StagedParams) -> Scale | None:
    """The scene's scale from ``grey`` (``(H, W)`` uint8), or None when nothing in it looks
    like a pip or a bar."""
    found = candidates(grey, p)
    return found[0] if found else None


def candidates(grey: U8, p: StagedParams, *, closer: bool = False) -> list[Scale]:
    """Scales to read ``grey`` at, likeliest first: the common sizes of round blobs (two or
    more of a size; the second only where it has at least half the first's support: the
    cells of a calibration marker are round enough and alike too); or else each size a lone
    pip could have (the largest round blobs) and the sizes the bars suggest, for a frame whose
    tiles show one pip or none. ``closer``: the blobs are looked for in a view twice as wide
    from the start, twice as many common sizes are offered and the sizes lone faces suggest
    too (a table's blotches can outnumber the pips of a tile or two, too small and blurred to
    see in the first view)."""
    blobs, own, seen_at = _round_blobs_seen(grey, p, 2 * p.scale_view_px if closer else None)
    sizes = blobs[:, 2][blobs[:, 2] >= p.min_pip_px]
    common = _common_sizes(sizes, p, 2 * p.common_sizes if closer else p.common_sizes)
    if closer:
        faces = _face_sizes(grey, p, 2 * p.scale_view_px)
        common += [f for f in faces if all(abs(f - c) > 0.15 * c for c in common)]
    if common:
        return [_scale(grey, c, p, own, seen_at) for c in common]
    guesses = sorted({round(float(v), 1) for v in sizes}, reverse=True)[: p.lone_pip_guesses]
    guesses += _bar_sizes(grey, p)
    return [_scale(grey, g, p, own, seen_at) for g in guesses]


def _scale(
    grey: U8, pip: float, p: StagedParams, own: npt.NDArray[np.float64], seen_at: float
) -> Scale:
    h, w = grey.shape
    enlarge = max(1.0, p.min_side_px / max(h, w))
    factor = p.work_pip_px / pip
    if factor > 0.85 * enlarge:
        # pips about small enough: read at the (enlarged) size as it is; a large frame's
        # small pips are enlarged, by ``max_enlarge`` at most
        small = enlarge > 1.0 or factor < p.min_enlarge
        factor = enlarge if small else min(factor, p.max_enlarge)
    # the last view's blobs are the working image's own only where neither was resampled
    return Scale(pip, factor, own if factor == seen_at == 1.0 else None)


def resized(grey: U8, factor: float) -> U8:
    """``grey`` resampled by ``factor``: by area reduced (each pixel the mean of those it
    covers: no aliasing of the table's grain into speckles that read as blobs), cubic
    enlarged."""
    interp = cv2.INTER_AREA if factor < 1 else cv2.INTER_CUBIC
    return np.asarray(cv2.resize(grey, None, fx=factor, fy=factor, interpolation=interp))


def _linear(grey: U8, factor: float) -> U8:
    """``grey`` enlarged linearly: a small frame's blobs are measured so (in a cubic
    enlargement, fewer small single-tile photos read)."""
    return np.asarray(cv2.resize(grey, None, fx=factor, fy=factor), dtype=np.uint8)


def _view(grey: U8, p: StagedParams) -> tuple[U8, float]:
    """``grey`` at most ``scale_view_px`` long, small frames only enlarged to ``min_side_px``
    (a thin bar enlarged further grows past the line filter's width)."""
    h, w = grey.shape
    s = min(p.scale_view_px / max(h, w), max(1.0, p.min_side_px / max(h, w)))
    return resized(grey, s), s


def _round_blobs_seen(
    grey: U8, p: StagedParams, side: int | None = None
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], float]:
    """The round dark blobs (``(N, 3)`` ``x, y, diameter``, input pixels) seen in a view
    ``side`` (default ``scale_view_px``) wide, or twice that where the blobs found are too
    small or too few to trust there (pips of small tiles in a large frame); those the last
    view saw itself; and that view's scale.

    The wider view keeps the blobs of the reduced one that were large enough to measure there
    (``min_view_pip_px``) and that it does not see itself within a blob's diameter: a large
    blurred pip can be round in a reduced view and, its outline roughened by noise and the
    texture of the table, not round in the wide one. A tile or two seen close on a textured
    table show fewer pips than ``min_view_support``."""
    h, w = grey.shape
    side = side or p.scale_view_px
    coarse = np.zeros((0, 3))  # what the reduced view measured
    while True:
        s = min(1.0, side / max(h, w))
        if max(h, w) < p.min_side_px:
            s = p.min_side_px / max(h, w)
        view = grey if s == 1.0 else resized(grey, s) if s < 1.0 else _linear(grey, s)
        own = np.asarray(round_blobs(view) / s, dtype=np.float64)
        gap = np.hypot(*(coarse[:, None, :2] - own[None, :, :2]).transpose(2, 0, 1))
        blobs = np.concatenate([own, coarse[~(gap < coarse[:, 2:3]).any(axis=1)]])
        if s >= 1.0 or side >= 2 * p.scale_view_px or _trusted(blobs[:, 2] * s, p):
            break
        coarse = blobs[blobs[:, 2] * s >= p.min_view_pip_px]
        side *= 2
    return blobs, own, s


def _trusted(sizes: npt.NDArray[np.float64], p: StagedParams) -> bool:
    """Whether the commonest blob size of a reduced view is large enough, and shared by enough
    blobs, to set the scale."""
    common = _common_sizes(sizes, p)
    if not common:
        return False
    near = np.abs(np.log(sizes) - math.log(common[0])) < p.pip_size_tolerance
    return common[0] >= p.min_view_pip_px and int(near.sum()) >= p.min_view_support


def round_blobs(grey: U8) -> npt.NDArray[np.float64]:
    """``(N, 3)``: ``x, y, diameter`` of the round dark blobs of ``grey`` (pixels)."""
    b = cv2.SimpleBlobDetector_Params()  # type: ignore[attr-defined]
    b.minThreshold, b.maxThreshold, b.thresholdStep, b.minRepeatability = 10, 240, 15, 3
    b.filterByColor, b.blobColor = True, 0
    b.filterByArea, b.minArea = True, 5
    b.filterByCircularity, b.minCircularity = True, 0.7
    b.filterByInertia, b.minInertiaRatio = True, 0.5
    b.filterByConvexity, b.minConvexity = True, 0.85
    b.maxArea = 0.01 * grey.size
    detector = cv2.SimpleBlobDetector_create(b)  # type: ignore[attr-defined]
    found = [(k.pt[0], k.pt[1], k.size) for k in detector.detect(grey)]
    return np.array(found, dtype=np.float64).reshape(-1, 3)


def components(
    binary: U8,
) -> tuple[int, npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.float64]]:
    """``cv2.connectedComponentsWithStats(binary, connectivity=8)``, label for label, by the
    block-based algorithm (BBDT): OpenCV's default one is some three times slower to gather
    the statistics on one core."""
    n, labels, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(
        binary, 8, cv2.CV_32S, cv2.CCL_BBDT
    )
    return (
        int(n),
        np.asarray(labels, dtype=np.int32),
        np.asarray(stats, dtype=np.int32),
        np.asarray(centres, dtype=np.float64),
    )


def _common_sizes(
    sizes: npt.NDArray[np.float64], p: StagedParams, most: int | None = None
) -> list[float]:
    """Up to ``most`` (default ``common_sizes``) sizes shared by ``min_pips_for_scale`` or
    more blobs, best supported first."""
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
    """Pip sizes the light faces shaped like one tile suggest (``lone_face_aspect``, filling
    ``lone_face_fill`` of their rectangle, a pip ``pip_width_ratio`` of their width), seen
    in a view ``side`` wide, largest face first, up to ``bar_guesses`` of them at least 15%
    apart, each at least ``min_pip_px``. Light is a third of the way from the median to the
    brightest or more (a small face, blurred, is lit less than the brightest; a table as light
    as the faces shows no faces here)."""
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
            continue  # cut by the frame's edge (the table, or a tile not wholly in view)
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
    """Pip sizes the straight dark segments suggest (a bar is ``bar_length_d`` pips long):
    from the longest segments' lengths down, up to ``bar_guesses`` of them at least 15%
    apart, each at least ``min_pip_px``."""
    view, s = _view(grey, p)
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
        if pip < p.min_pip_px or len(out) >= p.bar_guesses:
            break
        if all(abs(pip - q) > 0.15 * q for q in out):
            out.append(pip)
    return out
