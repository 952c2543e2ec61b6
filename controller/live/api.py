"""Response schemas of the scoreboard's REST API (documented in its OpenAPI schema)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from controller.live.models import DevicePayload, EventPayload, StatePayload

Status = Literal["online", "offline", "unknown"]


class Counters(BaseModel):
    states: int = 0
    events: int = 0
    gaps: int = 0
    refused: int = 0
    last_event_seq: int = 0
    state_seq: int = -1


class SideScore(BaseModel):
    name: str
    score: int


class TableSummary(BaseModel):
    """One row of the hall."""

    table: str
    status: Status
    stale: bool
    stale_reason: str | None
    last_seen: float | None = Field(description="UNIX time of the last message from the table")
    seq: int | None
    rules: str | None
    target: int | None
    hand_no: int | None
    winner: int | None
    sides: list[SideScore]
    phase: str | None
    turn: int | None
    alerts: int
    device: str | None
    counters: Counters


class HallView(BaseModel):
    broker: Literal["up", "down"]
    tables: list[TableSummary]


class TableView(BaseModel):
    """What the big screen shows for one table."""

    table: str
    status: Status
    stale: bool
    stale_reason: str | None
    broker: Literal["up", "down"]
    last_seen: float | None
    state: StatePayload | None
    device: DevicePayload | None
    recent_events: list[EventPayload]
    counters: Counters


class EventsPage(BaseModel):
    table: str
    events: list[EventPayload]
    oldest: int = Field(description="oldest seq still held")
    complete: bool = Field(description="false when events after `since` were already dropped")


class MatchRecord(BaseModel):
    format: Literal["domino-table/live-record/1"]
    table: str
    session: str | None
    state: StatePayload | None
    events: list[EventPayload]
    complete: bool = Field(description="true when every event since seq 1 is included")


class Health(BaseModel):
    status: Literal["ok"]
    broker: Literal["up", "down"]
    broker_url: str
    tables: int
