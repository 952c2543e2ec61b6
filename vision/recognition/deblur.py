"""How blurred a frame is, and the frame with that blur taken back out.

An out-of-focus camera or a dirty lens spreads each point over a few pixels. At 1280x720 a
pip is about 4.5 px across and the dividing bar and the seam between touching tiles about a
pixel: a blur of sigma 1-1.5 px leaves the pips visible but wipes out the bars and seams the
reader finds tiles by. Both stages here are plain functions over a grey ``uint8`` crop.

- :func:`blur_sigma` measures the blur from the frame itself: a step edge blurred by a Gaussian
  of sigma ``s`` has its steepest gradient in proportion to ``1 / s``; blurring it again by a
  known ``r`` divides that gradient by ``sqrt(s**2 + r**2) / s``. The median of that ratio over
  the frame's strongest edges gives ``s`` (the "re-blur" estimate). The figure includes the
  sharpness the optics and resampling already lack; :func:`added_blur` takes that floor out.
- :func:`deblurred` is a Wiener deconvolution with a Gaussian point spread function: each
  frequency is divided by the blur's response, damped where the response falls under the noise
  (``noise_to_signal``), so sensor noise is not blown up.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

U8 = npt.NDArray[np.uint8]


def _gradient(grey: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    # not cv2.magnitude: its threads split the frame at varying places, and a vector and a
    # scalar square root differ in the last bit, so the same frame gave another blur figure.
    # In place: the same sqrt(gx * gx + gy * gy), without three frame-sized temporaries.
    np.multiply(gx, gx, out=gx)
    np.multiply(gy, gy, out=gy)
    np.add(gx, gy, out=gx)
    return np.asarray(np.sqrt(gx, out=gx), dtype=np.float32)


def _high_percentile(values: npt.NDArray[np.float32], q: float) -> float:
    """``np.percentile(values, q)`` for a high ``q`` (linear), to the bit, without sorting the
    whole frame: only the values above a bound taken from a sample are partitioned (the bound
    is checked to leave every value needed above it, else the whole array is used)."""
    flat = values.ravel()
    n = flat.size
    x = (n - 1) * (q / 100.0)  # numpy's virtual index for "linear"
    lo = math.floor(x)
    need = n - lo  # the order statistics lo, lo + 1, ... up to the largest
    step = 64
    if n < 64 * step or lo + 1 >= n:
        return float(np.percentile(values, q))
    sample = flat[::step]
    # a bound well below the q-th percentile of the sample (the sample's q-th, less 4 need's
    # worth of its elements): the values above it are few, and include all that are needed
    k = max(0, sample.size - 1 - 4 * (need // step + 1))
    bound = np.partition(sample, k)[k]
    above = flat[flat >= bound]
    if above.size < need:
        return float(np.percentile(values, q))
    i = above.size - need  # the lo-th smallest of the whole array is the i-th smallest here
    part = np.partition(above, (i, i + 1))
    pair = np.array([part[i], part[i + 1]], dtype=values.dtype)
    # numpy interpolates with gamma = x - floor(x); on the pair the virtual index is gamma
    return float(np.quantile(pair, x - lo))


def blur_sigma(grey: U8, *, probe: float = 1.5, strong_rel: float = 0.5) -> float:
    """The frame's blur as a Gaussian sigma in pixels, by the re-blur estimate (0.0 when the
    frame has no edge). ``probe``: the sigma of the second blur. Edges counted: local maxima of
    the gradient at least ``strong_rel`` of the 99.5th percentile gradient."""
    g = grey.astype(np.float32)
    m1 = _gradient(g)
    top = _high_percentile(m1, 99.5)
    if top <= 0:
        return 0.0
    m2 = _gradient(np.asarray(cv2.GaussianBlur(g, (0, 0), probe), dtype=np.float32))
    peaks = (m1 >= cv2.dilate(m1, np.ones((3, 3), np.uint8))) & (m1 > strong_rel * top)
    if not peaks.any():
        return 0.0
    ratio = float(np.median(m1[peaks] / np.maximum(m2[peaks], 1e-3)))
    if ratio <= 1.0:
        return math.inf  # re-blurring did not soften anything: no measurable edge
    return probe / math.sqrt(ratio * ratio - 1.0)


def added_blur(measured: float, *, floor: float, gain: float) -> float:
    """The blur added to a sharp rendering of the same scene, from :func:`blur_sigma`'s
    figure: ``sqrt(gain * (measured**2 - floor**2))`` (0 at or below ``floor``, the figure of
    a frame in focus). ``floor`` and ``gain`` are fitted on rendered scenes of known blur."""
    if not math.isfinite(measured) or measured <= floor:
        return 0.0
    return math.sqrt(gain * (measured * measured - floor * floor))


def deblurred(grey: U8, sigma: float, *, noise_to_signal: float) -> U8:
    """``grey`` with a Gaussian blur of ``sigma`` px taken out by Wiener deconvolution (the
    borders are mirrored, so a tile at the edge of the crop does not ring)."""
    if sigma <= 0:
        return grey
    h, w = grey.shape
    pad = math.ceil(3 * sigma) + 2
    big_h = cv2.getOptimalDFTSize(h + 2 * pad)
    big_w = cv2.getOptimalDFTSize(w + 2 * pad)
    padded = cv2.copyMakeBorder(
        grey, pad, big_h - h - pad, pad, big_w - w - pad, cv2.BORDER_REFLECT_101
    ).astype(np.float32)
    spectrum = np.asarray(cv2.dft(padded, flags=cv2.DFT_COMPLEX_OUTPUT), dtype=np.float32)
    fy = np.fft.fftfreq(big_h).astype(np.float32)[:, None]
    fx = np.fft.fftfreq(big_w).astype(np.float32)[None, :]
    otf = np.exp(np.float32(-2 * math.pi**2 * sigma**2) * (fx * fx + fy * fy))
    gain = (otf / (otf * otf + np.float32(noise_to_signal))).astype(np.float32)
    sharp = cv2.idft(spectrum * gain[:, :, None], flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)
    out = np.clip(sharp[pad : pad + h, pad : pad + w], 0, 255)
    return np.asarray(np.rint(out), dtype=np.uint8)
