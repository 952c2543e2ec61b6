"""Seat device entry point: runs at power-on (deploy: hardware/DEPLOY.md)."""

import app
import hal

app.run(hal.PicoHal())
