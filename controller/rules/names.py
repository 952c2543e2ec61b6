"""Seats and sides as people read them: names ("Seat 1" to "Seat 4" unless the match names
them), never 0-based numbers (those stay inside JSON)."""

from __future__ import annotations

from collections.abc import Sequence


def side_label(names: Sequence[str], seats: Sequence[int]) -> str:
    """A partnership by its seats, ``Seats 1 & 3`` (``Ana & Carla`` when named), or one
    player's name."""
    who = [names[s] for s in seats]
    if len(who) == 1:
        return who[0]
    if all(n.startswith("Seat ") for n in who):
        return "Seats " + " & ".join(n.removeprefix("Seat ") for n in who)
    return " & ".join(who)


def wins(label: str, seats: int) -> str:
    """``Seats 1 & 3 win`` / ``Ana wins``: the verb agrees with the side."""
    return f"{label} {'wins' if seats == 1 else 'win'}"


__all__ = ["side_label", "wins"]
