"""Smart domino table controller: rules engine, table session, journal, live state, CLI."""
