"""Seat device entry point: runs at power-on (deploy: hardware/DEPLOY.md).

Hold the seat 0 button while plugging in to stay at the REPL (no watchdog, Ctrl-C works), so
that ``mpremote`` can update the files: the running firmware ignores Ctrl-C by design, and the
RP2040 watchdog cannot be stopped once started.
"""

import config
import machine

if machine.Pin(config.BUTTON_PINS[0], machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
    print("seat device: maintenance mode (seat 0 button held at power-on)")
else:
    import app
    import hal

    app.run(hal.PicoHal())
