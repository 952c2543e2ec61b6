"""The table file (``table.json``): read (validated, see :func:`~vision.calibration.geometry.
parse_table`) and written."""

from __future__ import annotations

import json
from pathlib import Path

from vision.calibration.geometry import TableGeometry, parse_table
from vision.errors import CalibrationError


def load_table(path: str | Path) -> TableGeometry:
    """Read and validate a table file."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CalibrationError(f"{p}: cannot be read: {exc.strerror or exc}") from exc
    except json.JSONDecodeError as exc:
        raise CalibrationError(f"{p}: not JSON: {exc}") from exc
    return parse_table(data, str(p))


def save_table(geometry: TableGeometry, path: str | Path) -> None:
    Path(path).write_text(json.dumps(geometry.to_json(), indent=2) + "\n", encoding="utf-8")
