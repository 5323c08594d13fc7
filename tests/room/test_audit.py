"""The hash-chained audit log detects changed, deleted and inserted entries."""

from __future__ import annotations

from sqlalchemy import delete, update

from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import audit_log


def _fill(storage: Storage, n: int = 4) -> None:
    for i in range(n):
        with storage.unit() as conn:
            audit.append(conn, "alice", "test.action", {"i": i, "text": "é"})


def test_intact_log_verifies(storage: Storage) -> None:
    _fill(storage)
    with storage.read() as conn:
        result = audit.verify(conn)
        assert result.ok and result.entries == 4
        assert [e.data["i"] for e in audit.entries(conn)] == [0, 1, 2, 3]


def test_empty_log_verifies(storage: Storage) -> None:
    with storage.read() as conn:
        assert audit.verify(conn).ok


def test_changed_entry_is_detected(storage: Storage) -> None:
    _fill(storage)
    with storage.unit() as conn:
        conn.execute(update(audit_log).where(audit_log.c.seq == 2).values(actor="mallory"))
    with storage.read() as conn:
        result = audit.verify(conn)
    assert not result.ok and any("entry 2 was altered" in p for p in result.problems)


def test_deleted_entry_is_detected(storage: Storage) -> None:
    _fill(storage)
    with storage.unit() as conn:
        conn.execute(delete(audit_log).where(audit_log.c.seq == 2))
    with storage.read() as conn:
        assert any("missing" in p for p in audit.verify(conn).problems)


def test_deleted_last_entry_is_detected(storage: Storage) -> None:
    _fill(storage)
    with storage.unit() as conn:
        conn.execute(delete(audit_log).where(audit_log.c.seq == 4))
    with storage.read() as conn:
        assert any("deleted" in p for p in audit.verify(conn).problems)


def test_rehashed_entry_breaks_the_link(storage: Storage) -> None:
    """Recomputing an altered entry's own hash still breaks the next entry's link."""
    _fill(storage)
    with storage.read() as conn:
        e = next(x for x in audit.entries(conn) if x.seq == 2)
    forged = audit.entry_hash(e.seq, e.at, "mallory", e.action, e.detail, e.prev_hash)
    with storage.unit() as conn:
        conn.execute(update(audit_log).where(audit_log.c.seq == 2)
                     .values(actor="mallory", hash=forged))
    with storage.read() as conn:
        assert any("entry 3 does not link" in p for p in audit.verify(conn).problems)
