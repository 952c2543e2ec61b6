"""Stage 5: reading a proposal's two halves on the pip grid.

Each half is resampled to ``half_px`` square (the bar along its first column) and its ink
averaged over a pip's core at the positions of a 3x3 grid (:func:`_read_cores`): counting
positions, not blobs, reads pips merged by blur or touching the bar.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product

import cv2
import numpy as np
import numpy.typing as npt

from vision.recognition.halfnet import resampled
from vision.recognition.layouts import grid_masks
from vision.recognition.stages.arrays import F32, F64, U8, Idx
from vision.recognition.stages.ink import Ink
from vision.recognition.stages.outline import Proposal
from vision.recognition.stages.params import StagedParams


@dataclass(frozen=True, slots=True)
class Half:
    """``pips`` (None: unreadable), ``confidence`` in [0, 1] and ``center`` (working px)."""

    pips: int | None
    confidence: float
    center: tuple[float, float]


def read(prop: Proposal, ink: Ink, p: StagedParams, max_pips: int = 6) -> tuple[Half, Half]:
    """The two halves of ``prop``: first along ``+axis``, then ``-axis``."""
    return read_all([prop], ink, p, max_pips)[0]


def read_all(
    props: list[Proposal], ink: Ink, p: StagedParams, max_pips: int = 6
) -> list[tuple[Half, Half]]:
    """The two halves of each of ``props`` (see :func:`read`), read together. A half is ``width``
    across and as long as ``end_trust`` trusts its measured end."""
    if not props:
        return []
    s = p.half_px
    frames, centres, pips = [], [], []
    for prop in props:
        c, u, n, w = prop.frame()
        for sign, end in ((1.0, prop.ends[0]), (-1.0, prop.ends[1])):
            length = w + p.end_trust * (end - w)
            frames.append((c - u * w / 2, sign * n * length / s, u * w / s))
            centre = c + sign * n * length / 2
            centres.append((float(centre[0]), float(centre[1])))
            pips.append(ink.pip_px * s / w)
    contrast, face = resampled((ink.contrast, ink.face), frames, s)
    # on a table as light as the faces (ivory on white paper), levels do not tell them apart
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


#: Most halves matched with the layouts at once (some 3 to 4 MB).
_CHUNK = 128


def _box_means(patches: U8, r: int) -> F32:
    """``cv2.blur`` by a ``2r + 1`` square of each of ``patches`` (``(N, s, s)``), in one pass."""
    n, s, _ = patches.shape
    padded = np.pad(patches.astype(np.float32), ((0, 0), (r, r), (r, r)), mode="reflect")
    blurred = cv2.blur(padded.reshape(-1, s + 2 * r), (2 * r + 1, 2 * r + 1))
    return np.asarray(blurred, dtype=np.float32).reshape(n, s + 2 * r, s + 2 * r)[:, r:-r, r:-r]


def _read_cores(core: F32, p: StagedParams, t: float, max_pips: int) -> tuple[Idx, F64]:
    """Each half's count (-1: unreadable) and confidence from ``core`` (``(N, s, s)``, ink
    averaged over a pip's core) at ink threshold ``t``. Blank: under ``blank_share * t`` on the
    grid at ``blank_spacing``; else the layout (at any grid spacing and shift) whose weakest pip
    most exceeds its strongest free position, if that pip reaches ``pip_share * t`` and that
    free position stays under ``free_share`` of it."""
    n, s, _ = core.shape
    ys, xs = _placements(s, (p.blank_spacing,), (0.0,))
    peak = core[:, ys[0], xs[0]].max(axis=1).astype(np.float64)
    blank = peak < p.blank_share * t
    counts = np.zeros(n, dtype=np.intp)
    confidence = np.clip(1 - peak / (p.blank_share * t), 0, 1)
    ys, xs = _placements(s, p.grid_spacings, p.grid_shifts)
    on = _on_bits(max_pips)  # (layouts, 9)
    todo = np.flatnonzero(~blank)
    for at in range(0, len(todo), _CHUNK):
        part = todo[at : at + _CHUNK]
        vals = core[part[:, None, None], ys[None], xs[None]]  # (N, placements, 9)
        # the weakest pip and the strongest free position of each layout (N, placements, layouts)
        lows = np.stack([vals[..., bits].min(axis=2) for bits in on], axis=2)
        highs = np.zeros_like(lows)
        for i, bits in enumerate(on):
            if not bits.all():
                np.maximum(highs[..., i], vals[..., ~bits].max(axis=2), out=highs[..., i])
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
    masks = sorted(m for m in grid_masks() if 0 < m.bit_count() <= max_pips)
    return np.array([[bool(m >> k & 1) for k in range(9)] for m in masks])


@cache
def _placements(s: int, spacings: tuple[float, ...], shifts: tuple[float, ...]) -> tuple[Idx, Idx]:
    """Rows and columns ``(placements, 9)`` of the 3x3 grid at every spacing and centre shift
    (shares of ``s``), in the bit order of ``grid_masks``."""
    cells = list(product((-1, 0, 1), repeat=2))
    xs, ys = [], []
    for sp, dx, dy in product(spacings, shifts, shifts):
        xs.append([(0.5 + dx) * s + ix * sp * s for ix, _ in cells])
        ys.append([(0.5 + dy) * s + iy * sp * s for _, iy in cells])
    rows, cols = np.asarray(np.clip(np.rint(np.array([ys, xs])), 0, s - 1), dtype=np.intp)
    return rows, cols


def _faces_whole(faces: U8, lit: float, p: StagedParams) -> npt.NDArray[np.bool_]:
    """Whether each of ``faces`` (``(N, s, s)``) is one lit face: its level at least ``lit`` (a
    darker table is no blank half) and nearly all its inner part at that level."""
    m = round(p.face_margin * faces.shape[1])
    inner = faces[:, m:-m, m:-m].astype(np.float32)
    level = np.median(faces.reshape(len(faces), -1), axis=1).astype(np.float32)
    near = np.abs(inner - level[:, None, None]) < np.maximum(18.0, 0.25 * level)[:, None, None]
    return np.asarray((level >= lit) & (near.mean(axis=(1, 2)) >= p.face_share))
