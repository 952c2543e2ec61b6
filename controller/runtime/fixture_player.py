"""Run a recorded fixture through the whole pipeline: video -> scene watcher -> session, and the
fixture's ``buttons.jsonl`` pressed on the simulated seat device (a pty, read by the real bridge)
or fed straight in. Paced by ``speed`` on an injected clock; resumes after what the journal
already holds (the fixture is replayed from its start to rebuild the tracker, but inputs already
journaled are not fed again)."""

from __future__ import annotations

import contextlib
import importlib
import json
import logging
import queue
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from controller.runtime.adapters import device_input, led_states, scene_inputs, set_recogniser
from controller.runtime.core import TableRuntime, TableRuntimeError
from controller.table import CorrectVision, NewMatch, TableInput
from domino_common.clock import Clock, FakeClock
from vision.events import SceneEvent

log = logging.getLogger(__name__)

ButtonMode = Literal["pty", "direct"]
RecogniserChoice = Literal["auto", "identify", "oracle"]
#: how long a press on the simulated device may take to come through the bridge
PRESS_TIMEOUT_S = 10.0
LINK_TIMEOUT_S = 10.0
#: the fixture shipped with the repository: what ``demo`` plays when no ``--fixture`` is given
DEFAULT_FIXTURE = Path(__file__).resolve().parents[2] / "vision" / "fixtures" / "latin-hand"


@dataclass(slots=True)
class FixtureRun:
    """What a fixture run did (for the CLI's summary and the benchmarks)."""

    recogniser: str
    frames: int = 0
    fed: int = 0
    skipped: int = 0
    presses: int = 0
    #: hands the bots played after the fixture (``finish_match``)
    bot_hands: int = 0
    #: why the match did not reach its end, when it did not (``finish_match``)
    unfinished: str | None = None
    #: seconds from a settled frame's arrival to its new state being published
    settle_to_state_s: list[float] = field(default_factory=list)


def pick_recogniser(
    fixture: Path,
    choice: RecogniserChoice,
    clock: Any,
    max_pip: Callable[[], int | None] = lambda: None,
) -> tuple[Callable[[Any], Any], str]:
    """The real recogniser when it is importable (or asked for), told the set in play by
    ``max_pip`` (see :func:`~controller.runtime.adapters.set_recogniser`) and reading what
    changed since the scene last tracked (:class:`~vision.tracking.regional.RegionalReader`),
    else the truth oracle of a rendered fixture."""
    from vision.tracking import TruthOracle, table_region
    from vision.tracking.regional import RegionalReader

    if choice in ("auto", "identify"):
        try:
            recognition = importlib.import_module("vision.recognition")
        except ModuleNotFoundError:
            if choice == "identify":
                raise TableRuntimeError(
                    "the recogniser (vision.recognition) is not in this build: use --recogniser "
                    "oracle on a rendered fixture"
                ) from None
        else:
            from vision.calibration import load_table

            region = table_region(load_table(fixture / "table.json"))
            reader = RegionalReader(set_recogniser(recognition, region, max_pip))
            return reader, "vision.recognition.identify, by windows round each change"
    truth_path = fixture / "truth.json"
    if not truth_path.exists():
        raise TableRuntimeError(
            f"{fixture}: no recogniser in this build and no truth.json to stand in for it"
        )
    truth = json.loads(truth_path.read_text(encoding="utf-8"))
    return TruthOracle(truth, clock), "truth oracle (truth.json; vision.recognition not in use)"


def fixture_match(
    fixture: Path, preset: str | None, options: Mapping[str, object] | None = None
) -> NewMatch:
    """The match a fixture plays: from its truth record when rendered, else ``preset``;
    ``options`` (``target``, say) over the record's."""
    truth_path = fixture / "truth.json"
    if preset is None and truth_path.exists():
        record = json.loads(truth_path.read_text(encoding="utf-8")).get("record", {})
        seats = record.get("seats")
        return NewMatch(
            0.0,
            str(record.get("rules", "latin")),
            {**dict(record.get("options") or {}), **(options or {})},
            None if seats is None else tuple(seats),
        )
    return NewMatch(0.0, preset or "latin", dict(options or {}))


class _Pacer:
    """Keeps fixture time ``t`` at wall time ``origin + t / speed`` (after catching up)."""

    def __init__(self, clock: Clock, speed: float) -> None:
        self.clock = clock
        self.speed = speed
        self.origin: tuple[float, float] | None = None

    def wait_until(self, t: float) -> None:
        if self.origin is None:
            self.origin = (self.clock.monotonic(), t)
            return
        wall0, t0 = self.origin
        self.clock.sleep(wall0 + (t - t0) / self.speed - self.clock.monotonic())


class _Device:
    """The simulated seat device on a pty with the real bridge reading it."""

    def __init__(self, runtime: TableRuntime, seats: int) -> None:
        from firmware_bridge.bridge import Bridge
        from firmware_bridge.ports import SerialPortFactory
        from firmware_bridge.sim import PtyDevice

        self.runtime = runtime
        self.device = PtyDevice(seats=seats)
        self.device.start()
        self.bridge = Bridge(SerialPortFactory(self.device.path), seats=seats)
        self.bridge.start()
        self.seats = seats

    def close(self) -> None:
        """Stop the bridge and the device. The bridge's last word (its link is down) goes to the
        session like any other, so the live device state does not stay 'up' after a clean stop."""
        self.bridge.stop()
        self.drain(self.runtime.state.t)
        self.device.stop()

    def set_leds(self, states: tuple[Any, ...]) -> None:
        if len(states) == self.seats:
            self.bridge.set_leds(states)

    def wait_link(self, t: float) -> None:
        from firmware_bridge.types import LinkUp

        deadline = time.monotonic() + LINK_TIMEOUT_S
        while time.monotonic() < deadline:
            event = self._next(deadline)
            if event is None:
                break
            self.runtime.feed(device_input(event, t), "device")
            if isinstance(event, LinkUp):
                return
        raise TableRuntimeError("the simulated seat device never came up on its pty")

    def press(self, seat: int, gesture: Any, t: float, source: str = "buttons") -> None:
        from firmware_bridge.types import ButtonGesture

        self.device.press(seat, gesture)
        deadline = time.monotonic() + PRESS_TIMEOUT_S
        while True:
            event = self._next(deadline)
            if event is None:
                raise TableRuntimeError(f"a press of seat {seat} never came through the bridge")
            self.runtime.feed(device_input(event, t), source if _is_button(event) else "device")
            if isinstance(event, ButtonGesture):
                return

    def drain(self, t: float) -> None:
        while True:
            try:
                event = self.bridge.events.get_nowait()
            except queue.Empty:
                return
            self.runtime.feed(device_input(event, t), "buttons" if _is_button(event) else "device")

    def _next(self, deadline: float) -> Any:
        try:
            return self.bridge.events.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None


def _is_button(event: object) -> bool:
    from firmware_bridge.types import ButtonGesture

    return isinstance(event, ButtonGesture)


@contextlib.contextmanager
def _maybe_device(runtime: TableRuntime, seats: int, mode: ButtonMode) -> Iterator[_Device | None]:
    if mode != "pty":
        yield None
        return
    device = _Device(runtime, seats)
    previous = runtime.leds
    runtime.leds = device.set_leds
    try:
        yield device
    finally:
        runtime.leds = previous
        device.close()


def run_fixture(
    fixture: str | Path,
    runtime: TableRuntime,
    *,
    clock: Clock,
    speed: float = 1.0,
    buttons: ButtonMode = "pty",
    recogniser: RecogniserChoice = "auto",
    preset: str | None = None,
    options: Mapping[str, object] | None = None,
    progress: Callable[[int, int], None] | None = None,
    max_frames: int | None = None,
    on_settled: Callable[[float], None] | None = None,
    finish_match: int | None = None,
    note: Callable[[str], None] | None = None,
    linger: Callable[[], None] | None = None,
) -> FixtureRun:
    """Play ``fixture`` into ``runtime`` (which may have been restored from a journal).
    ``on_settled`` is called, once the runtime has taken a settled scene's inputs, with the
    ``time.perf_counter()`` at which that frame arrived (for latency benchmarks).

    ``options`` (rules options over the fixture's) start the match when the runtime has none.
    ``finish_match`` (a seed): when the fixture ends before the match does, bots play the rest
    of it (:mod:`controller.runtime.bots`), their presses on the same seat device. ``note``
    hears what the run does beyond the fixture. ``linger`` is called once everything is played,
    before the seat device is stopped (the demo keeps the table up until Ctrl-C there)."""
    from firmware_bridge.sim import load_buttons
    from vision.calibration import load_table
    from vision.motion import SettleDetector, SettleParams
    from vision.sources import VideoFileSource
    from vision.tracking import SceneTracker, SceneWatcher, SkinOcclusion, TrackerParams
    from vision.tracking.regional import RegionalReader

    d = Path(fixture)
    if not d.is_dir():
        raise TableRuntimeError(f"{d}: no such fixture directory")
    if speed <= 0:
        raise TableRuntimeError("--speed must be positive")
    videos = sorted(p for p in d.iterdir() if p.name.startswith("video."))
    if not videos or not (d / "table.json").exists():
        raise TableRuntimeError(f"{d}: a fixture needs video.* and table.json")
    geometry = load_table(d / "table.json")
    frame_clock = FakeClock()  # the time of the frame being read (for the truth oracle)
    recognize, recogniser_name = pick_recogniser(d, recogniser, frame_clock, runtime.max_pip)
    watcher = SceneWatcher(
        recognize,
        SceneTracker(geometry, TrackerParams()),
        SettleDetector(SettleParams()),
        SkinOcclusion(geometry) if geometry.calibrated else None,
        on_tracked=recognize.tracked if isinstance(recognize, RegionalReader) else None,
    )

    def fix(c: CorrectVision) -> None:
        watcher.tracker.correct(c.read_as, c.actual)

    runtime.vision_fix = fix
    report = FixtureRun(recogniser_name)
    journal = runtime.journal
    skip_vision = journal.delivered("vision") if journal is not None else 0
    skip_buttons = journal.delivered("buttons") if journal is not None else 0
    resume_t = runtime.state.t if runtime.state.inputs else -1.0
    if runtime.state.match is None:
        runtime.feed(fixture_match(d, preset, options), "api")
    seats = runtime.state.match.rules.seats if runtime.state.match is not None else 4
    script_path = d / "buttons.jsonl"
    script = load_buttons(script_path, seats=seats) if script_path.exists() else []
    pending = script[skip_buttons:]
    report.skipped += skip_buttons
    pacer = _Pacer(clock, speed)
    vision_count = 0

    with _maybe_device(runtime, seats, buttons) as device, VideoFileSource(videos[0]) as source:
        if device is not None:
            device.wait_link(max(resume_t, 0.0))
            if runtime.state.leds:
                device.set_leds(led_states(runtime.state.leds))

        def press_due(until: float) -> None:
            while pending and pending[0].t <= until:
                p = pending.pop(0)
                pacer.wait_until(p.t)
                if device is not None:
                    device.press(p.seat, p.gesture, p.t)
                else:
                    inp: TableInput = _button(p.t, p.seat, p.gesture)
                    runtime.feed(inp, "buttons")
                report.presses += 1

        def feed_scene(events: list[SceneEvent], started: float) -> None:
            nonlocal vision_count
            fed = False
            for inp in scene_inputs(events):
                vision_count += 1
                if vision_count <= skip_vision:
                    report.skipped += 1
                    continue
                runtime.feed(inp, "vision")
                report.fed += 1
                fed = True
            if fed and any(type(e).__name__ == "SceneSettled" for e in events):
                report.settle_to_state_s.append(time.perf_counter() - started)
                if on_settled is not None:
                    on_settled(started)

        total = source.frame_count
        for frame in source:
            t = frame.t_seconds
            press_due(t)
            frame_clock.advance_to(t)
            live = t > resume_t
            if live:
                pacer.wait_until(t)
            started = time.perf_counter()
            feed_scene(watcher.feed(frame), started)
            if device is not None:
                device.drain(t)
            report.frames += 1
            if progress is not None and report.frames % 25 == 0:
                progress(report.frames, total)
            if max_frames is not None and report.frames >= max_frames:
                break
        # readings of the last settled scene not yet tracked (the video ended while reading)
        feed_scene(watcher.flush(), time.perf_counter())
        press_due(float("inf"))
        if finish_match is not None:
            _finish_match(
                runtime,
                device,
                pacer,
                seed=finish_match,
                report=report,
                note=note or (lambda _: None),
            )
        if linger is not None:
            linger()
    return report


#: seconds of fixture time a bot takes per move, to show its tiles, and between two hands
BOT_MOVE_S = 1.5
BOT_REVEAL_S = 0.5
BOT_NEXT_HAND_S = 3.0


def _finish_match(
    runtime: TableRuntime,
    device: _Device | None,
    pacer: _Pacer,
    *,
    seed: int,
    report: FixtureRun,
    note: Callable[[str], None],
) -> None:
    """Bots play hand after hand until the match is over (or the table stops agreeing)."""
    from controller.runtime.bots import BotHandError, bot_hand
    from controller.table import Revealed, TilesLaid

    t = runtime.state.t
    announced = False
    while True:
        ms = runtime.state.match
        if ms is None or ms.hand is None:
            return
        hs = ms.hand
        if hs.blocked:
            report.unfinished = f"the table waits for {hs.waiting_for()}: the bots stop here"
            note(report.unfinished)
            return
        try:
            plan = bot_hand(ms, seed)
        except BotHandError as exc:
            report.unfinished = str(exc)
            note(report.unfinished)
            return
        if not announced:
            note(
                f"the fixture ends before the match: bots play from hand {hs.number + 1} on "
                "(their tiles told to the table as the camera reports them, their passes "
                "pressed on the seat device)"
            )
            announced = True
        done = len(hs.moves)
        if not done:
            t += BOT_NEXT_HAND_S  # a pause between hands (not again when resuming one)
        for step in plan.steps:
            now = runtime.state.match
            if now is None or now.hand is None or now.hand.number != hs.number:
                break
            if step.kind == "claim" and now.hand.leader_known:
                continue
            if step.kind in ("lay", "press") and step.move < done:
                continue
            if step.kind == "reveal" and now.hand.reveals[step.seat] is not None:
                continue
            t += BOT_REVEAL_S if step.kind == "reveal" else BOT_MOVE_S
            pacer.wait_until(t)
            if step.kind == "lay":
                assert step.laid is not None
                runtime.feed(TilesLaid(t, (step.laid,)), "bots")
            elif step.kind == "reveal":
                runtime.feed(Revealed(t, step.seat, step.tiles), "bots")
            elif device is not None:
                device.press(step.seat, _short(), t, source="bots")
            else:
                runtime.feed(_button(t, step.seat, "short"), "bots")
        after = runtime.state.match
        if after is not None and len(after.results) == len(ms.results):
            report.unfinished = (
                f"hand {hs.number + 1} played by the bots did not score: the table does not agree"
            )
            note(report.unfinished)
            return
        report.bot_hands += 1


def _short() -> Any:
    from firmware_bridge.types import Gesture

    return Gesture.SHORT


def _button(t: float, seat: int, gesture: object) -> TableInput:
    from controller.table import Button

    return Button(t, seat, str(gesture))  # type: ignore[arg-type]
