"""The room's storage: the schema, the database, the keyed audit log, the keys, the house's
settings and the clock."""
