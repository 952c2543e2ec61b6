"""Runs inside MicroPython (WebAssembly) for the tests: firmware logic with a fake HAL.

One JSON request in, one JSON reply out (see ``handle``). Not part of the firmware.
"""

import json
import random
import sys

import app
import buttons
import leds
import proto

PERIOD = 1 << 30  # MicroPython's ticks_ms wraps here


class FakeHal:
    def __init__(self, seats, start_ticks, cause):
        self.ticks = start_ticks
        self.level = [False] * seats
        self.rx = bytearray()
        self.tx = bytearray()
        self.pixels = []
        self.fed = 0
        self.cause = cause

    def ticks_ms(self):
        return self.ticks

    def ticks_diff(self, a, b):
        half = PERIOD // 2
        return ((a - b + half) & (PERIOD - 1)) - half

    def levels(self):
        return self.level

    def show(self, pixels):
        self.pixels = pixels

    def read(self):
        data = bytes(self.rx)
        self.rx = bytearray()
        return data

    def write(self, data):
        self.tx.extend(data)

    def feed(self):
        self.fed += 1

    def reset_cause(self):
        return self.cause

    def random_bytes(self, n):
        forced = state.get("random", [])
        if forced:
            return bytes.fromhex(forced.pop(0))
        return bytes(random.getrandbits(8) for _ in range(n))

    def sleep_ms(self, ms):
        self.ticks = (self.ticks + ms) % PERIOD


state = {}


def version():
    return sys.implementation.name + " " + ".".join(str(v) for v in sys.implementation.version[:3])


def handle(line):
    req = json.loads(line)
    return json.dumps(globals()["cmd_" + req["cmd"]](req))


def cmd_decode(req):
    """Host-encoded frames in; what the firmware decodes and re-encodes out."""
    d = proto.Deframer()
    out = []
    for h in req["frames"]:
        for kind, payload in d.feed(bytes.fromhex(h)):
            out.append([kind, payload.hex(), proto.encode(kind, payload).hex()])
    return {"messages": out, "corrupt": d.corrupt}


def cmd_encode(req):
    fw = (1, 2, 3)
    frames = [
        proto.dev_hello(fw, 4, proto.CAP_RGB, 0xFFFFFFFF, 12),
        proto.dev_heartbeat(9, 0xBEEF, 3),
        proto.button(9, 42, 40, 2, buttons.DOUBLE, 1234),
        proto.leds([(0, 0, 0, 0)] * 4),
        proto.boot_msg(9, 1),
        proto.error(proto.ERR_VERSION, 2),
    ]
    return {"frames": [f.hex() for f in frames], "crc": proto.crc32(b"123456789")}


def cmd_gestures(req):
    """Raw levels [[t_ms, pressed], ...] sampled every ``step`` ms until ``until``."""
    b = buttons.Button()
    changes = req["timeline"]
    level = False
    i = 0
    out = []
    t = 0
    while t <= req["until"]:
        while i < len(changes) and changes[i][0] <= t:
            level = bool(changes[i][1])
            i += 1
        g = b.update(t, level)
        if g is not None:
            out.append([t, g])
        t += req.get("step", 5)
    return {"gestures": out}


def cmd_render(req):
    return {
        "frames": [
            leds.render([tuple(s) for s in req["states"]], t, req.get("linked", True))
            for t in req["times"]
        ]
    }


def cmd_boot(req):
    """Power-on: a new Device on a fresh fake HAL. ``random`` (hex) forces what the HAL's random
    source gives, one hex string per call, then it is random again."""
    hal = FakeHal(req.get("seats", 4), req.get("ticks", PERIOD - 2000), req.get("cause", 1))
    state["hal"] = hal
    state["random"] = list(req.get("random", []))
    state["device"] = app.Device(hal, req.get("seats", 4))
    return {"boot": state["device"].boot}


def cmd_run(req):
    """Advance ``ms`` in steps of ``step`` with the given button levels; rx arrives first."""
    hal = state["hal"]
    device = state["device"]
    if "levels" in req:
        hal.level = [bool(v) for v in req["levels"]]
    hal.rx.extend(bytes.fromhex(req.get("rx", "")))
    step = req.get("step", 5)
    elapsed = 0
    if not req.get("ms", 0):
        device.step()
    while elapsed < req.get("ms", 0):
        hal.sleep_ms(step)
        elapsed += step
        device.step()
    tx = bytes(hal.tx)
    hal.tx = bytearray()
    return {
        "tx": tx.hex(),
        "pixels": hal.pixels,
        "fed": hal.fed,
        "now": device.now,
        "presses": device.presses,
        "linked": device.link.linked,
    }
