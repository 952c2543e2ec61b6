"""LED patterns: the host's per-seat state rendered to pixel colours at a given time (ms)."""

OFF = 0
SOLID = 1
BLINK = 2
PULSE = 3

BLINK_MS = 500  # on, then off, for as long
PULSE_MS = 2000  # one full breath
OFFLINE = (40, 16, 0, PULSE)  # dim amber breathing: no host talking to us


def level(pattern, now):
    """Brightness 0..255 of a pattern at ``now``."""
    if pattern == SOLID:
        return 255
    if pattern == BLINK:
        return 255 if (now // BLINK_MS) % 2 == 0 else 0
    if pattern == PULSE:
        phase = now % PULSE_MS
        half = PULSE_MS // 2
        ramp = phase if phase < half else PULSE_MS - phase
        return 16 + (239 * ramp) // half
    return 0


def render(states, now, linked=True):
    """[(r, g, b), ...] for states [(r, g, b, pattern), ...]."""
    out = []
    for state in states:
        s = state if linked else OFFLINE
        k = level(s[3], now)
        out.append(((s[0] * k) // 255, (s[1] * k) // 255, (s[2] * k) // 255))
    return out
