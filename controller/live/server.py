"""Running the scoreboard under uvicorn, in the foreground (CLI) or in a thread (tests, bench).

Open SSE streams would keep uvicorn waiting on shutdown; so the first exit signal ends every stream
(the hub closes) before uvicorn drains connections, and a graceful-shutdown timeout backs it up.
"""

from __future__ import annotations

import asyncio
import threading
import time
from types import FrameType, TracebackType
from typing import Self

import uvicorn
from fastapi import FastAPI

from controller.live.broker import free_port
from controller.live.errors import LiveError


class _Server(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self._app = app

    def close_streams(self) -> None:
        live = getattr(self._app.state, "live", None)
        loop = self._loop
        if live is not None and loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(live.hub.close)

    async def serve(self, sockets: list[object] | None = None) -> None:  # type: ignore[override]
        self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        await super().serve(sockets)  # type: ignore[arg-type]

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self.close_streams()
        super().handle_exit(sig, frame)


def _config(app: FastAPI, host: str, port: int, log_level: str) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        lifespan="on",
        timeout_graceful_shutdown=5,
        access_log=False,
    )


def serve(app: FastAPI, host: str, port: int, *, log_level: str = "warning") -> None:
    """Run in the foreground until SIGINT/SIGTERM."""
    server = _Server(_config(app, host, port, log_level), app)
    server._loop = None
    server.run()


class ServerThread:
    """uvicorn in a background thread on a free port (tests and benchmarks)."""

    def __init__(self, app: FastAPI, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.port = port or free_port(host)
        self.app = app
        self._server = _Server(_config(app, self.host, self.port, "warning"), app)
        self._server._loop = None
        self._thread = threading.Thread(target=self._server.run, name="uvicorn", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def start(self) -> None:
        self._thread.start()
        deadline = time.monotonic() + 20.0
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise LiveError(f"scoreboard did not start on {self.url}")
            time.sleep(0.02)

    def stop(self) -> None:
        self._server.close_streams()
        self._server.should_exit = True
        self._thread.join(timeout=20.0)
        if self._thread.is_alive():
            raise LiveError("scoreboard did not stop")

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
