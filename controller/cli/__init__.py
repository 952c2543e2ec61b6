"""The ``domino-table`` command line: the parser, ``main`` and the error-to-exit-code rule.

Sub-commands come from plugin modules, each with ``register(subparsers)``: this package's
:mod:`~controller.cli.rules` (replay, simulate, rules, bench), :mod:`~controller.cli.fixture`
(fixture render), :mod:`~controller.cli.live` (scoreboard, live) and
:mod:`~controller.cli.runtime` (demo, run, record, export-record), and :mod:`vision.cli` and
:mod:`firmware_bridge.cli`. Start-up must stay fast (``simulate`` is benchmarked as a whole
process), so every handler imports what it needs when it runs, and plugin modules register
parsers without importing heavy libraries.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

Handler = Callable[[argparse.Namespace], int]

# Modules that add sub-commands: each has ``register(subparsers) -> None``.
_PLUGINS = (
    "controller.cli.rules",
    "vision.cli",
    "controller.cli.fixture",
    "firmware_bridge.cli",
    "controller.cli.live",
    "controller.cli.runtime",
)

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 70


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="domino-table",
        description="Controller of the smart domino table.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more logging")
    parser.add_argument(
        "--debug", action="store_true", help="show full tracebacks for unexpected errors"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in _PLUGINS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def _configure_logging(verbosity: int) -> None:
    # Without -v, Python's last-resort handler prints warnings and errors to stderr; importing
    # logging only when asked keeps start-up short.
    if not verbosity:
        return
    import logging

    level = logging.WARNING - 10 * min(verbosity, 2)
    logging.basicConfig(
        level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr
    )


def _quiet_opencv(verbosity: int) -> None:
    """OpenCV logs its own ``[ WARN:0@0.029] ...`` lines to stderr (a missing camera, a codec);
    our errors already say what went wrong, in one line. ``-vv`` (or ``OPENCV_LOG_LEVEL`` set by
    the user) lets OpenCV speak. Set before cv2 is first imported, which reads it once."""
    if verbosity >= 2 or "OPENCV_LOG_LEVEL" in os.environ:
        return
    os.environ["OPENCV_LOG_LEVEL"] = "OFF"
    cv2 = sys.modules.get("cv2")
    if cv2 is not None:  # already imported (in-process callers, tests)
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _configure_logging(args.verbose)
    _quiet_opencv(args.verbose)
    handler: Handler = args.handler
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("domino-table: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:
        code = _exit_code_of(exc)
        if code is None:
            if args.debug:
                raise
            print(
                f"domino-table: internal error: {type(exc).__name__}: {one_line(exc)} "
                "(run with --debug for details, and please report it)",
                file=sys.stderr,
            )
            return EXIT_INTERNAL
        problems: Sequence[object] = getattr(exc, "problems", None) or [exc]
        for problem in problems:  # an error that found several problems says each once
            print(f"domino-table: error: {one_line(problem)}", file=sys.stderr)
        return code


def one_line(error: object) -> str:
    """An error as one line: a pydantic ``ValidationError`` as ``field: reason`` of its first
    error (not its multi-line dump), anything else with its lines joined."""
    errors = getattr(error, "errors", None)
    if callable(errors) and type(error).__name__ == "ValidationError":
        first = errors()[0]
        loc = ".".join(str(part) for part in first.get("loc", ()))
        reason = str(first.get("msg", "invalid")).removeprefix("Value error, ")
        return f"{loc}: {reason}" if loc else reason
    from controller.redact import redact_url

    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return redact_url(" ".join(lines)) or type(error).__name__


def _exit_code_of(exc: BaseException) -> int | None:
    """Errors meant for the user carry an ``exit_code``; OS errors on files are usage errors."""
    code: Any = getattr(exc, "exit_code", None)
    if isinstance(code, int):
        return code
    if isinstance(exc, OSError):
        return EXIT_USAGE
    return None
