"""Where the card room keeps its books: SQLite by default, PostgreSQL by URL.

`open_database` builds the engine and brings the schema to the newest Alembic revision, so a
first run creates it and a later version migrates it. `Storage.unit()` is the one way to write:
a transaction under the process's writer turn (and, on PostgreSQL, a transaction-scoped advisory
lock) so that the audit chain and the ledger balances are never written by two writers at once;
units of one chain that wait for the turn join the running unit's transaction when its block
ends, each in its own savepoint, and commit with it (group commit: one flush for many actions,
docs/server.md "Group commit").
On PostgreSQL the unit runs in pipeline mode (`cardroom.room.storage.pipeline`): that lock
and the audit head's read are queued with its first read, its writes that nothing waits for
(the audit entries, written once before the commit by `audit.flush`, among them) go with the
COMMIT: fewer round trips per action (issue 25, docs/server.md "Round trips per action").
`Storage.snapshot()` is the one way to check: every read in it sees the same moment.

A room served by several processes gives each its own audit chain (`Storage.chain`,
`audit.writer_chain`): a unit then takes that chain's lock and head, not the room's, so two
processes never wait for each other's writer lock (only for rows both write, such as a
shared ledger account), and every second or so a process anchors its chain's head on the room
chain (`anchor_due`; its heartbeat anchors a tail no unit followed, `anchor_tail`). One
process writes chain 0, the room chain, as it always did.

When the database goes away (a restart, a switch to its standby), each of them raises
`DatabaseUnavailable` (a plain "try again") instead of the driver's error, and the next one
reconnects by itself (the pool lends no connection whose server spoke while it was idle,
`_still_connected`: a restart's farewell costs no round trip to notice).
"""

from __future__ import annotations

import copy
import logging
import select
import threading
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs
from psycopg.pq import ConnStatus
from sqlalchemy import create_engine, event, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    DisconnectionError,
    InterfaceError,
    OperationalError,
)

from cardroom.errors import CardroomError
from cardroom.room.storage import audit
from cardroom.room.storage.errors import DatabaseUnavailable, StorageError, WriteConflict
from cardroom.room.storage.pipeline import (
    answer_now,
    deferred,
    received,
    send,
    settle,
    transaction,
)

log = logging.getLogger(__name__)

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"
ADVISORY_LOCK_KEY = 0x63617264  # "card"
_WRITER_LOCK = ("SELECT pg_advisory_xact_lock("
                "hashtextextended(coalesce(current_schema(), '') || '/' || %s, %s))")
"""A chain's writer lock, one 64-bit key per room (its schema) and chain: the rooms that share
a database (a head office's, a test server's) never wait for each other's writers, and the
serving guard's two-key locks (`serving.py`) are another key space."""
_HEAD_FOR_UPDATE = "SELECT seq, hash FROM audit_head WHERE id = %s FOR UPDATE"
ANCHOR_EVERY = 1.0
"""Seconds between two anchors of a writer chain's head on the room chain (at most one
anchor a second per process, and only after the chain moved)."""


def default_database_path() -> Path:
    return Path(platformdirs.user_data_dir("cardroom")) / "cardroom.sqlite3"


def database_url(database: str | None) -> str:
    """`None` → the SQLite file under the user data dir; a URL as is; anything else a path."""
    if database is None:
        path = default_database_path()
    elif "://" in database:
        url = make_url(database)
        if url.drivername == "postgresql":
            url = url.set(drivername="postgresql+psycopg")
        return url.render_as_string(hide_password=False)
    else:
        path = Path(database)
    return f"sqlite:///{path}"


SQLITE_PRAGMAS = ("PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
                  "PRAGMA foreign_keys=ON", "PRAGMA busy_timeout=10000")
"""Set on every SQLite connection. `synchronous=FULL` syncs the write-ahead log at every
commit, so a settled hand or a cashier movement that a player was told about survives a power
loss (`NORMAL` in WAL mode survives a crash of the process but may lose the last commits)."""


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    for pragma in SQLITE_PRAGMAS:
        cur.execute(pragma)
    cur.close()


def _postgres_durable(dbapi_conn: Any, _record: Any) -> None:
    """A commit returns only once it is flushed to disk, whatever the server's or database's
    default for `synchronous_commit` says."""
    cur = dbapi_conn.cursor()
    cur.execute("SET synchronous_commit TO on")
    cur.close()
    dbapi_conn.commit()


def _still_connected(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
    """Before the pool lends a connection, without a round trip: an idle connection's
    server says nothing unless it is going (a restart's or a shutdown's last message, a
    closed socket), so one whose socket has something to read, or that is closed, is
    dropped and another lent (SQLAlchemy's `DisconnectionError`). `pool_pre_ping` asked
    the server at every lend: one round trip more for every action."""
    if dbapi_conn.closed or dbapi_conn.pgconn.status != ConnStatus.OK:
        raise DisconnectionError("the connection is closed")
    readable, _, _ = select.select([dbapi_conn.pgconn.socket], [], [], 0)
    if readable:
        raise DisconnectionError("the server spoke to an idle connection: it is going")


POSTGRES_CONNECT = {"connect_timeout": 5, "keepalives": 1, "keepalives_idle": 10,
                    "keepalives_interval": 5, "keepalives_count": 3, "tcp_user_timeout": 15_000}
"""libpq's settings for every connection unless the URL gives its own: a server that is
gone (a machine lost, a leader fenced off in a switch) is given up within seconds, not at
the operating system's TCP time-outs (minutes, with the room's writer lock held)."""


def make_engine(url: str) -> Engine:
    """The engine for `url`, with the durable-commit settings; a SQLite file's folder is
    created here (`database_url` only names it, so a command that must not create anything,
    such as a backup of a missing file, can read the name first)."""
    if url.startswith("sqlite"):
        Path(make_url(url).database or ".").parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    given = make_url(url).query
    engine = create_engine(url, connect_args={
        k: v for k, v in POSTGRES_CONNECT.items() if k not in given})
    event.listen(engine, "connect", _postgres_durable)
    event.listen(engine, "checkout", _still_connected)
    event.listen(engine, "after_cursor_execute", answer_now)
    return engine


class MigrationRefused(StorageError):
    """Alembic cannot bring the books to this program's revision (books of a newer
    version, say): its own sentence."""


def newest_revision() -> str:
    """The revision the migrations end at: the newest file's number (each is named after its
    revision, `NNNN_what.py`, one after another; `tests/room/test_migrations_head.py`
    holds this to alembic's own head)."""
    return max(p.name[:4] for p in (MIGRATIONS / "versions").glob("[0-9][0-9][0-9][0-9]_*.py"))


def stored_revision(engine: Engine) -> str | None:
    """The revision the books at `engine` are at (None: books not made yet)."""
    with engine.connect() as conn:
        if not inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def migrate(engine: Engine) -> None:
    """Create or upgrade the schema to the newest revision. Books already at it need no
    migration, and alembic is then not loaded (reading its scripts was a fifth of the time
    of a command that opens the books)."""
    if stored_revision(engine) == newest_revision():
        return
    from alembic import command  # only where there is something to migrate
    from alembic.config import Config
    from alembic.util import CommandError

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        try:
            command.upgrade(cfg, "head")
        except CommandError as exc:
            raise MigrationRefused(str(exc)) from None


@dataclass
class Storage:
    engine: Engine
    audit_key: bytes | None = None
    """The key the audit chain is MACed with (`cardroom.room.storage.audit_key`); None: unkeyed."""
    chain: int = audit.ROOM_CHAIN
    """The audit chain this process's units write (`audit.writer_chain`); 0: the room's."""
    _gate: threading.Lock = field(default_factory=threading.Lock, repr=False)
    """Guards the writer turn: `_busy` (a unit leads a transaction), `_offer` (a group open
    to one more unit of its chain) and `_waiting` (units waiting, by chain). Who waits for
    what waits on a condition of its own (`_entry`, `_Group.changed`), so that a change
    wakes only a thread it concerns: with every waiter on one condition, each turn woke the
    forty threads of a burst to let one through (issue 25)."""
    _entry: dict[int, threading.Condition] = field(default_factory=dict, repr=False)
    """By chain, what the units waiting for their turn on it wait on (`_enter`)."""
    _busy: bool = field(default=False, repr=False)
    _offer: _Group | None = field(default=None, repr=False)
    _waiting: Counter[int] = field(default_factory=Counter, repr=False)
    _inside: threading.local = field(default_factory=threading.local, repr=False)
    """`unit`: this thread runs a unit's block (a unit in it is a nested one)."""
    _anchored_at: float = field(default=0.0, repr=False)
    _unanchored: set[int] = field(default_factory=set, repr=False)
    """The writer chains a unit moved since their last anchor (`anchor_due`, `anchor_tail`)."""
    _down_since: float | None = field(default=None, repr=False)
    """When the database stopped answering (None: it answers), for the operator's log."""

    def __post_init__(self) -> None:
        if self.audit_key is not None:
            audit.use_key(self.engine, self.audit_key)

    @property
    def is_postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    @contextmanager
    def unit(self, chain: int | None = None) -> Generator[Connection, None, None]:
        """One write transaction: all or nothing, one writer at a time on its audit chain
        (`chain`, else this storage's). The work its body
        left for after the commit (`after_commit`) runs once it has committed, outside it.
        The audit entries of the unit are written once, before the commit (`audit.flush`).
        On PostgreSQL the unit runs in pipeline mode (`pipeline.transaction`): a statement marked
        `deferred` is sent without waiting for its answer, with the next statement that is
        waited for or with the COMMIT.
        Group commit: units of the same chain that wait while one runs join its transaction
        when its block ends, one after another, each in its own savepoint (`_follow`), and
        all commit at once; each returns after that commit. A unit inside a unit (in the same
        thread) never joins: its own transaction, as always.
        The database gone: `DatabaseUnavailable` (`unknown` when it went at the commit)."""
        chain = self.chain if chain is None else chain
        if getattr(self._inside, "unit", False):
            later = yield from self._transaction(chain, None)
        else:
            joined = self._enter(chain)
            self._inside.unit = True
            try:
                later = yield from (self._transaction(chain, self._group(chain)) if joined is None
                                    else self._follow(joined))
            finally:
                self._inside.unit = False
        if chain != audit.ROOM_CHAIN and later.moved:
            self.anchor_due(chain)
        for work in later.work:
            try:
                work(self)
            except Exception:  # the committed work stands whatever happens after it
                log.exception("work after a commit failed; the commit stands")

    def waiting(self) -> int:
        """How many units wait for their writer turn now (those of the chain of the unit
        running join its transaction when its block ends, `unit`)."""
        with self._gate:
            return sum(self._waiting.values())

    def _transaction(self, chain: int, group: _Group | None
                     ) -> Generator[Connection, None, _After]:
        """A unit's own transaction up to its commit; with a `group`, the units that join it
        (`_gather`) commit with it, and hear how it ended (`_release`)."""
        committing = False
        try:
            try:
                with self.engine.connect() as conn, transaction(conn) as commit:
                    later = yield from self._body(conn, chain, group)
                    committing = True
                    commit()
            except DBAPIError as exc:
                failure = self._failure(exc, committing)
                if failure is exc:
                    raise
                raise failure from exc
        except BaseException as exc:
            if group is not None:
                group.failure = exc
            raise
        finally:
            if group is not None:
                self._release(group)
        self.answers()
        return later

    def _body(self, conn: Connection, chain: int, group: _Group | None
              ) -> Generator[Connection, None, _After]:
        """The unit's work on `conn` up to its commit: the writer lock, the caller's block,
        the units that join it, the audit entries written; the work left for after the
        commit."""
        conn.info.pop(AFTER_COMMIT, None)
        conn.info[UNIT_MEMO] = {}
        try:
            audit.begin_unit(conn, self._lock_writer(conn, chain), chain)
            yield conn
            work = conn.info.pop(AFTER_COMMIT, [])
            if group is not None:
                self._gather(group, conn)
            moved = audit.appended(conn)
            audit.flush(conn)
        finally:
            if not conn.invalidated:  # a connection lost mid-unit took its info along
                audit.end_unit(conn)
                conn.info.pop(UNIT_MEMO, None)
        return _After(work, moved)

    def _group(self, chain: int) -> _Group:
        return _Group(chain, threading.Condition(self._gate))

    def _enter(self, chain: int) -> _Group | None:
        """Wait for this storage's writer turn: None, this unit leads a transaction of its
        own; or the group of a unit of the same `chain` whose block ended, to join."""
        with self._gate:
            self._waiting[chain] += 1
            try:
                while True:
                    offered = self._offer
                    if offered is not None and offered.chain == chain:
                        self._offer, offered.turn = None, True
                        offered.joined += 1
                        return offered
                    if not self._busy:
                        self._busy = True
                        return None
                    if chain not in self._entry:
                        self._entry[chain] = threading.Condition(self._gate)
                    self._entry[chain].wait()
            finally:
                self._waiting[chain] -= 1

    def _gather(self, group: _Group, conn: Connection) -> None:
        """Hand the open transaction on `conn` to the units of its chain waiting, one at a
        time (each hands it on to the next, `_offer_to`), until none waits or the group is
        full (`GROUP_LIMIT`). Before the first, the leader's queued statements are answered
        (an error of one of them is the leader's alone, nobody has joined yet), and on SQLite
        the transaction is begun explicitly (the driver begins one only at a first write,
        and a savepoint outside one would commit at its release)."""
        group.conn = conn
        with self._gate:
            if not self._waiting[group.chain]:
                return
        settle(conn)
        raw = conn.connection.driver_connection
        if not self.is_postgres and not getattr(raw, "in_transaction", True):
            conn.exec_driver_sql("BEGIN")
        with self._gate:
            while self._offer_to(group):
                while self._offer is group or group.turn:
                    group.changed.wait()
        if group.broken is not None:
            raise _again(group.broken)

    def _follow(self, group: _Group) -> Generator[Connection, None, _After]:
        """A unit that joined `group`: its block runs on the group's connection in a
        savepoint of its own, whose release is waited for (its queued statements answered:
        their error is its own). Failed, it is rolled back to that savepoint (its rows, its
        audit entries, its work for after the commit, the unit memo) and raises at once; the
        others go on. Otherwise it returns once the group committed, or raises as the
        group's commit failed."""
        conn = group.conn
        assert conn is not None
        conn.info[UNIT_MEMO] = {}  # what the units before it learnt is theirs
        marked = audit.mark(conn)
        try:
            conn.execute(_SAVEPOINT)
            yield conn
            work = conn.info.pop(AFTER_COMMIT, [])
            conn.execute(_RELEASE)
        except BaseException as exc:
            self._undo(group, marked, exc)
            if isinstance(exc, DBAPIError) and (failure := self._failure(exc, False)) is not exc:
                raise failure from exc
            raise
        finally:
            with self._gate:
                group.turn = False
                if not self._offer_to(group):  # (else the next member goes on at once)
                    group.changed.notify_all()
        with self._gate:
            while not group.done:
                group.changed.wait()
        if group.failure is not None:
            raise _again(group.failure) from group.failure
        return _After(work, moved=False)  # (the leader anchors the chain, once a group)

    def _offer_to(self, group: _Group) -> bool:
        """Under `_gate`: offer `group` to the next unit of its chain that waits, if any,
        the group is not full and not broken (a member hands it on directly, so that a
        member's turn costs one hand-over between threads, not two)."""
        if group.broken is not None or group.joined + 1 >= GROUP_LIMIT \
                or not self._waiting[group.chain]:
            return False
        self._offer = group
        self._entry[group.chain].notify()  # (one: a second finds it taken, and waits again)
        return True

    @staticmethod
    def _undo(group: _Group, marked: audit.Mark, exc: BaseException) -> None:
        """Roll a failed member of `group` back to its savepoint; if that cannot be done (the
        connection lost), the whole group fails (`broken`)."""
        conn = group.conn
        assert conn is not None
        failed = exc
        for _ in range(2):  # the first meets the error of a statement it queued, if any
            if conn.invalidated:  # (its info went with it)
                break
            try:
                conn.execute(_ROLLBACK_TO)
            except DBAPIError as again:
                failed = again
                continue
            conn.info.pop(AFTER_COMMIT, None)
            conn.info[UNIT_MEMO] = {}
            audit.rewind(conn, marked)
            return
        group.broken = failed

    def _release(self, group: _Group) -> None:
        """The group's transaction ended (`failure`: how it failed): its members return, and
        the writer turn passes to the next unit waiting."""
        with self._gate:
            group.done = True
            self._busy = False
            group.changed.notify_all()
            for chain, waiting in self._waiting.items():  # the next turn, for one of each chain
                if waiting:
                    self._entry[chain].notify()

    def _failure(self, exc: DBAPIError, committing: bool) -> BaseException:
        """What a unit raises for the database's `exc`: `DatabaseUnavailable` (`went_away`),
        `ChainBroken` if the audit head moved, `WriteConflict` if the database ended a
        deadlock with it (a group commit's members lock rows in their own order, and two
        processes' groups may meet on rows their tables share), else `exc` itself."""
        try:
            self.went_away(exc, committing)
        except DatabaseUnavailable as unavailable:
            return unavailable
        if audit.HEAD_MOVED in str(exc.orig):
            return audit.ChainBroken(audit.HEAD_MOVED)
        if _sqlstate(exc) in CONFLICTS:
            return WriteConflict()
        return exc

    def write_as(self, writer: str) -> int:
        """Write from now on on the chain of `writer` (a process of a room served by several,
        named by its stable address: `audit.writer_chain`), opened on the room chain the
        first time. Returns its id."""
        with self.unit(audit.ROOM_CHAIN) as conn:
            chain = audit.writer_chain(conn, writer)
        self.chain = chain
        return chain

    def anchor_due(self, chain: int) -> None:
        """Anchor writer chain `chain`'s head on the room chain if the last anchor is older
        than `ANCHOR_EVERY` (a unit of the room chain after a unit of the writer chain
        committed: it can no longer fail that one; its own failure is logged); else the
        chain is kept as moved, for the next unit or the heartbeat (`anchor_tail`)."""
        self._unanchored.add(chain)
        if time.monotonic() - self._anchored_at < ANCHOR_EVERY:
            return
        self._anchored_at = time.monotonic()
        self._unanchored.discard(chain)
        try:
            with self.unit(audit.ROOM_CHAIN) as conn:
                audit.anchor(conn, chain)
        except (DBAPIError, CardroomError):
            log.exception("anchoring writer chain %s on the room chain failed; the next "
                          "unit or heartbeat tries again", chain)
            self._unanchored.add(chain)
            self._anchored_at = 0.0

    def anchor_tail(self, at_once: bool = False) -> None:
        """The heartbeat's part (`Room.keep_leases`): anchor each writer chain a unit moved
        since its last anchor, once `ANCHOR_EVERY` has passed (`at_once`: now, as a process
        stopping in good order does), so that the tail written after that anchor is
        anchored within a beat or two of the last unit even when no unit follows (an idle
        process). Nothing when no chain moved: an idle process writes no anchor."""
        if at_once:
            self._anchored_at = 0.0
        for chain in sorted(self._unanchored.copy()):
            self.anchor_due(chain)

    def _lock_writer(self, conn: Connection, chain: int) -> audit.LazyHead | None:
        """On PostgreSQL, take the writer lock of the unit's chain (the room's, or this
        process's chain's) and read its audit head (locked `FOR
        UPDATE`, its newest committed version even when the lock was waited for), both queued
        in the unit's pipeline: they go with its first statement that is waited for, and the
        head's answer is read at the unit's first append (`audit.begin_unit`), so the lock
        costs no round trip of its own. Sent on the driver's cursor (SQLAlchemy would wait
        for the rows). SQLite, whose process lock is the writer lock: nothing (the first
        append reads the head)."""
        if not self.is_postgres:
            return None
        send(conn, _WRITER_LOCK, (str(chain), ADVISORY_LOCK_KEY))
        head = send(conn, _HEAD_FOR_UPDATE, (audit.head_id(chain),))

        def read() -> audit.Head:
            row = received(conn, _HEAD_FOR_UPDATE, head.fetchone)
            return None if row is None else (int(row[0]), str(row[1]))
        return read

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A connection for reading. Its transaction ends with a COMMIT, not the ROLLBACK of
        SQLAlchemy's close: at a ROLLBACK psycopg forgets every statement it prepared on the
        connection, and the pages' reads share the pool with the actions, whose statements
        PostgreSQL then planned again (docs/server.md, "A read ends with COMMIT")."""
        try:
            with self.engine.connect() as conn:
                yield conn
                conn.commit()
        except DBAPIError as exc:
            self.went_away(exc)
            raise

    @contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """One read-only transaction whose every statement sees the same committed state, so
        that a check reading several tables never mistakes a write in between for tampering:
        REPEATABLE READ on PostgreSQL; on SQLite (WAL) an explicit BEGIN, whose snapshot is
        taken at the first read and kept until the end."""
        try:
            with self.engine.connect() as conn:
                if self.is_postgres:
                    conn = conn.execution_options(isolation_level="REPEATABLE READ",
                                                  postgresql_readonly=True)
                    with conn.begin():
                        yield conn
                    return
                conn.exec_driver_sql("BEGIN")
                try:
                    yield conn
                finally:
                    conn.rollback()
        except DBAPIError as exc:
            self.went_away(exc)
            raise

    def went_away(self, exc: DBAPIError, unknown: bool = False) -> None:
        """Raise `DatabaseUnavailable` if `exc` says the database is gone or cannot take
        writes now (`gone`), logged once per outage; any other error is left to raise."""
        if not gone(exc):
            return
        if self._down_since is None:
            self._down_since = time.monotonic()
            log.warning("the database does not answer (%s): actions are refused with "
                        "\"try again\" until it does", _first_line(exc))
        raise DatabaseUnavailable(unknown) from exc

    def answers(self) -> None:
        """A transaction committed: if the database had gone away, say it is back."""
        if self._down_since is not None:
            log.warning("the database answers again after %.1f s",
                        time.monotonic() - self._down_since)
            self._down_since = None


def gone(exc: DBAPIError) -> bool:
    """Whether a database error means the server went away or cannot take writes now: the
    connection lost or refused, the server shutting down, starting up or cancelling
    (PostgreSQL's SQLSTATE classes 08 and 57, and a connection that failed before any), or
    a standby that is read-only (25006: a switch under way). The transaction rolled back
    and the same request may be sent again. A constraint, a defect, or any error of a
    SQLite file (its own busy wait covers a writer) is not."""
    if exc.connection_invalidated:
        return True
    if not type(exc.orig).__module__.startswith("psycopg"):
        return False
    state = _sqlstate(exc)
    return state == "25006" or state[:2] in ("08", "57") or \
        (not state and isinstance(exc, OperationalError | InterfaceError))


def _sqlstate(exc: DBAPIError) -> str:
    """PostgreSQL's SQLSTATE of the driver's error ("" where it gives none)."""
    return str(getattr(exc.orig, "sqlstate", None) or "")


def _first_line(exc: DBAPIError) -> str:
    lines = str(exc.orig or exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__

CONFLICTS = ("40P01", "40001")
"""PostgreSQL's deadlock_detected and serialization_failure: the transaction rolled back, and
the same work done again may go through (`WriteConflict`)."""
GROUP_LIMIT = 32
"""The most units one group commit holds, its leader included: a flood of units of one chain
still commits every 32."""
_SAVEPOINT = deferred(text("SAVEPOINT cardroom_member"))
_RELEASE = text("RELEASE SAVEPOINT cardroom_member")
"""Waited for: its answer says whether the member's queued statements went in."""
_ROLLBACK_TO = text("ROLLBACK TO SAVEPOINT cardroom_member")


@dataclass(eq=False)
class _Group:
    """A transaction its leader hands to the units of its `chain` that wait (`Storage._gather`):
    how many `joined`, `turn` while one runs its block, `broken` when
    one could not be rolled back (the group then fails whole), and once it ended, `done`,
    with `failure` (None: committed)."""
    chain: int
    changed: threading.Condition
    """Under the storage's gate: what its leader waits on for a member's turn to end, and
    its members for its end (`done`)."""
    conn: Connection | None = None
    joined: int = 0
    turn: bool = False
    broken: BaseException | None = None
    done: bool = False
    failure: BaseException | None = None


def _again(exc: BaseException) -> BaseException:
    """A group's failure as one more of its members raises it: an exception of its own (one
    object is never raised in two threads)."""
    if isinstance(exc, DatabaseUnavailable):
        return DatabaseUnavailable(exc.unknown)
    return copy.copy(exc)


@dataclass(frozen=True)
class _After:
    """What a unit leaves for after its commit: the work (`after_commit`), and whether it
    moved its chain's head (a writer chain's is then anchored, `Storage.anchor_due`)."""
    work: list[Callable[[Storage], object]]
    moved: bool


AFTER_COMMIT = "cardroom.after_commit"
UNIT_MEMO = "cardroom.unit_memo"


def unit_memo(conn: Connection) -> dict[str, Any] | None:
    """What the write unit `conn` belongs to has learnt so far and may reuse until it ends
    (under the writer lock nobody else changes it meanwhile); None outside a unit."""
    memo: dict[str, Any] | None = conn.info.get(UNIT_MEMO)
    return memo


def after_commit(conn: Connection, work: Callable[[Storage], object]) -> None:
    """Run `work` with the storage once the unit `conn` belongs to has committed: outside
    that transaction, so it can neither slow nor fail it (an error is logged, never raised);
    if the unit rolls back, never. (The suspicious-activity alerts after a currency
    transaction, 31 CFR 1021.320.)"""
    conn.info.setdefault(AFTER_COMMIT, []).append(work)


def open_database(database: str | None, audit_key: bytes | None = None) -> Storage:
    """The books at `database`, migrated; a `StorageError` saying why if they cannot be opened
    (a malformed URL, an unreachable server, a file that cannot be created or read)."""
    shown = database or str(default_database_path())
    try:
        engine = make_engine(database_url(database))
        migrate(engine)
    except (ArgumentError, ValueError) as exc:
        raise not_an_address(shown, exc) from None
    except MigrationRefused as exc:  # e.g. books of a newer version than this program
        raise StorageError(f"cannot migrate the database {safe_name(shown)}: {exc}") from None
    except (DBAPIError, OSError) as exc:
        raise unreachable(shown, exc) from None
    return Storage(engine, audit_key)


def not_an_address(database: str, exc: Exception) -> StorageError:
    """The one sentence for a `--database` that is neither a path nor a URL we can read."""
    return StorageError(f"{safe_name(database)} is not a database path or URL: {exc}")


def unreachable(database: str, exc: Exception) -> StorageError:
    """The one sentence for books that cannot be opened: where (no password) and the driver's
    first line of why."""
    reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return StorageError(f"cannot open the database {safe_name(database)}: "
                        f"{reason[0] if reason else type(exc).__name__}")


def safe_name(database: str) -> str:
    """A database URL without its password, for a message."""
    if "://" not in database:
        return database
    try:
        return make_url(database).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return "the given URL"
