"""Fewer round trips to PostgreSQL (issue 25): a write unit runs in psycopg's pipeline mode.

In pipeline mode the driver sends a statement without waiting for its answer. A statement
whose answer its caller never reads (no rows, no row count) is marked `deferred` and only
queued; any other is sent with the statements queued before it and waited for at once
(`answer_now`, one round trip), so that its caller reads its rows as on any connection. The
last deferred writes go with the COMMIT: one round trip. A deferred statement's error fails
the unit at the next wait (nothing of the unit is committed); its text is the database's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import psycopg
from psycopg.pq import TransactionStatus
from sqlalchemy import Select, TextClause, text
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.engine.interfaces import Compiled
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement
from sqlalchemy.sql.expression import Executable

PIPELINE = "cardroom.pipeline"
DEFERRED = "cardroom_deferred"
Statement = TypeVar("Statement", bound=Executable)
Answer = TypeVar("Answer")


def deferred(statement: Statement) -> Statement:
    """`statement` marked as one whose answer (rows, row count) its caller never reads: in a
    unit on PostgreSQL it is queued in the pipeline and sent with the next statement whose
    answer is waited for, or with the COMMIT, instead of being a round trip of its own. Its
    error, if any, fails the unit there (nothing of it is committed). Elsewhere it runs as
    any statement."""
    return statement.execution_options(**{DEFERRED: True})


_BEGIN = text("BEGIN").execution_options(**{DEFERRED: True})
COMMIT = text("COMMIT").execution_options(**{DEFERRED: True})


@contextmanager
def transaction(conn: Connection) -> Iterator[Callable[[], None]]:
    """A write unit's transaction on `conn`; the block ends by calling the `commit` it is
    given (without it, or on an error, the transaction rolls back).

    On PostgreSQL it runs in psycopg's pipeline mode: a `deferred` statement is queued; any
    other is sent with those queued before it and waited for at once (`answer_now`), so its
    caller reads its rows as usual. The driver is put in autocommit for the unit so that it
    sends no BEGIN of its own (a round trip apart): the unit's BEGIN is queued and goes with
    its first read, its COMMIT goes with its last writes when the pipeline ends. An action
    whose reads are the writer lock's alone is then two round trips."""
    if conn.dialect.name != "postgresql":
        with conn.begin():  # committed (or rolled back) at its end
            yield _nothing
        return
    raw = conn.connection.driver_connection
    assert raw is not None
    raw.autocommit = True
    try:
        with conn.begin(), _as_sqlalchemy_error(conn), raw.pipeline() as pipeline:
            conn.info[PIPELINE] = pipeline
            try:
                on_driver(conn, _BEGIN, {})
                yield functools.partial(_queue_commit, conn)
            finally:
                if not conn.invalidated:  # (its info went with it)
                    conn.info.pop(PIPELINE, None)
        # (SQLAlchemy's commit at the end found the driver's transaction over: no round trip)
    finally:
        if not raw.closed and raw.info.transaction_status == TransactionStatus.IDLE:
            raw.autocommit = False
        elif not conn.invalidated:  # in a transaction still: never lent again in autocommit
            conn.invalidate()


def settle(conn: Connection) -> None:
    """Wait now for the answers of every statement queued in the unit on `conn` (one round
    trip): an error of one of them is raised here, as SQLAlchemy raises a statement's, and
    not at a later statement that is not its own (a group commit hands the transaction to
    another unit only once the units before it are answered, `Storage.unit`). Nothing
    outside a PostgreSQL unit."""
    pipeline = conn.info.get(PIPELINE)
    if pipeline is None:
        return
    try:
        pipeline.sync()
    except psycopg.Error as exc:
        raise driver_error(conn, exc, "SYNC") from exc


def _nothing() -> None:
    """SQLite's unit commits when its transaction's block ends."""


def _queue_commit(conn: Connection) -> None:
    """The unit's COMMIT, queued: sent with its last writes when the pipeline ends."""
    on_driver(conn, COMMIT, {})


@contextmanager
def _as_sqlalchemy_error(conn: Connection) -> Iterator[None]:
    """The driver's error when the pipeline ends (a deferred statement's, the COMMIT's, or the
    connection lost there) raised as SQLAlchemy raises it for a statement, the connection
    invalidated if it is lost: the unit then tells "try again" from a defect as for any
    statement (`db.gone`)."""
    try:
        yield
    except psycopg.Error as exc:
        raise driver_error(conn, exc, "COMMIT") from exc


def driver_error(conn: Connection, exc: Exception, statement: str) -> DBAPIError:
    """The driver's `exc`, met outside SQLAlchemy's own calls, as SQLAlchemy would raise it
    for `statement` (an `IntegrityError` for a constraint, and so on); `conn` invalidated if
    the connection is lost (so that it is never lent again, and the unit answers "try
    again")."""
    lost = conn.dialect.is_disconnect(exc, None, None)  # type: ignore[arg-type]
    if lost and not conn.invalidated:
        conn.invalidate(exc)
    error = DBAPIError.instance(statement, None, exc, conn.dialect.loaded_dbapi.Error,
                                connection_invalidated=lost)
    assert isinstance(error, DBAPIError)  # (a driver's error always is)
    return error


def send(conn: Connection, sql: str, params: Any) -> Any:
    """`sql` sent on a new cursor of the driver's connection under `conn` (in a unit's
    pipeline: queued, its rows read later from the cursor returned, `received`)."""
    raw = conn.connection.driver_connection
    assert raw is not None
    cursor = raw.cursor()
    received(conn, sql, functools.partial(cursor.execute, sql, params))
    return cursor


def received(conn: Connection, sql: str, driver_call: Callable[[], Answer]) -> Answer:
    """What `driver_call` (a call of the driver's for `sql`, outside SQLAlchemy's own
    calls) answers; its error (sending or reading may meet the connection lost) raised as
    SQLAlchemy raises a statement's (`driver_error`), in a unit that joined a group as in
    one of its own."""
    try:
        return driver_call()
    except conn.dialect.loaded_dbapi.Error as exc:
        raise driver_error(conn, exc, sql) from exc


Params = dict[str, Any] | list[dict[str, Any]]
"""A statement's values by name; a list: the statement once for each (`executemany`)."""


def on_driver(conn: Connection, statement: Executable, params: Params) -> Any:
    """`statement` (built once, with bound parameters) run on the driver's cursor, which it
    returns for its rows (plain tuples) or its row count: SQLAlchemy's execution path cost
    an action about as much as everything else it does (issue 25: five times the driver's
    own time for a statement on SQLite). SQLAlchemy still compiles the statement (once per
    dialect, `_for_driver`) and converts its values; `before_cursor_execute` listeners hear
    it as they hear any statement; an error is raised as SQLAlchemy raises one. In a unit's
    pipeline on PostgreSQL it is waited for at once unless it is `deferred` (queued, as by
    `answer_now`). Only for statements whose rows need no conversion by SQLAlchemy (numbers,
    text, booleans) and whose values have no default worked out in Python."""
    cursor, driver = _sent(conn, statement, params)
    pipeline = conn.info.get(PIPELINE)
    if pipeline is not None and not driver.deferred:
        received(conn, driver.sql, pipeline.sync)
    return cursor


def _sent(conn: Connection, statement: Executable, params: Params) -> tuple[Any, _Driver]:
    """`statement` sent on a new driver cursor (in a pipeline: queued), and how."""
    driver = _for_driver(statement, conn.dialect)
    many = isinstance(params, list)
    values = [driver.values(p) for p in params] if isinstance(params, list) \
        else driver.values(params)
    if not conn.in_transaction():  # (as SQLAlchemy's own execute begins one: its commit ends it)
        conn.begin()
    raw = conn.connection.driver_connection
    assert raw is not None
    cursor = raw.cursor()
    for listener in conn.dispatch.before_cursor_execute:
        listener(conn, cursor, driver.sql, values, None, many)
    call = cursor.executemany if many else cursor.execute
    received(conn, driver.sql, functools.partial(call, driver.sql, values))
    return cursor, driver


@dataclass(frozen=True)
class _Driver:
    """A statement as the driver takes it: its text for the dialect, and how a call's values
    become the driver's parameters (`values`)."""
    sql: str
    compiled: Compiled
    processors: tuple[tuple[str, Callable[[Any], Any]], ...]
    """SQLAlchemy's conversion of a value for the driver, by parameter (a date to SQLite's
    text, say)."""
    positions: tuple[str, ...] | None
    """The parameters' order for a driver that takes them by position (SQLite); None: by
    name (psycopg)."""
    deferred: bool

    def values(self, params: dict[str, Any]) -> Any:
        named = self.compiled.construct_params(params)
        assert named is not None
        for name, convert in self.processors:
            named[name] = convert(named[name])
        return named if self.positions is None else tuple(named[n] for n in self.positions)


@functools.lru_cache(maxsize=128)
def _for_driver(statement: Executable, dialect: Dialect) -> _Driver:
    """`statement` compiled for `dialect` once (SQLAlchemy's own cache serves `execute`
    only). A statement with an expanding IN, or a value worked out in Python (a column's
    Python default), is refused: its parameters change from call to call."""
    assert isinstance(statement, ClauseElement)
    compiled = statement.compile(dialect=dialect)
    assert isinstance(compiled, SQLCompiler)
    if any(b.expanding for b in compiled.binds.values()) or compiled.insert_prefetch \
            or compiled.update_prefetch:
        raise ValueError(f"not a statement for the driver's cursor: {compiled}")
    processors = tuple(
        (name, convert) for name, bind in compiled.binds.items()
        if (convert := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None)
    positions = tuple(compiled.positiontup or ()) if dialect.positional else None
    return _Driver(str(compiled), compiled, processors, positions,
                   bool(statement.get_execution_options().get(DEFERRED)))


def answer_now(conn: Connection, _cursor: Any, _statement: str, _params: Any,
               context: Any, _many: bool) -> None:
    """After a statement is sent in a pipeline: unless it is `deferred`, wait for its answer
    (and those of the statements queued before it) now, one round trip. A Core INSERT whose
    new key SQLAlchemy fetches by itself (implicit RETURNING) is waited for even if marked."""
    pipeline = conn.info.get(PIPELINE)
    if pipeline is not None and (not context.execution_options.get(DEFERRED)
                                 or getattr(context, "_is_implicit_returning", False)):
        pipeline.sync()  # (SQLAlchemy reads a Core INSERT's new key at once: not deferred)


_GENERIC_PLAN = deferred(text("SET LOCAL plan_cache_mode TO force_generic_plan"))
_PLAN_AS_BEFORE = deferred(text("SET LOCAL plan_cache_mode TO DEFAULT"))


def ahead(conn: Connection, statement: Select[Any] | TextClause, params: dict[str, Any],
          planned_once: bool = False) -> Callable[[], list[tuple[Any, ...]]]:
    """A read sent now whose rows its caller needs only later: in a unit on PostgreSQL it is
    queued in the pipeline (on the driver's cursor, `on_driver`, as the writer lock's head read
    is) and goes with the next statement that is waited for, so it costs no round trip of
    its own; calling what this returns reads its rows (waiting for them only if nothing was
    sent since). Elsewhere it runs at once. The rows are those of the moment it is sent: for
    rows the unit does not write after.

    `planned_once`: on PostgreSQL, once psycopg has prepared the statement (its sixth run on
    the connection) it keeps one generic plan (`plan_cache_mode`, set for it alone and set
    back after it, queued with it). For a statement whose plan costs far more than its run
    and which PostgreSQL's own choice would plan again at every run: with an array parameter
    it costs the generic plan for ten elements, dearer than a plan for the few at hand, so
    it never keeps it (docs/server.md, "The exclusion check planned once"). Not for every
    statement: the generic plan of the ledger's accounts by name (`= ANY`) is a sequential
    scan of the accounts."""
    plan_kept = planned_once and conn.dialect.name == "postgresql"
    if plan_kept:  # (deferred: queued in a unit's pipeline, run at once elsewhere)
        on_driver(conn, _GENERIC_PLAN, {})
    rows = _read_ahead(conn, statement, params)
    if plan_kept:
        on_driver(conn, _PLAN_AS_BEFORE, {})
    return rows


def _read_ahead(conn: Connection, statement: Select[Any] | TextClause, params: dict[str, Any]
                ) -> Callable[[], list[tuple[Any, ...]]]:
    """`ahead`'s read: queued in a unit's pipeline, run at once elsewhere."""
    if conn.info.get(PIPELINE) is None:
        found = [tuple(row) for row in conn.execute(statement, params)]
        return lambda: found
    cursor, driver = _sent(conn, statement, params)
    return lambda: list(received(conn, driver.sql, cursor.fetchall))
