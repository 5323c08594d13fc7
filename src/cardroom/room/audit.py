"""An append-only audit log, hash-chained: each entry's hash covers its content and the hash
before it, and a head row records the last entry, so a changed, inserted, reordered or deleted
entry (even the last one) breaks `verify`."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from cardroom.room.schema import audit_head, audit_log

GENESIS = "0" * 64


def canonical(detail: dict[str, Any]) -> str:
    return json.dumps(detail, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def entry_hash(seq: int, at: str, actor: str, action: str, detail: str, prev: str) -> str:
    body = json.dumps([seq, at, actor, action, detail, prev], separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


@dataclass(frozen=True)
class AuditEntry:
    seq: int
    at: str
    actor: str
    action: str
    detail: str
    prev_hash: str
    hash: str

    @property
    def data(self) -> dict[str, Any]:
        value: dict[str, Any] = json.loads(self.detail)
        return value


def append(conn: Connection, actor: str, action: str, detail: dict[str, Any]) -> AuditEntry:
    """Append one entry. Call inside `Storage.unit()` so that appends are serialised."""
    head = conn.execute(select(audit_head.c.seq, audit_head.c.hash)
                        .where(audit_head.c.id == 1).with_for_update()).first()
    seq, prev = (head.seq + 1, head.hash) if head else (1, GENESIS)
    at = datetime.now(UTC).isoformat(timespec="microseconds")
    body = canonical(detail)
    digest = entry_hash(seq, at, actor[:40], action[:60], body, prev)
    entry = AuditEntry(seq, at, actor[:40], action[:60], body, prev, digest)
    conn.execute(insert(audit_log).values(seq=seq, at=at, actor=entry.actor,
                                          action=entry.action, detail=body, prev_hash=prev,
                                          hash=digest))
    if head:
        conn.execute(update(audit_head).where(audit_head.c.id == 1)
                     .values(seq=seq, hash=digest))
    else:
        conn.execute(insert(audit_head).values(id=1, seq=seq, hash=digest))
    return entry


def entries(conn: Connection, after: int = 0, limit: int | None = None,
            newest_first: bool = False) -> Iterator[AuditEntry]:
    q = select(audit_log).where(audit_log.c.seq > after)
    q = q.order_by(audit_log.c.seq.desc() if newest_first else audit_log.c.seq)
    if limit is not None:
        q = q.limit(limit)
    for r in conn.execute(q):
        yield AuditEntry(r.seq, r.at, r.actor, r.action, r.detail, r.prev_hash, r.hash)


@dataclass(frozen=True)
class Verification:
    entries: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(conn: Connection) -> Verification:
    problems: list[str] = []
    prev, expected, count = GENESIS, 1, 0
    for e in entries(conn):
        count += 1
        if e.seq != expected:
            problems.append(f"entry {expected} is missing (next is {e.seq})")
        if e.prev_hash != prev:
            problems.append(f"entry {e.seq} does not link to the entry before it")
        if entry_hash(e.seq, e.at, e.actor, e.action, e.detail, e.prev_hash) != e.hash:
            problems.append(f"entry {e.seq} was altered: its hash does not match its content")
        prev, expected = e.hash, e.seq + 1
    head = conn.execute(select(audit_head.c.seq, audit_head.c.hash)
                        .where(audit_head.c.id == 1)).first()
    if head is None:
        if count:
            problems.append("the head record is missing")
    elif head.seq != expected - 1 or head.hash != prev:
        problems.append(f"the log ends at entry {expected - 1} but the head records entry "
                        f"{head.seq}: entries were deleted or the head was altered")
    return Verification(count, tuple(problems))
