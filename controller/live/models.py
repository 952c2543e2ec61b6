"""Versioned MQTT payloads: the API schema of a table's live state, separate from domain objects.

Every JSON payload carries ``schema`` (``domino-table/<kind>/<major>``). A consumer refuses a schema
it does not know; a new major version gets a new name and both may be published side by side.
``seq`` numbers events contiguously per table session (1, 2, 3...); a state carries the seq of the
last event it reflects, so a consumer that sees an event seq jump resyncs from the retained state.
``session`` changes when the table restarts its numbering.
"""

from __future__ import annotations

import json
import math
from typing import Annotated, Any, Final, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from controller.live.errors import PayloadError

STATE_SCHEMA: Final = "domino-table/state/1"
EVENT_SCHEMA: Final = "domino-table/event/1"
DEVICE_SCHEMA: Final = "domino-table/device/1"
CMD_SCHEMA: Final = "domino-table/cmd/2"

MAX_SEATS = 4
MAX_PIP = 18

TableId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
TileText = Annotated[str, StringConstraints(pattern=r"^[0-9]{1,2}-[0-9]{1,2}$")]
Pip = Annotated[int, Field(ge=0, le=MAX_PIP)]
SeatNo = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
MoveNo = Annotated[int, Field(ge=0, le=10_000)]
ShortText = Annotated[str, StringConstraints(max_length=64)]
Scalar = bool | int | float | str | None


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class SideView(_Model):
    """A side: a partnership, or one player in individual play."""

    name: ShortText
    seats: list[SeatNo] = Field(min_length=1, max_length=MAX_SEATS)
    score: int = Field(ge=-100_000, le=100_000)


class SeatView(_Model):
    name: ShortText
    side: int = Field(ge=0, lt=MAX_SEATS)


class BonusView(_Model):
    """Points a hand gave apart from the pips: ``pase_corrido``, ``capicua``, ``going_out``."""

    kind: ShortText
    seat: SeatNo
    side: int = Field(ge=0, lt=MAX_SEATS)
    points: int = Field(ge=0, le=100_000)
    move: MoveNo | None = None
    counted: bool = Field(default=True, description="false when an exact target refused it")


class HandScoreView(_Model):
    """How one finished hand was scored."""

    hand: int = Field(ge=1, le=10_000, description="1 for the first hand")
    result: Literal["domino", "block", "target"]
    winner: int | None = Field(default=None, ge=0, lt=MAX_SEATS, description="side index")
    winning_seat: SeatNo | None = None
    points: list[int] = Field(max_length=MAX_SEATS, description="per side: points won")
    bonuses: list[BonusView] = Field(default_factory=list, max_length=64)
    pips: list[int] | None = Field(
        default=None, max_length=MAX_SEATS, description="per seat: pips left in hand"
    )
    revealed: list[list[TileText]] = Field(
        default_factory=list, max_length=MAX_SEATS, description="per seat: the tiles shown"
    )


class MatchView(_Model):
    rules: ShortText
    options: dict[ShortText, Scalar] = Field(default_factory=dict, max_length=64)
    target: int = Field(ge=1, le=100_000)
    sides: list[SideView] = Field(min_length=1, max_length=MAX_SEATS)
    seats: list[SeatView] = Field(min_length=1, max_length=MAX_SEATS)
    hand_no: int = Field(ge=0, le=10_000, description="1 for the first hand; 0 before it")
    winner: int | None = Field(default=None, ge=0, lt=MAX_SEATS, description="side index")
    score_history: list[list[int]] = Field(
        default_factory=list, max_length=10_000, description="per hand: points won by each side"
    )
    hands: list[HandScoreView] = Field(
        default_factory=list, max_length=100, description="the last finished hands, oldest first"
    )


class PlacedTile(_Model):
    """A tile of the line, listed from the left end to the right end."""

    tile: TileText
    pips: tuple[Pip, Pip] = Field(description="halves as they lie, left to right")
    end: Literal["left", "right", "first"]
    seat: SeatNo
    double: bool
    move: MoveNo | None = None


class PassView(_Model):
    seat: SeatNo
    move: MoveNo


class MoveView(_Model):
    seat: SeatNo
    kind: Literal["play", "pass", "draw"]
    move: MoveNo
    tile: TileText | None = None
    end: Literal["left", "right", "first"] | None = None


class RevealView(_Model):
    """The tiles left in each hand, shown face up when a hand is over, as the table reads them."""

    status: Literal["incomplete", "passed", "failed"]
    message: Annotated[str, StringConstraints(max_length=500)] | None = None
    tiles: list[list[TileText] | None] = Field(
        default_factory=list, max_length=MAX_SEATS, description="per seat; null: not shown yet"
    )


class HandView(_Model):
    phase: Literal["waiting", "playing", "reveal", "scored"]
    leader: SeatNo | None = None
    turn: SeatNo | None = None
    line: list[PlacedTile] = Field(default_factory=list, max_length=200)
    ends: tuple[Pip, Pip] | None = None
    counts: list[int] = Field(default_factory=list, max_length=MAX_SEATS)
    boneyard: int = Field(default=0, ge=0, le=200)
    passes: list[PassView] = Field(default_factory=list, max_length=1000)
    last_move: MoveView | None = None
    lacks: list[list[Pip]] = Field(
        default_factory=list, max_length=MAX_SEATS, description="per seat: numbers it lacks"
    )
    result: dict[ShortText, Scalar] | None = Field(
        default=None, description="set in phase 'scored': how the hand ended"
    )
    outcome: Literal["domino", "block", "target"] | None = None
    bonuses: list[BonusView] = Field(default_factory=list, max_length=64)
    reveal: RevealView | None = Field(default=None, description="set in phase 'reveal'")


class AlertView(_Model):
    kind: Literal["illegal_tile", "renuncio", "misread", "device", "camera", "other"]
    seat: SeatNo | None = None
    message: Annotated[str, StringConstraints(max_length=500)]
    move: MoveNo | None = None


class DeviceView(_Model):
    """The seat device (USB serial) as the table sees it."""

    link: Literal["up", "down", "absent"]
    detail: Annotated[str, StringConstraints(max_length=200)] | None = None
    firmware: ShortText | None = None
    last_heartbeat: float | None = None


class StateBody(_Model):
    """What the table session produces; the publisher adds the envelope."""

    match: MatchView | None = None
    hand: HandView | None = None
    alerts: list[AlertView] = Field(default_factory=list, max_length=100)
    device: DeviceView | None = None


class CommandCounts(_Model):
    """Commands the table took and refused since it started (refusals are not all reported)."""

    accepted: int = Field(ge=0)
    refused: int = Field(ge=0)


class StatePayload(StateBody):
    """``{root}/{table}/state``: retained, QoS 1."""

    commands: CommandCounts | None = None

    schema_: Literal["domino-table/state/1"] = Field(default="domino-table/state/1", alias="schema")
    seq: int = Field(ge=0, description="seq of the last event this state reflects")
    session: ShortText = Field(description="changes when the table restarts its numbering")
    table: TableId
    ts: float = Field(ge=0, description="UNIX time of publication")


class EventPayload(_Model):
    """``{root}/{table}/events``: QoS 1, not retained, contiguous ``seq``."""

    schema_: Literal["domino-table/event/1"] = Field(default="domino-table/event/1", alias="schema")
    seq: int = Field(ge=1)
    session: ShortText
    table: TableId
    ts: float = Field(ge=0)
    type: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]{0,31}$")] = Field(
        description="tile_played, pass, draw, hand_end, match_end, alert, correction, undo, "
        "new_match, command..."
    )
    data: dict[ShortText, Any] = Field(default_factory=dict, max_length=64)


class DevicePayload(DeviceView):
    """``{root}/{table}/device``: retained seat-device link state."""

    schema_: Literal["domino-table/device/1"] = Field(
        default="domino-table/device/1", alias="schema"
    )
    table: TableId
    ts: float = Field(ge=0)


class CommandPayload(_Model):
    """``{root}/{table}/cmd/<name>``: a command in, signed with the table's command key.

    ``mac`` is the HMAC-SHA256 (hex) of :func:`controller.live.commands.canonical` (every other
    field, ``table`` and ``name`` included, so a command cannot be moved to another table or
    turned into another command). ``id`` is unique and ``ts`` recent: the table refuses a command
    it has seen before or whose time is outside its window. No bearer token ever travels here.
    """

    schema_: Literal["domino-table/cmd/2"] = Field(default="domino-table/cmd/2", alias="schema")
    id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{8,64}$")]
    table: TableId
    name: Annotated[str, StringConstraints(pattern=r"^[a-z][a-z_]{0,31}$")]
    ts: float = Field(ge=0, allow_inf_nan=False, description="UNIX time of sending")
    args: dict[ShortText, Scalar | list[Scalar]] = Field(default_factory=dict, max_length=32)
    mac: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]


COMMANDS = ("new_match", "correct", "undo")
AVAILABILITY = ("online", "offline")

PAYLOADS: dict[str, type[_Model]] = {
    STATE_SCHEMA: StatePayload,
    EVENT_SCHEMA: EventPayload,
    DEVICE_SCHEMA: DevicePayload,
    CMD_SCHEMA: CommandPayload,
}

M = TypeVar("M", bound=_Model)


class _NonFiniteError(ValueError):
    pass


def _no_constant(name: str) -> float:
    raise _NonFiniteError(name)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NonFiniteError(text)
    return value


def decode(model: type[M], raw: bytes, *, max_bytes: int) -> M:
    """Parse one payload, or raise :class:`PayloadError` with a reason fit for a metric label.

    Reasons: ``oversized``, ``malformed`` (not a JSON object, or a number JSON cannot carry:
    ``NaN``, ``Infinity``, ``1e999``; such a number could not be signed nor served again),
    ``unknown_schema``, ``invalid``.
    """
    if len(raw) > max_bytes:
        raise PayloadError("oversized", f"{len(raw)} bytes > {max_bytes}")
    try:
        obj = json.loads(raw, parse_constant=_no_constant, parse_float=_finite_float)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise PayloadError("malformed", f"not JSON ({exc.__class__.__name__})") from None
    except _NonFiniteError:
        raise PayloadError("malformed", "not JSON (a non-finite number)") from None
    if not isinstance(obj, dict):
        raise PayloadError("malformed", "not a JSON object")
    expected = model.model_fields["schema_"].default
    schema = obj.get("schema")
    if schema != expected:
        raise PayloadError("unknown_schema", f"schema {str(schema)[:80]!r}, expected {expected!r}")
    try:
        return model.model_validate(obj)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise PayloadError(
            "invalid", f"{exc.error_count()} error(s), first at {where}: {first['msg']}"
        ) from None


def encode(payload: BaseModel) -> bytes:
    """Compact JSON with the wire names (``schema``, not ``schema_``)."""
    return payload.model_dump_json(by_alias=True, exclude_none=False).encode()


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema of a payload, as written to ``schemas/``."""
    doc = model.model_json_schema(by_alias=True, mode="validation")
    schema_name = model.model_fields["schema_"].default
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": schema_name,
        **doc,
    }
