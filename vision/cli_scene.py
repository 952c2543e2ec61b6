"""CLI for calibration, markers and fixtures: ``vision markers``, ``vision calibrate``,
``fixture render``."""

from __future__ import annotations

import argparse
from typing import Any


def register(
    vision_sub: argparse._SubParsersAction[Any], fixture_sub: argparse._SubParsersAction[Any]
) -> None:
    """Add calibration actions to ``domino-table vision`` and ``domino-table fixture``."""
