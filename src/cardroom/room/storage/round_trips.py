"""Counting round trips to PostgreSQL (issue 25): libpq's own trace of the protocol messages
on every connection the engine uses, read back as the times the client sent something and
then read the server's answer. Statements queued in a pipeline and sent together are one round
trip; so is the BEGIN psycopg sends by itself (which no statement count sees). A maintainer's
tool: `tests/room/test_statements_per_action.py` and `bench/bench_round_trips.py` read it."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any

from psycopg import pq
from sqlalchemy import event

from cardroom.room.storage.db import Storage


def round_trips(trace: str) -> int:
    """How many times the client sent messages (F lines) and then read answers (B lines)."""
    trips, sent = 0, False
    for line in trace.splitlines():
        if line.startswith("F"):
            sent = True
        elif line.startswith("B") and sent:
            trips, sent = trips + 1, False
    return trips


@contextmanager
def traced(storage: Storage) -> Iterator[list[int]]:
    """Within the block, libpq traces every PostgreSQL connection a statement is sent on; at
    its end the one-item list holds the round trips counted (empty on SQLite)."""
    counted: list[int] = []
    files: dict[int, tuple[Any, IO[str]]] = {}

    def start(_conn: Any, cursor: Any, *_: Any) -> None:
        raw = cursor.connection
        if id(raw) not in files:
            out = tempfile.TemporaryFile("w+")  # noqa: SIM115 (closed at the block's end)
            raw.pgconn.trace(out.fileno())
            raw.pgconn.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
            files[id(raw)] = (raw, out)

    if not storage.is_postgres:
        yield counted
        return
    event.listen(storage.engine, "before_cursor_execute", start)
    try:
        yield counted
    finally:
        event.remove(storage.engine, "before_cursor_execute", start)
        total = 0
        for raw, out in files.values():
            raw.pgconn.untrace()
            out.seek(0)
            total += round_trips(out.read())
            out.close()
        counted.append(total)
