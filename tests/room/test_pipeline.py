"""A PostgreSQL unit in pipeline mode (issue 25, `cardroom.room.storage.pipeline`): what it
queues goes in as few round trips as its reads allow, and a queued statement that fails still
fails the whole unit, with nothing of it written. The same units run on SQLite, where nothing
is queued."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError

from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.pipeline import deferred
from cardroom.room.storage.round_trips import traced
from cardroom.room.storage.schema import ledger_accounts

ACCOUNT = text("INSERT INTO ledger_accounts (name, balance, allow_negative) "
               "VALUES ('test:' || :no, 0, :no)").bindparams(no=False)
"""A write no one reads an answer of (a Core INSERT would have SQLAlchemy read the new key,
and is then waited for: `pipeline.answer_now`)."""


def accounts(storage: Storage) -> int:
    with storage.read() as conn:
        return int(conn.execute(select(func.count()).select_from(ledger_accounts)
                                .where(ledger_accounts.c.name.startswith("test:"))
                                ).scalar_one())


def test_a_unit_that_only_writes_is_one_or_two_round_trips(storage: Storage) -> None:
    """Without an audit entry, one: BEGIN, the writer lock, the head's read, the writes and
    the COMMIT together. With one, two: its link needs the head's answer first."""
    with storage.unit() as conn:  # the first: the log's head is made
        audit.append(conn, "alice", "test.action", {"i": 0})
    with traced(storage) as trips, storage.unit() as conn:
        conn.execute(deferred(ACCOUNT))
    assert trips == ([1] if storage.is_postgres else [])
    with traced(storage) as trips, storage.unit() as conn:
        conn.execute(deferred(ACCOUNT.bindparams(no=True)))
        audit.append(conn, "alice", "test.action", {"i": 1})
    assert trips == ([2] if storage.is_postgres else [])
    assert accounts(storage) == 2
    with storage.snapshot() as conn:
        assert audit.verify(conn).ok and audit.last_seq(conn) == 2


def test_a_queued_statement_that_fails_fails_the_unit_and_writes_nothing(
        storage: Storage) -> None:
    with storage.unit() as conn:
        audit.append(conn, "alice", "test.action", {"i": 0})
    with pytest.raises(IntegrityError), storage.unit() as conn:
        audit.append(conn, "alice", "test.action", {"i": "lost"})
        conn.execute(deferred(ACCOUNT))
        conn.execute(deferred(ACCOUNT))  # the same name again: refused at the COMMIT
    assert accounts(storage) == 0
    with storage.snapshot() as conn:
        assert audit.verify(conn).ok and audit.last_seq(conn) == 1
    if storage.is_postgres:  # the connection is lent again in a transaction, not autocommit
        with storage.read() as conn:
            assert conn.connection.driver_connection.autocommit is False  # type: ignore
    with storage.unit() as conn:  # and the next unit writes as usual
        conn.execute(deferred(ACCOUNT))
    assert accounts(storage) == 1
