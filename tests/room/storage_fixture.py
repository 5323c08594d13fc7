"""Every storage test runs twice: on a fresh SQLite file and on a fresh PostgreSQL schema.

The `storage` fixture's database is migrated once per test process and backend, then copied
(`migrated_engine`): a SQLite file is a copy of a file Alembic migrated; a PostgreSQL schema
gets the very statements, with their parameters, that Alembic sent when it migrated the
process's first schema (the same tables, indexes, constraints and `alembic_version` row;
`test_storage_fixture.py` compares both copies with a schema Alembic migrated itself). The
migrations' own tests call `migrate` (`cardroom.room.storage.db`) directly."""

from __future__ import annotations

import atexit
import contextlib
import os
import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine, make_url
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
    """A fresh database: an empty one, or on PostgreSQL for a test that takes `storage` (which
    migrates it) a migrated schema of the pool (`migrated_schema`), the same at its start."""
    if request.param == "postgresql" and "storage" in request.fixturenames:
        yield from migrated_schema()
        return
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
    if url.rpartition("%3D")[2] in _POOLED:
        return engine
    if _PG_MIGRATION:
        _replay(engine, _PG_MIGRATION[0])
    else:
        _PG_MIGRATION.append(_recorded_migration(engine))
    return engine


_POOL: list[str] = []
"""This process's migrated PostgreSQL schemas that no test holds, emptied to their first state."""
_POOLED: set[str] = set()
"""Every schema of the pool, held or not."""
_SHAPE: dict[str, str] = {}
"""A schema's shape when it was migrated (`_shape`): one a test changed is not lent again."""
_TABLES: dict[str, tuple[str, str]] = {}
"""A pooled schema's statements that delete every row and vacuum every table."""
_LENT: dict[str, int] = {}
"""How many times each pooled schema was given back emptied."""
_FIRST: list[tuple[str, str]] = []
"""The schema holding a copy of the rows and sequences a migrated schema starts with, and the
statements that put them back (`_empty`)."""


def migrated_schema() -> Iterator[str]:
    """The URL of a migrated PostgreSQL schema of this process's pool, as `migrated_engine`
    leaves a new one, for one test. Making a schema (about 140 statements) and dropping it
    cost 0.2 to 1.4 s a test and left the catalogs thousands of dead rows; a schema given back
    is emptied (`TRUNCATE`, the migration's rows and sequences put back) in under 0.1 s, and
    one whose shape the test changed (a migration run down, a trigger dropped) is dropped."""
    if _PG is None:
        yield from backend_url("postgresql", Path())
        return
    schema = _POOL.pop() if _POOL else _new_pooled()
    try:
        yield _url_of(schema)
    finally:
        if _emptied(schema):
            _POOL.append(schema)


def _new_pooled() -> str:
    schema = f"t_{secrets.token_hex(6)}"
    with psycopg_connection() as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    migrated_engine(_url_of(schema)).dispose()
    _POOLED.add(schema)
    _SHAPE[schema] = _shape(schema)
    with psycopg_connection() as conn:
        tables = [t for (t,) in conn.execute(
            "SELECT format('%%I', tablename) FROM pg_tables WHERE schemaname = %s", (schema,))]
    _TABLES[schema] = (";".join(f"DELETE FROM {t}" for t in tables),
                       "VACUUM " + ", ".join(f"{schema}.{t}" for t in tables))
    if not _FIRST:
        _FIRST.append(_keep_first_state(schema))
    return schema


def _url_of(schema: str) -> str:
    return f"{_PG}?options=-csearch_path%3D{schema}"


def _keep_first_state(schema: str) -> tuple[str, str]:
    """Copy the rows a migrated `schema` starts with into a schema of their own, and write
    the statements that put them and every sequence's position back into an emptied one."""
    kept = f"{schema}_first"
    with psycopg_connection() as conn:
        conn.execute(f"CREATE SCHEMA {kept}")
        restore = []
        for (table,) in conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = %s", (schema,)).fetchall():
            if conn.execute(f'SELECT EXISTS (SELECT FROM {schema}."{table}")').fetchone()[0]:
                conn.execute(f'CREATE TABLE {kept}."{table}" AS SELECT * FROM {schema}."{table}"')
                restore.append(f'INSERT INTO "{table}" OVERRIDING SYSTEM VALUE '
                               f'SELECT * FROM {kept}."{table}"')
        for name, start, last in conn.execute(
                "SELECT sequencename, start_value, last_value FROM pg_sequences "
                "WHERE schemaname = %s", (schema,)).fetchall():
            called = last is not None
            restore.append(f"SELECT setval('\"{name}\"', {last if called else start}, "
                           f"{str(called).lower()})")
    return kept, ";\n".join(restore)


_SHAPE_SQL = """
SELECT md5(string_agg(x, ',' ORDER BY x)) FROM (
  SELECT concat_ws('|', c.relname, c.relkind, c.relnatts, c.relacl) AS x
  FROM pg_class c WHERE c.relnamespace = %(schema)s::regnamespace
  UNION ALL
  SELECT concat_ws('|', a.attrelid::regclass, a.attnum, a.attname, a.atttypid::regtype,
                   a.attnotnull, a.attisdropped)
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
  WHERE c.relnamespace = %(schema)s::regnamespace AND a.attnum > 0
  UNION ALL
  SELECT concat_ws('|', t.tgrelid::regclass, t.tgname, t.tgenabled)
  FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
  WHERE c.relnamespace = %(schema)s::regnamespace
  UNION ALL
  SELECT concat_ws('|', conname, contype, pg_get_constraintdef(oid))
  FROM pg_constraint WHERE connamespace = %(schema)s::regnamespace
  UNION ALL
  SELECT concat_ws('|', proname, md5(prosrc)) FROM pg_proc
  WHERE pronamespace = %(schema)s::regnamespace
) shape"""
"""What a test may change of a schema beyond its rows: tables, columns, triggers (dropped or
disabled), constraints, functions, grants."""


def _shape(schema: str, conn: psycopg.Connection[Any] | None = None) -> str:
    with contextlib.nullcontext(conn) if conn else psycopg_connection() as c:
        row = c.execute(_SHAPE_SQL, {"schema": schema}).fetchone()
    assert row is not None
    return str(row[0])


def psycopg_connection() -> psycopg.Connection[Any]:
    """A driver connection to the test server, in autocommit."""
    assert _PG is not None
    return psycopg.connect(make_url(_PG).set(drivername="postgresql").render_as_string(
        hide_password=False), autocommit=True)


def _emptied(schema: str) -> bool:
    """Empty `schema` to its state after the migration if its shape is as migrated and no
    session holds its tables; else drop it. Whether it can be lent again. Rows are deleted
    (with the triggers off: the audit log's refuse it) rather than truncated, which makes
    every table's files again (0.06 s against 0.002 s); the dead rows are vacuumed away every
    `VACUUM_EVERY` lendings."""
    with psycopg_connection() as conn:
        if _shape(schema, conn) == _SHAPE[schema]:
            conn.execute("SET lock_timeout = '5s'")
            try:
                with conn.transaction():
                    conn.execute(f"SET LOCAL search_path = {schema}")
                    conn.execute("SET LOCAL session_replication_role = replica")
                    conn.execute(_TABLES[schema][0])
                    conn.execute(_FIRST[0][1])
                _LENT[schema] = _LENT.get(schema, 0) + 1
                if _LENT[schema] % VACUUM_EVERY == 0:
                    conn.execute(_TABLES[schema][1])
                return True
            except psycopg.errors.LockNotAvailable:
                conn.execute("SET lock_timeout = 0")
        _POOLED.discard(schema)
        conn.execute(f"DROP SCHEMA {schema} CASCADE")
    _dropped_one()
    return False


def drop_pool() -> None:
    """Drop this process's pool (at the end of its tests)."""
    if _PG is None or not (_POOLED or _FIRST):
        return
    with psycopg_connection() as conn:
        for schema in [*_POOLED, *(kept for kept, _ in _FIRST)]:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    _POOLED.clear()
    _POOL.clear()
    _FIRST.clear()


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
