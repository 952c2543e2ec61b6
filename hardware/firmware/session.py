"""Session id: a fresh random non-zero u32 at every start-up (hardware/PROTOCOL.md, 3.5).

Not a counter on flash: a counter restarts at 1 when its file is lost or damaged, and a host that
saw the same number before would take the new session's presses 1, 2, ... for ones it already
has. Two sessions share an id with odds of 1 in 2**32, and the host starts a new session on the
BOOT frame anyway.
"""


def new_id(random_bytes):
    """``random_bytes(n)`` -> n random bytes (``os.urandom`` on the Pico: the ring oscillator)."""
    while True:
        b = random_bytes(4)
        sid = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24
        if sid:
            return sid
