"""The table's events told as lines a person reads (the demo's terminal).

One seat convention for people: seats by name ("Seat 1" to "Seat 4" unless the match names
them), sides by their seats ("Seats 1 & 3"). 0-based numbers stay inside JSON. While nobody
knows who led a hand, a move is told by its place after the leader ("the leader's right"),
never by a seat that may be wrong; once the leader is known, the line says who each was.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from controller.rules.names import side_label
from controller.rules.options import Rules, build_rules


def place_after_leader(k: int, seats: int) -> str:
    """Who plays ``k`` turns after the leader, told from the leader (turns go to the right)."""
    if k == 0:
        return "the leader"
    if seats == 2:
        return "the leader's opponent"
    if k == 1:
        return "the leader's right"
    if k == seats - 1:
        return "the leader's left"
    return "the leader's partner" if seats == 4 else f"{k} seats right of the leader"


class Narrator:
    """Turns domain events into terminal lines; keeps what it needs (names, sides, the seat a
    provisional hand was started from) from the events themselves."""

    def __init__(self, names: Sequence[str] = (), rules: Rules | None = None) -> None:
        self.names = list(names)
        self.rules = rules
        #: the provisional seat of the hand's first move while the leader is unknown
        self.provisional: int | None = None

    def restore(self, names: Sequence[str], rules: Rules, provisional: int | None) -> None:
        """Pick up a match restored from a journal (its events are not told again)."""
        self.names = list(names)
        self.rules = rules
        self.provisional = provisional

    # --- labels -------------------------------------------------------------------------------

    def seat(self, seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        if isinstance(seat, int):
            return f"Seat {seat + 1}"
        return "a seat"

    def side(self, side: object) -> str:
        if not isinstance(side, int) or self.rules is None:
            return f"side {side}"
        return side_label(self._names(), self.rules.seats_of(side))

    def _names(self) -> list[str]:
        n = self.rules.seats if self.rules is not None else len(self.names)
        return self.names or [f"Seat {i + 1}" for i in range(n)]

    def _wins(self, side: object) -> str:
        label = self.side(side)
        single = self.rules is not None and not self.rules.partnerships
        return f"{label} {'wins' if single else 'win'}"

    def _totals(self, totals: Sequence[int]) -> str:
        return ", ".join(f"{self.side(i)} {t}" for i, t in enumerate(totals))

    def _who(self, event: Mapping[str, Any]) -> str:
        seat = event.get("seat")
        if event.get("seat_known", True) or not isinstance(seat, int):
            return self.seat(seat)
        if self.provisional is None:
            self.provisional = seat
        n = self.rules.seats if self.rules is not None else max(len(self.names), 1)
        return place_after_leader((seat - self.provisional) % n, n)

    # --- events -------------------------------------------------------------------------------

    def line(self, event: Mapping[str, Any]) -> str | None:
        """One line for an event, or None for those not worth a line."""
        kind = event.get("kind")
        if kind == "match_started":
            self.names = [str(s) for s in event.get("seats", [])]
            self.rules = build_rules(str(event["rules"]), dict(event.get("options") or {}))
            sides = [self.side(s) for s in range(self.rules.sides)]
            return f"match: {event['rules']} to {event.get('target')}, " + " against ".join(sides)
        if kind == "hand_started":
            self.provisional = None
            leaders = event.get("leaders") or []
            if len(leaders) == 1:
                return f"hand {event['hand']}: {self.seat(leaders[0])} leads"
            who = " or ".join(self.seat(s) for s in leaders)
            return f"hand {event['hand']}: who leads is not known yet ({who})"
        if kind in ("tile_played", "pass", "draw"):
            unknown = "" if event.get("seat_known", True) else " (seats not known yet)"
            if kind == "tile_played":
                end = f" at {event['end']}" if event.get("end") else ""
                what = f"plays {event['play']}{end}"
            elif kind == "pass":
                what = "passes"
            else:
                what = f"draws {event['draw']}"
            return f"  move {event['move']:>2}: {self._who(event)} {what}{unknown}"
        if kind == "leader_known":
            return self._leader_known(event)
        if kind == "hand_over":
            counts = event.get("counts") or []
            left = ", ".join(f"{self.seat(s)} {c}" for s, c in enumerate(counts))
            if self.provisional is not None:
                n = len(counts)
                left = ", ".join(
                    f"{place_after_leader((s - self.provisional) % n, n)} {counts[s]}"
                    for s in range(n)
                )
            return f"  hand over: {event['outcome']}; tiles left: {left}: show them"
        if kind == "reveal":
            tiles = " ".join(event.get("tiles") or []) or "nothing"
            return f"  {self.seat(event.get('seat'))} shows {tiles}"
        if kind == "hand_end":
            winner = event.get("winner")
            points = event.get("points") or []
            if winner is None:
                how = "nobody scores"
            else:
                how = f"{self._wins(winner)} {points[winner] if winner < len(points) else ''}"
            return (
                f"hand {event['hand']} scored: {event['result']}, {how.strip()}; "
                f"totals: {self._totals(event.get('totals') or [])}"
            )
        if kind == "match_end":
            totals = event.get("totals") or []
            return f"match over: {self._wins(event.get('winner'))}, {'-'.join(map(str, totals))}"
        if kind == "renuncio":
            return f"  {event.get('message')}"
        if kind in ("pase_corrido", "capicua", "going_out", "end_score"):
            who = self.seat(event.get("seat"))
            return f"  {kind.replace('_', ' ')}: {who}, +{event.get('points')}"
        if kind in ("correction", "undo", "misread"):
            return f"  {kind}: " + ", ".join(
                f"{k}={self.seat(v) if k in ('seat', 'by') else v}"
                for k, v in event.items()
                if k not in ("seq", "t", "kind")
            )
        if kind == "alert":
            return f"  ALERT ({event.get('alert')}): {event.get('message')}"
        if kind == "device":
            return f"  seat device {event['link']}: {event['detail']}"
        return None

    def _leader_known(self, event: Mapping[str, Any]) -> str:
        leader = event.get("leader")
        head = f"  {self.seat(leader)} led this hand ({event.get('how')})"
        prov, self.provisional = self.provisional, None
        if prov is None or not isinstance(leader, int):
            return head
        n = self.rules.seats if self.rules is not None else len(self.names)
        told = ", ".join(
            f"{place_after_leader(k, n)} is {self.seat((leader + k) % n)}" for k in range(n)
        )
        return f"{head}: {told}"


__all__ = ["Narrator", "place_after_leader", "side_label"]
