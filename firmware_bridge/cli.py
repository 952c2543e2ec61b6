"""``domino-table device-sim`` and other seat-device sub-commands."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add seat-device sub-commands."""
