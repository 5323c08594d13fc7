"""An append-only audit log, hash-chained: each entry's hash covers its content and the hash
before it, and a head row records the last entry, so a changed, inserted, reordered or deleted
entry (even the last one) breaks `verify`."""

from __future__ import annotations

import hashlib
import json
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.engine import Connection, Engine

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


_HEADS: weakref.WeakKeyDictionary[Engine, tuple[int, str]] = weakref.WeakKeyDictionary()
"""The last head each engine wrote or read: a guess that saves reading the head before an
append. The conditional update below checks it against the database, so a stale guess (a
rolled-back transaction, another process) costs one read and never a wrong link."""
_SELECT_HEAD = select(audit_head.c.seq, audit_head.c.hash).where(audit_head.c.id == 1)
_MOVE_HEAD = (update(audit_head)
              .where(audit_head.c.id == 1, audit_head.c.seq == bindparam("old_seq"),
                     audit_head.c.hash == bindparam("old_hash"))
              .values(seq=bindparam("new_seq"), hash=bindparam("new_hash")))
_FIRST_HEAD = insert(audit_head).values(id=1, seq=bindparam("new_seq"),
                                        hash=bindparam("new_hash"))
_INSERT_ENTRY = insert(audit_log)


def append(conn: Connection, actor: str, action: str, detail: dict[str, Any]) -> AuditEntry:
    """Append one entry. Call inside `Storage.unit()` so that appends are serialised.

    The head moves first, by an update that names the head it expects (the remembered one),
    so the entry always links to the head the database holds: if the guess was stale the
    update matches nothing, the head is read and the update repeated."""
    at = datetime.now(UTC).isoformat(timespec="microseconds")
    body = canonical(detail)
    actor, action = actor[:40], action[:60]
    guess = _HEADS.get(conn.engine)
    while True:
        if guess is None:
            row = conn.execute(_SELECT_HEAD.with_for_update()).first()
            if row is None:
                seq, prev = 1, GENESIS
                digest = entry_hash(seq, at, actor, action, body, prev)
                conn.execute(_FIRST_HEAD, {"new_seq": seq, "new_hash": digest})
                break
            guess = (int(row.seq), str(row.hash))
        seq, prev = guess[0] + 1, guess[1]
        digest = entry_hash(seq, at, actor, action, body, prev)
        moved = conn.execute(_MOVE_HEAD, {"old_seq": guess[0], "old_hash": guess[1],
                                          "new_seq": seq, "new_hash": digest})
        if moved.rowcount == 1:
            break
        guess = None
    conn.execute(_INSERT_ENTRY, {"seq": seq, "at": at, "actor": actor, "action": action,
                                 "detail": body, "prev_hash": prev, "hash": digest})
    _HEADS[conn.engine] = (seq, digest)
    return AuditEntry(seq, at, actor, action, body, prev, digest)


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
