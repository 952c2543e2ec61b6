"""The table file (``table.json``): read (validated, see :func:`~vision.calibration.geometry.
parse_table`) and written."""

from __future__ import annotations

import json
from pathlib import Path

from vision.calibration.geometry import TableGeometry, parse_table
from vision.errors import CalibrationError
from vision.jsonfile import read_json

MAX_TABLE_BYTES = 4 * 1024 * 1024
"""Longest table file read (a real one is a few kB)."""


def load_table(path: str | Path) -> TableGeometry:
    """Read and validate a table file."""
    return parse_table(read_json(path, MAX_TABLE_BYTES, CalibrationError, "table"), str(path))


def save_table(geometry: TableGeometry, path: str | Path) -> None:
    Path(path).write_text(json.dumps(geometry.to_json(), indent=2) + "\n", encoding="utf-8")
