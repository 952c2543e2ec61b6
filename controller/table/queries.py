"""What the table shows, read from its state: the problems (blocking alerts are derived from the
state, never stored apart), an alert as JSON, a seat's name, and the reveal check.

Pure queries on :mod:`controller.table.state`; the session, the snapshot and the seat lights all
read them here, so none of those imports another to ask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from controller.rules.tiles import Tile
from controller.table import state as st
from controller.table.state import Alert, HandState, MatchState, TableState

NOT_CONNECTED = TableState().link_detail


def problems(state: TableState) -> list[Alert]:
    """Everything the table shows as wrong: what the state says is wrong (blocking or not) and
    the recent notices."""
    return [*derived_alerts(state), *state.notices]


def derived_alerts(state: TableState) -> list[Alert]:
    out: list[Alert] = []
    ms = state.match
    hs = ms.hand if ms is not None else None
    if ms is not None and hs is not None:
        for s in hs.strays:
            out.append(Alert(s.kind, f"{s.tile}: {s.reason}", s.seat, True))
        for t in hs.missing:
            out.append(
                Alert(
                    st.REMOVED, f"{t} was taken from the line: put it back, or undo it", None, True
                )
            )
        for t in hs.take_back:
            out.append(Alert(st.TAKE_BACK, f"{t} was undone: take it off the line", None, True))
        if hs.engine.over:
            status = reveal_status(ms, hs)
            if status.status == "failed":
                out.append(Alert(st.REVEAL_CHECK, status.message, None, True))
    if ms is not None and not state.link_up and state.link_detail != NOT_CONNECTED:
        out.append(
            Alert(
                st.DEVICE,
                f"seat device disconnected ({state.link_detail}): buttons and LEDs are out",
            )
        )
    return out


def alert_json(alert: Alert) -> dict[str, Any]:
    return {
        "kind": alert.kind,
        "message": alert.message,
        "seat": alert.seat,
        "blocking": alert.blocking,
    }


def seat_name(ms: MatchState, seat: int | None) -> str:
    """A seat as people read it: its name ("Seat 1" unless the match names it), never 0-based."""
    if seat is None:
        return "nobody"
    if 0 <= seat < len(ms.seat_names):
        return ms.seat_names[seat]
    return f"Seat {seat + 1}"


@dataclass(frozen=True, slots=True)
class RevealStatus:
    status: str  # "incomplete", "passed", "failed"
    message: str
    delta: int | None = None


def reveal_status(ms: MatchState, hs: HandState) -> RevealStatus:
    """RULES.md section 5: the tiles left, read face up, against what the hand says; where every
    tile was dealt, played + revealed must be the whole set."""
    rules = ms.rules
    n = rules.seats
    eng = hs.engine
    shown = [list(r) if r is not None else [] for r in hs.reveals]
    sizes = [len(s) for s in shown]
    counts = eng.counts
    if hs.leader_known:
        candidates = [0]
    else:
        prov = st.provisional_leader(hs) or 0
        candidates = [d for d in range(n) if (prov + d) % n in hs.leaders]
    matching = [d for d in candidates if all(sizes[s] == counts[(s - d) % n] for s in range(n))]
    if not matching:
        need, have = sum(counts), sum(sizes)
        if have < need:
            return RevealStatus("incomplete", f"{need - have} more tile(s) to be shown")
        if hs.leader_known:
            wrong = next(s for s in range(n) if sizes[s] != counts[s])
            who = seat_name(ms, wrong)
            return RevealStatus(
                "failed", f"{who} shows {sizes[wrong]} tile(s) but should hold {counts[wrong]}"
            )
        return RevealStatus("failed", f"the tiles shown ({sizes}) fit no seat order")
    if len(matching) > 1:
        return RevealStatus(
            "failed", "the tiles shown fit more than one leader: say who led this hand"
        )
    seen: set[Tile] = set()
    for seat, tiles in enumerate(shown):
        for tile in tiles:
            if tile not in rules.tileset:
                return RevealStatus(
                    "failed", f"{seat_name(ms, seat)} shows {tile}, not in this set"
                )
            if tile in eng.on_table:
                return RevealStatus(
                    "failed", f"{seat_name(ms, seat)} shows {tile}, which is on the line"
                )
            if tile in seen:
                return RevealStatus("failed", f"{tile} is shown twice")
            seen.add(tile)
    if rules.all_dealt and seen | eng.on_table != set(rules.tileset.tiles):
        return RevealStatus("failed", "played and shown tiles do not make the whole set")
    return RevealStatus("passed", "every tile is accounted for", matching[0])
