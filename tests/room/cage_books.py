"""What the tests of the cage and the table books share: a card room with Mini 1 open and
filled, and the check that a refused operation says why, changes nothing and is audited."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.room.books import table_books
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import cage_checks, drop_counts, table_slips

from .rooms import cage_room


def snapshot(storage: Storage) -> tuple[dict[str, int], list[Any], list[Any], list[Any]]:
    """The books, the slips, the counts and the check register, to show that a refusal
    changed nothing."""
    with storage.read() as conn:
        return (ledger.balances(conn), conn.execute(select(table_slips)).all(),
                conn.execute(select(drop_counts)).all(),
                conn.execute(select(cage_checks)).all())


def refusals(storage: Storage) -> list[audit.AuditEntry]:
    with storage.read() as conn:
        return [e for e in audit.entries(conn) if e.action == "refused"]


def refused(room: Room, who: Account, work: Callable[[Connection], object],
            match: str, error: type[Exception] = CardroomError) -> None:
    """The operation is refused with a plain sentence, changes nothing and is audited."""
    before, seen = snapshot(room.storage), len(refusals(room.storage))
    with pytest.raises(error, match=match):
        room.operate(who, "test.op", work)
    assert snapshot(room.storage) == before
    after = refusals(room.storage)
    assert len(after) == seen + 1 and after[-1].actor == who.username


def opened(storage: Storage) -> tuple[Room, dict[str, Account], int]:
    """The card room with Mini 1 opened on an empty tray and filled with $5,000."""
    room, p, t = cage_room(storage)
    assert t is not None
    room.operate(p["fiona"], "table.open",
                 lambda c: table_books.open_table(c, t, p["dan"], p["fiona"], 0))
    room.operate(p["cathy"], "table.fill", lambda c: table_books.fill(
        c, t, p["cathy"], p["dan"], p["fiona"], 500_000))
    return room, p, t
