"""What a step of the table session asks the world to do. The runtime carries them out; the
session itself does nothing but return them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from controller.table.lights import Light

Pips = tuple[int, int]


@dataclass(frozen=True, slots=True)
class DomainEvent:
    """One entry of the ``events`` stream: numbered by ``seq`` with no gaps."""

    seq: int
    t: float
    kind: str
    data: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return event_json(self)


def event_json(event: DomainEvent) -> dict[str, Any]:
    return {"seq": event.seq, "t": round(event.t, 3), "kind": event.kind, **event.data}


@dataclass(frozen=True, slots=True)
class SetLeds:
    """What every seat light should show (set as a whole, idempotent)."""

    states: tuple[Light, ...]


@dataclass(frozen=True, slots=True)
class Emit:
    event: DomainEvent


@dataclass(frozen=True, slots=True)
class PublishState:
    """The full snapshot after the step (a plain JSON-able dict)."""

    snapshot: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class CorrectVision:
    """A person fixed a misread: the scene tracker should now know the tile read as ``read_as``
    as ``actual`` (so its open end follows)."""

    read_as: Pips
    actual: Pips


Effect = SetLeds | Emit | PublishState | CorrectVision
