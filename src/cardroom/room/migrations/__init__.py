"""Alembic migrations of the card room's schema; `cardroom.room.storage.db.migrate` runs them."""
