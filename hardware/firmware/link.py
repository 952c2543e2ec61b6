"""Device side of the link (hardware/PROTOCOL.md): HELLO, heartbeats, numbered button events
retransmitted until acknowledged, LED state from the host. No hardware; time in ms.

Mirrors ``firmware_bridge/device.py`` (the simulator) message for message.
"""

import proto

FIRMWARE = (1, 1, 0)
WINDOW = 8  # button frames in flight
RETRANSMIT_MS = 150
HEARTBEAT_MS = 500
HOST_TIMEOUT_MS = 3000
QUEUE_MAX = 64
CAPS = proto.CAP_RGB | proto.CAP_GESTURES | proto.CAP_PATTERNS


class Link:
    def __init__(self, seats, boot, now, reset_cause=1):
        self.seats = seats
        self.boot = boot
        self.leds = [(0, 0, 0, 0)] * seats
        self.linked = False
        self.dropped = 0
        self.deframer = proto.Deframer()
        self.out = bytearray(b"\x00")
        self.queue = []  # [seq, seat, gesture, pressed_at, sent_at or None, sacked]
        self.next_seq = 1
        self.acked = 0
        self.last_host = now
        self.next_heartbeat = now
        self.out.extend(proto.boot_msg(boot, reset_cause))

    def press(self, now, seat, gesture):
        if len(self.queue) >= QUEUE_MAX:
            self.queue.pop(0)
            self.dropped += 1
            self.out.extend(proto.error(proto.ERR_QUEUE_OVERFLOW, len(self.queue)))
        seq = self.next_seq
        self.next_seq = (seq + 1) & 0xFFFF
        self.queue.append([seq, seat, gesture, now, None, False])
        return seq

    def receive(self, now, data):
        for kind, payload in self.deframer.feed(data):
            self.last_host = now
            self._on_message(kind, payload)

    def tick(self, now):
        if self.linked and now - self.last_host > HOST_TIMEOUT_MS:
            self.linked = False
        if now >= self.next_heartbeat:
            self.out.extend(
                proto.dev_heartbeat(self.boot, proto.leds_crc(self.leds), len(self.queue))
            )
            self.next_heartbeat = now + HEARTBEAT_MS
        if not self.linked or not self.queue:
            return
        oldest = self.queue[0][0]
        for item in self.queue[:WINDOW]:
            if item[5]:
                continue
            if item[4] is None or now - item[4] >= RETRANSMIT_MS:
                age = min(now - item[3], 0xFFFF)
                self.out.extend(proto.button(self.boot, item[0], oldest, item[1], item[2], age))
                item[4] = now

    def take_output(self):
        data = bytes(self.out)
        self.out = bytearray()
        return data

    def _on_message(self, kind, p):
        if kind == proto.HOST_HELLO and len(p) == 1:
            self.out.extend(proto.dev_hello(FIRMWARE, self.seats, CAPS, self.boot, self.acked))
            if p[0] != proto.VERSION:
                self.out.extend(proto.error(proto.ERR_VERSION, p[0]))
                self.linked = False
            else:
                self.linked = True
                for item in self.queue:
                    item[4] = None
        elif kind == proto.HOST_HEARTBEAT:
            pass
        elif kind == proto.ACK and len(p) == 7:
            boot = p[0] | p[1] << 8 | p[2] << 16 | p[3] << 24
            if boot == self.boot:
                self._on_ack(p[4] | p[5] << 8, p[6])
        elif kind == proto.SET_LEDS:
            states = proto.unpack_leds(p)
            if states is None or len(states) != self.seats or not _valid(states):
                self.out.extend(proto.error(proto.ERR_BAD_PAYLOAD, len(p)))
            else:
                self.leds = states
            self.out.extend(proto.leds(self.leds))
        elif kind == proto.SET_LED and len(p) == 5:
            state = tuple(p[1:5])
            if p[0] < self.seats and _valid([state]):
                self.leds = list(self.leds)
                self.leds[p[0]] = state
            else:
                self.out.extend(proto.error(proto.ERR_BAD_PAYLOAD, p[0]))
            self.out.extend(proto.leds(self.leds))
        elif kind in (proto.HOST_HELLO, proto.ACK, proto.SET_LED):
            self.out.extend(proto.error(proto.ERR_BAD_PAYLOAD, kind))
        else:
            self.out.extend(proto.error(proto.ERR_UNKNOWN_TYPE, kind))

    def _on_ack(self, seq, sack):
        # Cumulative up to seq (mod 2**16); bit i of sack also acknowledges seq + 2 + i.
        while self.queue and ((seq - self.queue[0][0]) & 0xFFFF) < 0x8000:
            self.acked = self.queue.pop(0)[0]
        for item in self.queue:
            bit = (item[0] - seq - 2) & 0xFFFF
            if bit < 8 and (sack >> bit) & 1:
                item[5] = True


def _valid(states):
    return all(s[3] <= 3 for s in states)
