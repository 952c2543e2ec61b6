"""Topic names of the MQTT contract (``{root}/{table}/...``)."""

from __future__ import annotations

from dataclasses import dataclass

from controller.live.settings import TABLE_ID

KINDS = ("state", "events", "availability", "device")


@dataclass(frozen=True, slots=True)
class TableTopics:
    root: str
    table: str

    @property
    def base(self) -> str:
        return f"{self.root}/{self.table}"

    @property
    def state(self) -> str:
        return f"{self.base}/state"

    @property
    def events(self) -> str:
        return f"{self.base}/events"

    @property
    def availability(self) -> str:
        return f"{self.base}/availability"

    @property
    def device(self) -> str:
        return f"{self.base}/device"

    def cmd(self, name: str) -> str:
        return f"{self.base}/cmd/{name}"

    @property
    def cmd_filter(self) -> str:
        return f"{self.base}/cmd/+"


def scoreboard_filters(root: str) -> list[str]:
    """What a scoreboard subscribes to: every table's state, events, availability, device."""
    return [f"{root}/+/{kind}" for kind in KINDS]


@dataclass(frozen=True, slots=True)
class ParsedTopic:
    table: str
    kind: str
    rest: str = ""


def parse_topic(root: str, topic: str) -> ParsedTopic | None:
    """``{root}/{table}/{kind}[/rest]`` -> parts, or None for a topic outside the contract."""
    prefix = root + "/"
    if not topic.startswith(prefix):
        return None
    parts = topic[len(prefix) :].split("/", 2)
    if len(parts) < 2 or not TABLE_ID.match(parts[0]):
        return None
    kind = parts[1]
    rest = parts[2] if len(parts) == 3 else ""
    if kind in KINDS and rest:
        return None
    if kind not in (*KINDS, "cmd"):
        return None
    return ParsedTopic(parts[0], kind, rest)
