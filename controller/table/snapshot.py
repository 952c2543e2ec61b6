"""The JSON shapes the table publishes: the full state snapshot (MQTT ``state``, retained) and
domain events (MQTT ``events``). Every field name lives in this module, so aligning them with the
MQTT/scoreboard schema is a change here only.

Snapshot (``schema`` = :data:`SCHEMA`)::

    {"schema", "seq", "table", "t",
     "match": null | {"rules", "options", "target", "seats": [names],
                      "sides": [{"side", "seats", "names", "score"}],
                      "hand_no", "hands_played", "winner", "over",
                      "score_history": [{"hand", "result", "winner", "winning_seat", "points",
                                         "totals", "bonuses", "remaining", "left"}]},
     "hand": null | {"number", "phase", "waiting", "waiting_for", "leader", "leader_known",
                     "leaders", "turn", "line": [{"tile", "pips", "end", "seat", "double",
                     "move"}] (left to right, pips as they read left to right),
                     "ends", "counts", "boneyard", "moves", "passes": [{"seat", "move"}],
                     "last_move", "lacks": [[numbers] per seat], "renuncios", "bonuses",
                     "awarded", "outcome",
                     "reveal": null | {"status", "message", "tiles": [[tile] | null per seat]}},
     "alerts": [{"kind", "message", "seat", "blocking"}],
     "device": {"link": "up" | "down", "detail", "leds": ["solid:#00c800", ...]}}

Events: ``{"seq", "t", "kind", ...data}``; kinds: match_started, hand_started, tile_played,
pass, draw, leader_known, renuncio, pase_corrido, capicua, going_out, end_score, hand_over,
reveal, reveal_rejected, hand_end, match_end, misread, correction, undo, tile_removed,
tile_restored, tile_taken_back, alert, alert_cleared, device.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from controller.rules.line import End
from controller.rules.moves import Pass, Play
from controller.rules.record import move_to_json
from controller.table.queries import alert_json, problems, reveal_status

if TYPE_CHECKING:
    from controller.rules.hand import Hand
    from controller.table.state import HandState, MatchState, TableState

SCHEMA = "domino-table/state/1"


def snapshot(state: TableState) -> dict[str, Any]:
    ms = state.match
    return {
        "schema": SCHEMA,
        "seq": state.seq,
        "table": state.table,
        "t": round(state.t, 3),
        "match": None if ms is None else _match(ms),
        "hand": None if ms is None or ms.hand is None else _hand(ms, ms.hand),
        "alerts": [alert_json(a) for a in problems(state)],
        "device": {
            "link": "up" if state.link_up else "down",
            "detail": state.link_detail,
            "leds": [str(led) for led in state.leds],
        },
    }


def _match(ms: MatchState) -> dict[str, Any]:
    rules = ms.rules
    totals = ms.totals
    history = []
    running = [0] * rules.sides
    for i, r in enumerate(ms.results):
        running = [a + b for a, b in zip(running, r.points, strict=True)]
        record = ms.records[i] if i < len(ms.records) else {}
        history.append(
            {
                "hand": r.number + 1,
                "result": r.result.value,
                "winner": r.winner,
                "winning_seat": r.winning_seat,
                "points": list(r.points),
                "totals": list(running),
                "bonuses": [b.to_json() for b in r.bonuses],
                "remaining": None if r.remaining is None else list(r.remaining),
                "left": record.get("left"),
            }
        )
    winner = ms.winner
    return {
        "rules": rules.preset,
        "options": rules.overrides(),
        "target": rules.target,
        "seats": list(ms.seat_names),
        "sides": [
            {
                "side": side,
                "seats": list(rules.seats_of(side)),
                "names": [ms.seat_names[s] for s in rules.seats_of(side)],
                "score": totals[side],
            }
            for side in range(rules.sides)
        ],
        "hand_no": len(ms.results) + (1 if ms.hand is not None else 0),
        "hands_played": len(ms.results),
        "winner": winner,
        "over": winner is not None,
        "score_history": history,
    }


def line_json(eng: Hand) -> list[dict[str, Any]]:
    """The line from its left end to its right end."""
    left: list[dict[str, Any]] = []
    right: list[dict[str, Any]] = []
    numbers = {m.tile: i + 1 for i, m in enumerate(eng.moves) if isinstance(m, Play)}
    for p in eng.line.placements:
        inner = p.tile.other(p.outer)
        item: dict[str, Any] = {
            "tile": str(p.tile),
            "end": "first" if p.end is None else p.end.value,
            "seat": p.seat,
            "double": p.tile.is_double,
            "move": numbers.get(p.tile),
        }
        if p.end is None:
            item["pips"] = [inner, p.outer]
            left.insert(0, item)
        elif p.end is End.LEFT:
            item["pips"] = [p.outer, inner]
            left.insert(0, item)
        else:
            item["pips"] = [inner, p.outer]
            right.append(item)
    # left holds the left arm reversed with the opening tile last: put it in reading order
    return left + right


def _hand(ms: MatchState, hs: HandState) -> dict[str, Any]:
    eng = hs.engine
    if eng.over:
        phase = "reveal"
    elif eng.line.empty:
        phase = "lead"
    else:
        phase = "play"
    passes = [
        {"seat": m.seat, "move": i + 1} for i, m in enumerate(hs.moves) if isinstance(m, Pass)
    ]
    last = None
    if hs.moves:
        last = {"move": len(hs.moves), **move_to_json(hs.moves[-1])}
    reveal = None
    if eng.over:
        status = reveal_status(ms, hs)
        reveal = {
            "status": status.status,
            "message": status.message,
            "tiles": [None if r is None else [str(t) for t in r] for r in hs.reveals],
        }
    return {
        "number": hs.number + 1,
        "phase": phase,
        "waiting": hs.blocked,
        "waiting_for": hs.waiting_for() or None,
        "leader": eng.leader if hs.leader_known else None,
        "leader_known": hs.leader_known,
        "leaders": sorted(hs.leaders),
        "turn": eng.turn if hs.leader_known else None,
        "line": line_json(eng),
        "ends": {e.value: n for e, n in eng.line.open_ends.items()},
        "counts": list(eng.counts),
        "boneyard": eng.boneyard_count,
        "moves": len(hs.moves),
        "passes": passes,
        "last_move": last,
        "lacks": [eng.lacks(s) for s in range(ms.rules.seats)],
        "renuncios": [r.to_json() for r in eng.renuncios],
        "bonuses": [b.to_json() for b in eng.bonuses],
        "awarded": list(eng.awarded),
        "outcome": None if eng.outcome is None else eng.outcome.value,
        "reveal": reveal,
    }


# --- the MQTT state body of controller.live (schema domino-table/state/1) ----------------------

_LIVE_ALERTS = {
    "illegal_tile": "illegal_tile",
    "misread": "misread",
    "device": "device",
    "unsure": "camera",
    "renuncio": "renuncio",
}
_LIVE_PHASES = {"lead": "waiting", "play": "playing", "reveal": "reveal"}


#: finished hands whose scoring the live state carries (the chart has them all)
LIVE_HANDS = 50


def _side_name(seats: list[int], names: list[str]) -> str:
    """A partnership is named by its seats ("Seats 1 & 3"; the publisher may put the team names
    of the table's settings instead); a side of one is its player."""
    if len(seats) == 1:
        return names[0]
    return "Seats " + " & ".join(str(s + 1) for s in seats)


def _bonus(b: dict[str, Any]) -> dict[str, Any]:
    keys = ("kind", "seat", "side", "points", "move", "counted")
    return {k: b[k] for k in keys if k in b}


def _hand_score(h: dict[str, Any]) -> dict[str, Any]:
    return {
        "hand": h["hand"],
        "result": h["result"],
        "winner": h["winner"],
        "winning_seat": h.get("winning_seat"),
        "points": h["points"],
        "bonuses": [_bonus(b) for b in h.get("bonuses", [])],
        "pips": h.get("remaining"),
        "revealed": h.get("left") or [],
    }


def live_state_body(snap: dict[str, Any]) -> dict[str, Any]:
    """The snapshot in the shape of ``controller.live.models.StateBody`` (``match``, ``hand``,
    ``alerts``, ``device``). Fields the live schema has no place for yet (``waiting``,
    ``leader_known``, alert ``blocking``, renuncios, end-sum scores) are left out."""
    match = snap.get("match")
    hand = snap.get("hand")
    out: dict[str, Any] = {"match": None, "hand": None, "alerts": [], "device": None}
    if match is not None:
        out["match"] = {
            "rules": match["rules"],
            "options": {
                k: v for k, v in match["options"].items() if isinstance(v, bool | int | float | str)
            },
            "target": match["target"],
            "sides": [
                {
                    "name": _side_name(s["seats"], s["names"]),
                    "seats": s["seats"],
                    "score": s["score"],
                }
                for s in match["sides"]
            ],
            "seats": [
                {"name": name, "side": next(s["side"] for s in match["sides"] if i in s["seats"])}
                for i, name in enumerate(match["seats"])
            ],
            "hand_no": match["hand_no"],
            "winner": match["winner"],
            "score_history": [h["points"] for h in match["score_history"]],
            "hands": [_hand_score(h) for h in match["score_history"][-LIVE_HANDS:]],
        }
    if hand is not None:
        ends = hand["ends"]
        last = hand["last_move"]
        last_view = None
        # while nobody knows who led, the last move's seat is the session's guess: the live
        # state names no seat rather than a wrong one (the page shows none)
        if last is not None and hand.get("leader_known", True):
            kind = "play" if "play" in last else "pass" if "pass" in last else "draw"
            tile = last.get("play") or last.get("draw")
            last_view = {
                "seat": last["seat"],
                "kind": kind,
                "move": last["move"],
                "tile": None if tile in (None, "?") else tile,
                "end": last.get("end", "first" if kind == "play" else None),
            }
        out["hand"] = {
            "phase": _LIVE_PHASES[hand["phase"]],
            "leader": hand["leader"],
            "turn": hand["turn"],
            "line": [dict(t) for t in hand["line"]],
            "ends": [ends["left"], ends["right"]] if "left" in ends and "right" in ends else None,
            "counts": hand["counts"],
            "boneyard": hand["boneyard"],
            "passes": hand["passes"],
            "last_move": last_view,
            "lacks": hand["lacks"],
            "outcome": hand.get("outcome"),
            "bonuses": [_bonus(b) for b in hand.get("bonuses", [])],
            "reveal": None
            if hand.get("reveal") is None
            else {
                "status": hand["reveal"]["status"],
                "message": (hand["reveal"]["message"] or "")[:500] or None,
                "tiles": hand["reveal"]["tiles"],
            },
        }
    out["alerts"] = [
        {
            "kind": _LIVE_ALERTS.get(a["kind"], "other"),
            "seat": a["seat"],
            "message": a["message"][:500],
        }
        for a in snap.get("alerts", [])
    ][:100]
    device = snap.get("device")
    if device is not None:
        out["device"] = {"link": device["link"], "detail": device["detail"][:200]}
    return out
