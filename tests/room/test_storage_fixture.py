"""The `storage` fixture's quick copies of a migrated database (`storage_fixture.
migrated_engine`) are the database Alembic makes: on SQLite and on PostgreSQL, the first copy
of a process and a later one hold the same tables, columns, keys, indexes and constraints, the
same rows (the `alembic_version` row among them) and, on SQLite, the same pragmas as a
database `migrate` brought to the newest revision itself. A PostgreSQL schema of the pool
(`migrated_schema`) lent again is that database again."""

from __future__ import annotations

from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

from cardroom.room.people.accounts import Role, create_account
from cardroom.room.storage.db import Storage, make_engine, migrate
from room.people import PW
from room.storage_fixture import backend_url, migrated_engine, migrated_schema


def described(engine: Engine) -> dict[str, object]:
    """Everything a test can see of the schema, and every row."""
    look = inspect(engine)
    found: dict[str, object] = {}
    with engine.connect() as conn:
        for table in sorted(look.get_table_names()):
            found[table] = [
                repr(look.get_columns(table)), look.get_pk_constraint(table),
                sorted(map(repr, look.get_foreign_keys(table))),
                sorted(map(repr, look.get_indexes(table))),
                sorted(map(repr, look.get_unique_constraints(table))),
                sorted(map(repr, look.get_check_constraints(table))),
                sorted(map(repr, conn.execute(text(f'SELECT * FROM "{table}"')).all()))]
        if engine.dialect.name == "sqlite":
            # each statement's lines sorted: Alembic's batch copies name a table's
            # constraints in no set order
            found["sqlite_master"] = sorted(
                (kind, name, table, sorted(line.strip().rstrip(",") for line in
                                           (sql or "").splitlines()))
                for kind, name, table, sql in conn.execute(text(
                    "SELECT type, name, tbl_name, sql FROM sqlite_master")))
            found["pragmas"] = [conn.exec_driver_sql(f"PRAGMA {p}").scalar() for p in (
                "journal_mode", "user_version", "foreign_keys", "auto_vacuum")]
    return found


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_copies_of_the_migrated_database_are_what_migrate_makes(backend: str,
                                                                  tmp_path: Path) -> None:
    with ExitStack() as stack:
        urls = []
        for name in ("first", "later", "alembic"):
            (tmp_path / name).mkdir()
            urls.append(stack.enter_context(contextmanager(backend_url)(backend, tmp_path / name)))
        engines = [migrated_engine(urls[0]), migrated_engine(urls[1]), make_engine(urls[2])]
        migrate(engines[2])
        try:
            first, later, alembic = (described(e) for e in engines)
        finally:
            for e in engines:
                e.dispose()
    assert "alembic_version" in alembic and len(alembic) > 40
    assert first == alembic
    assert later == alembic


def test_a_pooled_schema_lent_again_is_what_migrate_makes(tmp_path: Path) -> None:
    """A test's rows and sequences are gone when its schema is lent to the next test (the
    first account made there is number 1 again, its audit entry the first); a schema whose
    shape a test changed (a constraint dropped) is dropped, never lent again."""
    lend = contextmanager(migrated_schema)
    with lend() as url:
        storage = Storage(make_engine(url))
        with storage.unit() as conn:
            first = create_account(conn, "ada", PW, Role.PLAYER)
            second = create_account(conn, "bob", PW, Role.PLAYER)
        storage.engine.dispose()
    with lend() as again, ExitStack() as stack:
        assert again == url
        alembic = make_engine(stack.enter_context(contextmanager(backend_url)(
            "postgresql", tmp_path)))
        migrate(alembic)
        lent = make_engine(again)
        try:
            assert described(lent) == described(alembic)
            storage = Storage(lent)
            with storage.unit() as conn:
                assert create_account(conn, "cyd", PW, Role.PLAYER).id == first.id == 1
            with lent.begin() as conn:
                conn.execute(text("ALTER TABLE accounts DROP CONSTRAINT accounts_username_key"))
        finally:
            lent.dispose()
            alembic.dispose()
    assert second.id == 2
    with lend() as third:
        assert third != url
    with make_engine(third).connect() as conn:
        schemas = conn.execute(text("SELECT nspname FROM pg_namespace")).scalars().all()
    assert url.rpartition("%3D")[2] not in schemas
