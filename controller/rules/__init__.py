"""The rules engine: tiles, options and presets, hands, matches, records, simulation."""
