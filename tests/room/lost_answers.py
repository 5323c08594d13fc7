"""A database that goes away at the commit itself (issue 25): no restart can be timed to
fall between a commit and its answer, so the tests inject it."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

from cardroom.room.storage import pipeline
from cardroom.room.storage.db import Storage
from cardroom.room.storage.pipeline import deferred

COMMIT = pipeline.COMMIT


def lose_the_answer(storage: Storage, monkeypatch: pytest.MonkeyPatch, committed: bool
                    ) -> None:
    """The next commit fails as if the server went away at that moment: after it committed
    (`committed`: its answer lost) or before. On PostgreSQL a unit's COMMIT is sent in its
    pipeline before SQLAlchemy's commit (`pipeline.transaction`): not `committed`, a
    ROLLBACK is sent in its place."""
    original = Connection._commit_impl
    if not committed:
        monkeypatch.setattr(pipeline, "COMMIT", deferred(text("ROLLBACK")))

    def commit(conn: Connection) -> None:
        monkeypatch.setattr(Connection, "_commit_impl", original)
        monkeypatch.setattr(pipeline, "COMMIT", COMMIT)
        if committed:
            original(conn)
        raise OperationalError("COMMIT", {}, ConnectionError("server closed the connection"),
                               connection_invalidated=True)

    monkeypatch.setattr(Connection, "_commit_impl", commit)
