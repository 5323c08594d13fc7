"""Currency transactions and currency transaction reports (issue 22; 31 CFR 1021.311, .313,
1021.410(b)(11)): a row for every cash movement of a player, written with its ledger post, and
one report item per patron and gaming day over the threshold. The cash movements already in
the books are copied in from the ledger, so that every one has its row, and each patron's
gaming day over the threshold in them gets its report item (pending: the compliance officer
records it filed if it was filed on paper).

Revision ID: 0012
Revises: 0017
"""

from __future__ import annotations

from datetime import UTC, date, datetime

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0017"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)
KINDS = {"cage-sale": ("in", "chip-purchase"), "drop-cash": ("in", "chip-purchase"),
         "cage-redeem": ("out", "chip-redemption")}
"""As `cardroom.room.compliance.currency.KINDS` says on the day of this migration."""


def upgrade() -> None:
    op.create_table(
        "currency_transactions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tx_id", sa.Integer, sa.ForeignKey("ledger_transactions.id"),
                  nullable=False, unique=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("patron_id", sa.Integer, sa.ForeignKey("patrons.id"), nullable=True,
                  index=True),
        sa.Column("direction", sa.String(3), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("place", sa.String(20), nullable=False),
        sa.Column("table_id", sa.Integer, nullable=True),
        sa.Column("employee", sa.String(40), nullable=False),
        sa.Column("at", TZ, nullable=False),
        sa.Column("gaming_day", sa.Date, nullable=False, index=True),
        sa.CheckConstraint("direction IN ('in', 'out')", name="ck_currency_direction"),
        sa.CheckConstraint("amount > 0", name="ck_currency_amount_positive"),
    )
    op.create_table(
        "currency_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("patron_id", sa.Integer, sa.ForeignKey("patrons.id"), nullable=False),
        sa.Column("gaming_day", sa.Date, nullable=False),
        sa.Column("cash_in_over", sa.Boolean, nullable=False),
        sa.Column("cash_out_over", sa.Boolean, nullable=False),
        sa.Column("opened_at", TZ, nullable=False),
        sa.Column("opened_by", sa.String(40), nullable=False),
        sa.Column("due", sa.Date, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("reference", sa.String(60), nullable=True),
        sa.Column("filed_by", sa.String(40), nullable=True),
        sa.Column("filed_at", TZ, nullable=True),
        sa.UniqueConstraint("patron_id", "gaming_day", name="uq_currency_reports_patron_day"),
    )
    _copy_from_ledger()
    _open_reports()


def _copy_from_ledger() -> None:
    """A row for each cash movement the ledger already holds (its player from the wallet it
    moved, its table from the tray; the gaming day by the room's clock)."""
    from cardroom.room.storage.settings import GamblingClock

    conn = op.get_bind()
    clock = GamblingClock.from_env()
    txs = conn.execute(sa.text(
        "SELECT t.id, t.kind, t.actor, t.created_at, a.name, e.amount FROM "
        "ledger_transactions t JOIN ledger_entries e ON e.tx_id = t.id JOIN ledger_accounts a "
        "ON a.id = e.account_id WHERE t.kind IN ('cage-sale', 'drop-cash', 'cage-redeem') "
        "ORDER BY t.id")).all()
    rows: dict[int, dict[str, object]] = {}
    for tx_id, kind, actor, created, name, amount in txs:
        row = rows.setdefault(tx_id, {"kind": kind, "actor": actor, "at": created})
        if name.startswith("wallet:"):
            row["account"], row["amount"] = int(name.split(":")[1]), abs(int(amount))
        elif name.startswith("tray:"):
            row["table"] = int(name.split(":")[1])
    table = sa.table("currency_transactions", *(sa.column(c) for c in (
        "tx_id", "account_id", "patron_id", "direction", "kind", "amount", "place",
        "table_id", "employee")), sa.column("at", TZ), sa.column("gaming_day", sa.Date))
    for tx_id, row in rows.items():
        if "account" not in row:
            continue
        at = row["at"]
        if isinstance(at, str):
            at = datetime.fromisoformat(at)
        assert isinstance(at, datetime)
        at = at if at.tzinfo else at.replace(tzinfo=UTC)
        patron = conn.execute(sa.text("SELECT patron_id FROM accounts WHERE id = :a"),
                              {"a": row["account"]}).scalar()
        direction, kind = KINDS[str(row["kind"])]
        tid = row.get("table")
        conn.execute(sa.insert(table).values(
            tx_id=tx_id, account_id=row["account"], patron_id=patron, direction=direction,
            kind=kind, amount=row["amount"], place="cage" if tid is None else f"table:{tid}",
            table_id=tid, employee=row["actor"], at=at, gaming_day=clock.day_of(at)))


def _open_reports() -> None:
    """A pending report item for each patron's gaming day whose cash in or out went over the
    profile's threshold in the copied rows."""
    from datetime import timedelta

    from cardroom.profile import profile_in_force

    conn = op.get_bind()
    profile = profile_in_force()
    sums = conn.execute(sa.text(
        "SELECT COALESCE(c.patron_id, a.patron_id) AS person, c.gaming_day, c.direction, "
        "SUM(c.amount) FROM currency_transactions c JOIN accounts a ON a.id = c.account_id "
        "GROUP BY COALESCE(c.patron_id, a.patron_id), c.gaming_day, c.direction")).all()
    over: dict[tuple[int, date], set[str]] = {}
    for person, day, direction, total in sums:
        day = date.fromisoformat(day[:10]) if isinstance(day, str) else day
        if person is not None and int(total) > profile.ctr_threshold.on(day).cents:
            over.setdefault((int(person), day), set()).add(direction)
    table = sa.table("currency_reports", *(sa.column(c) for c in (
        "patron_id", "cash_in_over", "cash_out_over", "opened_by", "status")),
        sa.column("gaming_day", sa.Date), sa.column("opened_at", TZ), sa.column("due", sa.Date))
    for (person, day), sides in sorted(over.items()):
        conn.execute(sa.insert(table).values(
            patron_id=person, gaming_day=day, cash_in_over="in" in sides,
            cash_out_over="out" in sides, opened_at=datetime.now(UTC), opened_by="migration",
            due=day + timedelta(days=profile.ctr_due_days.on(day).days),
            status="pending"))


def downgrade() -> None:
    op.drop_table("currency_reports")
    op.drop_table("currency_transactions")
