"""The table's eyes: frame sources, calibration, tile recognition, scene tracking, fixtures.

Never imports ``controller``: it emits its own small typed events.
"""
