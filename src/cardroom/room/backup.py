"""Back up a card room's books while it plays, and restore them.

SQLite: the online backup API (`sqlite3.Connection.backup`) copies the database in one step,
under one read transaction, so the copy is a consistent moment of the books while the tables
keep playing (WAL readers do not block the writer). PostgreSQL: `pg_dump` of the room's schema
in its custom format (one snapshot transaction) and `pg_restore` in a single transaction, so a
failed restore changes nothing. A backup is restored to the same kind of database it was taken
from. A restore refuses a database that holds data unless forced, brings the schema to the
newest revision and voids the hands that were open at the backup, as a restart does.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import shutil
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from cardroom.errors import CardroomError
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.audit_key import AuditKeyError, key_path, load_key
from cardroom.room.storage.db import database_url, not_an_address, safe_name, unreachable
from cardroom.room.storage.serving import not_served
from cardroom.room.trust.keying import open_keyed

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"
ROOM_TABLE = "audit_log"
"""A database is a card room if it has the audit log."""
BOOKKEEPING_TABLES = frozenset({"alembic_version"})
"""Tables that a freshly created, empty room already fills."""
_DUMP_TABLE = re.compile(rf"^\d+; \d+ \d+ TABLE (\S+) {ROOM_TABLE} ", re.MULTILINE)


@dataclass(frozen=True)
class Backup:
    """A backup file: the kind of database it holds and its SHA-256 (which a restore records
    in the audit log, so an auditor can tell which copy was put back)."""

    kind: str
    sha256: str


@dataclass(frozen=True)
class Restored:
    backup: Backup
    voided: list[int]
    """The hands open at the backup, voided by the restore."""


def backup(database: str | None, out: Path) -> Backup:
    """Copy the room at `database` to the new file `out`. Reads only: nothing is written to
    the room, so a read-only database role can take backups."""
    if out.exists():
        raise CardroomError(f"{out} already exists; give the backup a new name")
    if not out.parent.is_dir():
        raise CardroomError(f"there is no directory {out.parent} to write the backup in")
    url = _url(database)
    partial = out.with_name(out.name + ".partial")
    partial.unlink(missing_ok=True)
    try:
        _create_private(partial)
        if url.get_backend_name() == "sqlite":
            _sqlite_backup(_sqlite_path(url, must_exist=True), partial)
        else:
            _pg_dump(url, partial)
        _publish(partial, out)
    finally:
        partial.unlink(missing_ok=True)
    return Backup(url.get_backend_name(), digest(out))


def restore(file: Path, database: str | None, force: bool = False,
            key_file: Path | None = None) -> Restored:
    """Put the backup `file` in place at `database`, record the restore in the audit log, then
    void the hands the backup holds open (their wagers back to the stacks). The room's audit
    key (`key_file`, as `audit_key.key_path` finds it) must be at hand before anything is
    written: the restore's own entries are MACed with it, and a SQLite backup whose chain is
    signed with another key is refused before it is copied (a PostgreSQL archive is checked
    once restored, before anything is appended). Once the backup is read and before anything
    is written, refused while a server holds the books (`serving.not_served`): a running
    server keeps the books it has in memory."""
    if not file.is_file():
        raise CardroomError(f"there is no backup file {file}")
    key = load_key(key_path(key_file))
    with file.open("rb") as f:
        magic = f.read(len(SQLITE_MAGIC))
    url = _url(database)
    kind = url.get_backend_name()
    put_back: Callable[[], None]
    if magic.startswith(PG_DUMP_MAGIC):
        if kind != "postgresql":
            raise CardroomError(f"{file} is a PostgreSQL backup; restore it to a "
                                "postgresql:// database")
        put_back = partial(_pg_restore, file, _pg_archive_schema(file), url, force)
    elif magic == SQLITE_MAGIC:
        if kind != "sqlite":
            raise CardroomError(f"{file} is a SQLite backup; restore it to a SQLite file")
        _sqlite_check(file, key)
        put_back = partial(_sqlite_restore, file, _sqlite_path(url, must_exist=False), force)
    else:
        raise CardroomError(f"{file} is not a card-room backup (neither a SQLite database "
                            "nor a pg_dump archive)")
    with not_served(database):
        put_back()
        sha256 = digest(file)
        storage = open_keyed(url.render_as_string(hide_password=False), key_file,
                             create=False)
        try:
            with storage.unit() as conn:
                audit.append(conn, "recovery", "room.restored", {"backup": file.name,
                                                                 "sha256": sha256})
            voided = Room(storage).recover(resumable=False)
        finally:
            storage.engine.dispose()
    return Restored(Backup(kind, sha256), voided)


def digest(file: Path) -> str:
    with file.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _url(database: str | None) -> URL:
    try:
        url = make_url(database_url(database))
    except (ArgumentError, ValueError) as exc:
        raise not_an_address(database or "", exc) from None
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        raise CardroomError("the card room keeps its books in SQLite or PostgreSQL, "
                            f"not {url.get_backend_name()}")
    return url


# SQLite ---------------------------------------------------------------------------------------
def _sqlite_path(url: URL, must_exist: bool) -> Path:
    path = Path(url.database or "")
    if must_exist and not path.is_file():
        raise CardroomError(f"there is no card room at {path}")
    return path


def _sqlite_backup(source: Path, partial: Path) -> None:
    try:
        with closing(sqlite3.connect(source, timeout=10)) as src, \
                closing(sqlite3.connect(partial)) as dst:
            _require_sqlite_room(src, f"there is no card room at {source}")
            src.backup(dst)  # pages=-1: one step, one read transaction, a consistent copy
            dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            _require_intact(dst, f"the copy of {source} failed its integrity check")
    except sqlite3.Error as exc:
        raise CardroomError(f"could not back up {source}: {exc}") from None


def _sqlite_check(file: Path, key: bytes) -> None:
    """The backup is a card room, intact, and its chain signed with `key`."""
    try:
        with closing(_read_only(file)) as src:
            _require_sqlite_room(src, f"{file} is not a card-room backup")
            _require_intact(src, f"{file} is damaged (it failed SQLite's integrity check)")
            _require_key(src, file, key)
    except sqlite3.Error as exc:
        raise CardroomError(f"could not restore {file}: {exc}") from None


def _read_only(file: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{file.resolve().as_uri()}?mode=ro", uri=True)


def _sqlite_restore(file: Path, target: Path, force: bool) -> None:
    try:
        with closing(_read_only(file)) as src:
            target.parent.mkdir(parents=True, exist_ok=True)
            with closing(sqlite3.connect(target, timeout=10)) as dst:
                if not force and _sqlite_holds_data(dst):
                    raise CardroomError(f"{target} already holds a card room; restore to a "
                                        "new file, or add --force to replace it")
                src.backup(dst)
    except sqlite3.Error as exc:
        raise CardroomError(f"could not restore {file} to {target}: {exc}") from None


def _require_sqlite_room(conn: sqlite3.Connection, message: str) -> None:
    found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                         (ROOM_TABLE,)).fetchone()
    if found is None:
        raise CardroomError(message)


def _require_key(conn: sqlite3.Connection, file: Path, key: bytes) -> None:
    """The backup's head, if MACed, must be MACed with `key` (as `keying.open_keyed`
    requires of a live room)."""
    head = conn.execute("SELECT seq, hash, mac FROM audit_head WHERE id = 1").fetchone()
    if head is not None and head[2] is not None and not hmac.compare_digest(
            head[2], audit.head_mac(key, int(head[0]), str(head[1]))):
        raise AuditKeyError(f"{file} holds an audit chain signed with another key than the "
                            "audit key file given; restore it with the key file that was in "
                            "use when it was taken")


def _require_intact(conn: sqlite3.Connection, message: str) -> None:
    if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
        raise CardroomError(message)


def _sqlite_holds_data(conn: sqlite3.Connection) -> bool:
    names = [row[0] for row in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    quoted = ['"{}"'.format(name.replace('"', '""')) for name in names
              if name not in BOOKKEEPING_TABLES]
    return any(conn.execute(f"SELECT EXISTS (SELECT 1 FROM {q})").fetchone()[0] for q in quoted)


# PostgreSQL -----------------------------------------------------------------------------------
def _pg_dump(url: URL, partial: Path) -> None:
    with _pg_connection(url) as conn:
        schema = conn.execute(text(
            "SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.oid = to_regclass(:name)"), {"name": ROOM_TABLE}).scalar_one_or_none()
    if schema is None:
        raise CardroomError(f"there is no card room at {_shown(url)}")
    _pg_tool("pg_dump", url, ["--format=custom", f"--schema={schema}", f"--file={partial}"])


def _pg_archive_schema(file: Path) -> str:
    """The schema a card-room archive holds (read from its listing, without a database)."""
    found = _DUMP_TABLE.search(_pg_tool("pg_restore", None, ["--list", str(file)]))
    if found is None:
        raise CardroomError(f"{file} is not a card-room backup")
    return found.group(1)


def _pg_restore(file: Path, schema: str, url: URL, force: bool) -> None:
    with _pg_connection(url) as conn:
        # Would the room find the restored schema? Asked inside a transaction rolled back.
        quoted = conn.dialect.identifier_preparer.quote_schema(schema)
        conn.execute(text(f"CREATE SCHEMA IF NOT EXISTS {quoted}"))
        current = conn.execute(text("SELECT current_schema()")).scalar_one()
        holds_data = _pg_holds_data(conn, schema)
        conn.rollback()
    if current != schema:
        raise CardroomError(f"the backup is of the schema {schema!r}, but {_shown(url)} "
                            f"uses {current or 'no schema'!r}; restore to a database whose "
                            f"search_path starts with {schema}")
    if holds_data and not force:
        raise CardroomError(f"{_shown(url)} already holds a card room; restore to an empty "
                            "database, or add --force to replace it")
    _pg_tool("pg_restore", url, ["--clean", "--if-exists", "--single-transaction",
                                 "--exit-on-error", "--no-owner", "--no-privileges", str(file)])


def _pg_holds_data(conn: Connection, schema: str) -> bool:
    names = conn.execute(text("SELECT tablename FROM pg_tables WHERE schemaname = :s"),
                         {"s": schema}).scalars().all()
    preparer = conn.dialect.identifier_preparer
    return any(conn.execute(text(
        f"SELECT EXISTS (SELECT 1 FROM {preparer.quote_schema(schema)}."
        f"{preparer.quote(name)})")).scalar_one()
        for name in names if name not in BOOKKEEPING_TABLES)


@contextmanager
def _pg_connection(url: URL) -> Iterator[Connection]:
    """A short-lived connection; an unreachable database is one clear sentence."""
    engine = create_engine(url)
    try:
        try:
            conn = engine.connect()
        except DBAPIError as exc:
            raise unreachable(_shown(url), exc) from None
        with conn:
            yield conn
    finally:
        engine.dispose()


def _pg_tool(name: str, url: URL | None, args: list[str]) -> str:
    """Run a PostgreSQL client tool; the password goes in the environment, not the command
    line that `ps` shows."""
    exe = shutil.which(name)
    if exe is None:
        raise CardroomError(f"{name} is not installed (on Debian: apt-get install "
                            "postgresql-client)")
    env = dict(os.environ)
    command = [exe, *args]
    if url is not None:
        if url.password is not None:
            env["PGPASSWORD"] = str(url.password)
        libpq = url.set(drivername="postgresql", password=None)
        command.append(f"--dbname={libpq.render_as_string(hide_password=False)}")
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise CardroomError(f"{name} failed: {_reason(done.stderr)}")
    return done.stdout


def _reason(stderr: str) -> str:
    """The tool's error line (`pg_restore: error: ...`), else its last line."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    errors = [line.split("error: ", 1)[1] for line in lines if "error: " in line]
    return errors[0] if errors else lines[-1] if lines else "no reason given"


def _shown(url: URL) -> str:
    return safe_name(url.render_as_string(hide_password=False))


# both -----------------------------------------------------------------------------------------
def _create_private(partial: Path) -> None:
    """The backup file, made readable by its owner only before anything is written to it
    (it holds password hashes, every hand and the audit log); the copy fills it in place."""
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _publish(partial: Path, out: Path) -> None:
    """Move a finished backup to its name, synced, so a crash never leaves half a backup
    under the final name."""
    with partial.open("rb") as f:
        os.fsync(f.fileno())
    os.replace(partial, out)
    directory = os.open(out.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
