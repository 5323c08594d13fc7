"""A database that goes away at the commit itself (issue 25): no restart can be timed to
fall between a commit and its answer, so the tests inject it."""

from __future__ import annotations

import pytest
from sqlalchemy.engine import Connection
from sqlalchemy.exc import OperationalError

from cardroom.room.storage.db import Storage


def lose_the_answer(storage: Storage, monkeypatch: pytest.MonkeyPatch, committed: bool
                    ) -> None:
    """The next commit fails as if the server went away at that moment: after it committed
    (`committed`: its answer lost) or before."""
    original = Connection._commit_impl

    def commit(conn: Connection) -> None:
        monkeypatch.setattr(Connection, "_commit_impl", original)
        if committed:
            original(conn)
        raise OperationalError("COMMIT", {}, ConnectionError("server closed the connection"),
                               connection_invalidated=True)

    monkeypatch.setattr(Connection, "_commit_impl", commit)
