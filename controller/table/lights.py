"""What the table wants each seat LED to show: the table's own intent, with no seat device in it.

The runtime maps a :class:`Light` to the seat device's LED state (controller.runtime.adapters);
the published snapshot shows it as ``"solid:#00c800"`` or ``"off"``.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Glow(enum.Enum):
    """How a seat light shows its colour."""

    OFF = "off"
    SOLID = "solid"
    BLINK = "blink"
    PULSE = "pulse"


@dataclass(frozen=True, slots=True)
class Light:
    """One seat's light: a colour (0..255 each) and how it glows."""

    r: int = 0
    g: int = 0
    b: int = 0
    glow: Glow = Glow.OFF

    def __post_init__(self) -> None:
        for name in ("r", "g", "b"):
            value = getattr(self, name)
            if not 0 <= value <= 255:
                raise ValueError(f"light {name}={value} is outside 0..255")

    def __str__(self) -> str:
        if self.glow is Glow.OFF:
            return "off"
        return f"{self.glow.value}:#{self.r:02x}{self.g:02x}{self.b:02x}"


DARK = Light()
