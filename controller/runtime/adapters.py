"""Vision and seat-device events turned into table inputs (the runtime's edge)."""

from __future__ import annotations

from collections.abc import Sequence

from controller.table.inputs import (
    Button,
    Laid,
    Link,
    Revealed,
    TableInput,
    TileNudged,
    TilesLaid,
    TileTaken,
    VisionUnsure,
)
from firmware_bridge.types import (
    BridgeEvent,
    ButtonGesture,
    DeviceRebooted,
    LinkDown,
    LinkUp,
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
