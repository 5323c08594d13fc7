"""Table leases (issue 25, tables that outlive their process): several `cardroom serve`
processes share one PostgreSQL room, and each table is held by one of them at a time.

A lease (`table_leases`) names its holder (a process: host, pid and a random part, never
reused), a fencing number and when it expires (`LEASE_SECONDS` after the holder's last
heartbeat). A process takes a table whose lease is free or expired (`take`): the fencing
number grows by one, so whatever the old holder still believes, its number is stale. Every
action of a table checks its holder's number inside the action's own transaction (`check`,
an UPDATE that also renews the lease): a process that lost the lease (it stalled past the
expiry and another took over) finds no row to update, its action fails with the plain
`MOVED` sentence and the transaction, rolled back, writes nothing. The check locks the
lease's row until the commit, so a takeover waits for an action in flight and never
interleaves with it. On PostgreSQL an action's check costs no round trip (`guard`): it is
queued with the action's first read and fails the unit, instead of being waited for.

The tables are balanced between the live processes (`spread`, `share`, `receiver`,
`hand_over`): each process beats in `room_processes` whether it holds tables or not, takes
free tables only up to its fair share (the open tables over the live processes, rounded up),
and one holding at least two more than another hands a table, between two hands, straight to
the live process with the fewest (the lease renamed, its fencing number one more: nobody
waits for an expiry).

Times are the processes' wall clocks (UTC): the machines of one room keep their clocks in
step (NTP), as any lease with an expiry needs; a skew shorter than the expiry is harmless.
"""

from __future__ import annotations

import functools
import os
import secrets
import socket
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, select, text, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.elements import TextClause

from cardroom.errors import CardroomError
from cardroom.room.storage.pipeline import deferred
from cardroom.room.storage.schema import room_processes, table_leases

LEASE_SECONDS = 5.0
"""How long a lease outlives its holder's last heartbeat (a stopped process's tables are
taken this long after its last beat, at the next beat of another)."""

HEARTBEAT_SECONDS = 1.0
"""How often a serving process renews its leases and looks for tables nobody holds."""

MOVED = "this table has just moved to another server: please try again"
"""What a player is told when the process they reached no longer holds the table."""


class LeaseLost(CardroomError):
    """The table is held by another process (or this one's lease was taken over): nothing
    was written; the client tries again (and reaches the holder)."""


SHARED_MOVED = "this table's jackpot has just changed at another table: please try again"
"""What a player is told when the shared state kept changing under their action (`guard`)."""


class SharedMoved(CardroomError):
    """What the table shares with tables of other processes (a linked pool) is no longer as
    this process holds it: nothing was written; read it again and apply the action again."""


Shared = tuple[str, dict[str, Any]]
"""A table's shared state as this process holds it (`LiveTable.shared_as_held`): an SQL
condition, true while the books hold the same (its rows locked to the commit when the
action may change them, `LiveTable.changes_shared`), and its parameters."""


def new_holder(address: str | None = None) -> str:
    """A holder id of its own for each process start: host, pid and a random part (a pid
    reused after a restart is still a new holder); with the `address` (host:port) where the
    other processes of the room reach this one, after an `@` (`address_of`)."""
    made = f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(4)}"
    return made if address is None else f"{made}@{address[:45]}"


def address_of(holder: str) -> str | None:
    """Where the process `holder` serves (the `address` of `new_holder`); None: not said."""
    _, at, address = holder.rpartition("@")
    return address if at and address else None


def holder_of(conn: Connection, table_id: int, now: datetime | None = None) -> str | None:
    """The process that holds the table now (its lease not expired); None: nobody."""
    row = conn.execute(select(table_leases.c.holder, table_leases.c.expires_at)
                       .where(table_leases.c.table_id == table_id)).first()
    if row is None or _aware(row.expires_at) <= (now or _now()):
        return None
    return str(row.holder)


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(moment: datetime) -> datetime:
    """A stored time as UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _expiry(now: datetime) -> datetime:
    return now + timedelta(seconds=LEASE_SECONDS)


def take(conn: Connection, table_id: int, holder: str, now: datetime | None = None
         ) -> int | None:
    """Take the table's lease if nobody holds it, its holder stopped beating (expired), or
    `holder` holds it already; the fencing number it is held under now, or None when another
    live process holds it. A takeover adds one to the number."""
    now = now or _now()
    row = conn.execute(select(table_leases).where(table_leases.c.table_id == table_id)
                       .with_for_update()).first()
    if row is None:
        conn.execute(insert(table_leases).values(table_id=table_id, holder=holder, fence=1,
                                                 heartbeat_at=now, expires_at=_expiry(now)))
        return 1
    if row.holder == holder:
        check(conn, table_id, holder, int(row.fence), now)
        return int(row.fence)
    if _aware(row.expires_at) > now:
        return None
    fence = int(row.fence) + 1
    done = conn.execute(update(table_leases).where(
        table_leases.c.table_id == table_id, table_leases.c.fence == row.fence).values(
        holder=holder, fence=fence, heartbeat_at=now, expires_at=_expiry(now)))
    return fence if done.rowcount == 1 else None


def check(conn: Connection, table_id: int, holder: str, fence: int,
          now: datetime | None = None) -> None:
    """Inside an action's transaction: `holder` still holds the table under `fence` (the lease
    renewed, its row locked to the commit); `LeaseLost` otherwise, and the caller's
    transaction rolls back."""
    now = now or _now()
    done = conn.execute(update(table_leases).where(
        table_leases.c.table_id == table_id, table_leases.c.holder == holder,
        table_leases.c.fence == fence).values(heartbeat_at=now, expires_at=_expiry(now)))
    if done.rowcount != 1:
        raise LeaseLost(MOVED)


def guard(conn: Connection, table_id: int, holder: str, fence: int,
          shared: Shared | None = None, now: datetime | None = None) -> None:
    """PostgreSQL, first in an action's unit: `check`, and the table's `shared` state held
    as the books hold it, in one statement queued in the unit's pipeline (`deferred`): it
    goes with the action's first read and costs no round trip. Nothing waits for its answer:
    a lost lease makes the statement itself fail (its `MOVED` text cast to a boolean), a
    changed shared state too (`SHARED_MOVED`), and with it the unit's next read or its
    COMMIT, so nothing of the unit is written; `refusal` turns the error back into
    `LeaseLost` or `SharedMoved`. Like `check` it renews the lease and locks its row (and
    the shared rows, if its condition says so) to the commit."""
    now = now or _now()
    condition, params = shared or ("TRUE", {})
    conn.execute(_guard(condition), {
        "table": table_id, "holder": holder, "fence": fence, "now": now,
        "expires": _expiry(now), "moved": MOVED, "shared_moved": SHARED_MOVED, **params})


@functools.cache
def _guard(shared: str) -> TextClause:
    """The statement of `guard` for one shared condition."""
    return deferred(text(
        "WITH renewed AS (UPDATE table_leases SET heartbeat_at = :now, expires_at = :expires "
        "WHERE table_id = :table AND holder = :holder AND fence = :fence RETURNING table_id) "
        "SELECT CAST(CASE WHEN NOT EXISTS (SELECT 1 FROM renewed) THEN CAST(:moved AS TEXT) "
        f"WHEN NOT ({shared}) THEN CAST(:shared_moved AS TEXT) ELSE 'true' END AS BOOLEAN)"))


def refusal(exc: DBAPIError) -> CardroomError | None:
    """What a unit's database error `exc` means if a `guard` failed it: `LeaseLost` or
    `SharedMoved`; None for any other error."""
    said = str(exc.orig)
    if MOVED in said:
        return LeaseLost(MOVED)
    return SharedMoved(SHARED_MOVED) if SHARED_MOVED in said else None


def renew(conn: Connection, holder: str, fences: dict[int, int],
          now: datetime | None = None) -> set[int]:
    """The heartbeat: every lease `holder` still holds is renewed; returns the tables of
    `fences` it no longer holds under their number (taken over while it stalled). It needs
    no writer lock (`Room.keep_leases`): it writes only rows `holder` holds, and the row
    locks order it with a takeover (`take`) and an action's `guard`, each of which sees the
    other's committed row. A lease whose row a unit of this process has locked is skipped,
    not waited for: that unit's `guard` renews it, and waiting could deadlock with a group
    commit, whose transaction locks several tables' leases in its members' order."""
    now = now or _now()
    free = select(table_leases.c.table_id).where(table_leases.c.holder == holder) \
        .with_for_update(skip_locked=True)
    conn.execute(update(table_leases).where(table_leases.c.table_id.in_(free))
                 .values(heartbeat_at=now, expires_at=_expiry(now)))
    held = {r.table_id: int(r.fence) for r in conn.execute(
        select(table_leases.c.table_id, table_leases.c.fence)
        .where(table_leases.c.holder == holder))}
    return {t for t, fence in fences.items() if held.get(t) != fence}


def release(conn: Connection, holder: str, now: datetime | None = None) -> None:
    """A process stopping in good order lets its leases expire now: another takes its tables
    at its next heartbeat instead of after `LEASE_SECONDS`."""
    conn.execute(update(table_leases).where(table_leases.c.holder == holder)
                 .values(expires_at=now or _now()))


def holders(conn: Connection, now: datetime | None = None) -> dict[int, str]:
    """Every table held now (its lease not expired) and the process that holds it."""
    now = now or _now()
    return {int(r.table_id): str(r.holder) for r in conn.execute(
        select(table_leases.c.table_id, table_leases.c.holder, table_leases.c.expires_at))
        if _aware(r.expires_at) > now}


# balance between the processes (issue 25: a fair share each) ---------------------------------
def beat(conn: Connection, holder: str, now: datetime | None = None) -> None:
    """The heartbeat of the process `holder`: it is alive (its row in `room_processes`
    renewed, or written at its first beat), whether it holds tables or not: it counts in
    every process's share (`alive`) and may be handed tables. Not at its start: a process
    still starting (its heartbeat not yet running) is handed nothing that would wait for it.
    The rows of processes gone (expired) are removed: each start is a new holder."""
    now = now or _now()
    gone = [str(r.holder) for r in conn.execute(select(room_processes))
            if r.holder != holder and _aware(r.expires_at) <= now]
    if gone:
        conn.execute(delete(room_processes).where(room_processes.c.holder.in_(gone)))
    done = conn.execute(update(room_processes).where(room_processes.c.holder == holder)
                        .values(heartbeat_at=now, expires_at=_expiry(now)))
    if done.rowcount != 1:
        conn.execute(insert(room_processes).values(holder=holder, heartbeat_at=now,
                                                   expires_at=_expiry(now)))


def leave(conn: Connection, holder: str, now: datetime | None = None) -> None:
    """A process stopping in good order stops counting in the others' shares now."""
    conn.execute(update(room_processes).where(room_processes.c.holder == holder)
                 .values(expires_at=now or _now()))


def alive(conn: Connection, now: datetime | None = None, lock: bool = False) -> set[str]:
    """The processes of the room whose beat has not expired. `lock`: their rows locked to
    the commit, so that two processes' hand-overs are decided one after the other, each from
    the counts the other left (`hand_over`)."""
    now = now or _now()
    query = select(room_processes.c.holder, room_processes.c.expires_at)
    if lock:
        query = query.order_by(room_processes.c.holder).with_for_update()
    return {str(r.holder) for r in conn.execute(query) if _aware(r.expires_at) > now}


def spread(live: set[str], held: dict[int, str], table_ids: list[int]) -> dict[str, int]:
    """How many of the open tables `table_ids` each live process holds (`held`: `holders`):
    every process of `live` (one holding none: 0) and every holder of a live lease."""
    counts = dict.fromkeys(live, 0)
    wanted = set(table_ids)
    for table_id, holder in held.items():
        if table_id in wanted:
            counts[holder] = counts.get(holder, 0) + 1
    return counts


def share(tables: int, processes: int) -> int:
    """A live process's fair share of the room's open tables: their number over the live
    processes, rounded up (10 tables and 3 processes: 4, so 4/3/3 is balanced)."""
    return -(-tables // max(processes, 1))


def receiver(counts: dict[str, int], holder: str) -> str | None:
    """The live process `holder` hands a table to, from the `spread` of the open tables: the
    one holding the fewest (ties: the first holder id), provided it holds at least two fewer
    than `holder`. Each hand-over then narrows the spread (the sum of the squared counts
    falls), so tables never go back and forth, and it stops when every live process holds
    its fair share: the open tables over the processes, rounded up or down (10 tables and 3
    processes: 4/3/3). None: nothing to hand over."""
    others = [(n, h) for h, n in counts.items() if h != holder]
    if not others:
        return None
    fewest, to = min(others)
    return to if fewest <= counts.get(holder, 0) - 2 else None


def surplus(counts: dict[str, int], holder: str) -> int:
    """How many tables `holder` hands over, one `receiver` after another, from `counts`."""
    after, handed = dict(counts), 0
    while (to := receiver(after, holder)) is not None:
        after[holder] -= 1
        after[to] += 1
        handed += 1
    return handed


def hand_over(conn: Connection, table_id: int, holder: str, fence: int,
              table_ids: list[int], now: datetime | None = None) -> str | None:
    """Between two hands, `holder` hands its table to the `receiver` decided now, under the
    lock of the processes' rows (`alive`): the lease renamed to it, its fencing number one
    more (whatever `holder` still believes is stale), renewed for it, so that it takes the
    table at its next heartbeat or first use without waiting for an expiry and nobody else
    takes it meanwhile. The receiver, or None when the spread no longer calls for it;
    `LeaseLost` when `holder` no longer holds the table under `fence`."""
    now = now or _now()
    counts = spread(alive(conn, now, lock=True), holders(conn, now), table_ids)
    to = receiver(counts, holder)
    if to is None:
        return None
    done = conn.execute(update(table_leases).where(
        table_leases.c.table_id == table_id, table_leases.c.holder == holder,
        table_leases.c.fence == fence).values(
        holder=to, fence=fence + 1, heartbeat_at=now, expires_at=_expiry(now)))
    if done.rowcount != 1:
        raise LeaseLost(MOVED)
    return to
