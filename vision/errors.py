"""Errors of the vision package."""

from __future__ import annotations


class VisionError(Exception):
    """Root of every error raised by ``vision``."""

    exit_code = 2


class ImageReadError(VisionError, OSError):
    """An image or video could not be read or decoded."""


class CalibrationError(VisionError, ValueError):
    """Calibration failed (e.g. markers not found) or a table file is invalid."""


class FrameSourceError(VisionError, OSError):
    """A camera or video source failed or disappeared."""


class RecognitionParamsError(VisionError, ValueError):
    """Recognition parameters are malformed or out of range."""


class InvalidImageError(VisionError, ValueError):
    """An array handed to recognition is not an image it can read (empty, wrong dtype/shape)."""


class TruthFormatError(VisionError, ValueError):
    """A ground-truth file for evaluation is missing or malformed."""
