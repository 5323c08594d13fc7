"""Alembic migrations of the card room's schema; `cardroom.room.db.migrate` runs them."""
