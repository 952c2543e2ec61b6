"""The scoreboard web service: hall page, big-screen table page, SSE, REST API, metrics.

``create_app(settings, *, mqtt_factory=...)`` builds nothing at import time; the lifespan starts
the MQTT feed (and the embedded broker when no broker URL is configured) and stops them.
Run it with :func:`controller.live.server.serve` (graceful shutdown with SSE clients connected).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Path, Query, Request
from fastapi.responses import FileResponse, PlainTextResponse, Response, StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from prometheus_client.registry import CollectorRegistry
from pydantic import BaseModel, ConfigDict, Field

from controller.live.api import EventsPage, HallView, Health, MatchRecord, TableView
from controller.live.broker import EmbeddedBroker
from controller.live.commands import signed_command
from controller.live.connect import paho_client
from controller.live.feed import ScoreboardFeed
from controller.live.hub import HALL, Hub
from controller.live.limits import Limits
from controller.live.limits import install as install_limits
from controller.live.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from controller.live.metrics import exposition, registry_for
from controller.live.models import StatePayload, TileText, encode
from controller.live.publisher import ClientFactory
from controller.live.settings import ScoreboardSettings
from controller.live.store import Outcome, TableStore
from controller.live.topics import TableTopics
from domino_common.clock import Clock, SystemClock

log = logging.getLogger(__name__)

_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "no such table"}}
_WRITE: dict[int | str, dict[str, Any]] = {
    400: {"description": "body is not parseable JSON (or nested too deep)"},
    401: {"description": "bearer token missing or wrong"},
    403: {"description": "read-only scoreboard (no token configured)"},
    413: {"description": "request body too long"},
    409: {"description": "no command key configured for this table"},
    503: {"description": "broker unavailable; the command was not sent"},
}

TablePath = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,64}$", description="table id")]


@dataclass
class Live:
    """Resources built by the lifespan, reached by the routes through ``request.app.state``."""

    settings: ScoreboardSettings
    store: TableStore
    hub: Hub
    feed: ScoreboardFeed
    clock: Clock
    root: str
    broker_url: str  # without credentials
    metrics: CollectorRegistry


def _sse(event: str, data: object) -> str:
    return f"event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _live(request: Request) -> Live:
    live: Live = request.app.state.live
    return live


LiveDep = Annotated[Live, Depends(_live)]
_bearer = HTTPBearer(auto_error=False)


def _authorised(
    live: LiveDep,
    creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    token = live.settings.token
    if token is None:
        raise HTTPException(403, "this scoreboard is read-only (no token configured)")
    if creds is None or not hmac.compare_digest(
        creds.credentials.encode(), token.get_secret_value().encode()
    ):
        raise HTTPException(401, "bearer token required", headers={"WWW-Authenticate": "Bearer"})


Authorised = Annotated[None, Depends(_authorised)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewMatchRequest(_Body):
    rules: str | None = Field(default=None, pattern=r"^[a-z_]{1,32}$")
    target: int | None = Field(default=None, ge=1, le=10_000)
    seats: list[Annotated[str, Field(max_length=64)]] | None = Field(
        default=None, min_length=2, max_length=4
    )


class CorrectRequest(_Body):
    move: int = Field(ge=1, le=10_000, description="move number in the hand (1: the first)")
    tile: TileText = Field(description="the tile really played at that move")


class UndoRequest(_Body):
    moves: int = Field(default=1, ge=1, le=10)


class CommandAccepted(BaseModel):
    id: str
    topic: str


def create_app(
    settings: ScoreboardSettings,
    *,
    mqtt_factory: ClientFactory = paho_client,
    clock: Clock | None = None,
) -> FastAPI:
    clk: Clock = clock or SystemClock()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        mqtt_settings = settings.mqtt
        embedded: EmbeddedBroker | None = None
        if mqtt_settings.url is None:
            embedded = EmbeddedBroker(settings.embedded_host, settings.embedded_port)
            await asyncio.to_thread(embedded.start)
            mqtt_settings = mqtt_settings.model_copy(update={"url": embedded.url})
        store = TableStore(
            mqtt_settings.root,
            ring_size=settings.ring_size,
            max_tables=settings.max_tables,
            max_payload=mqtt_settings.max_payload,
            tracked=settings.tracked(),
            live_window_s=settings.live_window_s,
        )
        hub = Hub(settings.client_queue)

        def dispatch(outcome: Outcome) -> None:
            tables = [outcome.table] if outcome.table else [k for k in hub.watched() if k != HALL]
            for table in tables:
                if hub.wants(table):
                    view = store.view(table) or _empty_view(table, store.broker_up)
                    hub.publish(table, _sse("table", view))
            if hub.wants(HALL):
                if outcome.table is None:
                    hub.publish(HALL, _sse("hall", _hall(store)))
                else:
                    row = store.summary(outcome.table)
                    if row is not None:
                        hub.publish(HALL, _sse("row", row))

        def on_change(outcome: Outcome) -> None:
            # paho's thread; the loop may be closing during shutdown
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(dispatch, outcome)

        feed = ScoreboardFeed(
            mqtt_settings,
            store,
            clock=clk,
            on_change=on_change,
            client_factory=mqtt_factory,
            resync_min_interval_s=settings.resync_min_interval_s,
        )
        app.state.live = Live(
            settings,
            store,
            hub,
            feed,
            clk,
            mqtt_settings.root,
            mqtt_settings.address().url(),
            registry_for(store, hub, lambda: feed.resyncs),
        )
        feed.start()
        try:
            yield
        finally:
            hub.close()
            await asyncio.to_thread(feed.stop)
            if embedded is not None:
                await asyncio.to_thread(embedded.stop)

    app = FastAPI(
        title="Domino table scoreboard",
        version="1",
        lifespan=lifespan,
        description="Live state of every domino table in the hall (read-only unless a bearer "
        "token is configured for the write endpoints).",
    )
    install_limits(
        app,
        Limits(
            max_body=settings.max_body_bytes,
            max_depth=settings.max_json_depth,
            max_streams=settings.max_streams,
            max_streams_per_client=settings.max_streams_per_client,
        ),
    )
    static = resources.files("controller.live") / "static"
    app.mount("/static", StaticFiles(directory=str(static)), name="static")

    # -- pages --------------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def hall_page() -> FileResponse:
        return FileResponse(str(static / "hall.html"), media_type="text/html")

    @app.get("/table/{table}", include_in_schema=False)
    async def table_page(table: TablePath) -> FileResponse:
        return FileResponse(str(static / "table.html"), media_type="text/html")

    @app.get("/tv/{table}", include_in_schema=False)
    async def tv_page(table: TablePath) -> FileResponse:
        """The table page laid out for a TV across the room (the page reads its own path)."""
        return FileResponse(str(static / "table.html"), media_type="text/html")

    # -- health and metrics -------------------------------------------------------------------
    @app.get("/healthz", tags=["ops"], response_model=Health)
    async def healthz(live: LiveDep) -> dict[str, Any]:
        """Liveness: 200 while the service runs; ``broker`` tells whether MQTT is connected."""
        return {
            "status": "ok",
            "broker": "up" if live.store.broker_up else "down",
            "broker_url": live.broker_url,
            "tables": len(live.store.tables()),
        }

    @app.get("/metrics", tags=["ops"], response_class=PlainTextResponse)
    async def metrics(live: LiveDep) -> Response:
        """Prometheus text exposition format (written by ``prometheus_client``)."""
        return Response(exposition(live.metrics), media_type=METRICS_CONTENT_TYPE)

    # -- REST ---------------------------------------------------------------------------------
    @app.get("/api/tables", tags=["tables"], response_model=HallView)
    async def list_tables(live: LiveDep) -> dict[str, Any]:
        """Every table seen: status, scores, last seen."""
        return _hall(live.store)

    @app.get("/api/tables/{table}", tags=["tables"], response_model=TableView, responses=_NOT_FOUND)
    async def table_view(table: TablePath, live: LiveDep) -> dict[str, Any]:
        """What the big screen shows for one table (state, status, staleness, device)."""
        view = live.store.view(table)
        if view is None:
            raise HTTPException(404, f"no table {table!r}")
        return view

    @app.get(
        "/api/tables/{table}/state",
        tags=["tables"],
        response_model=StatePayload,
        responses=_NOT_FOUND,
    )
    async def table_state(table: TablePath, live: LiveDep) -> dict[str, Any]:
        """The last good ``domino-table/state/1`` payload of the table."""
        view = live.store.view(table)
        if view is None or view["state"] is None:
            raise HTTPException(404, f"no state for table {table!r}")
        state: dict[str, Any] = view["state"]
        return state

    @app.get(
        "/api/tables/{table}/events",
        tags=["tables"],
        response_model=EventsPage,
        responses=_NOT_FOUND,
    )
    async def table_events(
        table: TablePath,
        live: LiveDep,
        since: Annotated[int, Query(ge=0, le=2**53)] = 0,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> dict[str, Any]:
        """Events with ``seq > since`` still held (a bounded ring per table). ``complete`` is
        false when older events were already dropped: resync from ``/state`` then."""
        found = live.store.events_since(table, since, limit)
        if found is None:
            raise HTTPException(404, f"no table {table!r}")
        events, oldest = found
        return {"table": table, "events": events, "oldest": oldest, "complete": since + 1 >= oldest}

    @app.get(
        "/api/tables/{table}/record",
        tags=["tables"],
        response_model=MatchRecord,
        responses=_NOT_FOUND,
    )
    async def table_record(table: TablePath, live: LiveDep) -> dict[str, Any]:
        """Match record export: the last state and every event the scoreboard still holds."""
        record = live.store.record(table)
        if record is None:
            raise HTTPException(404, f"no table {table!r}")
        return record

    # -- live updates -------------------------------------------------------------------------
    @app.get("/api/stream", tags=["live"], response_class=StreamingResponse)
    async def hall_stream(live: LiveDep) -> StreamingResponse:
        """Server-sent events for the hall page: ``hall`` snapshot, then ``row`` updates."""
        return _stream(live, HALL, _sse("hall", _hall(live.store)))

    @app.get("/api/tables/{table}/stream", tags=["live"], response_class=StreamingResponse)
    async def table_stream(table: TablePath, live: LiveDep) -> StreamingResponse:
        """Server-sent events for one table: a ``table`` snapshot on connect, then each change."""
        view = live.store.view(table) or _empty_view(table, live.store.broker_up)
        return _stream(live, table, _sse("table", view))

    # -- writes (token only) ------------------------------------------------------------------
    def _command(live: Live, table: str, name: str, args: dict[str, Any]) -> CommandAccepted:
        """Sign the command with the table's own key and send it; the HTTP token stays here."""
        key = live.settings.cmd_keys.get(table)
        if key is None:
            raise HTTPException(409, f"no command key for table {table!r}: it takes no commands")
        cmd = signed_command(
            key.get_secret_value().encode(),
            table=table,
            name=name,
            ts=live.clock.time(),
            args={k: v for k, v in args.items() if v is not None},
        )
        topic = TableTopics(live.root, table).cmd(name)
        if not live.feed.publish(topic, encode(cmd), live.settings.cmd_qos):
            raise HTTPException(503, "broker unavailable; command not sent")
        log.info("command %s (%s) sent to table %s", name, cmd.id, table)
        return CommandAccepted(id=cmd.id, topic=topic)

    @app.post(
        "/api/tables/{table}/cmd/new_match", status_code=202, tags=["commands"], responses=_WRITE
    )
    async def new_match(
        table: TablePath, body: NewMatchRequest, live: LiveDep, _: Authorised
    ) -> CommandAccepted:
        """Ask the table to start a new match."""
        return _command(live, table, "new_match", body.model_dump())

    @app.post(
        "/api/tables/{table}/cmd/correct", status_code=202, tags=["commands"], responses=_WRITE
    )
    async def correct(
        table: TablePath, body: CorrectRequest, live: LiveDep, _: Authorised
    ) -> CommandAccepted:
        """Correct a misread move."""
        return _command(live, table, "correct", body.model_dump())

    @app.post("/api/tables/{table}/cmd/undo", status_code=202, tags=["commands"], responses=_WRITE)
    async def undo(
        table: TablePath, body: UndoRequest, live: LiveDep, _: Authorised
    ) -> CommandAccepted:
        """Undo the last move(s)."""
        return _command(live, table, "undo", body.model_dump())

    return app


def _hall(store: TableStore) -> dict[str, Any]:
    return {"broker": "up" if store.broker_up else "down", "tables": store.hall()}


def _empty_view(table: str, broker_up: bool) -> dict[str, Any]:
    return {
        "table": table,
        "status": "unknown",
        "stale": True,
        "stale_reason": "no data from this table yet"
        if broker_up
        else "scoreboard lost the broker",
        "broker": "up" if broker_up else "down",
        "last_seen": None,
        "state": None,
        "device": None,
        "recent_events": [],
        "counters": {},
    }


def _stream(live: Live, key: str, snapshot: str) -> StreamingResponse:
    hub = live.hub
    sub = hub.subscribe(key)
    keepalive = live.settings.keepalive_s
    store = live.store

    async def body() -> AsyncIterator[str]:
        try:
            yield "retry: 2000\n\n" + snapshot
            while True:
                try:
                    msg = await asyncio.wait_for(sub.queue.get(), keepalive)
                except TimeoutError:
                    ping = {"ts": live.clock.time(), "broker": "up" if store.broker_up else "down"}
                    yield ": keepalive\n\n" + _sse("ping", ping)
                    continue
                if msg is None:
                    return
                yield msg
        finally:
            hub.unsubscribe(sub)

    return StreamingResponse(
        body(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
