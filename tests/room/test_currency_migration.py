"""A room with cash movements in its books from before currency transactions were recorded
(the schema revision before `*_currency_transactions.py`), upgraded: every cash movement gets
its row from the ledger and each patron's gaming day over the threshold its pending report
item, so `audit verify` passes (31 CFR 1021.410: the records cover the books from the start).
Runs on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import select

from cardroom.room.books import table_books
from cardroom.room.books.cashier import redeem_chips, sell_chips
from cardroom.room.compliance import currency
from cardroom.room.people import patrons
from cardroom.room.storage.audit_key import load_or_create_key
from cardroom.room.storage.db import MIGRATIONS, migrate, open_database
from cardroom.room.storage.schema import currency_transactions
from cardroom.room.trust import integrity

from .cage_books import opened
from .people import IDENTITY_KEY


def test_an_upgraded_room_gets_a_row_for_every_cash_movement(db_url: str,
                                                              tmp_path: Path) -> None:
    """31 CFR 1021.410(b)(11) and 1021.311: $6,000 and $5,000 of cash in and $4,000 out for a
    patron with identity on file, and $200 of cash for another: after the
    downgrade and the upgrade the rows are as the room wrote them, the report is open again."""
    key, _ = load_or_create_key(tmp_path / "audit.key")
    storage = open_database(db_url, key)
    room, p, t = opened(storage)
    with storage.unit() as conn:
        grace = patrons.patron_of(conn, p["alice"].id)
        assert grace is not None
        patrons.set_taxpayer_id(conn, p["cathy"], grace.id, "123-45-6789", IDENTITY_KEY)
    room.operate(p["cathy"], "cage.sell", lambda c: sell_chips(
        c, p["cathy"], p["alice"], 600_000, "s1"))
    room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["alice"], 500_000, "d1"))
    room.operate(p["cathy"], "cage.redeem", lambda c: redeem_chips(
        c, p["cathy"], p["alice"], 400_000, "r1"))
    room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["bob"], 20_000, "d2"))
    columns = [c for c in currency_transactions.c if c.name != "id"]
    with storage.read() as conn:
        written = conn.execute(select(*columns).order_by(currency_transactions.c.tx_id)).all()
        [report] = currency.reports(conn)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    [mine] = [r for r in ScriptDirectory.from_config(cfg).walk_revisions()
              if r.path.endswith("_currency_transactions.py")]
    with storage.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, str(mine.down_revision))
    migrate(storage.engine)
    with storage.read() as conn:
        copied = conn.execute(select(*columns).order_by(currency_transactions.c.tx_id)).all()
        [again] = currency.reports(conn)
        assert integrity.check(conn, key).problems == ()
    assert [tuple(r) for r in copied] == [tuple(r) for r in written] and len(copied) == 4
    assert (again.patron_id, again.gaming_day, again.due, again.cash_in_over,
            again.cash_out_over, again.status) == (
        report.patron_id, report.gaming_day, report.due, True, False, "pending")
    assert [x.amount for x in again.contributing] == [600_000, 500_000]
