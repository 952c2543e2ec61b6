"""``domino-table scoreboard`` and other live-state sub-commands (MQTT, web)."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add live-state sub-commands."""
