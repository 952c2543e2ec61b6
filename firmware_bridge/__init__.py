"""Host side of the seat-device serial link, and a device simulator.

Never imports ``controller``: it emits its own small typed events.
"""
