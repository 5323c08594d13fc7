"""Every storage test runs twice: on a fresh SQLite file and on a fresh PostgreSQL schema."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine
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


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    yield from backend_url(request.param, tmp_path)


@pytest.fixture
def storage(db_url: str) -> Iterator[Storage]:
    engine = make_engine(db_url)
    migrate(engine)
    yield Storage(engine)
    engine.dispose()
