"""The seat link's benchmarks for ``domino-table bench``: :mod:`firmware_bridge.bench.link`."""
