"""Live state of a table over MQTT, and the scoreboard that shows it.

Heavy libraries (paho, amqtt, FastAPI) are imported by the sub-modules that need them, never here.

- :mod:`controller.live.models`: versioned payloads (``domino-table/state/1``, ``.../event/1``,
  ``.../device/1``, ``.../cmd/1``) and their JSON Schemas in ``schemas/``.
- :mod:`controller.live.port`: the one publishing port (``Publisher``) and its in-memory fake.
- :mod:`controller.live.publisher`: the port on MQTT (paho), with a bounded outbox.
- :mod:`controller.live.station`: a table's live side in one object, on ``StationSettings``.
- :mod:`controller.live.broker`: the embedded amqtt broker and a Mosquitto launcher.
- :mod:`controller.live.store`: the pure consumer model (validation, seq gaps, staleness).
- :mod:`controller.live.app`: the scoreboard web service (FastAPI, SSE).
- :mod:`controller.live.homeassistant`: Home Assistant MQTT discovery.
"""
