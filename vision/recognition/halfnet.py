"""A small learned classifier that reads one half of a domino tile: :func:`half_patch` warps a
half (a square, its corners in image pixels) into a ``HALF_PX`` square patch, the bar's side on
top; :func:`classify` gives the probabilities of 0..6 pips and of :data:`NOT_A_HALF` (table, a
tile's back, a patch straddling two tiles or shifted by a third of a tile or more).

The net (``models/halves.onnx``, < 150k parameters, run by ONNX Runtime on one CPU thread) was
trained only on images the project renders itself (:mod:`vision.devtools.render.photos`), by
``scripts/train_halves.py``, which reproduces it; ``scripts/eval_halves.py`` measures it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import resources
from typing import Final

import cv2
import numpy as np
import numpy.typing as npt
import onnxruntime as ort

U8 = npt.NDArray[np.uint8]
F32 = npt.NDArray[np.float32]
F64 = npt.NDArray[np.float64]

#: Side of a half's patch, pixels.
HALF_PX: Final = 32
#: Classes: 0..6 pips, then :data:`NOT_A_HALF`.
N_CLASSES: Final = 8
NOT_A_HALF: Final = 7
#: Smallest contrast (grey levels) :func:`normalise` divides by, so a flat patch (table) is not
#: blown up into noise.
MIN_CONTRAST: Final = 24.0
#: Largest factor :func:`half_patch` shrinks by in one area-averaging step (larger halves are
#: sampled at that many pixels per patch pixel; a half 8 times the patch side is plenty).
_MAX_OVERSAMPLE: Final = 8
_MODEL: Final = "halves.onnx"


def half_patch(grey: U8, corners: npt.ArrayLike) -> U8:
    """One half of a tile warped into a ``(HALF_PX, HALF_PX)`` uint8 patch.

    ``grey``: ``(H, W)`` uint8 (the darkest channel). ``corners``: ``(4, 2)``, the half
    square's corners in image pixels (pixel centres at integers, as in OpenCV), going round
    from the two on the bar's side; corner 0 goes to the patch's top-left outer corner, 1
    top-right, 2 bottom-right, 3 bottom-left (a homography). Parts outside the image read as
    the nearest edge pixel. A half larger than the patch is sampled at k (<= 8) image pixels
    per patch pixel and area-averaged down, so pips do not alias."""
    if not isinstance(grey, np.ndarray) or grey.dtype != np.uint8:
        raise ValueError(f"half_patch needs a uint8 grey image, got {_describe(grey)}")
    if grey.ndim != 2 or grey.shape[0] < 1 or grey.shape[1] < 1:
        raise ValueError(f"half_patch needs a (H, W) grey image, got shape {grey.shape}")
    quad = np.asarray(corners, dtype=np.float64)
    if quad.shape != (4, 2):
        raise ValueError(f"half_patch needs (4, 2) corners, got shape {quad.shape}")
    if not np.isfinite(quad).all():
        raise ValueError("half_patch needs finite corners")
    sides = np.hypot(*(np.roll(quad, -1, axis=0) - quad).T)
    if sides.min() < 1e-3:
        raise ValueError(f"half_patch needs a non-degenerate quadrilateral, got {quad.tolist()}")
    k = int(min(_MAX_OVERSAMPLE, max(1, round(float(sides.max()) / HALF_PX))))
    side = HALF_PX * k
    lo, hi = -0.5, side - 0.5
    dst = np.array([(lo, lo), (hi, lo), (hi, hi), (lo, hi)], dtype=np.float32)
    h = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    big = cv2.warpPerspective(
        grey, h, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    if k > 1:
        big = cv2.resize(big, (HALF_PX, HALF_PX), interpolation=cv2.INTER_AREA)
    out: U8 = np.ascontiguousarray(big, dtype=np.uint8)
    return out


@functools.cache
def _pixel_grid(s: int) -> tuple[F64, F64]:
    """``np.meshgrid`` of ``0..s-1`` twice (x, then y), float64: shared, never written."""
    x, y = np.meshgrid(np.arange(s, dtype=np.float64), np.arange(s, dtype=np.float64))
    return x, y


def resampled(
    images: Sequence[U8], frames: npt.ArrayLike, s: int, border: int = cv2.BORDER_CONSTANT
) -> list[U8]:
    """For each of ``images``, ``(N, s, s)``: it resampled (bilinear; ``border`` outside it, 0
    for the default) on each of ``frames`` ``(N, 3, 2)``, ``origin, along, across``, at
    ``origin + x * along + y * across`` for patch pixel ``(x, y)``; 128 frames per remap."""
    frame = np.asarray(frames, dtype=np.float64).reshape(-1, 3, 2)[..., None, None]
    x, y = _pixel_grid(s)
    out = [np.empty((len(frame), s, s), dtype=np.uint8) for _ in images]
    for at in range(0, len(frame), 128):
        c = slice(at, at + 128)
        maps = (frame[c, 0] + x * frame[c, 1] + y * frame[c, 2]).astype(np.float32)
        mx, my = maps[:, 0].reshape(-1, s), maps[:, 1].reshape(-1, s)
        for image, patches in zip(images, out, strict=True):
            warped = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=border)
            patches[c] = warped.reshape(-1, s, s)
    return out


def half_patches(grey: U8, quads: npt.ArrayLike) -> U8:
    """:func:`half_patch` of each of ``quads`` ``(N, 4, 2)``, parallelograms (corner 2 is
    ignored: the pipeline's halves are squares), all warped at once: ``(N, HALF_PX, HALF_PX)``."""
    q = np.asarray(quads, dtype=np.float64).reshape(-1, 4, 2)
    origin, along, across = q[:, 0], q[:, 1] - q[:, 0], q[:, 3] - q[:, 0]
    longest = np.maximum(np.hypot(*along.T), np.hypot(*across.T))
    ks = np.clip(np.rint(longest / HALF_PX), 1, _MAX_OVERSAMPLE).astype(np.int64)
    out = np.empty((len(q), HALF_PX, HALF_PX), dtype=np.uint8)
    for k in np.unique(ks).tolist():
        side = HALF_PX * k
        at = np.flatnonzero(ks == k)
        a, b = along[at] / side, across[at] / side  # one patch pixel; sampled at its centre
        frames = np.stack([origin[at] + (a + b) / 2, a, b], axis=1)
        big = resampled([grey], frames, side, cv2.BORDER_REPLICATE)[0].reshape(-1, side)
        if k > 1:  # area-averaged down, as half_patch
            big = np.asarray(
                cv2.resize(big, (HALF_PX, HALF_PX * len(at)), interpolation=cv2.INTER_AREA)
            )
        out[at] = big.reshape(len(at), HALF_PX, HALF_PX)
    return out


def normalise(patches: U8 | F32) -> F32:
    """What the net sees, ``(N, 1, HALF_PX, HALF_PX)`` float32, of ``patches`` ``(N, HALF_PX,
    HALF_PX)`` (uint8, or float for training): ``(p - median) / max(p99 - p1, MIN_CONTRAST)``
    per patch, so a half comes out near 0 with pips near -1 whatever the light. The percentiles
    are ``np.percentile``'s (linear) from each patch sorted: uint8 rows sort by radix, some 15
    times faster than its partitioning."""
    x = np.asarray(patches).reshape(len(patches), -1)
    ranked = np.sort(x, axis=1, kind="stable").astype(np.float32)
    x = x.astype(np.float32)
    at = (x.shape[1] - 1) * np.array([0.01, 0.5, 0.99])
    lo = np.floor(at).astype(np.intp)
    hi = np.minimum(lo + 1, x.shape[1] - 1)
    below, above = ranked[:, lo], ranked[:, hi]
    p1, med, p99 = (below + (above - below) * (at - lo).astype(np.float32)).T
    scale = np.maximum(p99 - p1, np.float32(MIN_CONTRAST))
    out: F32 = ((x - med[:, None]) / scale[:, None]).astype(np.float32)
    return out.reshape(len(patches), 1, HALF_PX, HALF_PX)


@functools.cache
def _net() -> ort.InferenceSession:
    """The shipped net, read once per process, run on the calling thread alone (the reader is
    one thread beside the camera's and the broker's). ONNX Runtime runs this small net some 4
    times faster than OpenCV's dnn, to the same probabilities within 1e-6."""
    data = resources.files("vision.recognition.models").joinpath(_MODEL).read_bytes()
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    return ort.InferenceSession(data, options, providers=["CPUExecutionProvider"])


def classify(patches: U8) -> F32:
    """``(N, N_CLASSES)`` float32: the probabilities of 0..6 pips and of :data:`NOT_A_HALF` for
    each of ``patches`` (``(N, HALF_PX, HALF_PX)`` uint8, N may be 0), in one forward pass."""
    if not isinstance(patches, np.ndarray) or patches.dtype != np.uint8:
        raise ValueError(f"classify needs uint8 patches, got {_describe(patches)}")
    if patches.ndim != 3 or patches.shape[1:] != (HALF_PX, HALF_PX):
        raise ValueError(
            f"classify needs patches of shape (N, {HALF_PX}, {HALF_PX}), got {patches.shape}"
        )
    if len(patches) == 0:
        return np.zeros((0, N_CLASSES), dtype=np.float32)
    (out,) = _net().run(None, {"patch": normalise(patches)})
    logits = np.asarray(out, dtype=np.float64).reshape(len(patches), N_CLASSES)
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    probs: F32 = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    return probs


def _describe(x: object) -> str:
    if isinstance(x, np.ndarray):
        return f"{x.dtype} array of shape {x.shape}"
    return type(x).__name__
