"""``domino-table demo``, ``run`` and ``record``: the integrated table runtime."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add runtime sub-commands."""
