"""The table session's match as a game record (RULES.md section 6) and as a result, in the
shapes ``domino-table replay`` reads and prints."""

from __future__ import annotations

from typing import Any

from controller.errors import ControllerError
from controller.rules.record import MatchRecord, Replay, hand_to_json, record_to_json
from controller.table.state import TableState


def match_record(state: TableState) -> dict[str, Any]:
    """The match as a game record (RULES.md section 6) that ``domino-table replay`` accepts.
    A hand in play is included as far as it went; a hand that is over but not scored yet is kept
    apart under ``pending_hand`` (replay could not score it without the tiles left)."""
    ms = state.match
    if ms is None:
        raise ControllerError("no match to export")
    hands = [dict(r) for r in ms.records]
    pending = None
    hs = ms.hand
    if hs is not None and hs.moves:
        current = hand_to_json(None, hs.moves, None)
        if hs.engine.over:
            # over but not scored yet (tiles still to be shown): replay could not score it, so
            # it goes apart, with what has been shown so far
            current["shown"] = [None if r is None else [str(t) for t in r] for r in hs.reveals]
            pending = current
        else:
            hands.append(current)  # replay reports it as the unfinished hand
    data = record_to_json(ms.rules, ms.seat_names, hands)
    if pending is not None:
        data["pending_hand"] = pending
    return data


def result_json(state: TableState) -> dict[str, Any]:
    """The match result in the shape of ``domino-table replay --json`` (from the hands the
    session scored, so a hand a person confirmed counts as it was scored)."""
    ms = state.match
    if ms is None:
        raise ControllerError("no match to report")
    unfinished = ms.hand.engine if ms.hand is not None and ms.hand.moves else None
    rep = Replay(
        MatchRecord(ms.rules, ms.seat_names, ()),
        ms.results,
        ms.totals,
        ms.winner,
        unfinished,
    )
    return rep.to_json()


__all__ = ["match_record", "result_json"]
