"""The runtime's edge: vision and seat-device events turned into table inputs, the table's
lights into the device's LED states, and the table's published state and events into the typed
bodies of the publishing port (:mod:`controller.live.port`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from controller.live.models import DeviceView, StateBody
from controller.table.inputs import (
    Button,
    InputError,
    Laid,
    Link,
    Revealed,
    TableInput,
    TileNudged,
    TilesLaid,
    TileTaken,
    VisionUnsure,
)
from controller.table.lights import Glow, Light
from controller.table.snapshot import live_state_body
from firmware_bridge.types import (
    BridgeEvent,
    ButtonGesture,
    DeviceRebooted,
    LedState,
    LinkDown,
    LinkUp,
    Pattern,
    ProtocolMismatch,
)
from vision.events import (
    SceneEvent,
    TileAdded,
    TileMoved,
    TileRemoved,
    TilesRevealed,
    Unsure,
)

_PATTERNS = {
    Glow.OFF: Pattern.OFF,
    Glow.SOLID: Pattern.SOLID,
    Glow.BLINK: Pattern.BLINK,
    Glow.PULSE: Pattern.PULSE,
}


def led_state(light: Light) -> LedState:
    """The seat device's LED state that shows the table's light."""
    return LedState(light.r, light.g, light.b, _PATTERNS[light.glow])


def led_states(lights: Sequence[Light]) -> tuple[LedState, ...]:
    """The seat device's LED states for every seat's light, in seat order."""
    return tuple(led_state(light) for light in lights)


def scene_inputs(events: Sequence[SceneEvent]) -> list[TableInput]:
    """The inputs of one frame's events, in order; every tile added in one settled scene goes in
    one :class:`TilesLaid` (the session must see two tiles laid at once together)."""
    out: list[TableInput] = []
    laid: list[Laid] = []
    laid_at: int | None = None
    t_laid = 0.0
    for e in events:
        if isinstance(e, TileAdded):
            if laid_at is None:
                laid_at = len(out)
                t_laid = e.t
            laid.append(Laid((e.pips[0], e.pips[1]), e.end))
        elif isinstance(e, TileRemoved):
            out.append(TileTaken(e.t, (e.pips[0], e.pips[1])))
        elif isinstance(e, TileMoved):
            out.append(TileNudged(e.t, (e.pips[0], e.pips[1])))
        elif isinstance(e, TilesRevealed):
            out.append(Revealed(e.t, e.seat, tuple((a, b) for a, b in e.tiles)))
        elif isinstance(e, Unsure):
            pips = None if e.pips is None else (e.pips[0], e.pips[1])
            out.append(VisionUnsure(e.t, e.reason, pips))
    if laid_at is not None:
        out.insert(laid_at, TilesLaid(t_laid, tuple(laid)))
    return out


def set_recogniser(
    recognition: Any, region: Any, max_pip: Callable[[], int | None]
) -> Callable[..., Any]:
    """The tile reader (``recognition.identify``, of the module ``vision.recognition``) over
    ``region``, told the highest pip count of the set in
    play: ``max_pip()`` at each frame (the match's rules; with no match on, or a set above
    double-nine, whose halves no layout holds, the reader's own default). A double-six table
    never reads a half of 7 pips. ``window`` (``x0, y0, x1, y1``): only that rectangle of the
    frame is read (see :class:`vision.tracking.regional.RegionalReader`)."""

    def read(frame: Any, *, window: Any = None) -> Any:
        m = max_pip()
        told = {} if m is None or m > 9 else {"max_pips": m}
        return recognition.identify(frame, region=region, window=window, **told)

    return read


def device_input(event: BridgeEvent, t: float) -> TableInput:
    if isinstance(event, ButtonGesture):
        return Button(t, event.seat, str(event.gesture))  # type: ignore[arg-type]
    if isinstance(event, LinkUp):
        return Link(t, True, f"firmware {event.firmware}, {event.seats} seats")
    if isinstance(event, LinkDown):
        return Link(t, False, event.reason)
    if isinstance(event, DeviceRebooted):
        return Link(t, True, f"device rebooted (boot {event.boot_count}), LEDs restored")
    assert isinstance(event, ProtocolMismatch)
    return Link(
        t,
        False,
        f"protocol mismatch: device v{event.device_version}, host v{event.host_version}",
    )


def command_input(name: str, args: Mapping[str, object], t: float) -> TableInput:
    """An authorised command from the live ``cmd`` topic (``new_match``, ``correct``, ``undo``,
    and ``confirm_reveal``, ``set_leader``) as a table input; :class:`InputError` when its
    arguments are wrong (the caller answers with a refusal event).

    ``new_match``: ``preset`` (or ``rules``), ``seats`` (names), ``leader``, and any rules option
    by name (``target``, ...). ``correct``: ``tile`` (or ``actual``) and ``move`` (or
    ``read_as``). ``confirm_reveal``: optional ``left``, one string per seat (``"3-4 0-0"``).
    ``set_leader``: ``seat``.
    """
    from controller.rules.options import OPTION_NAMES
    from controller.table.inputs import input_from_json

    body: dict[str, Any] = {"t": t}
    if name == "new_match":
        known = {"preset", "rules", "seats", "leader", *OPTION_NAMES}
        unknown = sorted(set(args) - known)
        if unknown:
            raise InputError(f"new_match: unknown argument(s) {', '.join(unknown)}")
        body.update(
            input="new_match",
            preset=args.get("preset", args.get("rules", "latin")),
            options={k: v for k, v in args.items() if k in OPTION_NAMES},
            seats=args.get("seats"),
            leader=args.get("leader"),
        )
    elif name == "correct":
        body.update(
            input="correct_tile",
            actual=args.get("tile", args.get("actual")),
            read_as=args.get("read_as"),
            move=args.get("move"),
        )
    elif name == "undo":
        body.update(input="undo_last")
    elif name == "confirm_reveal":
        left = args.get("left")
        if left is not None:
            if not isinstance(left, list) or not all(isinstance(x, str) for x in left):
                raise InputError("confirm_reveal: 'left' must be one string of tiles per seat")
            left = [x.split() for x in left]
        body.update(input="confirm_reveal", left=left)
    elif name == "set_leader":
        body.update(input="set_leader", seat=args.get("seat"))
    else:
        raise InputError(f"unknown command {name!r}")
    return input_from_json(body)


def state_body(snap: Mapping[str, Any]) -> StateBody:
    """The live state body of a table snapshot: built once per published state, whatever the
    publisher (MQTT, the fake)."""
    return StateBody.model_validate(live_state_body(dict(snap)))


_ENVELOPE = ("seq", "t", "kind")


def event_body(event: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """A domain event (:func:`controller.table.effects.event_json`) as the port's event type
    and data; the publisher numbers and stamps it itself."""
    return str(event["kind"]), {k: v for k, v in event.items() if k not in _ENVELOPE}


def device_view(event: Mapping[str, Any]) -> DeviceView | None:
    """The seat device's link for the ``device`` topic, from a ``device`` event (else None);
    the detail cut to the 200 characters the topic carries."""
    if event.get("kind") != "device":
        return None
    return DeviceView.model_validate(
        {"link": str(event["link"]), "detail": str(event.get("detail") or "")[:200]}
    )
