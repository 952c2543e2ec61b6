"""Reading user files with a bound on what is actually read: ``/dev/zero``, a pipe, stdin or a
huge sparse file are refused after ``limit + 1`` bytes, whatever ``stat`` says. JSON parsing that
turns a nesting too deep for the parser into one line instead of a ``RecursionError``."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import IO, Any

from controller.errors import ControllerError


class InputTooLargeError(ControllerError, ValueError):
    """An input longer than its limit (exit 2)."""


class UnreadableInputError(ControllerError, OSError):
    """An input that cannot be read at all (exit 2)."""


def _size(n: int) -> str:
    return f"{n / 2**20:g} MB" if n >= 2**20 else f"{n} bytes"


def read_bytes(path: str | os.PathLike[str], limit: int, what: str = "file") -> bytes:
    """At most ``limit`` bytes of ``path``; longer is refused having read ``limit + 1``."""
    # O_NONBLOCK: a FIFO nobody writes to does not block the open; cleared before reading.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise UnreadableInputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UnreadableInputError(f"{path}: is a directory, not a {what}")
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise InputTooLargeError(f"{path}: longer than {_size(limit)}, too long for a {what}")
        if not stat.S_ISREG(info.st_mode):
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as stream:
            data = stream.read(limit + 1)
    except OSError as exc:
        if isinstance(exc, ControllerError):
            raise
        raise UnreadableInputError(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > limit:
        raise InputTooLargeError(f"{path}: longer than {_size(limit)}, too long for a {what}")
    return data


def read_stream(stream: IO[bytes], limit: int, where: str, what: str = "file") -> bytes:
    """At most ``limit`` bytes of an open binary stream (stdin)."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputTooLargeError(f"{where}: longer than {_size(limit)}, too long for a {what}")
    return data


def decode(data: bytes, where: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableInputError(f"{where}: not UTF-8 text ({exc.reason})") from None


def read_text(path: str | os.PathLike[str] | Path, limit: int, what: str = "file") -> str:
    return decode(read_bytes(path, limit, what), str(path))


def loads(text: str | bytes, where: str, error: type[Exception] = UnreadableInputError) -> Any:
    """``json.loads``; a nesting too deep for the parser raises ``error`` (one line).
    JSON syntax errors are left to the caller (``json.JSONDecodeError``)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise error(f"{where}: JSON nested too deeply to read") from None
