"""Small builders for hand-written game records."""

from __future__ import annotations

from typing import Any


def play(seat: int, tile: str, end: str | None = None) -> dict[str, Any]:
    move: dict[str, Any] = {"seat": seat, "play": tile}
    if end is not None:
        move["end"] = end
    return move


def pas(seat: int) -> dict[str, Any]:
    return {"seat": seat, "pass": True}


def draw(seat: int, tile: str = "?") -> dict[str, Any]:
    return {"seat": seat, "draw": tile}


def record(rules: str, hands: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return {"format": "domino-record/1", "rules": rules, "options": options, "hands": hands}
