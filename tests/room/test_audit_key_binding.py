"""Issue 9, "Verifiers whose verdict is lost or wrong": the audit key is bound to the books by
the first command that opens them keyed, even when they hold no entry yet, so a second key
file can never extend (or start) a chain next to the first (docs/security.md, "The audit
chain and the books")."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardroom.room.storage import audit
from cardroom.room.storage.audit_key import AuditKeyError, load_or_create_key
from cardroom.room.storage.db import open_database
from cardroom.room.trust.integrity import check
from cardroom.room.trust.keying import KEYED_ACTION, open_keyed


def test_empty_books_opened_with_one_key_refuse_another(db_url: str, tmp_path: Path) -> None:
    first, second = tmp_path / "first.key", tmp_path / "second.key"
    storage = open_keyed(db_url, first)
    with storage.read() as conn:
        assert [e.action for e in audit.entries(conn)] == [KEYED_ACTION]
    storage.engine.dispose()
    with pytest.raises(AuditKeyError, match="a key is made only for new, empty books"):
        open_keyed(db_url, second)
    assert not second.exists()  # no key is made for books that hold an entry (issue 26)
    load_or_create_key(second)
    with pytest.raises(AuditKeyError, match="is not the key this room's audit chain"):
        open_keyed(db_url, second)
    again = open_keyed(db_url, first)  # the first key opens them, and nothing is added
    with again.snapshot() as conn:
        report = check(conn, again.audit_key)
    again.engine.dispose()
    assert report.ok and report.entries == 1


def test_books_keyed_before_fingerprints_get_theirs_once_they_verify(db_url: str,
                                                                    tmp_path: Path) -> None:
    """Issue 26: books MACed before the fingerprint was kept (schema 0005) are bound to their
    key by the first command that writes with it, in the head and in the chain."""
    path = tmp_path / "audit.key"
    key, _ = load_or_create_key(path)
    storage = open_database(db_url, key)
    with storage.unit() as conn:
        audit.append(conn, "cashier", "cashier.note", {"n": 1})
        assert audit.recorded_key(conn) is None
    storage.engine.dispose()
    again = open_keyed(db_url, path)
    with again.snapshot() as conn:
        assert audit.recorded_key(conn) == audit.key_id(key)
        assert audit.chained_key(conn) == (2, audit.key_id(key))
        assert check(conn, key).ok
    again.engine.dispose()
