"""The table file (``table.json``): read (validated, see :func:`~vision.calibration.geometry.
parse_table`) and written."""

from __future__ import annotations

import json
from pathlib import Path

from vision.calibration.geometry import TableGeometry, parse_table
from vision.errors import CalibrationError

MAX_TABLE_BYTES = 4 * 1024 * 1024
"""Longest table file read (a real one is a few kB)."""


def load_table(path: str | Path) -> TableGeometry:
    """Read and validate a table file."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            raw = f.read(MAX_TABLE_BYTES + 1)  # bounded, whatever the file is (/dev/zero)
        if len(raw) > MAX_TABLE_BYTES:
            raise CalibrationError(f"{p}: longer than {MAX_TABLE_BYTES} bytes, not a table file")
        data = json.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise CalibrationError(f"{p}: cannot be read: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise CalibrationError(f"{p}: not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{p}: not JSON: {exc}") from exc
    except RecursionError:
        raise CalibrationError(f"{p}: JSON nested too deeply for a table file") from None
    return parse_table(data, str(p))


def save_table(geometry: TableGeometry, path: str | Path) -> None:
    Path(path).write_text(json.dumps(geometry.to_json(), indent=2) + "\n", encoding="utf-8")
