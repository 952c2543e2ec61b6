"""Argument types shared by the ``vision`` and ``fixture`` sub-commands."""

from __future__ import annotations

import argparse


def seed_arg(text: str) -> int:
    """argparse type of a seed: a whole number, 0 or more (the renderers' random streams
    take no negative seed)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value
