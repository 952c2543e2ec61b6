"""CLI for recognition: ``vision identify``, ``vision eval``."""

from __future__ import annotations

import argparse
from typing import Any


def register(vision_sub: argparse._SubParsersAction[Any]) -> None:
    """Add recognition actions to ``domino-table vision``."""
