"""``domino-table vision ...`` and ``domino-table fixture ...`` sub-commands.

Registration only: handlers import OpenCV when they run, never at import time.
"""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: argparse._SubParsersAction[Any]) -> None:
    vision = sub.add_parser("vision", help="camera calibration and tile recognition")
    vision_sub = vision.add_subparsers(dest="vision_command", metavar="ACTION")
    vision_sub.required = True
    fixture = sub.add_parser("fixture", help="render recorded fixtures")
    fixture_sub = fixture.add_subparsers(dest="fixture_command", metavar="ACTION")
    fixture_sub.required = True
    from vision.cli import recognition, scene

    recognition.register(vision_sub)
    scene.register(vision_sub, fixture_sub)
