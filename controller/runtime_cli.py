"""``domino-table demo``, ``run`` and ``record``: the integrated table runtime."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

DEFAULT_FIXTURE = Path(__file__).resolve().parent.parent / "vision" / "fixtures" / "latin-hand"

_LIVE_NOTE = (
    "without --broker an embedded MQTT broker is started; the scoreboard is served on "
    "--http-port (default 8080, a free port if busy; 0 for any free port)"
)


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Add runtime sub-commands."""
    demo = sub.add_parser(
        "demo",
        help="run the whole table pipeline on a recorded fixture (no hardware)",
        description=(
            "Plays a recorded fixture through the controller: the video through the scene "
            "watcher, buttons.jsonl pressed on the simulated seat device (a pty read by the real "
            "bridge), the table session and its journal. Shows moves and scores as they are read. "
            f"{_LIVE_NOTE}."
        ),
    )
    demo.add_argument("--fixture", type=Path, default=None, help="fixture directory")
    demo.add_argument(
        "--broker",
        default=None,
        help=f"MQTT broker URL ({_LIVE_NOTE}); a broker given here must answer at the start "
        "(else exit 2 and nothing starts); if it drops later, a line says so and the demo "
        "goes on, reconnecting",
    )
    demo.add_argument("--http-port", type=int, default=8080, help="scoreboard port (default 8080)")
    demo.add_argument(
        "--no-live", action="store_true", help="no MQTT and no scoreboard (terminal only)"
    )
    demo.add_argument("--speed", type=float, default=1.0, help="replay speed factor (default 1)")
    demo.add_argument(
        "--exit-when-done",
        action="store_true",
        help="print the final match result as JSON (the shape of replay --json) and exit 0",
    )
    demo.add_argument("--journal", type=Path, default=None, help="journal file (resumes it)")
    demo.add_argument("--table", default="table-1", help="table id")
    demo.add_argument(
        "--buttons",
        choices=("pty", "direct"),
        default="pty",
        help="press the fixture's buttons on the simulated device (pty) or feed them directly",
    )
    demo.add_argument(
        "--recogniser",
        choices=("auto", "identify", "oracle"),
        default="auto",
        help="auto: vision.recognition when present, else the fixture's truth oracle",
    )
    demo.add_argument("--rules", default=None, help="preset when the fixture has no truth.json")
    demo.add_argument("--quiet", action="store_true", help="no progress on stderr")
    demo.set_defaults(handler=_demo)

    run = sub.add_parser(
        "run",
        help="run the table on real hardware (camera, seat device, broker) from a TOML config",
        description="Checks everything first (config, calibration, recogniser, camera, seat "
        "device, broker URL, journal) and refuses with one line per problem (exit 2). A broker "
        "that does not answer does not stop the table: a line on stderr says so, another when "
        "it is back; the state is published once it is.",
    )
    run.add_argument("--config", type=Path, required=True, help="TOML config file")
    run.add_argument(
        "--check",
        action="store_true",
        help="check everything a run needs, the broker answering included, list every problem "
        "(exit 2 if any) and stop",
    )
    run.set_defaults(handler=_run)

    record = sub.add_parser(
        "record", help="record the camera and the seat device into a fixture directory"
    )
    record.add_argument("--out", type=Path, required=True, help="fixture directory to write")
    record.add_argument("--config", type=Path, default=None, help="TOML config (camera, serial)")
    record.add_argument("--camera", default=None, help="camera index or device (overrides config)")
    record.add_argument("--serial", default=None, help="seat device port (overrides config)")
    record.add_argument("--seconds", type=float, default=None, help="stop after this long")
    record.set_defaults(handler=_record)

    export = sub.add_parser(
        "export-record",
        help="write a table journal's match as a game record (for replay)",
    )
    export.add_argument("journal", type=Path, help="journal file (demo --journal, run's journal)")
    export.add_argument("--table", default="table-1", help="table id")
    export.add_argument("--out", type=Path, default=None, help="file to write (default stdout)")
    export.set_defaults(handler=_export)


def describe_event(event: Mapping[str, Any], seats: list[str] | None = None) -> str | None:
    """One progress line for an event, or None for those not worth a line."""
    kind = event.get("kind")

    def who(seat: object) -> str:
        if isinstance(seat, int) and seats and 0 <= seat < len(seats):
            known = "" if event.get("seat_known", True) else "?"
            return f"{seats[seat]}{known}"
        return f"seat {seat}"

    if kind == "tile_played":
        end = f" at {event['end']}" if event.get("end") else ""
        return f"  move {event['move']:>2}: {who(event['seat'])} plays {event['play']}{end}"
    if kind == "pass":
        return f"  move {event['move']:>2}: {who(event['seat'])} passes"
    if kind == "draw":
        return f"  move {event['move']:>2}: {who(event['seat'])} draws {event['draw']}"
    if kind == "hand_started":
        return f"hand {event['hand']} (leaders {event['leaders']})"
    if kind == "leader_known":
        return f"  seat {event['leader']} led this hand ({event['how']}): seats settled"
    if kind == "hand_over":
        return f"  hand over: {event['outcome']}; tiles left {event['counts']}: reveal them"
    if kind == "reveal":
        return f"  seat {event['seat']} shows {' '.join(event['tiles']) or 'nothing'}"
    if kind == "hand_end":
        return (
            f"hand {event['hand']} scored: {event['result']}, side {event['winner']} wins "
            f"{event['points']}; totals {event['totals']}"
        )
    if kind == "match_end":
        return f"match over: side {event['winner']} wins {event['totals']}"
    if kind in ("renuncio", "pase_corrido", "capicua", "end_score", "correction", "undo"):
        return f"  {kind}: " + ", ".join(
            f"{k}={v}" for k, v in event.items() if k not in ("seq", "t", "kind")
        )
    if kind == "alert":
        return f"  ALERT ({event.get('alert')}): {event.get('message')}"
    if kind == "device":
        return f"  seat device {event['link']}: {event['detail']}"
    return None


def _demo(args: argparse.Namespace, *, err: TextIO | None = None) -> int:
    import json
    import tempfile
    import threading

    from controller.journal import Journal
    from controller.runtime import MemoryPublisher, SystemClock, TableRuntime
    from controller.runtime.fixture import run_fixture
    from controller.runtime.live_hooks import LiveServices, start_live
    from controller.runtime.preflight import check_demo
    from controller.runtime.publisher import FanoutPublisher, Publisher
    from controller.table import result_json

    err = err or sys.stderr
    fixture = args.fixture or DEFAULT_FIXTURE
    check_demo(
        fixture=fixture,
        speed=args.speed,
        table=args.table,
        journal=args.journal,
        recogniser=args.recogniser,
        preset=args.rules,
        live=not args.no_live,
        broker=args.broker,
        http_port=args.http_port,
    )
    if args.no_live:
        live = LiveServices(None, "live state off (--no-live)")
    else:
        live = start_live(
            broker=args.broker,
            http_port=args.http_port,
            table=args.table,
            on_broker=lambda line: print(f"demo: {line}", file=err, flush=True),
        )
    quiet = args.quiet
    if not quiet:
        print(f"demo: fixture {fixture}", file=err)
        print(f"demo: {live.note}", file=err)
    memory = MemoryPublisher()
    publishers: list[Publisher] = [memory]
    if live.publisher is not None:
        publishers.append(live.publisher)
    seats: list[str] = []

    def show(event: Mapping[str, Any]) -> None:
        if event.get("kind") == "match_started":
            seats[:] = list(event.get("seats", []))
        line = describe_event(event, seats)
        if line and not quiet:
            print(line, file=err, flush=True)

    with tempfile.TemporaryDirectory(prefix="domino-demo-") as tmp:
        path = args.journal or Path(tmp) / "journal.sqlite"
        with Journal(path, table=args.table) as journal:
            runtime = TableRuntime(
                table=args.table,
                journal=journal,
                publisher=FanoutPublisher(publishers),
                on_event=show,
            )
            if runtime.restored_inputs and not quiet:
                print(
                    f"demo: resumed from {path} ({runtime.restored_inputs} inputs replayed)",
                    file=err,
                )
            if runtime.state.match is not None:
                seats[:] = list(runtime.state.match.seat_names)
            live.take_commands(runtime)
            runtime.start()
            try:
                report = run_fixture(
                    fixture,
                    runtime,
                    clock=SystemClock(),
                    speed=args.speed,
                    buttons=args.buttons,
                    recogniser=args.recogniser,
                    preset=args.rules,
                )
            except BaseException:
                live.stop()
                raise
            finally:
                runtime.stop()
            if not quiet:
                print(
                    f"demo: {report.frames} frames, {report.fed} inputs fed "
                    f"({report.skipped} already journaled), recogniser: {report.recogniser}",
                    file=err,
                )
            result = result_json(runtime.state)
    if args.exit_when_done:
        live.stop()
        print(json.dumps(result, indent=2))
        return 0
    if not quiet:
        print(f"demo: totals {result['totals']}, winner {result['winner']}", file=err)
    if live.station is not None and live.station.scoreboard_url and sys.stdin.isatty():
        # Interactive: keep the final state on the scoreboard until the person is done.
        print(f"demo: scoreboard at {live.station.scoreboard_url} (Ctrl-C to quit)", file=err)
        with contextlib.suppress(KeyboardInterrupt):
            threading.Event().wait()
    live.stop()
    return 0


def _run(args: argparse.Namespace) -> int:
    from controller.runtime.hardware import read_config, run_table

    config, problems = read_config(args.config)
    return run_table(
        config, check_only=args.check, where=str(args.config), config_problems=problems
    )


def _record(args: argparse.Namespace) -> int:
    from controller.runtime.hardware import RunConfig, load_config, record_fixture

    config = load_config(args.config) if args.config else RunConfig()
    return record_fixture(
        config, args.out, camera=args.camera, serial=args.serial, seconds=args.seconds
    )


def _export(args: argparse.Namespace) -> int:
    import json

    from controller.journal import Journal, JournalError

    if not args.journal.exists():
        raise JournalError(f"{args.journal}: no such journal")
    with Journal(args.journal, table=args.table) as journal:
        text = json.dumps(journal.export_record(), indent=2) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0
