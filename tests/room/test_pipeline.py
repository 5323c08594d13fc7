"""A PostgreSQL unit in pipeline mode (issue 25, `cardroom.room.storage.pipeline`): what it
queues goes in as few round trips as its reads allow, and a queued statement that fails still
fails the whole unit, with nothing of it written. The same units run on SQLite, where nothing
is queued."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import bindparam, func, insert, select, text
from sqlalchemy.exc import IntegrityError

from cardroom.room.compliance.exclusions import excluded_accounts
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.pipeline import deferred, on_driver
from cardroom.room.storage.round_trips import traced
from cardroom.room.storage.schema import ledger_accounts, ledger_transactions

from .statements import counted
from .storage_fixture import POSTGRESQL_ONLY

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


TX = insert(ledger_transactions).values(
    {c: bindparam(c) for c in ("key", "fingerprint", "kind", "memo", "actor", "created_at")})
AT = datetime(2026, 11, 27, 15, 30, 1, 250_000, tzinfo=UTC)


def test_a_statement_on_the_driver_s_cursor_writes_what_sqlalchemy_would(
        storage: Storage) -> None:
    """`pipeline.on_driver` (issue 25): the same row, its date converted as SQLAlchemy
    converts it for the database (SQLite keeps text), read back as SQLAlchemy reads it;
    several rows in one call; the statements heard by SQLAlchemy's listeners, as a count of
    statements per action hears them."""
    rows = [{"key": f"k{i}", "fingerprint": "f", "kind": "test", "memo": "", "actor": "alice",
             "created_at": AT} for i in (1, 2)]
    with counted(storage) as seen, storage.unit() as conn:
        on_driver(conn, deferred(TX), rows[:1])
        on_driver(conn, TX, rows[1])
    assert len(seen) == 2
    with storage.unit() as conn:
        conn.execute(TX, {**rows[0], "key": "by SQLAlchemy"})
    with storage.read() as conn:
        found = conn.execute(select(ledger_transactions.c.key, ledger_transactions.c.created_at)
                             .order_by(ledger_transactions.c.id)).all()
        stored = {str(t) for t in conn.execute(text(
            "SELECT CAST(created_at AS TEXT) FROM ledger_transactions")).scalars()}
    assert [k for k, _ in found] == ["k1", "k2", "by SQLAlchemy"]
    assert {at.replace(tzinfo=UTC) for _, at in found} == {AT}
    assert len(stored) == 1  # the driver's rows stored exactly as SQLAlchemy's


def test_a_statement_on_the_driver_s_cursor_fails_as_sqlalchemy_s_would(
        storage: Storage) -> None:
    """A constraint broken on the driver's cursor raises SQLAlchemy's `IntegrityError` (the
    ledger's idempotency keys rely on it), and the unit writes nothing; a statement whose
    parameters change from call to call (an expanding IN) is refused before it is sent."""
    row = {"key": "twice", "fingerprint": "f", "kind": "test", "memo": "", "actor": "alice",
           "created_at": AT}
    with pytest.raises(IntegrityError), storage.unit() as conn:
        conn.execute(deferred(ACCOUNT))
        on_driver(conn, TX, row)
        on_driver(conn, TX, row)
    assert accounts(storage) == 0
    expanding = select(ledger_accounts.c.id).where(
        ledger_accounts.c.name.in_(bindparam("names", expanding=True)))
    with pytest.raises(ValueError, match="not a statement for the driver"), \
            storage.unit() as conn:
        on_driver(conn, expanding, {"names": ["a"]})


def test_reads_keep_the_statements_psycopg_prepared(storage: Storage) -> None:
    """A read ends with a COMMIT (`Storage.read`): a ROLLBACK at its end made psycopg forget
    what it had prepared on the connection, so a statement run by reads and units alike was
    never prepared. psycopg prepares a statement at its sixth run on one connection; 30 reads
    run it at least six times on each of the pool's (at most 5) connections."""
    count = select(func.count()).select_from(ledger_accounts)
    for _ in range(30):
        assert accounts(storage) == 0
        with storage.read() as conn:
            assert conn.execute(count).scalar_one() == 0
    if storage.is_postgres:
        with storage.read() as conn:
            assert conn.exec_driver_sql("SELECT count(*) FROM pg_prepared_statements"
                                        ).scalar_one() >= 2


@POSTGRESQL_ONLY
@pytest.mark.parametrize("in_unit", [True, False], ids=["unit", "connection"])
def test_the_exclusion_check_keeps_one_plan(storage: Storage, in_unit: bool) -> None:
    """`pipeline.ahead(planned_once=True)`: the exclusion check of a deal (`accounts.id =
    ANY(:ids)`) keeps its generic plan once psycopg has prepared it (at its sixth run on one
    connection). With PostgreSQL's own `auto` it was planned again at every run (five custom
    plans and no generic one in ten runs): its generic plan, costed for ten ids, looked
    dearer than one made for the seven at hand. Every other statement keeps `auto`."""
    with storage.unit() if in_unit else storage.engine.connect() as conn:
        for _ in range(10):
            assert excluded_accounts(conn, range(1, 8)) == {}
        plans = conn.execute(text(
            "SELECT generic_plans, custom_plans FROM pg_prepared_statements "
            "WHERE statement LIKE :check"), {"check": "%exclusion_entries%"}).one()
        assert conn.execute(text("SHOW plan_cache_mode")).scalar_one() == "auto"
    assert tuple(plans) == (5, 0)
