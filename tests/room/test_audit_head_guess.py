"""The remembered audit head is only a guess: a rolled-back append or another writer (a second
process on the same database) must never make an entry link to the wrong head."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from cardroom.room.money import ledger
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage, make_engine
from cardroom.room.storage.schema import audit_head


def _append(storage: Storage, i: int) -> None:
    with storage.unit() as conn:
        audit.append(conn, "alice", "test.action", {"i": i})


def test_rolled_back_append_leaves_the_chain_intact(storage: Storage) -> None:
    _append(storage, 0)
    with pytest.raises(RuntimeError), storage.unit() as conn:
        audit.append(conn, "alice", "test.action", {"i": "rolled back"})
        raise RuntimeError("the action failed after its audit entry")
    _append(storage, 1)
    with storage.read() as conn:
        result = audit.verify(conn)
        assert result.ok and result.entries == 2
        assert [e.data["i"] for e in audit.entries(conn)] == [0, 1]


def test_another_writer_between_appends_is_followed(storage: Storage) -> None:
    """A second engine (as another process would) appends between two appends of the first."""
    other = Storage(make_engine(storage.engine.url.render_as_string(hide_password=False)))
    try:
        _append(storage, 0)
        _append(other, 1)
        _append(storage, 2)
        _append(other, 3)
        with storage.read() as conn:
            result = audit.verify(conn)
            assert result.ok and result.entries == 4
            assert [e.data["i"] for e in audit.entries(conn)] == [0, 1, 2, 3]
    finally:
        other.engine.dispose()


def test_a_head_moved_under_a_unit_fails_it_and_writes_nothing(storage: Storage) -> None:
    """The unit's entries are written with its COMMIT (on PostgreSQL without waiting for the
    statement's answer): a head found elsewhere than where the unit read it still fails the
    unit with `ChainBroken`, and nothing of it is committed."""
    _append(storage, 0)
    with pytest.raises(audit.ChainBroken, match="audit head moved"), storage.unit() as conn:
        audit.append(conn, "alice", "test.action", {"i": "lost"})
        conn.execute(update(audit_head).values(hash="f" * 64))  # behind the unit's back
        ledger.post(conn, "moved-head", "test", ledger.move(ledger.tray(1), ledger.wallet(1), 100),
                    actor="alice")
    _append(storage, 1)
    with storage.read() as conn:
        result = audit.verify(conn)
        assert result.ok and [e.data["i"] for e in audit.entries(conn)] == [0, 1]
        assert ledger.balance(conn, ledger.wallet(1)) == 0
