"""Issue 26, "Rows outside the chain that change money or power": a fill slip's amount, a
slip voided, inserted or deleted, a player made owner, an owner inserted, a locked account let
back in, a drop count edited, each changed directly in the database, is found by `cardroom
audit verify` (the installed console script, exit 1) and refuses a command that writes, on
SQLite and PostgreSQL (`cardroom.room.trust.records_check`; docs/security.md, "Rows outside the
chain")."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from sqlalchemy import delete, insert, update
from sqlalchemy.engine import Connection

from cardroom.room.books import table_books
from cardroom.room.people import staff
from cardroom.room.people.accounts import Account, Role, new_credentials
from cardroom.room.storage.db import make_engine
from cardroom.room.storage.schema import accounts, drop_counts, table_slips
from cardroom.room.storage.settings import GamblingClock
from cardroom.room.trust.keying import open_keyed
from room.tampering import cardroom

PW = "correct horse battery staple 9"
DAY = date(2026, 1, 1)


@pytest.fixture
def books(db_url: str, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A keyed room whose table 1 is open with a $500 fill and its drop box counted; a player,
    and a dealer locked out after signing."""
    key = tmp_path / "audit.key"
    assert cardroom("tables", "create", "Mini 1", "--database", db_url, "--audit-key-file",
                    str(key)).returncode == 0
    storage = open_keyed(db_url, key)
    operator = Account(0, "cli-operator", Role.OWNER)
    with storage.unit() as conn:
        hired = {name: staff.hire(conn, operator, new_credentials(name, PW), role) for name, role in
                 (("carl", "cashier"), ("dan", "dealer"), ("fiona", "floor"),
                  ("pia", "player"))}
        table_books.open_table(conn, 1, hired["dan"], hired["fiona"], 0)
        table_books.fill(conn, 1, hired["carl"], hired["dan"], hired["fiona"], 50_000)
        table_books.count_drop(conn, GamblingClock.from_env(), 1, DAY,
                               table_books.Dropped(12_000), hired["carl"], operator)
        staff.lock(conn, operator, "dan", "left the room")
    storage.engine.dispose()
    yield db_url, key


def _fill(conn: Connection, **values: object) -> None:
    conn.execute(update(table_slips).where(table_slips.c.kind == "fill").values(**values))


CASES: dict[str, tuple[Callable[[Connection], object], str]] = {
    "fill slip's amount raised": (lambda c: _fill(c, amount=5_000_000),
                                  "differs from the audit chain's record of it (amount)"),
    "fill slip voided": (lambda c: _fill(c, status="void"),
                         "differs from the audit chain's record of it (status)"),
    "fill slip deleted": (lambda c: c.execute(delete(table_slips)
                                              .where(table_slips.c.kind == "fill")),
                          "is in the audit chain but was deleted"),
    "slip inserted": (lambda c: c.execute(insert(table_slips).values(
        series="fill", number=99, kind="fill", table_id=1, amount=1, created_at=datetime.now(UTC),
        note="", status="valid")), "slip fill 99 is not in the audit chain"),
    "player made owner": (lambda c: c.execute(update(accounts).where(
        accounts.c.username == "pia").values(role="owner")), "its role was changed"),
    "owner inserted": (lambda c: c.execute(insert(accounts).values(
        username="mallory", password_hash="x", role="owner", active=True,
        created_at=datetime.now(UTC))), "account mallory (owner) is not in the audit chain"),
    "drop count's cash raised": (lambda c: c.execute(update(drop_counts).values(cash=999_999)),
                                 "the drop count of table 1 for 2026-01-01 differs"),
    "drop count's debit slips raised": (
        lambda c: c.execute(update(drop_counts).values(debit=999_999)),
        "the drop count of table 1 for 2026-01-01 differs"),
    "locked account let back in": (lambda c: c.execute(update(accounts).where(
        accounts.c.username == "dan").values(active=True)),
        "account dan is active but the audit chain's record says otherwise"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_row_changed_outside_the_chain_fails_the_check(books: tuple[str, Path],
                                                         case: str) -> None:
    url, key = books
    verified = cardroom("audit", "verify", "--database", url, "--audit-key-file", str(key),
                        "--json")
    assert verified.returncode == 0, verified.stdout
    engine = make_engine(url)
    with engine.begin() as conn:
        CASES[case][0](conn)
    engine.dispose()
    verified = cardroom("audit", "verify", "--database", url, "--audit-key-file", str(key),
                        "--json")
    found = json.loads(verified.stdout)["problems"]
    assert verified.returncode == 1 and any(CASES[case][1] in p for p in found), found
    r = cardroom("tables", "create", "Mini 2", "--database", url, "--audit-key-file", str(key))
    assert r.returncode == 1 and CASES[case][1] in " ".join(r.stderr.split()), r.stderr
