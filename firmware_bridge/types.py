"""Value types of the seat device: LED states, gestures, and the events the bridge emits."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Gesture(enum.IntEnum):
    """What a player did with a seat button."""

    SHORT = 1
    LONG = 2
    DOUBLE = 3

    @classmethod
    def parse(cls, text: str) -> Gesture:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown gesture {text!r} (short, long or double)") from None

    def __str__(self) -> str:
        return self.name.lower()


class Pattern(enum.IntEnum):
    """How a seat LED shows its colour."""

    OFF = 0
    SOLID = 1
    BLINK = 2
    PULSE = 3


@dataclass(frozen=True, slots=True)
class LedState:
    """The state of one seat LED, set as a whole (idempotent), never toggled."""

    r: int = 0
    g: int = 0
    b: int = 0
    pattern: Pattern = Pattern.OFF

    def __post_init__(self) -> None:
        for name in ("r", "g", "b"):
            value = getattr(self, name)
            if not 0 <= value <= 255:
                raise ValueError(f"LED {name}={value} is outside 0..255")

    @classmethod
    def parse(cls, text: str) -> LedState:
        """``"solid:#ff8000"``, ``"blink:#00ff00"``, ``"off"``."""
        pattern_name, _, colour = text.strip().partition(":")
        pattern = Pattern[pattern_name.upper()]
        if pattern is Pattern.OFF:
            return cls()
        colour = colour.lstrip("#")
        if len(colour) != 6:
            raise ValueError(f"LED colour {colour!r} is not #rrggbb")
        return cls(int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16), pattern)

    def __str__(self) -> str:
        if self.pattern is Pattern.OFF:
            return "off"
        return f"{self.pattern.name.lower()}:#{self.r:02x}{self.g:02x}{self.b:02x}"


OFF = LedState()


@dataclass(frozen=True, slots=True)
class ButtonGesture:
    """A seat button gesture, delivered exactly once per press."""

    seat: int
    gesture: Gesture
    seq: int
    boot_count: int


@dataclass(frozen=True, slots=True)
class LinkUp:
    """Handshake done: the device answers and speaks our protocol version."""

    boot_count: int
    firmware: str
    seats: int


@dataclass(frozen=True, slots=True)
class LinkDown:
    """The link is down; ``reason`` says why (heartbeat timeout, port vanished, ...)."""

    reason: str


@dataclass(frozen=True, slots=True)
class DeviceRebooted:
    """The device restarted (its boot counter changed); LED state is being restored."""

    boot_count: int


@dataclass(frozen=True, slots=True)
class ProtocolMismatch:
    """The device speaks another protocol version: no presses are taken from it."""

    device_version: int
    host_version: int


BridgeEvent = ButtonGesture | LinkUp | LinkDown | DeviceRebooted | ProtocolMismatch
