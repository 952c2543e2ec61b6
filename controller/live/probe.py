"""Can the broker be reached? One MQTT connect with a deadline, made before anything starts, so a
wrong host, a closed port, bad credentials or a TLS mismatch is one line at once, not a table that
publishes into the void.

The reasons are short phrases for a person (``connection refused``, ``unknown host``...), shared
with the publisher's status lines (both take them from :mod:`controller.live.connect`).
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from controller.live.connect import describe_connect_error, paho_client
from controller.live.settings import MqttSettings


def probe_broker(settings: MqttSettings, *, timeout_s: float = 5.0) -> str | None:
    """Connect once to ``settings``' broker and wait for its answer: ``None`` when it accepts
    the connection, else why not (unreachable, refused, no answer within ``timeout_s``)."""
    addr = settings.address()
    client: Any = paho_client(f"domino-probe-{uuid.uuid4().hex[:6]}", settings)
    client.connect_timeout = timeout_s
    answer: list[Any] = []
    client.on_connect = lambda _c, _u, _f, reason, _p: answer.append(reason)
    try:
        client.connect(addr.host, addr.port, keepalive=settings.keepalive_s)
    except (OSError, ValueError) as exc:
        return describe_connect_error(exc)
    try:
        deadline = time.monotonic() + timeout_s
        while not answer and time.monotonic() < deadline:
            client.loop(timeout=0.1)
    finally:
        client.disconnect()
    if not answer:
        return f"no MQTT answer in {timeout_s:g} s"
    if answer[0].is_failure:
        return f"refused by the broker: {answer[0]}"
    return None
