"""Everything that can happen to a table, as small frozen values with a JSON form (the journal
stores them). Time arrives inside each input (``t``, seconds on the runtime's clock): the session
never reads a clock.

Vision and seat-device events are turned into these at the runtime's edge
(:mod:`controller.runtime.adapters`), so the pure core does not depend on their classes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from controller.errors import ControllerError

Gesture = Literal["short", "long", "double"]
VisionEnd = Literal["left", "right", "first"]
Pips = tuple[int, int]


class InputError(ControllerError, ValueError):
    """A journal line or an API command that is not a valid table input."""


@dataclass(frozen=True, slots=True)
class Laid:
    """One tile the camera saw join the line: ``pips`` is (joined half, open half); for the
    opening tile (left, right)."""

    pips: Pips
    end: VisionEnd


@dataclass(frozen=True, slots=True)
class TilesLaid:
    """The tiles that joined the line in one settled scene (two or more at once is a problem the
    session reports, never guesses)."""

    t: float
    tiles: tuple[Laid, ...]


@dataclass(frozen=True, slots=True)
class TileTaken:
    """A tile is gone from the line."""

    t: float
    pips: Pips


@dataclass(frozen=True, slots=True)
class TileNudged:
    """A tile of the line was moved a little: not a move of the game."""

    t: float
    pips: Pips


@dataclass(frozen=True, slots=True)
class Revealed:
    """Every tile now face up in ``seat``'s reveal zone."""

    t: float
    seat: int
    tiles: tuple[Pips, ...]


@dataclass(frozen=True, slots=True)
class VisionUnsure:
    """The camera could not tell what happened: shown to people, no move is made."""

    t: float
    reason: str
    pips: Pips | None = None


@dataclass(frozen=True, slots=True)
class Button:
    t: float
    seat: int
    gesture: Gesture


@dataclass(frozen=True, slots=True)
class Link:
    """The seat device link went up or down."""

    t: float
    up: bool
    detail: str = ""


# --- commands from the authorised API -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NewMatch:
    t: float
    preset: str
    options: Mapping[str, object] = field(default_factory=dict)
    seats: tuple[str, ...] | None = None
    #: the seat that leads the first hand, when the rules leave it open and people know it
    leader: int | None = None


@dataclass(frozen=True, slots=True)
class CorrectTile:
    """The tile read as ``read_as`` (None: the last tile read) is really ``actual``; with
    ``move``, the tile of that move of the hand (1 for the first) is really ``actual``."""

    t: float
    actual: str
    read_as: str | None = None
    move: int | None = None


@dataclass(frozen=True, slots=True)
class UndoLast:
    t: float


@dataclass(frozen=True, slots=True)
class ConfirmReveal:
    """A person confirms the reveal. ``left`` (per seat, tile strings) replaces the reading."""

    t: float
    left: tuple[tuple[str, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class SetLeader:
    """People say which seat led this hand (the camera cannot see who lays a tile)."""

    t: float
    seat: int


TableInput = (
    TilesLaid
    | TileTaken
    | TileNudged
    | Revealed
    | VisionUnsure
    | Button
    | Link
    | NewMatch
    | CorrectTile
    | UndoLast
    | ConfirmReveal
    | SetLeader
)

_KINDS: dict[str, type[Any]] = {
    "tiles_laid": TilesLaid,
    "tile_taken": TileTaken,
    "tile_nudged": TileNudged,
    "revealed": Revealed,
    "vision_unsure": VisionUnsure,
    "button": Button,
    "link": Link,
    "new_match": NewMatch,
    "correct_tile": CorrectTile,
    "undo_last": UndoLast,
    "confirm_reveal": ConfirmReveal,
    "set_leader": SetLeader,
}
_NAMES = {cls: name for name, cls in _KINDS.items()}


def kind_of(inp: TableInput) -> str:
    return _NAMES[type(inp)]


def input_to_json(inp: TableInput) -> dict[str, Any]:
    """A JSON object with ``input`` naming the kind; round-trips through :func:`input_from_json`."""
    out: dict[str, Any] = {"input": kind_of(inp), "t": inp.t}
    if isinstance(inp, TilesLaid):
        out["tiles"] = [{"pips": list(x.pips), "end": x.end} for x in inp.tiles]
    elif isinstance(inp, TileTaken | TileNudged):
        out["pips"] = list(inp.pips)
    elif isinstance(inp, Revealed):
        out["seat"] = inp.seat
        out["tiles"] = [list(p) for p in inp.tiles]
    elif isinstance(inp, VisionUnsure):
        out["reason"] = inp.reason
        out["pips"] = None if inp.pips is None else list(inp.pips)
    elif isinstance(inp, Button):
        out["seat"] = inp.seat
        out["gesture"] = inp.gesture
    elif isinstance(inp, Link):
        out["up"] = inp.up
        out["detail"] = inp.detail
    elif isinstance(inp, NewMatch):
        out["preset"] = inp.preset
        out["options"] = dict(inp.options)
        out["seats"] = None if inp.seats is None else list(inp.seats)
        out["leader"] = inp.leader
    elif isinstance(inp, CorrectTile):
        out["actual"] = inp.actual
        out["read_as"] = inp.read_as
        if inp.move is not None:  # absent otherwise: older journal lines stay as they were
            out["move"] = inp.move
    elif isinstance(inp, ConfirmReveal):
        out["left"] = None if inp.left is None else [list(s) for s in inp.left]
    elif isinstance(inp, SetLeader):
        out["seat"] = inp.seat
    return out


def _pips(value: object, where: str) -> Pips:
    if (
        not isinstance(value, Sequence)
        or isinstance(value, str)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise InputError(f"{where}: {value!r} is not a pair of pip counts")
    return (int(value[0]), int(value[1]))


def _int(data: Mapping[str, Any], key: str, where: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"{where}: {key!r} must be a whole number")
    return value


def _str(data: Mapping[str, Any], key: str, where: str, *, optional: bool = False) -> str | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise InputError(f"{where}: {key!r} must be a string")
    return value


def input_from_json(data: Mapping[str, Any]) -> TableInput:
    """Parse one input; raises :class:`InputError` naming what is wrong."""
    kind = data.get("input")
    cls = _KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise InputError(f"unknown input kind {kind!r} (one of {', '.join(_KINDS)})")
    where = str(kind)
    t = data.get("t")
    if not isinstance(t, int | float) or isinstance(t, bool):
        raise InputError(f"{where}: 't' must be a number of seconds")
    t = float(t)
    if cls is TilesLaid:
        raw = data.get("tiles")
        if not isinstance(raw, list) or not raw:
            raise InputError(f"{where}: 'tiles' must be a non-empty list")
        tiles = []
        for x in raw:
            if not isinstance(x, Mapping) or x.get("end") not in ("left", "right", "first"):
                raise InputError(f"{where}: each tile needs 'pips' and 'end' (left/right/first)")
            tiles.append(Laid(_pips(x.get("pips"), where), x["end"]))
        return TilesLaid(t, tuple(tiles))
    if cls is TileTaken or cls is TileNudged:
        return cls(t, _pips(data.get("pips"), where))  # type: ignore[no-any-return]
    if cls is Revealed:
        raw = data.get("tiles")
        if not isinstance(raw, list):
            raise InputError(f"{where}: 'tiles' must be a list")
        return Revealed(t, _int(data, "seat", where), tuple(_pips(p, where) for p in raw))
    if cls is VisionUnsure:
        pips = data.get("pips")
        return VisionUnsure(
            t, _str(data, "reason", where) or "", None if pips is None else _pips(pips, where)
        )
    if cls is Button:
        gesture = data.get("gesture")
        if gesture not in ("short", "long", "double"):
            raise InputError(f"{where}: 'gesture' must be short, long or double")
        return Button(t, _int(data, "seat", where), gesture)
    if cls is Link:
        return Link(t, bool(data.get("up")), str(data.get("detail", "")))
    if cls is NewMatch:
        options = data.get("options") or {}
        if not isinstance(options, Mapping):
            raise InputError(f"{where}: 'options' must be an object")
        seats = data.get("seats")
        if seats is not None and (
            not isinstance(seats, list) or not all(isinstance(s, str) for s in seats)
        ):
            raise InputError(f"{where}: 'seats' must be a list of names")
        leader = data.get("leader")
        if leader is not None and (not isinstance(leader, int) or isinstance(leader, bool)):
            raise InputError(f"{where}: 'leader' must be a seat number")
        return NewMatch(
            t,
            _str(data, "preset", where) or "",
            dict(options),
            None if seats is None else tuple(seats),
            leader,
        )
    if cls is CorrectTile:
        move = None if data.get("move") is None else _int(data, "move", where)
        return CorrectTile(
            t,
            _str(data, "actual", where) or "",
            _str(data, "read_as", where, optional=True),
            move,
        )
    if cls is UndoLast:
        return UndoLast(t)
    if cls is ConfirmReveal:
        left = data.get("left")
        if left is None:
            return ConfirmReveal(t)
        if not isinstance(left, list) or not all(
            isinstance(s, list) and all(isinstance(x, str) for x in s) for s in left
        ):
            raise InputError(f"{where}: 'left' must be a list of lists of tile strings")
        return ConfirmReveal(t, tuple(tuple(s) for s in left))
    return SetLeader(t, _int(data, "seat", where))
