"""The `db_url` fixture for the CLI's tests (SQLite and PostgreSQL, from
`room/storage_fixture.py`)."""

from room.storage_fixture import db_url  # noqa: F401
