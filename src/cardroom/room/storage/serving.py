"""The hold a running server keeps on its books, so that a restore never replaces books a
server has in memory (issue 26: `cardroom restore --force` under a running server left the
room and its books disagreeing; a player's next sit failed with an internal error).

`cardroom serve` holds its books shared for as long as it runs (`serving`); `cardroom restore`
holds them exclusively while it replaces them (`not_served`), so each refuses while the other
holds them. SQLite: an advisory `flock` on a file beside the database (`<file>-serving`);
PostgreSQL: a session-level advisory lock keyed by the room's schema (several rooms may share
one database), on a connection the server keeps open. The operating system or the database
server lets go when the holder ends, killed or not, so a crashed server never blocks a
restore.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from cardroom.errors import CardroomError
from cardroom.room.storage.db import ADVISORY_LOCK_KEY, database_url, not_an_address, unreachable

SERVER_RUNNING = ("a card-room server is running on these books: stop it before restoring "
                  "(a running server keeps the books it has in memory), or restore to a new "
                  "database")
RESTORING = "a restore is replacing these books: start the server when it has finished"


@contextmanager
def serving(database: str | None) -> Iterator[None]:
    """Held by `cardroom serve` while it runs; refused while a restore holds the books."""
    with _hold(database, exclusive=False, busy=RESTORING):
        yield


@contextmanager
def not_served(database: str | None) -> Iterator[None]:
    """Held by `cardroom restore` while it replaces the books; refused while a server runs."""
    with _hold(database, exclusive=True, busy=SERVER_RUNNING):
        yield


@contextmanager
def _hold(database: str | None, exclusive: bool, busy: str) -> Iterator[None]:
    try:
        url = make_url(database_url(database))
    except (ArgumentError, ValueError) as exc:
        raise not_an_address(database or "", exc) from None
    if url.get_backend_name() == "sqlite":
        with _file_lock(Path(url.database or ""), exclusive, busy):
            yield
    else:
        with _advisory_lock(url, exclusive, busy):
            yield


def lock_file(database: Path) -> Path:
    """The file beside a SQLite database that its server holds."""
    return database.with_name(database.name + "-serving")


@contextmanager
def _file_lock(database: Path, exclusive: bool, busy: str) -> Iterator[None]:
    if database.name in ("", ":memory:") or (exclusive and not database.parent.is_dir()):
        yield  # nothing a server could hold
        return
    database.parent.mkdir(parents=True, exist_ok=True)
    path = lock_file(database)
    try:
        fd, made = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600), True
    except FileExistsError:
        fd, made = os.open(path, os.O_RDWR), False
    try:
        try:
            fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        except BlockingIOError:
            raise CardroomError(busy) from None
        yield
    finally:
        if made and exclusive:  # a restore leaves no file behind (a server keeps its own)
            path.unlink(missing_ok=True)
        os.close(fd)  # lets go of the lock


@contextmanager
def _advisory_lock(url: URL, exclusive: bool, busy: str) -> Iterator[None]:
    engine = create_engine(url)
    try:
        try:
            conn = engine.connect()
        except DBAPIError as exc:
            raise unreachable(url.render_as_string(hide_password=True), exc) from None
        with conn:
            take = "pg_try_advisory_lock" if exclusive else "pg_try_advisory_lock_shared"
            held = conn.execute(text(
                f"SELECT {take}(CAST(:key AS integer), hashtext(coalesce(current_schema(), '')))"),
                {"key": ADVISORY_LOCK_KEY}).scalar_one()
            conn.commit()  # a session lock outlives the transaction; none is left open
            if not held:
                raise CardroomError(busy)
            yield  # closing the connection ends the session and lets go of the lock
    finally:
        engine.dispose()
