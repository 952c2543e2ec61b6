"""The seat device: buttons, LEDs and the link, driven one step at a time through a HAL.

``Device(hal).step()`` does one pass; ``run(hal)`` loops forever. The HAL (``hal.py`` on the
Pico, a fake in the tests) provides: ticks_ms(), ticks_diff(a, b), levels() -> [bool] per seat,
show([(r, g, b)]), read() -> bytes (never blocks), write(bytes), feed(), reset_cause(),
random_bytes(n), sleep_ms(ms).
"""

import buttons
import leds
import link
import session

SEATS = 4
POLL_MS = 5
LED_FRAME_MS = 20


class Device:
    def __init__(self, hal, seats=SEATS):
        self.hal = hal
        self.seats = seats
        self.last_ticks = hal.ticks_ms()
        self.now = 0  # ms since start, never wraps (ticks_ms does, after 2**30 ms)
        self.boot = session.new_id(hal.random_bytes)  # the protocol's "boot" field
        self.buttons = buttons.Buttons(seats)
        self.link = link.Link(seats, self.boot, self.now, hal.reset_cause())
        self.next_led_frame = 0
        self.presses = 0

    def step(self):
        hal = self.hal
        ticks = hal.ticks_ms()
        self.now += hal.ticks_diff(ticks, self.last_ticks)
        self.last_ticks = ticks
        now = self.now
        for seat, gesture in self.buttons.update(now, hal.levels()):
            self.link.press(now, seat, gesture)
            self.presses += 1
        data = hal.read()
        if data:
            self.link.receive(now, data)
        self.link.tick(now)
        out = self.link.take_output()
        if out:
            hal.write(out)
        if now >= self.next_led_frame:
            hal.show(leds.render(self.link.leds, now, self.link.linked))
            self.next_led_frame = now + LED_FRAME_MS
        hal.feed()


def run(hal):
    device = Device(hal)
    while True:
        device.step()
        hal.sleep_ms(POLL_MS)
