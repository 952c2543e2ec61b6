"""Connecting to the broker, shared by the publisher, the feed, the scoreboard and the probe: a
configured paho client, and a short reason for a failed connection attempt.
"""

from __future__ import annotations

import socket
import ssl
from typing import TYPE_CHECKING

from controller.live.settings import MqttSettings

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt


def describe_connect_error(exc: BaseException | None) -> str:
    """A short reason for a failed connection attempt (an ``OSError`` from the socket or TLS)."""
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, socket.gaierror):
        return "unknown host"
    if isinstance(exc, TimeoutError | socket.timeout):
        return "timed out"
    if isinstance(exc, ssl.SSLError):
        return f"TLS failed: {exc.reason or exc}"
    if isinstance(exc, OSError):
        return exc.strerror or str(exc) or type(exc).__name__
    return "cannot connect"


def paho_client(client_id: str, settings: MqttSettings) -> mqtt.Client:
    """A configured, unconnected paho client: credentials, TLS, back-off, bounded queue."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    addr = settings.address()
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        protocol=mqtt.MQTTv311,
        clean_session=True,
    )
    if addr.username is not None:
        client.username_pw_set(addr.username, addr.password)
    if addr.tls:
        client.tls_set(
            ca_certs=str(settings.ca_file) if settings.ca_file else None,
            certfile=str(settings.cert_file) if settings.cert_file else None,
            keyfile=str(settings.key_file) if settings.key_file else None,
            cert_reqs=ssl.CERT_REQUIRED,
        )
        client.tls_insecure_set(settings.tls_insecure)
    client.reconnect_delay_set(
        min_delay=max(1, round(settings.reconnect_min_s)),
        max_delay=max(1, round(settings.reconnect_max_s)),
    )
    # paho queues QoS>0 messages without limit while disconnected; our outbox is the real
    # buffer, this only bounds the short window between a drop and our noticing it.
    # (room for a full outbox flushed at once, plus availability, device, state and discovery).
    client.max_queued_messages_set(settings.outbox_events + 100)
    client.max_inflight_messages_set(100)
    return client
