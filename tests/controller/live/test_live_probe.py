"""A broker that cannot be reached, with real paho and a real broker: the probe says why at once,
and the publisher keeps retrying, saying so once, then once more when the broker is there."""

from __future__ import annotations

import queue
import socket
from collections.abc import Iterator

import pytest

from controller.live.broker import EmbeddedBroker
from controller.live.probe import probe_broker
from controller.live.publisher import BrokerStatus, MqttPublisher
from controller.live.settings import MqttSettings, TableSettings
from domino_common.clock import SystemClock


@pytest.fixture
def refused_port() -> Iterator[int]:
    """A port bound but not listening: every connection to it is refused, and nothing else can
    take it while the test runs."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        yield int(s.getsockname()[1])


def test_probe_says_why_a_broker_cannot_be_reached(refused_port: int) -> None:
    assert probe_broker(MqttSettings(url=f"mqtt://127.0.0.1:{refused_port}")) == (
        "connection refused"
    )
    assert probe_broker(MqttSettings(url="mqtt://no-such-host.invalid:1883")) == "unknown host"


def test_probe_accepts_a_broker_that_answers() -> None:
    with EmbeddedBroker() as broker:
        assert probe_broker(MqttSettings(url=broker.url)) is None


def test_the_publisher_retries_an_absent_broker_and_says_when_it_is_there() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        port = int(holder.getsockname()[1])
        seen: queue.Queue[BrokerStatus] = queue.Queue()
        settings = MqttSettings(
            url=f"mqtt://127.0.0.1:{port}", reconnect_min_s=1, reconnect_max_s=1
        )
        pub = MqttPublisher(
            settings, TableSettings(table="t1"), clock=SystemClock(), on_status=seen.put
        )
        pub.start()
        try:
            down = seen.get(timeout=20)
            assert (down.connected, down.detail) == (False, "connection refused")
        except BaseException:
            pub.stop()
            raise
        holder.close()  # free the port for the broker
        with EmbeddedBroker(port=port):
            try:
                up = seen.get(timeout=30)  # paho retried on its own
                assert up.connected and pub.connected
            finally:
                pub.stop()  # before the broker goes, or its going is (rightly) a status too
    assert seen.empty()  # the failed retries before the broker came said nothing more
