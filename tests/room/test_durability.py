"""Issue 9: a commit the room reported (a settled hand, a cashier movement) survives a power
loss. SQLite: `synchronous=FULL` in WAL mode syncs the log at every commit (SQLite's
documentation: NORMAL in WAL mode "might roll back" the last transactions after a power loss);
PostgreSQL: `synchronous_commit=on`, whatever the connection string or the server default."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.engine import Engine

from cardroom.room.storage.db import open_database
from room.storage_fixture import backend_url

SQLITE_FULL = 2  # PRAGMA synchronous: 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA


def pragma_on_every_connection(engine: Engine, statement: str) -> list[object]:
    """`statement`'s answer on three connections open at once (three distinct ones from the
    pool), then on three new ones after the pool is emptied."""
    answers = []
    for _ in range(2):
        with ExitStack() as stack:
            conns = [stack.enter_context(engine.connect()) for _ in range(3)]
            answers += [c.exec_driver_sql(statement).scalar_one() for c in conns]
        engine.dispose()
    return answers


def test_every_sqlite_connection_syncs_at_each_commit(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "room.sqlite3")).engine
    assert pragma_on_every_connection(engine, "PRAGMA synchronous") == [SQLITE_FULL] * 6
    assert pragma_on_every_connection(engine, "PRAGMA journal_mode") == ["wal"] * 6


@pytest.fixture
def lax_postgres(tmp_path: Path) -> Iterator[str]:
    """A PostgreSQL URL whose connection string turns synchronous commit off."""
    for url in backend_url("postgresql", tmp_path):
        yield url + "%20-csynchronous_commit%3Doff"


def test_every_postgres_connection_commits_synchronously(lax_postgres: str) -> None:
    plain = create_engine(lax_postgres)
    with plain.connect() as conn:  # the URL alone would make commits asynchronous
        assert conn.exec_driver_sql("SHOW synchronous_commit").scalar_one() == "off"
    plain.dispose()
    engine = open_database(lax_postgres).engine
    assert pragma_on_every_connection(engine, "SHOW synchronous_commit") == ["on"] * 6
