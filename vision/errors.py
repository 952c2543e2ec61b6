"""Errors of the vision package."""

from __future__ import annotations

import os


class VisionError(Exception):
    """Root of every error raised by ``vision``."""

    exit_code = 2


class ImageReadError(VisionError, OSError):
    """An image or video could not be read or decoded."""


class CalibrationError(VisionError, ValueError):
    """Calibration failed (e.g. markers not found) or a table file is invalid."""


class FrameSourceError(VisionError, OSError):
    """A camera or video source failed or disappeared."""


class InvalidImageError(VisionError, ValueError):
    """An array handed to recognition is not an image it can read (empty, wrong dtype/shape)."""


class TruthFormatError(VisionError, ValueError):
    """A ground-truth file for evaluation is missing or malformed."""


class ImageFileError(ImageReadError):
    """An image file was refused: missing, not a file, empty, too big, not an image, corrupt.

    ``path`` is the file as given and ``reason`` the cause alone (for a caller that names the
    file itself); ``str()`` is one line naming both.
    """

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        self.path = os.fspath(path)
        self.reason = reason
        super().__init__(f"cannot read image {printable(self.path)}: {reason}")

    def __reduce__(self) -> tuple[type[ImageFileError], tuple[str, str]]:
        return (type(self), (self.path, self.reason))


class ImageTooLargeError(ImageFileError):
    """An image file is over the reader's limits: bytes in the file or pixels in its header."""


class ImageWriteError(VisionError, OSError):
    """An image could not be written (e.g. ``--annotate`` into a directory that refuses it)."""


def printable(text: str) -> str:
    """``text`` (a path, say) with control characters escaped, so a message stays one line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
