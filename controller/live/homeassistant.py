"""Home Assistant MQTT discovery: a table appears as a device with sensors.

Config topics are ``{prefix}/sensor/<node>/<id>/config`` (retained); the table re-publishes them
whenever ``{prefix}/status`` says ``online`` (Home Assistant restarted).
"""

from __future__ import annotations

import json

from controller.live.topics import TableTopics

_SENSORS: tuple[tuple[str, str, str, str | None], ...] = (
    # id, name, value template on the state JSON, icon
    (
        "score_0",
        "Score side 1",
        "{{ value_json.match.sides[0].score if value_json.match else None }}",
        "mdi:counter",
    ),
    (
        "score_1",
        "Score side 2",
        "{{ value_json.match.sides[1].score if value_json.match and "
        "value_json.match.sides|length > 1 else None }}",
        "mdi:counter",
    ),
    (
        "hand_no",
        "Hand",
        "{{ value_json.match.hand_no if value_json.match else None }}",
        "mdi:numeric",
    ),
    (
        "turn",
        "Turn (seat)",
        "{{ value_json.hand.turn if value_json.hand else None }}",
        "mdi:account-arrow-right",
    ),
    (
        "phase",
        "Phase",
        "{{ value_json.hand.phase if value_json.hand else 'idle' }}",
        "mdi:state-machine",
    ),
    ("alerts", "Alerts", "{{ value_json.alerts|length }}", "mdi:alert"),
    (
        "device_link",
        "Seat device",
        "{{ value_json.device.link if value_json.device else 'absent' }}",
        "mdi:usb",
    ),
)


def node_id(table: str) -> str:
    return f"domino_{table}"


def discovery_messages(
    topics: TableTopics, *, prefix: str = "homeassistant", name: str | None = None
) -> list[tuple[str, bytes]]:
    """(topic, retained payload) for every entity of one table."""
    node = node_id(topics.table)
    device = {
        "identifiers": [node],
        "name": name or f"Domino table {topics.table}",
        "manufacturer": "domino-table",
        "model": "Smart domino table",
    }
    out = []
    for entity, label, template, icon in _SENSORS:
        config: dict[str, object] = {
            "name": label,
            "unique_id": f"{node}_{entity}",
            "object_id": f"{node}_{entity}",
            "state_topic": topics.state,
            "value_template": template,
            "availability_topic": topics.availability,
            "payload_available": "online",
            "payload_not_available": "offline",
            "device": device,
        }
        if icon:
            config["icon"] = icon
        out.append((f"{prefix}/sensor/{node}/{entity}/config", json.dumps(config).encode()))
    return out


def removal_messages(topics: TableTopics, *, prefix: str = "homeassistant") -> list[str]:
    """Topics to clear (empty retained payload) to remove the device from Home Assistant."""
    node = node_id(topics.table)
    return [f"{prefix}/sensor/{node}/{entity}/config" for entity, *_ in _SENSORS]
