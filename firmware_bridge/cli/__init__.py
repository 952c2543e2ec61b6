"""``domino-table device-sim`` and other seat-device sub-commands."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add seat-device sub-commands."""
    from firmware_bridge.cli import sim  # light: standard library only at import

    parser = sub.add_parser(
        "device-sim",
        help="simulated seat device on a pseudo-terminal (replay or keyboard)",
        description=sim.__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sim.add_arguments(parser)
    parser.set_defaults(handler=_device_sim)


def _device_sim(args: argparse.Namespace) -> int:
    from firmware_bridge.cli import sim

    return sim.run(args)
