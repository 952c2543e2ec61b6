"""A JSON file read with a cap on what is read (``/dev/zero`` and pipes included); every
failure is one line of the caller's error type."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def read_json(path: str | Path, limit: int, error: type[Exception], what: str = "JSON") -> Any:
    """The JSON value in ``path``, at most ``limit`` bytes of it read; ``what`` names the file
    in the messages."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            raw = f.read(limit + 1)
        if len(raw) > limit:
            raise error(f"{p}: longer than {limit} bytes, not a {what} file")
        return json.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise error(f"{p}: cannot be read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise error(f"{p}: not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise error(f"{p}: not JSON: {exc}") from None
    except RecursionError:
        raise error(f"{p}: JSON nested too deeply for a {what} file") from None
