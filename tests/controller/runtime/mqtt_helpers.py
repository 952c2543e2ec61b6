"""Test helpers: reading what a broker holds retained."""

from __future__ import annotations

import queue

import paho.mqtt.client as mqtt


def retained(port: int, topics: list[str]) -> dict[str, bytes]:
    """The retained message of each of ``topics`` on the broker at 127.0.0.1:``port``."""
    got: queue.Queue[tuple[str, bytes]] = queue.Queue()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
    client.on_message = lambda _c, _u, msg: got.put((msg.topic, msg.payload))
    client.connect("127.0.0.1", port)
    for topic in topics:
        client.subscribe(topic, qos=1)
    client.loop_start()
    out: dict[str, bytes] = {}
    try:
        while len(out) < len(topics):
            topic, payload = got.get(timeout=20)
            out[topic] = payload
    finally:
        client.loop_stop()
        client.disconnect()
    return out
