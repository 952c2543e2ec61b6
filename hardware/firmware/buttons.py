"""Seat buttons: debouncing and gestures, on plain numbers (no hardware here).

Semantics follow peterhinch/micropython-async ``Pushbutton`` with its defaults: 50 ms debounce,
long press at 1 s held (reported while still held, the release is then ignored), double press
when a second press starts within 400 ms of the first one's start. A short press is reported
once it can no longer become a double (400 ms after it started, or at release if later).
One difference: a level change is accepted only after it has been stable for 50 ms, so a
glitch shorter than that (a noisy cable) can never make a press.
"""

SHORT = 1
LONG = 2
DOUBLE = 3

DEBOUNCE_MS = 50
LONG_MS = 1000
DOUBLE_MS = 400


class Button:
    def __init__(self):
        self.raw = False
        self.raw_since = 0
        self.down = False
        self.down_at = 0
        self.long_done = False
        self.second = False  # this press is the second of a double: its release says nothing
        self.pending_at = None  # start of a released short press that may still become double

    def update(self, now, raw):
        """Feed the raw level (True = pressed) at ``now`` ms; returns a gesture or None."""
        if raw != self.raw:
            self.raw = raw
            self.raw_since = now
        if raw != self.down and now - self.raw_since >= DEBOUNCE_MS:
            self.down = raw
            # The change really happened when the level last moved, not when debounce ended.
            return self._press(self.raw_since) if raw else self._release()
        if self.down and not self.long_done and not self.second and now - self.down_at >= LONG_MS:
            self.long_done = True
            self.pending_at = None
            return LONG
        # Not while a new press is being debounced: it may still turn this into a double.
        if not self.raw and self.pending_at is not None and now - self.pending_at >= DOUBLE_MS:
            self.pending_at = None
            return SHORT
        return None

    def _press(self, at):
        self.down_at = at
        self.long_done = False
        if self.pending_at is not None and at - self.pending_at < DOUBLE_MS:
            self.pending_at = None
            self.second = True
            return DOUBLE
        self.second = False
        return None

    def _release(self):
        if self.long_done or self.second:
            self.second = False
            return None
        if self.raw_since - self.down_at >= DOUBLE_MS:
            return SHORT  # held past the double window: it cannot become a double any more
        self.pending_at = self.down_at
        return None


class Buttons:
    """One :class:`Button` per seat; ``update`` returns [(seat, gesture), ...]."""

    def __init__(self, seats):
        self.buttons = [Button() for _ in range(seats)]

    def update(self, now, levels):
        out = []
        for seat, b in enumerate(self.buttons):
            g = b.update(now, levels[seat])
            if g is not None:
                out.append((seat, g))
        return out
