"""The scoreboard's MQTT side: subscribe to every table, feed the store, resync on gaps."""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable
from typing import Any

from controller.live.connect import paho_client
from controller.live.publisher import MQTT_ERR_SUCCESS, ClientFactory, MqttClient
from controller.live.settings import MqttSettings
from controller.live.store import Outcome, TableStore
from controller.live.topics import scoreboard_filters
from domino_common.clock import Clock

log = logging.getLogger(__name__)

ChangeListener = Callable[[Outcome], None]


class ScoreboardFeed:
    """A paho client (its own network thread) delivering every table's messages to a store.

    ``on_change`` runs on paho's thread; hand the work to your own loop from there.
    """

    def __init__(
        self,
        settings: MqttSettings,
        store: TableStore,
        *,
        clock: Clock,
        on_change: ChangeListener | None = None,
        client_factory: ClientFactory = paho_client,
        resync_min_interval_s: float = 1.0,
    ) -> None:
        self._settings = settings
        self._store = store
        self._clock = clock
        self._on_change = on_change
        self._resync_interval = resync_min_interval_s
        self._resync_lock = threading.Lock()
        self._last_resync = -1e9
        self._resync_timer: threading.Timer | None = None
        self.resyncs = 0
        self.connected = False
        self._filters = scoreboard_filters(settings.root)
        self._subscribe_mid: int | None = None  # the SUBSCRIBE made on connecting
        self._stopping = False
        client_id = settings.client_id or f"domino-scoreboard-{uuid.uuid4().hex[:8]}"
        self._client = client_factory(client_id, settings)
        self._client.on_connect = self._handle_connect
        self._client.on_disconnect = self._handle_disconnect
        self._client.on_message = self._handle_message
        self._client.on_subscribe = self._handle_subscribe

    def start(self) -> None:
        addr = self._settings.address()
        self._client.connect_async(addr.host, addr.port, keepalive=self._settings.keepalive_s)
        self._client.loop_start()

    def stop(self) -> None:
        self._stopping = True
        with self._resync_lock:
            if self._resync_timer is not None:
                self._resync_timer.cancel()
        self._client.disconnect()
        self._client.loop_stop()
        self._store.set_broker(False)

    def publish(self, topic: str, payload: bytes, qos: int = 1) -> bool:
        """Send a command; False when the broker is away (commands are not queued)."""
        if not self.connected:
            return False
        info = self._client.publish(topic, payload, qos, False)
        return bool(info.rc == MQTT_ERR_SUCCESS)

    def _notify(self, outcome: Outcome) -> None:
        if self._on_change is not None:
            try:
                self._on_change(outcome)
            except Exception:
                log.exception("scoreboard change listener failed")

    def _handle_connect(
        self, client: MqttClient, userdata: object, flags: object, reason: Any, props: object
    ) -> None:
        if reason.is_failure:
            log.warning("broker refused the scoreboard: %s", reason)
            return
        self.connected = True
        # every filter in one SUBSCRIBE, and the broker counts as up once its SUBACK is back:
        # from then on every table's messages reach the board (a filter granted alone first
        # could let a table's retained state arrive while its events still go nowhere)
        _, mid = client.subscribe([(topic, 1) for topic in self._filters])
        with self._resync_lock:
            self._subscribe_mid = mid
        log.info("scoreboard connected to %s", self._settings.address().url())

    def _handle_subscribe(
        self, client: MqttClient, userdata: object, mid: int, reasons: Any, props: object
    ) -> None:
        with self._resync_lock:
            if mid != self._subscribe_mid:
                return  # a resync's SUBACK
        refused = [t for t, r in zip(self._filters, reasons, strict=False) if r.is_failure]
        if refused:
            log.warning("the broker refused the scoreboard's subscription to %s", refused)
        self._store.set_broker(True)
        self._notify(Outcome(None, changed=True))

    def _handle_disconnect(
        self, client: MqttClient, userdata: object, flags: object, reason: Any, props: object
    ) -> None:
        self.connected = False
        self._store.set_broker(False)
        if self._stopping:
            log.info("scoreboard disconnected from the broker")
        else:
            log.warning("scoreboard lost the broker (%s); reconnecting", reason)
        self._notify(Outcome(None, changed=True))

    def _handle_message(self, client: MqttClient, userdata: object, msg: Any) -> None:
        try:
            outcome = self._store.ingest(
                msg.topic, bytes(msg.payload), self._clock.time(), retained=bool(msg.retain)
            )
        except Exception:  # never let one message kill paho's network thread
            log.exception("message on %r could not be handled", msg.topic)
            return
        if outcome.resync:
            self.request_resync()
        if outcome.changed:
            self._notify(outcome)

    def request_resync(self) -> None:
        """Re-subscribe to the state filter: the broker re-sends every retained state.

        Rate-limited; a request inside the interval is deferred, never lost.
        """
        with self._resync_lock:
            now = self._clock.monotonic()
            wait = self._last_resync + self._resync_interval - now
            if wait > 0:
                if self._resync_timer is None:
                    self._resync_timer = threading.Timer(wait, self._deferred_resync)
                    self._resync_timer.daemon = True
                    self._resync_timer.start()
                return
            self._last_resync = now
        self._resubscribe()

    def _deferred_resync(self) -> None:
        with self._resync_lock:
            self._resync_timer = None
            self._last_resync = self._clock.monotonic()
        self._resubscribe()

    def _resubscribe(self) -> None:
        self.resyncs += 1
        log.info("resync: asking the broker for every retained state again")
        self._client.subscribe(f"{self._settings.root}/+/state", qos=1)
