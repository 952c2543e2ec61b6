"""``run`` and ``record`` on real hardware: a TOML config, validated before anything opens."""
