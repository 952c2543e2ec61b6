"""MQTT brokers: the embedded amqtt broker (zero-setup default) and a Mosquitto launcher.

The embedded broker is for ``domino-table demo`` and machines without Mosquitto; real use is
Mosquitto (see ``hardware/deploy/mosquitto/``). :class:`MosquittoBroker` starts a real mosquitto
process with a temporary config, password file and ACL, as the tests and benchmarks do.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import logging
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from controller.live.errors import BrokerError

log = logging.getLogger(__name__)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(host: str, port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return True
        time.sleep(0.05)
    return False


class _Broker:
    host: str
    port: int

    @property
    def url(self) -> str:
        return f"mqtt://{self.host}:{self.port}"

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


class EmbeddedBroker(_Broker):
    """amqtt in a background thread with its own event loop. Anonymous, no ACL: local use only."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.port = port or free_port(host)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._broker: Any = None
        self._ready = threading.Event()
        self._error: BaseException | None = None

    def _config(self) -> dict[str, Any]:
        return {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {
                "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True},
            },
        }

    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="amqtt-broker", daemon=True)
        self._thread.start()
        if not self._ready.wait(15.0) or self._error is not None:
            raise BrokerError(f"embedded broker did not start on {self.url}: {self._error}")
        log.info("embedded MQTT broker on %s", self.url)

    def _run(self) -> None:
        from amqtt.broker import Broker

        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)

        async def boot() -> None:
            self._broker = Broker(self._config(), loop=loop)
            await self._broker.start()

        try:
            loop.run_until_complete(boot())
        except BaseException as exc:  # reported to start()
            self._error = exc
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            with contextlib.suppress(BaseException):
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.close()

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        if self._broker is not None and not loop.is_closed():
            fut = asyncio.run_coroutine_threadsafe(self._broker.shutdown(), loop)
            try:
                fut.result(timeout=10.0)
            except Exception as exc:
                log.warning("embedded broker shutdown: %s", exc)
            loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10.0)
        self._thread = None
        self._loop = None


class MosquittoBroker(_Broker):
    """A real ``mosquitto`` process on a free port, with a temporary config.

    ``users`` maps user names to passwords (a password file is made with ``mosquitto_passwd``);
    with no users the broker allows anonymous clients. ``acl`` is the text of an ACL file.
    """

    def __init__(
        self,
        *,
        users: Mapping[str, str] | None = None,
        acl: str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        executable: str = "mosquitto",
        extra_config: str = "",
    ) -> None:
        self.host = host
        self.port = port or free_port(host)
        self._users = dict(users or {})
        self._acl = acl
        self._executable = executable
        self._extra = extra_config
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        self.process: subprocess.Popen[bytes] | None = None

    @staticmethod
    def find_executable(name: str = "mosquitto") -> str | None:
        return shutil.which(name) or next(
            (p for p in (f"/usr/sbin/{name}", f"/usr/bin/{name}") if os.path.exists(p)), None
        )

    def _write_config(self, workdir: Path) -> Path:
        lines = [
            f"listener {self.port} {self.host}",
            "persistence false",
            "log_dest stderr",
            "log_type error",
            "log_type warning",
            f"user {getpass.getuser()}",
        ]
        if self._users:
            passwd_tool = self.find_executable("mosquitto_passwd")
            if passwd_tool is None:
                raise BrokerError("mosquitto_passwd not found (apt-get install mosquitto)")
            passwd = workdir / "passwd"
            for i, (user, password) in enumerate(self._users.items()):
                args = [passwd_tool, "-b", *(["-c"] if i == 0 else []), str(passwd), user, password]
                subprocess.run(args, check=True, capture_output=True, timeout=30)
            lines += ["allow_anonymous false", f"password_file {passwd}"]
        else:
            lines.append("allow_anonymous true")
        if self._acl is not None:
            acl = workdir / "acl"
            acl.write_text(self._acl, encoding="utf-8")
            lines.append(f"acl_file {acl}")
        conf = workdir / "mosquitto.conf"
        conf.write_text("\n".join(lines) + "\n" + self._extra, encoding="utf-8")
        return conf

    def start(self) -> None:
        exe = self.find_executable(self._executable)
        if exe is None:
            raise BrokerError("mosquitto not found (apt-get install mosquitto)")
        self._dir = tempfile.TemporaryDirectory(prefix="domino-mosquitto-")
        conf = self._write_config(Path(self._dir.name))
        self.process = subprocess.Popen(
            [exe, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        if not wait_for_port(self.host, self.port, 15.0):
            self.stop()
            raise BrokerError(f"mosquitto did not listen on {self.url}")
        log.info("mosquitto (pid %s) on %s", self.process.pid, self.url)

    def stop(self) -> None:
        proc = self.process
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10.0)
        if proc is not None and proc.stderr is not None:
            proc.stderr.close()
        self.process = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None

    def url_for(self, user: str) -> str:
        """``mqtt://user:password@host:port`` for one of the configured users."""
        return f"mqtt://{user}:{self._users[user]}@{self.host}:{self.port}"
