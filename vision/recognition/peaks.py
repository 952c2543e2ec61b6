"""Pips counted as dark peaks: a reading of a half that blur does not break.

Blur spreads a pip into its neighbours and into the seam beside it, so a threshold joins or
loses them; each pip's darkest point stays where it was. :func:`half_peaks` samples a half
square into a small patch of its own, smooths it, and keeps the local darkness maxima that
stand out from the face by a good part of the ink's contrast, at most one within a pip
spacing. Pure functions over arrays.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.layouts import STANDARD_SPACING
from vision.types import Point

U8 = npt.NDArray[np.uint8]
F64 = npt.NDArray[np.float64]

#: Patch side (pixels) a half square is sampled into.
PATCH = 32


@dataclass(frozen=True, slots=True)
class HalfPeaks:
    """The pips of a half: positions in half-square units (``x`` along the tile, sides at
    ±1), their darkness, and the darkest place left on the face once they are taken away."""

    points: F64  # (n, 2)
    depth: F64  # (n,) face minus pip, grey levels
    rest: float  # darkest non-pip place inside the half, grey levels below the face


def half_patch(grey: U8, center: Point, along: Point, width: float) -> U8:
    """The ``width x width`` half square centred on ``center`` (x along ``along``), sampled
    into a ``PATCH x PATCH`` patch."""
    return _sampled(grey, center, along, (width, width), (PATCH, PATCH))


def _sampled(
    grey: U8, center: Point, along: Point, size: tuple[float, float], shape: tuple[int, int]
) -> U8:
    """The rectangle ``size = (length along, width across)`` centred on ``center``, its
    length along ``along``, sampled into ``shape = (columns, rows)`` pixels (columns along)."""
    (n_along, n_across), (length, width) = shape, size
    sx, sy = length / n_along, width / n_across
    ux, uy = along
    vx, vy = -uy, ux
    # pixel (i, j) -> centre + (j + .5 - n_along / 2) sx u + (i + .5 - n_across / 2) sy v
    c0 = center[0] - (n_along / 2 - 0.5) * sx * ux - (n_across / 2 - 0.5) * sy * vx
    c1 = center[1] - (n_along / 2 - 0.5) * sx * uy - (n_across / 2 - 0.5) * sy * vy
    m = np.array([[sx * ux, sy * vx, c0], [sx * uy, sy * vy, c1]], dtype=np.float64)
    patch = cv2.warpAffine(
        grey,
        m,
        (n_along, n_across),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(patch, dtype=np.uint8)


def half_peaks(
    patch: U8, *, face: float, contrast: float, spacing: float = STANDARD_SPACING
) -> HalfPeaks:
    """The dark peaks of a half ``patch`` (see :func:`half_patch`): darker than ``face`` by at
    least ``contrast`` (grey levels), one per ``spacing`` (half units, the distance between
    neighbouring pips), inside the half's inner square."""
    g = cv2.GaussianBlur(patch.astype(np.float32), (0, 0), 0.05 * PATCH)
    r = max(1, int(0.3 * spacing * PATCH / 2))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    lowest = cv2.erode(g, disc)
    inner = np.zeros(g.shape, dtype=np.bool_)
    lo, hi = round(0.08 * PATCH), round(0.92 * PATCH)
    inner[lo:hi, lo:hi] = True
    peak = (g <= lowest + 1e-3) & (g <= face - contrast) & inner
    ys, xs = np.nonzero(peak)
    order = np.argsort(g[ys, xs])
    kept: list[tuple[int, int]] = []
    min_d2 = (0.6 * spacing * PATCH / 2) ** 2
    for k in order.tolist():
        y, x = int(ys[k]), int(xs[k])
        if all((y - a) ** 2 + (x - b) ** 2 >= min_d2 for a, b in kept):
            kept.append((y, x))
    pts = np.array(
        [((x + 0.5) / (PATCH / 2) - 1, (y + 0.5) / (PATCH / 2) - 1) for y, x in kept],
        dtype=np.float64,
    ).reshape(-1, 2)
    depth = np.array([face - g[y, x] for y, x in kept], dtype=np.float64)
    # what is dark inside the half away from every pip (print, a seam, a pip of another half)
    away = np.zeros(g.shape, dtype=np.uint8)
    lo, hi = round(0.12 * PATCH), round(0.88 * PATCH)  # a blurred seam or bar reaches in
    away[lo:hi, lo:hi] = 1
    for y, x in kept:  # a blurred pip's halo reaches about to its neighbours
        cv2.circle(away, (x, y), round(0.22 * PATCH), 0, -1)
    rest = float(face - g[away > 0].min()) if away.any() else 0.0
    return HalfPeaks(pts, depth, rest)


def bar_dip(grey: U8, center: Point, along: Point, width: float, length: float) -> float:
    """How clearly a dividing bar crosses the middle of a ``width x length`` tile at
    ``center`` (``along`` its long axis), in units of the face's own unevenness: the tile is
    sampled into a patch and cut lengthwise into three bands across its middle 60%; in each,
    the profile along the tile must dip within a tenth of a width of the centre, against its
    median and spread between a quarter and three quarters of the way out along each half.
    The weakest band's dip counts, and 0 if the bands' dips are not in line (a bar crosses
    straight at right angles; the edge of another tile lying over this one does not). A
    dividing bar blurred to a shadow of itself still gives a dip many times that spread; a
    blank face gives about 1-2."""
    n_along, n_across = 2 * PATCH, PATCH
    patch = _sampled(grey, center, along, (length, width), (n_along, n_across)).astype(np.float32)
    x = (np.arange(n_along) + 0.5) / n_along - 0.5  # along the tile, in tile lengths
    middle = np.flatnonzero(np.abs(x) <= 0.1 * width / length)
    face = (np.abs(x) >= 0.125) & (np.abs(x) <= 0.375)
    edges = np.linspace(0.2 * n_across, 0.8 * n_across, 4).round().astype(int)
    dips: list[float] = []
    where: list[int] = []
    for lo, hi in pairwise(edges.tolist()):
        profile = patch[lo:hi].mean(axis=0)
        level = float(np.median(profile[face]))
        spread = float(np.median(np.abs(profile[face] - level))) * 1.4826 + 0.5
        k = int(middle[np.argmin(profile[middle])])
        dips.append((level - float(profile[k])) / spread)
        where.append(k)
    if max(where) - min(where) > max(1, round(0.03 * n_along)):
        return 0.0
    return min(dips)
