"""Every storage test runs twice: on a fresh SQLite file and on a fresh PostgreSQL schema.

The `storage` fixture's database is migrated once per test process and backend, then copied
(`migrated_engine`): a SQLite file is a copy of a file Alembic migrated; a PostgreSQL schema
gets the very statements, with their parameters, that Alembic sent when it migrated the
process's first schema (the same tables, indexes, constraints and `alembic_version` row;
`test_storage_fixture.py` compares both copies with a schema Alembic migrated itself). The
migrations' own tests call `migrate` (`cardroom.room.storage.db`) directly."""

from __future__ import annotations

import atexit
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.schema import CreateSchema, DropSchema

from cardroom.room.storage.db import Storage, make_engine, migrate

PG_USERS = ("postgres", "root")


def pg_base_url() -> str | None:
    """A reachable PostgreSQL on 127.0.0.1:5432 (database `test`), or None."""
    configured = os.environ.get("CARDROOM_TEST_POSTGRES")
    candidates = [configured] if configured else [
        f"postgresql+psycopg://{user}@127.0.0.1:5432/test" for user in PG_USERS]
    for url in candidates:
        engine = create_engine(url)
        try:
            with engine.connect():
                return url
        except OperationalError:
            continue
        finally:
            engine.dispose()
    return None


_PG = pg_base_url()


def backend_url(backend: str, tmp_path: Path) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'room.sqlite3'}"
        return
    if _PG is None:
        if os.environ.get("CI"):
            pytest.fail("PostgreSQL is not running on 127.0.0.1:5432 (.ci/run starts it)")
        pytest.skip("PostgreSQL is not running on 127.0.0.1:5432")
    schema = f"t_{secrets.token_hex(6)}"
    admin = create_engine(_PG)
    with admin.begin() as conn:
        conn.execute(CreateSchema(schema))
    try:
        yield f"{_PG}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(DropSchema(schema, cascade=True))
        admin.dispose()
        _dropped_one()


CATALOGS = ("pg_attribute", "pg_class", "pg_depend", "pg_type", "pg_constraint", "pg_index",
            "pg_attrdef", "pg_trigger", "pg_sequence", "pg_namespace")
VACUUM_EVERY = 100
"""Schemas a test process drops between two vacuums of the catalogs they leave dead rows in.
A suite makes and drops about 600 schemas; where the server runs without autovacuum (the CI
machine's does), their dead rows (300 MB of `pg_attribute` by the end of a run) made each new
schema half as slow again."""
_DROPS = [0]


def _dropped_one() -> None:
    _DROPS[0] += 1
    if _DROPS[0] % VACUUM_EVERY or _PG is None:
        return
    admin = create_engine(_PG, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.exec_driver_sql("VACUUM " + ", ".join(f"pg_catalog.{t}" for t in CATALOGS))
    admin.dispose()


POSTGRESQL_ONLY = pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)
"""On a test whose storage fixtures take `db_url`: PostgreSQL only (what several processes of
one room do: their leases, their writer chains), instead of a skipped SQLite run."""


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from backend_url(request.param, tmp_path)


Statement = tuple[str, Any, bool]
"""One statement as Alembic's connection sent it to the driver: (SQL, parameters, many)."""
_SQLITE_TEMPLATE: list[Path] = []
"""This process's migrated SQLite file, made on first use."""
_PG_MIGRATION: list[list[Statement]] = []
"""The statements that migrated this process's first PostgreSQL schema."""


def migrated_engine(url: str) -> Engine:
    """The engine of `url` (a SQLite file not yet made, or an empty PostgreSQL schema named in
    the URL's `search_path`, as `backend_url` gives), its schema at the newest revision: as
    `make_engine` then `migrate` leave it, in a fraction of the time."""
    if url.startswith("sqlite"):
        shutil.copyfile(_sqlite_template(), url.removeprefix("sqlite:///"))
        return make_engine(url)
    engine = make_engine(url)
    if _PG_MIGRATION:
        _replay(engine, _PG_MIGRATION[0])
    else:
        _PG_MIGRATION.append(_recorded_migration(engine))
    return engine


def _sqlite_template() -> Path:
    if not _SQLITE_TEMPLATE:
        folder = tempfile.mkdtemp(prefix="cardroom-template-")
        atexit.register(shutil.rmtree, folder, True)
        path = Path(folder) / "room.sqlite3"
        engine = make_engine(f"sqlite:///{path}")
        migrate(engine)
        with engine.begin() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
        engine.dispose()
        _SQLITE_TEMPLATE.append(path)
    return _SQLITE_TEMPLATE[0]


def _recorded_migration(engine: Engine) -> list[Statement]:
    """Migrate with Alembic, keeping every statement it sends."""
    sent: list[Statement] = []

    def keep(_conn: object, _cursor: object, statement: str, parameters: Any,
             _context: object, executemany: bool) -> None:
        sent.append((statement, parameters, executemany))

    event.listen(engine, "before_cursor_execute", keep)
    try:
        migrate(engine)
    finally:
        event.remove(engine, "before_cursor_execute", keep)
    return sent


def _replay(engine: Engine, statements: list[Statement]) -> None:
    """Send `statements` again, in one transaction as `migrate` does; runs of statements
    without parameters (the DDL) go in one round trip (none holding a `%`, which the driver
    would read as a placeholder when parameters are given)."""
    with engine.begin() as conn:
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        plain: list[str] = []
        for sql, parameters, many in [*statements, ("", None, False)]:
            if sql and not parameters and not many and "%" not in sql:
                plain.append(sql)
                continue
            if plain:
                cursor.execute(";\n".join(plain))
                plain = []
            if sql:
                (cursor.executemany if many else cursor.execute)(sql, parameters)
        cursor.close()


@pytest.fixture
def storage(db_url: str) -> Iterator[Storage]:
    engine = migrated_engine(db_url)
    yield Storage(engine)
    engine.dispose()
