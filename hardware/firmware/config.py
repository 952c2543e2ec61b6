"""Pins of the seat device (see hardware/WIRING.md)."""

BUTTON_PINS = (2, 3, 4, 5)  # GP2..GP5, to GND when pressed, internal pull-up
LED_PIN = 16  # GP16 -> WS2812 chain DIN (through a 330 ohm resistor)
LED_BRIGHTNESS = 128  # 0..255 scale on top of the host's colours: 4 LEDs at full white ~240 mA
WATCHDOG_MS = 2000
