"""Bounds on what a client can make the scoreboard hold, checked before any route (or the bearer
token check) runs: a pure ASGI middleware.

- **Request bodies** longer than ``max_body`` are refused with 413: at once when ``Content-Length``
  says so, else as soon as the streamed bytes pass the limit (at most ``max_body`` bytes are held).
- **JSON bodies** are parsed once here: ``NaN``, ``Infinity`` or a number too large for a float
  (``1e999``) get 422, nesting deeper than ``max_depth`` gets 400; anything else malformed is left
  to the route (400/422 as before).
- **Server-sent event streams** are counted per client address and in total: beyond
  ``max_streams_per_client`` a client gets 429, beyond ``max_streams`` everyone gets 503, both with
  ``Retry-After``.

:func:`json_safe_validation_errors` answers a 422 that would echo a non-finite number in its
``input`` field (which JSON cannot carry, and Starlette turned into a 500).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Limits:
    max_body: int = 64 * 1024
    max_depth: int = 32
    max_streams: int = 256
    max_streams_per_client: int = 16
    retry_after_s: int = 5


class _BadJsonError(ValueError):
    pass


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadJsonError(f"number {text} is out of range")
    return value


def _no_constant(text: str) -> float:
    raise _BadJsonError(f"{text} is not a JSON number")


def json_problem(body: bytes, max_depth: int) -> tuple[int, str] | None:
    """``(status, reason)`` when a JSON body must be refused here, else None."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in body:  # nesting counted outside strings, before the parser recurses
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > max_depth:
                return 400, f"JSON nested deeper than {max_depth} levels"
        elif byte in (0x5D, 0x7D):
            depth -= 1
    try:
        json.loads(body, parse_float=_finite, parse_int=int, parse_constant=_no_constant)
    except _BadJsonError as exc:
        return 422, f"{exc}: only finite numbers are accepted"
    except (ValueError, RecursionError):
        return None  # malformed: the route says so
    return None


def stream_path(path: str) -> bool:
    """The server-sent event routes of :mod:`controller.live.app`."""
    return path == "/api/stream" or (path.startswith("/api/tables/") and path.endswith("/stream"))


class RequestLimits:
    """``app.add_middleware(RequestLimits, limits=Limits())``"""

    def __init__(self, app: ASGIApp, *, limits: Limits | None = None) -> None:
        self.app = app
        self.limits = limits or Limits()
        self.streams: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lim = self.limits
        length = _content_length(scope)
        if length == -1:
            await _reply(send, 400, "bad Content-Length header")
            return
        if length is not None and length > lim.max_body:
            await _reply(send, 413, f"request body larger than {lim.max_body} bytes")
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client left before sending its body
            chunk = bytes(message.get("body", b""))
            size += len(chunk)
            if size > lim.max_body:
                await _reply(send, 413, f"request body larger than {lim.max_body} bytes")
                return
            chunks.append(chunk)
            more = bool(message.get("more_body", False))
        body = b"".join(chunks)
        if body and _is_json(scope):
            problem = json_problem(body, lim.max_depth)
            if problem is not None:
                await _reply(send, *problem)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        if scope.get("method") == "GET" and stream_path(scope.get("path", "")):
            await self._stream(scope, replay, send)
        else:
            await self.app(scope, replay, send)

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        lim = self.limits
        client = scope.get("client")
        who = str(client[0]) if client else "?"
        if sum(self.streams.values()) >= lim.max_streams:
            await _reply(send, 503, "too many live streams open", lim.retry_after_s)
            return
        if self.streams[who] >= lim.max_streams_per_client:
            await _reply(send, 429, "too many live streams from this client", lim.retry_after_s)
            return
        self.streams[who] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.streams[who] -= 1
            if self.streams[who] <= 0:
                del self.streams[who]


def _content_length(scope: Scope) -> int | None:
    """The declared body length, None when not declared, -1 when unreadable."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() and len(text) < 20 else -1
    return None


def _is_json(scope: Scope) -> bool:
    """FastAPI parses a body as JSON when its type says so, or when it has no type."""
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-type":
            kind = str(value.decode("latin-1")).split(";", 1)[0].strip().lower()
            return kind == "application/json" or kind.endswith("+json")
    return True


async def _reply(send: Send, status: int, detail: str, retry_after: int | None = None) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    if status == 413:
        headers.append((b"connection", b"close"))  # the rest of the body is not read
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def json_safe_validation_errors(request: Request, exc: Exception) -> JSONResponse:
    """422 with the validation errors, non-finite inputs shown as strings."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    return JSONResponse(status_code=422, content={"detail": jsonable_encoder(_safe(errors))})


def _safe(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {str(k): _safe(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_safe(v) for v in value]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return str(value)


def install(app: FastAPI, limits: Limits) -> None:
    """Add the middleware and the 422 handler to ``app``."""
    app.add_middleware(RequestLimits, limits=limits)
    app.add_exception_handler(RequestValidationError, json_safe_validation_errors)
