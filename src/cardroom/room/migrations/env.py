"""Alembic environment: always run online on the connection that `migrate` hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from cardroom.room.storage.schema import metadata

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("run migrations through cardroom.room.storage.db.migrate")
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
