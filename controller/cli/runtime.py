"""``domino-table demo``, ``run`` and ``record``: the integrated table runtime."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, TextIO

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
            "bridge), the table session and its journal. When the fixture ends before the match "
            "does, bots play the rest of it (to 50 points unless --target says otherwise). Shows "
            "moves and scores as they are read; the scoreboard then shows the final state until "
            f"Ctrl-C. {_LIVE_NOTE}."
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
        help="print the final match result as JSON (the shape of replay --json) and exit 0; "
        "without it the scoreboard stays up, showing the final state, until Ctrl-C",
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
    demo.add_argument(
        "--target",
        type=_positive,
        default=None,
        metavar="N",
        help="points to win the match (default 50, a short match; with --fixture-only the "
        "fixture's own rules)",
    )
    demo.add_argument(
        "--fixture-only",
        action="store_true",
        help="stop where the fixture ends; by default, when it ends before the match does, bots "
        "play the rest of the match (the shipped fixture films one hand)",
    )
    demo.add_argument(
        "--seed", type=int, default=1, metavar="S", help="the bots' deals and choices (default 1)"
    )
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
    export.add_argument(
        "--salvage",
        action="store_true",
        help="export the good rows of a damaged (or schema 1) journal, up to the first bad one; "
        "says on stderr how many rows it kept and where it stopped",
    )
    export.set_defaults(handler=_export)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return value


def _demo(args: argparse.Namespace, *, err: TextIO | None = None) -> int:
    import json
    import tempfile

    from controller.journal import Journal
    from controller.runtime import TableRuntime
    from controller.runtime.fixture_player import DEFAULT_FIXTURE, run_fixture
    from controller.runtime.live_hooks import LiveServices, start_live
    from controller.runtime.narrate import Narrator
    from controller.runtime.preflight import check_demo
    from controller.table import result_json
    from controller.table.state import provisional_leader
    from domino_common.clock import SystemClock
    from domino_common.lean_memory import lean_malloc

    lean_malloc()
    err = err or sys.stderr
    fixture = args.fixture or DEFAULT_FIXTURE
    settings = check_demo(
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
    quiet = args.quiet
    options: dict[str, object] = {}
    if args.target is not None or not args.fixture_only:
        options["target"] = args.target if args.target is not None else DEMO_TARGET
    if settings is None:
        live = LiveServices(None, "live state off (--no-live)")
    else:
        live = start_live(
            settings, on_broker=lambda line: print(f"demo: {line}", file=err, flush=True)
        )
    if not quiet:
        print(f"demo: fixture {fixture}", file=err)
        print(f"demo: {live.note}", file=err)
    narrator = Narrator()

    def say(text: str) -> None:
        if not quiet:
            print(text, file=err, flush=True)

    def show(event: Mapping[str, Any]) -> None:
        line = narrator.line(event)
        if line:
            say(line)

    lingered: list[bool] = []

    def linger() -> None:
        """Keep the table and the scoreboard up, showing the final state, until Ctrl-C."""
        if args.exit_when_done or live.station is None or not live.station.scoreboard_url:
            return
        lingered.append(True)
        say(_final_words(runtime))
        say(f"demo: scoreboard at {live.station.scoreboard_url} (Ctrl-C to quit)")
        with contextlib.suppress(KeyboardInterrupt):
            _wait_for_interrupt()

    with _stop_signals():
        try:
            with tempfile.TemporaryDirectory(prefix="domino-demo-") as tmp:
                path = args.journal or Path(tmp) / "journal.sqlite"
                with Journal(path, table=args.table) as journal:
                    runtime = TableRuntime(
                        table=args.table,
                        journal=journal,
                        publisher=live.publisher,
                        on_event=show,
                    )
                    if runtime.restored_inputs:
                        say(
                            f"demo: resumed from {path} ({runtime.restored_inputs} inputs replayed)"
                        )
                    ms = runtime.state.match
                    if ms is not None:
                        hs = ms.hand
                        prov = None if hs is None or hs.leader_known else provisional_leader(hs)
                        narrator.restore(ms.seat_names, ms.rules, prov if hs and hs.moves else None)
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
                            options=options,
                            finish_match=None if args.fixture_only else args.seed,
                            note=lambda text: say(f"demo: {text}"),
                            linger=linger,
                        )
                    finally:
                        runtime.stop()
                    say(
                        f"demo: {report.frames} frames, {report.fed} inputs fed "
                        f"({report.skipped} already journaled), recogniser: {report.recogniser}"
                        + (
                            f"; {report.bot_hands} hand(s) played by bots"
                            if report.bot_hands
                            else ""
                        )
                    )
                    result = result_json(runtime.state)
                    final = _final_words(runtime)
        finally:
            live.stop()
    if args.exit_when_done:
        print(json.dumps(result, indent=2))
        return 0
    if not lingered:
        say(final)
    return 0


#: the demo's match is short unless told otherwise (--target)
DEMO_TARGET = 50


def _final_words(runtime: Any) -> str:
    """The match's standing in one line, seats named as on the scoreboard."""
    from controller.runtime.narrate import Narrator

    ms = runtime.state.match
    if ms is None:
        return "demo: no match was played"
    narrator = Narrator(ms.seat_names, ms.rules)
    totals = ", ".join(f"{narrator.side(i)} {t}" for i, t in enumerate(ms.totals))
    if ms.winner is None:
        return f"demo: the match is not over ({totals})"
    verb = "win" if ms.rules.partnerships else "wins"
    return f"demo: match over, {narrator.side(ms.winner)} {verb} ({totals})"


def _wait_for_interrupt() -> None:
    import threading

    threading.Event().wait()


@contextlib.contextmanager
def _stop_signals() -> Iterator[None]:
    """Ctrl-C or SIGTERM (``kill``, ``timeout``, systemd) starts a clean stop: everything is shut
    down in order, and the seat device and the table say they are gone. Further signals are
    ignored until it is done (a second Ctrl-C must not cut it short); then the handlers are back.
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGINT, interrupt), signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGTERM, previous[1])


def _run(args: argparse.Namespace) -> int:
    from controller.runtime.config import read_config
    from controller.runtime.hardware import run_table
    from domino_common.lean_memory import lean_malloc

    lean_malloc()

    config, problems = read_config(args.config)
    return run_table(
        config, check_only=args.check, where=str(args.config), config_problems=problems
    )


def _record(args: argparse.Namespace) -> int:
    from controller.runtime.config import RunConfig, load_config
    from controller.runtime.hardware import record_fixture

    config = load_config(args.config) if args.config else RunConfig()
    return record_fixture(
        config, args.out, camera=args.camera, serial=args.serial, seconds=args.seconds
    )


def _export(args: argparse.Namespace) -> int:
    import json

    from controller.journal import SCHEMA_VERSION, Journal, JournalError, salvage

    if not args.journal.exists():
        raise JournalError(f"{args.journal}: no such journal")
    if args.salvage:
        saved = salvage(args.journal, table=args.table)
        record = saved.record
        if saved.problem is not None:
            print(
                f"export-record: kept the first {saved.kept} of {saved.total} rows of table "
                f"{args.table!r}; stopped at: {saved.problem}",
                file=sys.stderr,
            )
        elif saved.schema != SCHEMA_VERSION:
            print(
                f"export-record: schema {saved.schema} journal: {saved.kept} rows read, "
                "not verifiable (no chain)",
                file=sys.stderr,
            )
        else:
            print(f"export-record: all {saved.kept} rows good", file=sys.stderr)
    else:
        with Journal(args.journal, table=args.table) as journal:
            record = journal.export_record()
    text = json.dumps(record, indent=2) + "\n"
    if args.out is None:
        sys.stdout.write(text)
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0
