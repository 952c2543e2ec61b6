"""What one step of the table session says: domain events (numbered by the step), notices
(alerts that pass), and corrections for the vision tracker. Every room of the session writes
into one."""

from __future__ import annotations

from typing import Any

from controller.table.effects import CorrectVision
from controller.table.state import Alert


class StepOut:
    """What one step says: domain events (numbered later), notices, vision corrections, and
    whether a move was made (``moved``: the notices of earlier steps are then dropped)."""

    def __init__(self, t: float) -> None:
        self.t = t
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.vision: list[CorrectVision] = []
        self.notices: list[Alert] = []
        self.moved = False

    def event(self, kind: str, /, **data: Any) -> None:
        self.events.append((kind, data))

    def notice(self, kind: str, message: str, seat: int | None = None) -> None:
        self.notices.append(Alert(kind, message, seat, False, self.t))
