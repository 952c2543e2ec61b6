"""Reading image files: :func:`read_image`, with limits a photo of the table never reaches.

A file is refused with an :class:`~vision.errors.ImageFileError` (one line naming the file and
the reason) when it is missing, a directory, empty, more than :data:`MAX_FILE_BYTES` long, not
an image, truncated or corrupt, and with an :class:`~vision.errors.ImageTooLargeError` when its
header declares more than :data:`MAX_PIXELS` pixels: PNG, JPEG, BMP, GIF, WebP and TIFF
headers are read here before anything is decoded; other formats are held to OpenCV's own limit
while decoding (2**30 pixels unless ``OPENCV_IO_MAX_IMAGE_PIXELS`` was set before ``cv2`` was
first imported; it is read once, at import, so this module does not set it) and to
:data:`MAX_PIXELS` after.

Decoding goes through ``cv2.imdecode`` with ``IMREAD_COLOR``: grey, alpha and 16-bit images
come back as 8-bit BGR, turned as their EXIF orientation says.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import struct
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import ImageFileError, ImageTooLargeError

#: Longest image file read (bytes): a 12 MP JPEG is a few MB, a 12 MP PNG about 25 MB.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: Most pixels an image may have (its header is checked before decoding): 50 megapixels.
MAX_PIXELS = 50_000_000
#: Endings of the files ``vision identify`` reads from a directory (compared in lower case).
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")

U8 = npt.NDArray[np.uint8]

# The codecs under OpenCV (libpng, libjpeg) print their complaints to the process's stderr, and
# libjpeg decodes a corrupt JPEG with only such a warning: decoding runs with file descriptor 2
# sent to a temporary file, read afterwards (one decode at a time, so that no other thread of
# this module loses its stderr meanwhile).
_DECODE_LOCK = threading.Lock()
_JPEG_CORRUPT = re.compile(r"Corrupt JPEG data|Premature end of JPEG file")
_CV_ERROR = re.compile(r".*OpenCV\(.*?error: \([^)]*\) (.*?)( in function '.*')?$")
_LOG_PREFIX = re.compile(r"^\[\s*\w+:[^\]]*\]\s+(global\s+)?\S+:\d+\s+(\S+\s+)?")


def read_image(
    path: str | os.PathLike[str],
    *,
    max_bytes: int = MAX_FILE_BYTES,
    max_pixels: int = MAX_PIXELS,
) -> U8:
    """The image in file ``path`` as an ``(H, W, 3)`` uint8 BGR array.

    At most ``max_bytes + 1`` bytes are read from the file (so ``/dev/zero``, a pipe or a huge
    sparse file are refused without being read whole), and an image whose header declares more
    than ``max_pixels`` pixels is refused before it is decoded.
    """
    data = _read_bytes(path, max_bytes)
    kind, size = image_header(data)
    if size is not None:
        _check_pixels(path, size, max_pixels)
    image, messages, failure = _decode(data)
    if image is None:
        raise _undecodable(path, kind, messages, failure)
    if kind == "JPEG" and _JPEG_CORRUPT.search(messages):
        raise ImageFileError(path, f"corrupt JPEG data ({_first_message(messages)})")
    height, width = image.shape[:2]
    _check_pixels(path, (width, height), max_pixels)
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ImageFileError(path, f"decoded as {image.shape} {image.dtype}, not 8-bit BGR")
    return np.ascontiguousarray(image, dtype=np.uint8)


def image_header(data: bytes) -> tuple[str | None, tuple[int, int] | None]:
    """``(format, (width, height))`` from the first bytes of an image file.

    ``format`` is ``"PNG"``, ``"JPEG"``, ``"BMP"``, ``"GIF"``, ``"WebP"``, ``"TIFF"`` or None
    (another format, or not an image); the size is None when it cannot be found in the header.
    """
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        if len(data) >= 24 and data[12:16] == b"IHDR":
            width, height = struct.unpack(">II", data[16:24])
            return "PNG", (width, height)
        return "PNG", None
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG", _jpeg_size(data)
    if data.startswith(b"BM") and len(data) >= 26:
        (dib,) = struct.unpack("<I", data[14:18])
        if dib == 12:
            width, height = struct.unpack("<HH", data[18:22])
        else:
            width, height = struct.unpack("<ii", data[18:26])
        return "BMP", (abs(width), abs(height))
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF", struct.unpack("<HH", data[6:10]) if len(data) >= 10 else None
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "WebP", _webp_size(data)
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "TIFF", _tiff_size(data)
    return None, None


def _read_bytes(path: str | os.PathLike[str], max_bytes: int) -> bytes:
    # O_NONBLOCK: opening a FIFO nobody writes to returns at once (and then reads as empty)
    # instead of waiting forever; it is cleared before reading.
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise ImageFileError(path, _os_reason(exc)) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ImageFileError(path, "is a directory")
        if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
            raise _too_long(path, max_bytes)
        if not stat.S_ISREG(info.st_mode) and hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as stream:
            data = stream.read(max_bytes + 1)
    except ImageFileError:
        raise
    except OSError as exc:
        raise ImageFileError(path, _os_reason(exc)) from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise _too_long(path, max_bytes)
    if not data:
        raise ImageFileError(path, "empty file")
    return data


def _os_reason(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, IsADirectoryError):
        return "is a directory"
    if isinstance(exc, PermissionError):
        return "permission denied"
    return (exc.strerror or str(exc) or type(exc).__name__).lower()


def _too_long(path: str | os.PathLike[str], max_bytes: int) -> ImageTooLargeError:
    return ImageTooLargeError(path, f"file longer than {_mb(max_bytes)} (the limit of an image)")


def _mb(n: int) -> str:
    return f"{n / 2**20:g} MB" if n >= 2**20 else f"{n} bytes"


def _check_pixels(path: str | os.PathLike[str], size: tuple[int, int], max_pixels: int) -> None:
    width, height = size
    if width * height > max_pixels:
        raise ImageTooLargeError(
            path,
            f"{width}x{height} pixels ({width * height / 1e6:.1f} megapixels), more than "
            f"the limit of {max_pixels / 1e6:g} megapixels",
        )


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from the first SOFn segment of a JPEG."""
    sof = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0x01, 0xD8) or 0xD0 <= marker <= 0xD7:  # no length
            i += 2
            continue
        if marker in (0xD9, 0xDA):  # end of image or start of scan before any frame header
            return None
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        if marker in sof:
            if i + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return width, height
        i += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        (bits,) = struct.unpack("<I", data[21:25])
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from the first image file directory of a (classic) TIFF."""
    order = "<" if data[:2] == b"II" else ">"
    if len(data) < 8:
        return None
    (ifd,) = struct.unpack(order + "I", data[4:8])
    if ifd + 2 > len(data):
        return None
    (count,) = struct.unpack(order + "H", data[ifd : ifd + 2])
    found: dict[int, int] = {}
    for k in range(count):
        at = ifd + 2 + 12 * k
        if at + 12 > len(data):
            break
        tag, kind = struct.unpack(order + "HH", data[at : at + 4])
        if tag in (256, 257) and kind in (3, 4):
            fmt = order + ("H" if kind == 3 else "I")
            found[tag] = struct.unpack(fmt, data[at + 8 : at + 8 + struct.calcsize(fmt)])[0]
    if 256 in found and 257 in found:
        return found[256], found[257]
    return None


def _decode(data: bytes) -> tuple[U8 | None, str, str]:
    """``(image or None, what the codecs printed, OpenCV's exception or "")``."""
    buffer = np.frombuffer(data, dtype=np.uint8)
    failure = ""
    with _DECODE_LOCK, _stderr_captured() as printed:
        try:
            image = cv2.imdecode(buffer, cv2.IMREAD_COLOR)
        except cv2.error as exc:
            image, failure = None, str(exc)
    return (None if image is None else np.asarray(image)), "".join(printed), failure


@contextlib.contextmanager
def _stderr_captured() -> Iterator[list[str]]:
    """Send file descriptor 2 to a temporary file meanwhile; its text is appended to the list
    yielded when the block ends."""
    printed: list[str] = []
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no stderr at all: nothing to keep quiet
        yield printed
        return
    try:
        with tempfile.TemporaryFile() as sink:
            os.dup2(sink.fileno(), 2)
            try:
                yield printed
            finally:
                os.dup2(saved, 2)
                sink.seek(0)
                printed.append(sink.read(8192).decode("utf-8", "replace"))
    finally:
        os.close(saved)


def _undecodable(
    path: str | os.PathLike[str], kind: str | None, messages: str, failure: str
) -> ImageFileError:
    if "validateInputImageSize" in failure:
        return ImageTooLargeError(path, "more pixels than OpenCV decodes")
    if kind is None:
        suffix = Path(path).suffix.lower()
        if suffix in IMAGE_SUFFIXES:
            return ImageFileError(path, f"not a {suffix[1:].upper()} image (nor one OpenCV reads)")
        return ImageFileError(path, "not an image (no format OpenCV reads)")
    detail = _first_message(messages or failure)
    return ImageFileError(
        path, f"corrupt or truncated {kind} data" + (f" ({detail})" if detail else "")
    )


def _first_message(text: str) -> str:
    """The first thing a codec printed, without OpenCV's log prefix, shortened to one line."""
    for printed in text.splitlines():
        line = _CV_ERROR.sub(r"\1", _LOG_PREFIX.sub("", printed.strip()))
        for prefix in ("libpng error: ", "libpng warning: ", "Corrupt JPEG data: "):
            line = line.removeprefix(prefix)
        line = line.strip()
        if line:
            return line if len(line) <= 80 else line[:77] + "..."
    return ""
