"""Exponential back-off on named buckets ("login-name:alice", "login-client:10.0.0.7", ...).

A bucket counts attempts. The first `free` go through at once; after that each attempt must wait
a delay that doubles from `first_wait` up to `max_wait` after the one before it, and a quiet spell
of `forget` clears the count. No bucket is ever locked for good, and no single failure locks
anything: guessing slows to a trickle while the person who knows the password still gets in
after a short wait (or at once, from a device they logged in from before).

A log-in attempt is counted *before* the slow work it guards (the argon2 check), inside the
room's write transaction (`Storage.unit`: one writer at a time, an advisory lock on PostgreSQL),
so concurrent attempts cannot all read "not yet throttled" and all go through (`take`).
(No one types a password for a signature: a second person signs on their own session,
`room.approvals`, so there is no signature bucket.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from cardroom.room.storage.schema import throttle

PURGE_AFTER = timedelta(days=2)
"""Rows quiet this long are dropped (longer than any policy's `forget`)."""


@dataclass(frozen=True)
class Backoff:
    free: int
    first_wait: timedelta
    max_wait: timedelta
    forget: timedelta

    def wait(self, count: int) -> timedelta:
        """How long after the last counted attempt the next may come, `count` attempts in."""
        if count < self.free:
            return timedelta(0)
        doubled: timedelta = self.first_wait * 2 ** min(count - self.free, 30)
        return min(doubled, self.max_wait)

    def current(self, count: int, last_at: datetime, now: datetime) -> int:
        """The count still in force (a quiet spell of `forget` clears it)."""
        return 0 if now - last_at >= self.forget else count


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def _state(conn: Connection, buckets: Sequence[tuple[str, Backoff]], now: datetime
           ) -> tuple[dict[str, int], timedelta]:
    """Each bucket's count still in force, and the longest wait left (zero: none)."""
    keys = [key for key, _ in buckets]
    rows = {r.key: r for r in conn.execute(select(throttle).where(throttle.c.key.in_(keys)))}
    counts: dict[str, int] = {}
    wait_left = timedelta(0)
    for key, policy in buckets:
        row = rows.get(key)
        if row is None:
            counts[key] = 0
            continue
        last_at = _aware(row.last_at)
        counts[key] = policy.current(row.attempts, last_at, now)
        wait_left = max(wait_left, last_at + policy.wait(counts[key]) - now)
    return counts, wait_left


def _count(conn: Connection, counts: dict[str, int], now: datetime) -> None:
    for key, n in counts.items():
        if not conn.execute(update(throttle).where(throttle.c.key == key)
                            .values(attempts=n + 1, last_at=now)).rowcount:
            conn.execute(insert(throttle).values(key=key, attempts=1, last_at=now))


def take(conn: Connection, buckets: Sequence[tuple[str, Backoff]], now: datetime
         ) -> timedelta | None:
    """Count one attempt in every bucket, or in none when one of them must still wait: then
    the longest wait left. Call inside `Storage.unit()`."""
    conn.execute(delete(throttle).where(throttle.c.last_at < now - PURGE_AFTER))
    counts, wait_left = _state(conn, buckets, now)
    if wait_left > timedelta(0):
        return wait_left
    _count(conn, counts, now)
    return None


def wait_left(conn: Connection, buckets: Sequence[tuple[str, Backoff]], now: datetime
              ) -> timedelta | None:
    """The longest wait left in these buckets, or None when the next attempt may come now
    (a read: nothing is counted)."""
    wait = _state(conn, buckets, now)[1]
    return wait if wait > timedelta(0) else None


def give_back(conn: Connection, key: str) -> None:
    """Uncount one attempt (it turned out to be a good one)."""
    conn.execute(update(throttle).where(throttle.c.key == key, throttle.c.attempts > 0)
                 .values(attempts=throttle.c.attempts - 1))


def clear(conn: Connection, key: str, *, prefix: bool = False) -> int:
    """Forget a bucket (or every bucket whose key starts with `key`); how many were dropped."""
    where = throttle.c.key.startswith(key, autoescape=True) if prefix else throttle.c.key == key
    return conn.execute(delete(throttle).where(where)).rowcount


def held_until(conn: Connection, key: str, policy: Backoff, now: datetime) -> datetime | None:
    """When the next attempt in this bucket may come, if it is backing off."""
    row = conn.execute(select(throttle).where(throttle.c.key == key)).first()
    return None if row is None else _held(row.attempts, _aware(row.last_at), policy, now)


def _held(attempts: int, last_at: datetime, policy: Backoff, now: datetime) -> datetime | None:
    count = policy.current(attempts, last_at, now)
    return last_at + policy.wait(count) if count >= policy.free else None


def waiting(conn: Connection, prefix: str, policy: Backoff) -> list[tuple[str, datetime]]:
    """The buckets under `prefix` that are backing off: the rest of each key, and when it may
    try again."""
    now = datetime.now(UTC)
    rows = conn.execute(select(throttle).where(throttle.c.key.startswith(prefix, autoescape=True))
                        .order_by(throttle.c.key))
    held = ((row.key[len(prefix):], _held(row.attempts, _aware(row.last_at), policy, now))
            for row in rows)
    return [(rest, until) for rest, until in held if until is not None]
