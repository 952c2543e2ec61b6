"""The only module that touches the Pico: pins, WS2812 LEDs, USB CDC serial, watchdog.

Everything else in the firmware runs under any MicroPython (and in the tests) with a fake HAL.
"""

import os
import select
import sys
import time

import config
import machine
import micropython
import neopixel


class PicoHal:
    def __init__(self):
        # A 0x03 byte on the USB channel must be data, not a KeyboardInterrupt.
        micropython.kbd_intr(-1)
        self.pins = [
            machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP) for n in config.BUTTON_PINS
        ]
        self.np = neopixel.NeoPixel(machine.Pin(config.LED_PIN), len(config.BUTTON_PINS))
        self.stdin = sys.stdin.buffer
        self.stdout = sys.stdout.buffer
        self.poll = select.poll()
        self.poll.register(sys.stdin, select.POLLIN)
        self._cause = machine.reset_cause()
        self.wdt = machine.WDT(timeout=config.WATCHDOG_MS)

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, a, b):
        return time.ticks_diff(a, b)

    def levels(self):
        return [p.value() == 0 for p in self.pins]

    def show(self, pixels):
        k = config.LED_BRIGHTNESS
        for i, (r, g, b) in enumerate(pixels):
            self.np[i] = ((r * k) >> 8, (g * k) >> 8, (b * k) >> 8)
        self.np.write()

    def read(self):
        data = bytearray()
        while len(data) < 256 and self.poll.poll(0):
            chunk = self.stdin.read(1)
            if not chunk:
                break
            data.extend(chunk)
        return bytes(data)

    def write(self, data):
        self.stdout.write(data)

    def feed(self):
        self.wdt.feed()

    def reset_cause(self):
        # machine.PWRON_RESET = 1, WDT_RESET = 3 on the rp2 port; sent as is in BOOT.
        return self._cause

    def random_bytes(self, n):
        # rp2: os.urandom reads the ring oscillator's random bit, not a seeded generator.
        return os.urandom(n)

    def sleep_ms(self, ms):
        time.sleep_ms(ms)
