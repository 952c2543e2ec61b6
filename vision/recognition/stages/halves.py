"""Stage 5: reading a proposal's two halves on the pip grid.

Each half (on one side of the bar, ``w`` across and as long as its measured end, see
``end_trust``) is resampled to ``half_px`` square, the bar along its first column. The ink
contrast is averaged over a pip's core at the nine positions of a 3x3 grid (spacings
``grid_spacings``, centre shifted by ``grid_shifts``, both shares of the side: sets differ).
A half is blank when no position at the middle spacing holds ink; otherwise the standard
layout (any of its images under the square's symmetries) whose weakest pip position most
exceeds its strongest free position is the reading, kept only where the pips are ink
(``pip_share``) and the free positions are not (``free_share``). Counting positions, not
blobs, reads pips merged by blur or pips touching the bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.layouts import grid_masks
from vision.recognition.stages.ink import Ink
from vision.recognition.stages.outline import Proposal
from vision.recognition.stages.params import StagedParams

F32 = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Half:
    """``pips`` (None: unreadable), ``confidence`` in [0, 1] and ``center`` (working px)."""

    pips: int | None
    confidence: float
    center: tuple[float, float]


@cache
def _masks(max_pips: int) -> tuple[int, ...]:
    return tuple(sorted(m for m in grid_masks() if 0 < m.bit_count() <= max_pips))


def read(prop: Proposal, ink: Ink, p: StagedParams, max_pips: int = 6) -> tuple[Half, Half]:
    """The two halves of ``prop``: first along ``+axis``, then ``-axis``."""
    return read_all([prop], ink, p, max_pips)[0]


def read_all(
    props: list[Proposal], ink: Ink, p: StagedParams, max_pips: int = 6
) -> list[tuple[Half, Half]]:
    """The two halves of each of ``props`` (see :func:`read`), resampled and read together."""
    if not props:
        return []
    s = p.half_px
    frames, centres, pips = [], [], []
    for prop in props:
        c, u, n, w = np.array(prop.center), np.array(prop.across), np.array(prop.axis), prop.width
        for sign, end in ((1.0, prop.ends[0]), (-1.0, prop.ends[1])):
            length = w + p.end_trust * (end - w)
            # patch pixel (x, y) samples the image at ``origin + x * along + y * across``
            frames.append((c - u * w / 2, sign * n * length / s, u * w / s))
            centre = c + sign * n * length / 2
            centres.append((float(centre[0]), float(centre[1])))
            pips.append(ink.pip_px * s / w)
    contrast, face = (_resampled(image, frames, s) for image in (ink.contrast, ink.face))
    # on a table at least as light as the faces (ivory on white paper: in the darkest
    # channel the faces are the darker), a face is not told from the table by its level
    whole = _faces_whole(face, ink.lit if ink.table < ink.lit else 0.0, p)
    core = np.zeros(contrast.shape, dtype=np.float32)
    radii = np.array([max(1, round(p.pip_core * d)) for d in pips])
    for r in np.unique(radii[whole]).tolist():
        at = np.flatnonzero(whole & (radii == r))
        core[at] = _box_means(contrast[at], r)
    counts, confidence = _read_cores(core, p, ink.pip_threshold, max_pips)
    out = [
        Half(int(k), float(c), where) if ok and k >= 0 else Half(None, 0.0, where)
        for k, c, ok, where in zip(counts, confidence, whole, centres, strict=True)
    ]
    return [(out[2 * k], out[2 * k + 1]) for k in range(len(props))]


#: Most halves resampled, or matched with the layouts, at once (the memory it takes: some
#: 3 MB for the maps, 4 for the matching).
_CHUNK = 128


def _resampled(
    image: npt.NDArray[np.uint8],
    frames: Sequence[tuple[npt.NDArray[np.float64], ...]],
    s: int,
) -> npt.NDArray[np.uint8]:
    """``(len(frames), s, s)``: ``image`` resampled (bilinear, 0 outside it) on each frame's
    grid, ``origin + x * along + y * across`` for patch pixel ``(x, y)``."""
    o, a, b = (np.array([f[k] for f in frames], dtype=np.float64) for k in range(3))
    x, y = np.meshgrid(np.arange(s, dtype=np.float64), np.arange(s, dtype=np.float64))
    out = np.empty((len(frames), s, s), dtype=np.uint8)
    for at in range(0, len(frames), _CHUNK):
        c = slice(at, at + _CHUNK)  # the maps of a chunk at a time: (chunk * s, s) each
        mx, my = (
            (o[c, k, None, None] + x * a[c, k, None, None] + y * b[c, k, None, None])
            .astype(np.float32)
            .reshape(-1, s)
            for k in (0, 1)
        )
        out[at : at + _CHUNK] = cv2.remap(
            image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT
        ).reshape(-1, s, s)
    return out


def _box_means(patches: npt.NDArray[np.uint8], r: int) -> F32:
    """``cv2.blur`` of each patch (``(N, s, s)``) by ``2r + 1`` square, its edges reflected
    (OpenCV's default), in one pass: each patch is padded on its own, so none reaches the
    next."""
    n, s, _ = patches.shape
    padded = np.pad(patches.astype(np.float32), ((0, 0), (r, r), (r, r)), mode="reflect")
    blurred = cv2.blur(padded.reshape(-1, s + 2 * r), (2 * r + 1, 2 * r + 1))
    return np.asarray(blurred, dtype=np.float32).reshape(n, s + 2 * r, s + 2 * r)[:, r:-r, r:-r]


def _read_cores(
    core: F32, p: StagedParams, t: float, max_pips: int
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]]:
    """Each half's count (-1: unreadable) and confidence from ``core`` (``(N, s, s)``, its ink
    averaged over a pip's core, the bar along the first column), at the ink threshold
    ``t``."""
    n, s, _ = core.shape
    ys, xs = _placements(s, (p.blank_spacing,), (0.0,))
    peak = core[:, ys[0], xs[0]].max(axis=1).astype(np.float64)
    blank = peak < p.blank_share * t
    counts = np.zeros(n, dtype=np.intp)
    confidence = np.clip(1 - peak / (p.blank_share * t), 0, 1)
    ys, xs = _placements(s, p.grid_spacings, p.grid_shifts)
    on = _on_bits(max_pips)  # (layouts, 9)
    for at in range(0, n, _CHUNK):
        part = np.arange(at, min(n, at + _CHUNK))
        part = part[~blank[part]]
        if not len(part):
            continue
        vals = core[part[:, None, None], ys[None], xs[None]]  # (N, placements, 9)
        # the weakest pip and the strongest free position of each layout (N, placements, layouts)
        lows = np.full((*vals.shape[:2], len(on)), np.inf, dtype=np.float32)
        highs = np.zeros_like(lows)
        for k in range(9):
            v = vals[:, :, k, None]
            np.minimum(lows, np.where(on[:, k], v, np.inf), out=lows)
            np.maximum(highs, np.where(on[:, k], 0.0, v), out=highs)
        best = (lows - highs).reshape(len(part), -1).argmax(axis=1)
        lo = lows.reshape(len(part), -1)[np.arange(len(part)), best].astype(np.float64)
        hi = highs.reshape(len(part), -1)[np.arange(len(part)), best].astype(np.float64)
        layout = best % on.shape[0]
        ok = (lo >= p.pip_share * t) & (hi < p.free_share * lo)
        counts[part] = np.where(ok, on[layout].sum(axis=1), -1)
        confidence[part] = np.where(ok, np.clip((lo - hi) / t, 0, 1), 0.0)
    return counts, confidence


@cache
def _on_bits(max_pips: int) -> npt.NDArray[np.bool_]:
    """``(layouts, 9)``: the grid positions of every standard layout of 1..max_pips pips."""
    return np.array([[bool(m >> k & 1) for k in range(9)] for m in _masks(max_pips)])


@cache
def _placements(
    s: int, spacings: tuple[float, ...], shifts: tuple[float, ...]
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Rows and columns ``(placements, 9)`` of the 3x3 grid at every spacing and shift, in the
    bit order of ``grid_masks``."""
    cells = [(ix, iy) for ix in (-1, 0, 1) for iy in (-1, 0, 1)]
    xs, ys = [], []
    for sp in spacings:
        for dx in shifts:
            for dy in shifts:
                xs.append([(0.5 + dx) * s + ix * sp * s for ix, _ in cells])
                ys.append([(0.5 + dy) * s + iy * sp * s for _, iy in cells])
    return _clipped(ys, s), _clipped(xs, s)


def _clipped(v: list[list[float]], s: int) -> npt.NDArray[np.intp]:
    return np.asarray(np.clip(np.rint(np.array(v)), 0, s - 1), dtype=np.intp)


def _faces_whole(
    faces: npt.NDArray[np.uint8], lit: float, p: StagedParams
) -> npt.NDArray[np.bool_]:
    """For each of ``faces`` (``(N, s, s)``, halves resampled), whether it is one lit face: at
    least ``lit`` (a table darker than the tiles or its border is no blank half) and nearly all
    at its own level."""
    m = round(p.face_margin * faces.shape[1])
    inner = faces[:, m:-m, m:-m].astype(np.float32)
    level = np.median(faces.reshape(len(faces), -1), axis=1).astype(np.float32)
    near = np.abs(inner - level[:, None, None]) < np.maximum(18.0, 0.25 * level)[:, None, None]
    return np.asarray((level >= lit) & (near.mean(axis=(1, 2)) >= p.face_share))
