"""``domino-table device-sim``: a simulated seat device on a pty, replayed or driven by keys.

Also runs alone: ``python -m firmware_bridge.cli.sim``. Keys: ``1``-``4`` short press on Seat
1-4, shifted (``!@#$``) long press, ``q w e r`` double press, ``b`` reboot (a new random session
id), ``B`` reboot keeping the same id (as a boot counter that restarted from a lost flash file),
``u`` unplug/replug, ``x`` quit.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import termios
import threading
import time
import tty
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from firmware_bridge.sim import PtyDevice
    from firmware_bridge.types import LedState

# Only the standard library at import: this module registers a sub-command at start-up.
KEYS: dict[str, tuple[int, str]] = {}
for _seat, (_short, _long, _double) in enumerate(zip("1234", "!@#$", "qwer", strict=True)):
    KEYS[_short] = (_seat, "short")
    KEYS[_long] = (_seat, "long")
    KEYS[_double] = (_seat, "double")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--buttons", type=Path, help="replay a fixture's buttons.jsonl")
    parser.add_argument("--speed", type=float, default=1.0, help="replay speed factor")
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument(
        "--boot-count",
        type=int,
        default=None,
        help="emulate firmware 1.0: a boot counter from this value (default: a random session id "
        "at every boot, as firmware 1.1)",
    )
    parser.add_argument(
        "--exit-when-done", action="store_true", help="exit 2 s after the last replayed press"
    )
    parser.add_argument("--no-keyboard", action="store_true", help="ignore standard input")


def run(args: argparse.Namespace, *, stdin: TextIO | None = None, out: TextIO | None = None) -> int:
    from firmware_bridge.sim import PtyDevice, load_buttons

    stdin = stdin or sys.stdin
    out = out or sys.stdout
    if args.speed <= 0:
        raise ValueError("--speed must be positive")
    script = load_buttons(args.buttons, seats=args.seats) if args.buttons else []
    done = threading.Event()
    with PtyDevice(seats=args.seats, boot_count=args.boot_count) as device:
        device.on_leds = lambda leds: _show_leds(leds, out)
        print(device.path, file=out, flush=True)
        if script:
            start = time.monotonic()

            def replay() -> None:
                for press in script:
                    delay = start + press.t / args.speed - time.monotonic()
                    if delay > 0 and done.wait(delay):
                        return
                    seq = device.press(press.seat, press.gesture)
                    print(f"Seat {press.seat + 1} {press.gesture} (#{seq})", file=out, flush=True)
                if args.exit_when_done:
                    done.wait(2.0)
                    done.set()

            threading.Thread(target=replay, name="replay", daemon=True).start()
        try:
            if args.no_keyboard:
                done.wait()
            else:
                _keyboard(device, stdin, out, done)
                if script and args.exit_when_done:
                    done.wait()
        finally:
            done.set()
    return 0


def _keyboard(device: PtyDevice, stdin: TextIO, out: TextIO, done: threading.Event) -> None:
    from firmware_bridge.types import Gesture

    plugged = True
    with _cbreak(stdin):
        for key in _keys(stdin):
            if done.is_set() or key in ("x", "\x04"):
                return
            if key in KEYS:
                seat, name = KEYS[key]
                gesture = Gesture.parse(name)
                seq = device.press(seat, gesture)
                print(f"Seat {seat + 1} {gesture} (#{seq})", file=out, flush=True)
            elif key in ("b", "B"):
                same = device.core.session if key == "B" else None
                device.reboot(session=same)
                print(f"rebooted (session {device.core.session:08x})", file=out, flush=True)
            elif key == "u":
                if plugged:
                    device.unplug()
                else:
                    device.replug()
                plugged = not plugged
                print("plugged in" if plugged else "unplugged", file=out, flush=True)


def _keys(stdin: TextIO) -> Iterator[str]:
    while True:
        key = stdin.read(1)
        if not key:
            return
        yield key


@contextlib.contextmanager
def _cbreak(stdin: TextIO) -> Iterator[None]:
    if not stdin.isatty():
        yield
        return
    fd = stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _show_leds(leds: tuple[LedState, ...], out: TextIO) -> None:
    print("LEDs " + " ".join(f"{i + 1}={s}" for i, s in enumerate(leds)), file=out, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="device-sim", description=__doc__)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
