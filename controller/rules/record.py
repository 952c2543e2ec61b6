"""Game records (RULES.md section 6): read, validate, replay, write.

A record is one JSON document per match. Hands and moves are numbered from 1 in messages and in
JSON output. Malformed input raises :class:`RecordError` (exit status 2); a well-formed record with
an illegal move raises :class:`IllegalRecordError` (exit status 1), naming hand, move and reason.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.errors import (
    ControllerError,
    IllegalMoveError,
    IllegalRecordError,
    RecordError,
    RulesError,
)
from controller.rules.hand import Hand
from controller.rules.line import End
from controller.rules.match import Match
from controller.rules.moves import Draw, HandEnd, HandResult, Move, Pass, Play
from controller.rules.options import Rules, build_rules
from controller.rules.tiles import Tile

FORMAT = "domino-record/1"
#: The largest record accepted (a long double-18 match is far below this).
MAX_RECORD_BYTES = 32 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class HandRecord:
    dealt: tuple[tuple[Tile, ...], ...] | None
    moves: tuple[Move, ...]
    left: tuple[tuple[Tile, ...], ...] | None


@dataclass(frozen=True, slots=True)
class MatchRecord:
    rules: Rules
    seats: tuple[str, ...]
    hands: tuple[HandRecord, ...]
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Replay:
    """What replaying a record gives: every finished hand's result and the match standing."""

    record: MatchRecord
    results: tuple[HandResult, ...]
    totals: tuple[int, ...]
    winner: int | None
    #: The last hand, when the record stops in the middle of it.
    unfinished: Hand | None

    def to_json(self) -> dict[str, Any]:
        rules = self.record.rules
        return {
            "rules": rules.preset,
            "options": rules.to_json(),
            "seats": list(self.record.seats),
            "sides": [list(rules.seats_of(side)) for side in range(rules.sides)],
            "hands": [r.to_json() for r in self.results],
            "totals": list(self.totals),
            "winner": self.winner,
            "finished": self.winner is not None,
            "unfinished_hand": None
            if self.unfinished is None
            else {"hand": self.unfinished.number + 1, "moves": len(self.unfinished.moves)},
        }


# ----------------------------------------------------------------------------- reading


def load_record(path: Path | str) -> dict[str, Any]:
    """Read a record file as JSON (no validation beyond being a JSON object)."""
    return parse_json(_read_text(path), str(path))


def load_records(path: Path | str) -> list[tuple[int | None, dict[str, Any]]]:
    """Read a file of one record or of JSON lines: see :func:`parse_records`."""
    return parse_records(_read_text(path), str(path))


def _read_text(path: Path | str) -> str:
    """At most :data:`MAX_RECORD_BYTES` are read, whatever the file is (``/dev/zero``, a
    pipe)."""
    from controller.bounded import InputTooLargeError, UnreadableInputError, decode, read_bytes

    p = Path(path)
    try:
        return decode(read_bytes(p, MAX_RECORD_BYTES, "game record"), str(p))
    except (InputTooLargeError, UnreadableInputError) as exc:
        raise RecordError(str(exc)) from None


def parse_records(text: str, where: str = "record") -> list[tuple[int | None, dict[str, Any]]]:
    """One record (one JSON document, laid out any way) or JSON lines (one record per line, as
    ``simulate --json`` prints them; blank lines are skipped). Each record comes with the line
    it is on, or ``None`` for a single document. A bad line raises :class:`RecordError`
    naming it."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise RecordError(f"{where}: JSON nested too deeply to be a game record") from None
    except json.JSONDecodeError as exc:
        if exc.msg != "Extra data":
            raise RecordError(
                f"{where}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
            ) from None
    else:
        return [(None, _record_object(data, where))]
    out: list[tuple[int | None, dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        at = f"{where}: line {number}"
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(
                f"{at}: not valid JSON (column {exc.colno}: {exc.msg}); "
                "JSON lines hold one whole record per line"
            ) from None
        except RecursionError:
            raise RecordError(f"{at}: JSON nested too deeply to be a game record") from None
        out.append((number, _record_object(value, at)))
    return out


def parse_json(text: str, where: str = "record") -> dict[str, Any]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"{where}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    except RecursionError:
        raise RecordError(f"{where}: JSON nested too deeply to be a game record") from None
    return _record_object(data, where)


def _record_object(data: object, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a game record is a JSON object, not {type(data).__name__}")
    return data


def parse_record(
    data: Mapping[str, Any],
    *,
    rules_name: str | None = None,
    overrides: Mapping[str, object] | None = None,
) -> MatchRecord:
    """Check a record's shape and turn it into values. ``rules_name`` and ``overrides`` take
    precedence over the record's own ``rules`` and ``options``."""
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"format {fmt!r} is not supported (expected {FORMAT!r})")
    name = rules_name or data.get("rules")
    if not isinstance(name, str):
        raise RecordError("'rules' must name a preset (or pass --rules)")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("'options' must be an object")
    merged: dict[str, object] = dict(options)
    merged.update(overrides or {})
    seats = data.get("seats")
    if seats is not None:
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise RecordError("'seats' must be a list of names")
        merged.setdefault("seats", len(seats))
    try:
        rules = build_rules(name, merged)
    except RulesError as exc:
        raise RecordError(str(exc)) from None
    names = (
        tuple(seats) if seats is not None else tuple(f"Seat {i + 1}" for i in range(rules.seats))
    )
    if len(names) != rules.seats:
        raise RecordError(f"'seats' names {len(names)} players but the rules have {rules.seats}")
    hands = data.get("hands")
    if not isinstance(hands, list):
        raise RecordError("'hands' must be a list")
    parsed = tuple(_parse_hand(rules, i, h) for i, h in enumerate(hands))
    known = {"format", "rules", "options", "seats", "hands"}
    extra = {k: v for k, v in data.items() if k not in known}
    return MatchRecord(rules, names, parsed, extra)


def _tile(rules: Rules, value: object, where: str) -> Tile:
    if not isinstance(value, str):
        raise RecordError(f"{where}: {value!r} is not a tile string like '3-5'")
    try:
        return rules.tileset.parse(value)
    except RulesError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _tile_lists(rules: Rules, value: object, where: str) -> tuple[tuple[Tile, ...], ...]:
    if not isinstance(value, list) or len(value) != rules.seats:
        raise RecordError(f"{where}: must be a list of {rules.seats} lists of tiles")
    out = []
    for seat, tiles in enumerate(value):
        if not isinstance(tiles, list):
            raise RecordError(f"{where}, seat {seat}: must be a list of tiles")
        out.append(tuple(_tile(rules, t, f"{where}, seat {seat}") for t in tiles))
    return tuple(out)


def _parse_hand(rules: Rules, index: int, value: object) -> HandRecord:
    where = f"hand {index + 1}"
    if not isinstance(value, dict):
        raise RecordError(f"{where}: must be an object")
    dealt = value.get("dealt")
    left = value.get("left")
    moves = value.get("moves", [])
    if not isinstance(moves, list):
        raise RecordError(f"{where}: 'moves' must be a list")
    return HandRecord(
        dealt=None if dealt is None else _tile_lists(rules, dealt, f"{where}, dealt"),
        moves=tuple(_parse_move(rules, m, f"{where}, move {i + 1}") for i, m in enumerate(moves)),
        left=None if left is None else _tile_lists(rules, left, f"{where}, left"),
    )


def _parse_move(rules: Rules, value: object, where: str) -> Move:
    if not isinstance(value, dict):
        raise RecordError(f"{where}: must be an object")
    seat = value.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RecordError(f"{where}: 'seat' must be a seat number")
    if not 0 <= seat < rules.seats:
        raise RecordError(f"{where}: there is no seat {seat} (seats 0-{rules.seats - 1})")
    kinds = [k for k in ("play", "pass", "draw") if k in value]
    if len(kinds) != 1:
        raise RecordError(f"{where}: a move has exactly one of 'play', 'pass', 'draw'")
    if "play" in value:
        raw = value["play"]
        tile = _tile(rules, raw, where)
        end_value = value.get("end")
        end: End | None = None
        if end_value is not None:
            try:
                end = End(end_value)
            except ValueError:
                choices = ", ".join(e.value for e in End)
                raise RecordError(f"{where}: 'end' {end_value!r} is not one of {choices}") from None
        first = int(raw.strip().split("-")[0])
        return Play(seat, tile, end, first)
    if "pass" in value:
        if value["pass"] is not True:
            raise RecordError(f"{where}: 'pass' must be true")
        return Pass(seat)
    raw = value["draw"]
    if raw == "?":
        return Draw(seat, None)
    return Draw(seat, _tile(rules, raw, where))


# ----------------------------------------------------------------------------- replay


def _check_deal(rules: Rules, dealt: Sequence[Sequence[Tile]], where: str) -> list[Tile]:
    """Check a deal; returns the boneyard (tiles not dealt) when the rules draw from one."""
    seen: set[Tile] = set()
    for seat, tiles in enumerate(dealt):
        if len(tiles) != rules.hand_size:
            raise IllegalRecordError(
                f"{where}: seat {seat} got {len(tiles)} tiles, the rules deal {rules.hand_size}"
            )
        for t in tiles:
            if t in seen:
                raise IllegalRecordError(f"{where}: {t} is dealt twice")
            seen.add(t)
    return [t for t in rules.tileset.tiles if t not in seen]


def replay(record: MatchRecord) -> Replay:
    """Validate every move of every hand and score the match."""
    rules = record.rules
    match = Match(rules, record.seats)
    results: list[HandResult] = []
    unfinished: Hand | None = None
    last = len(record.hands) - 1
    for index, hand_record in enumerate(record.hands):
        where = f"hand {index + 1}"
        if match.over:
            raise IllegalRecordError(f"{where}: the match was already won by side {match.winner}")
        hand = _new_hand(match, hand_record, where)
        moves = hand_record.moves
        for number, move in enumerate(moves, start=1):
            if hand.over:
                if hand.outcome is HandEnd.BLOCK and isinstance(move, Pass):
                    continue  # the passes that establish a block may be listed
                raise IllegalRecordError(
                    f"{where}, move {number} ({move}): the hand is already over ({hand.outcome})"
                )
            if isinstance(move, Draw) and move.tile is None and hand.known:
                raise RecordError(
                    f"{where}, move {number}: with dealt hands a draw must name its tile"
                )
            try:
                hand.push(move)
            except IllegalMoveError as exc:
                raise IllegalRecordError(f"{where}, move {number}: {exc}") from None
        if not hand.over:
            if index == last:
                unfinished = hand
                break
            turn = "" if hand.turn is None else f" (seat {hand.turn} to move)"
            raise IllegalRecordError(f"{where}: the record stops before the hand is over{turn}")
        try:
            result = hand.finish(hand_record.left)
        except IllegalMoveError as exc:
            raise IllegalRecordError(f"{where}: {exc}") from None
        except ControllerError as exc:
            raise RecordError(f"{where}: {exc}") from None
        match.record(result)
        results.append(result)
    return Replay(record, tuple(results), tuple(match.totals), match.winner, unfinished)


def _new_hand(match: Match, hand_record: HandRecord, where: str) -> Hand:
    rules = match.rules
    dealt = hand_record.dealt
    boneyard = None
    if dealt is not None:
        rest = _check_deal(rules, dealt, where)
        boneyard = rest if rules.boneyard.value != "none" else None
    try:
        return match.new_hand(dealt, boneyard)
    except IllegalMoveError as exc:
        raise IllegalRecordError(f"{where}: {exc}") from None


# ----------------------------------------------------------------------------- writing


def move_to_json(move: Move) -> dict[str, Any]:
    if isinstance(move, Play):
        if move.end is None:
            first = move.first_half if move.first_half is not None else move.tile.low
            return {"seat": move.seat, "play": f"{first}-{move.tile.other(first)}"}
        return {"seat": move.seat, "play": str(move.tile), "end": move.end.value}
    if isinstance(move, Pass):
        return {"seat": move.seat, "pass": True}
    return {"seat": move.seat, "draw": "?" if move.tile is None else str(move.tile)}


def hand_to_json(
    dealt: Sequence[Sequence[Tile]] | None,
    moves: Sequence[Move],
    left: Sequence[Sequence[Tile]] | None,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if dealt is not None:
        out["dealt"] = [[str(t) for t in sorted(h)] for h in dealt]
    out["moves"] = [move_to_json(m) for m in moves]
    if left is not None:
        out["left"] = [[str(t) for t in sorted(h)] for h in left]
    return out


def record_to_json(
    rules: Rules, seats: Sequence[str], hands: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "rules": rules.preset,
        "options": rules.overrides(),
        "seats": list(seats),
        "hands": list(hands),
    }
