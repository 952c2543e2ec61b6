"""Runtime benchmarks: settle-to-state latency (in process, and to an MQTT subscriber through a real
Mosquitto broker) and the controller's resident memory while running the demo fixture."""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_CHILD = """
import sys
from controller.cli import main
code = main(sys.argv[1:])
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        print("VMHWM", int(line.split()[1]), file=sys.stderr)
sys.exit(code)
"""


def _row(name: str, value: float, unit: str, target: str | None, note: str) -> dict[str, object]:
    return {"name": name, "value": value, "unit": unit, "target": target, "note": note}


def bench_settle_to_state() -> list[dict[str, object]]:
    from controller.journal import Journal
    from controller.runtime import FakePublisher, TableRuntime
    from controller.runtime.fixture_player import DEFAULT_FIXTURE, run_fixture
    from domino_common.clock import SystemClock

    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "j.sqlite") as journal:
        runtime = TableRuntime(journal=journal, publisher=FakePublisher(clock=SystemClock()))
        report = run_fixture(
            DEFAULT_FIXTURE,
            runtime,
            clock=SystemClock(),
            speed=1000.0,
            buttons="direct",
            recogniser="auto",
        )
    samples = report.settle_to_state_s
    median_ms = 1000.0 * statistics.median(samples) if samples else float("nan")
    worst_ms = 1000.0 * max(samples) if samples else float("nan")
    note = (
        f"{len(samples)} settled scenes of the shipped fixture; frame in -> recognise -> track "
        f"-> session -> journal (fsync) -> state published in memory; recogniser: "
        f"{report.recogniser}; worst {worst_ms:.1f} ms"
    )
    return [
        _row("runtime: settle-to-state latency, in process (median)", median_ms, "ms", None, note)
    ]


def _signature(match: Any, hand: Any) -> tuple[Any, ...]:
    """What a state says about the line and the hands (the same in the session snapshot and on
    MQTT): a settled scene that changes the table gives a state with a new signature."""
    if not match or not hand:
        return ()
    return (match["hand_no"], len(hand["line"]), tuple(hand["counts"]))


def bench_settle_to_subscriber() -> list[dict[str, object]]:
    """From the frame where a scene settles to its new state arriving at an MQTT subscriber,
    through a real Mosquitto (the embedded broker if Mosquitto is not installed)."""
    import json
    import threading

    import paho.mqtt.client as mqtt

    from controller.journal import Journal
    from controller.live.broker import EmbeddedBroker, MosquittoBroker
    from controller.live.settings import station_settings
    from controller.live.station import LiveStation
    from controller.runtime import TableRuntime
    from controller.runtime.fixture_player import DEFAULT_FIXTURE, run_fixture
    from controller.table import snapshot
    from domino_common.clock import SystemClock

    use_mosquitto = MosquittoBroker.find_executable() is not None
    broker: Any = MosquittoBroker() if use_mosquitto else EmbeddedBroker()
    arrivals: dict[tuple[Any, ...], list[float]] = {}
    settled: list[tuple[float, tuple[Any, ...]]] = []
    lock = threading.Lock()

    def on_message(_c: Any, _u: Any, msg: Any) -> None:
        now = time.perf_counter()
        try:
            body = json.loads(msg.payload)
        except ValueError:
            return
        with lock:
            arrivals.setdefault(_signature(body.get("match"), body.get("hand")), []).append(now)

    with broker:
        sub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)  # type: ignore[attr-defined]
        sub.on_message = on_message
        sub.connect("127.0.0.1", broker.port)
        sub.subscribe("domino/v1/bench/state", qos=1)
        sub.loop_start()
        with (
            LiveStation(station_settings(table="bench", broker=broker.url)) as station,
            tempfile.TemporaryDirectory() as tmp,
            Journal(Path(tmp) / "j.sqlite") as journal,
        ):
            runtime = TableRuntime(
                table="bench",
                journal=journal,
                publisher=station.publisher,
            )

            def on_settled(started: float) -> None:
                # the state the runtime has just published for this scene
                snap = snapshot(runtime.state)
                settled.append((started, _signature(snap.get("match"), snap.get("hand"))))

            runtime.start()
            try:
                report = run_fixture(
                    DEFAULT_FIXTURE,
                    runtime,
                    clock=SystemClock(),
                    speed=4.0,  # real-time-like spacing between scenes
                    buttons="direct",
                    recogniser="auto",
                    on_settled=on_settled,
                )
            finally:
                runtime.stop()
            time.sleep(1.0)  # let the last messages arrive
        sub.loop_stop()
        sub.disconnect()
    samples = []
    with lock:
        for t, sig in settled:
            seen = arrivals.get(sig, [])
            if not sig or any(a < t for a in seen):
                continue  # this scene did not change the table: no new state to wait for
            later = [a for a in seen if a >= t]
            if later:
                samples.append(later[0] - t)
    median_ms = 1000.0 * statistics.median(samples) if samples else float("nan")
    note = (
        f"{len(samples)} of {len(settled)} settled scenes of the shipped fixture changed the "
        f"table and were seen by a "
        f"subscriber through {'mosquitto' if use_mosquitto else 'the embedded broker'}; "
        f"recogniser: {report.recogniser}; worst "
        f"{1000.0 * max(samples) if samples else float('nan'):.1f} ms"
    )
    return [
        _row(
            "runtime: settle-to-state at an MQTT subscriber (median)",
            median_ms,
            "ms",
            "<= 50",
            note,
        )
    ]


def _session_steps(quick: bool) -> list[dict[str, object]]:
    """Pure session speed: a simulated latin match fed as an observed table."""
    from controller.rules.moves import Play
    from controller.rules.options import build_rules
    from controller.rules.simulate import simulate
    from controller.table import (
        Button,
        Laid,
        NewMatch,
        Revealed,
        TableInput,
        TilesLaid,
        initial_state,
        step,
    )
    from controller.table.inputs import VisionEnd

    match = next(simulate(build_rules("latin"), hands=4 if quick else 12, seed=3))
    state, _ = step(initial_state(), NewMatch(0.0, "latin"))
    count = 0
    spent = 0.0
    t = 0.0

    def feed(inp: TableInput) -> None:
        nonlocal state, count, spent
        started = time.perf_counter()
        state, _ = step(state, inp)
        spent += time.perf_counter() - started
        count += 1

    for hand in match.hands:
        ms = state.match
        assert ms is not None and ms.hand is not None
        if not ms.hand.leader_known:
            t += 1
            feed(Button(t, hand.moves[0].seat, "short"))
        for move in hand.moves:
            t += 1
            ms = state.match
            assert ms is not None and ms.hand is not None
            if isinstance(move, Play):
                line = ms.hand.engine.line
                if move.end is None:
                    first = move.first_half if move.first_half is not None else move.tile.low
                    laid = Laid((first, move.tile.other(first)), "first")
                else:
                    n = line.open_ends[move.end]
                    side: VisionEnd = "left" if move.end.value == "left" else "right"
                    laid = Laid((n, move.tile.other(n)), side)
                feed(TilesLaid(t, (laid,)))
            else:
                feed(Button(t, move.seat, "short"))
        for _ in range(4):
            ms = state.match
            if ms is None or ms.hand is None or ms.hand.engine.over:
                break
            turn = ms.hand.engine.turn
            assert turn is not None
            t += 1
            feed(Button(t, turn, "short"))
        for seat, tiles in enumerate(hand.left):
            if tiles:
                t += 1
                feed(Revealed(t, seat, tuple((x.low, x.high) for x in tiles)))
    per_step_us = 1e6 * spent / max(count, 1)
    return [
        _row(
            "runtime: session step (with snapshot)",
            per_step_us,
            "us",
            None,
            f"{count} inputs of a {len(match.hands)}-hand latin match, mean per input",
        )
    ]


def bench_memory() -> list[dict[str, object]]:
    from controller.runtime.fixture_player import DEFAULT_FIXTURE

    with tempfile.TemporaryDirectory() as tmp:
        args = [
            "demo",
            "--exit-when-done",
            "--quiet",
            "--speed",
            "1000",
            "--fixture",
            str(DEFAULT_FIXTURE),
            "--journal",
            str(Path(tmp) / "j.sqlite"),
        ]
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, *args],
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
    peak_kb = next(
        (int(line.split()[1]) for line in proc.stderr.splitlines() if line.startswith("VMHWM")),
        None,
    )
    if proc.returncode != 0 or peak_kb is None:
        raise RuntimeError(f"demo failed (exit {proc.returncode}): {proc.stderr[-500:]}")
    return [
        _row(
            "runtime: controller peak resident memory (demo)",
            peak_kb / 1024.0,
            "MB",
            "<= 200",
            "VmHWM of `domino-table demo` on the shipped 1920x1080 fixture with the pty seat "
            "device and the journal",
        )
    ]


def run_benchmarks(quick: bool) -> list[dict[str, object]]:
    return [
        *bench_settle_to_state(),
        *bench_settle_to_subscriber(),
        *_session_steps(quick),
        *bench_memory(),
    ]
