"""Tenders and no credit (WAC 230-06-035, 230-06-005, 230-15-150(1)(d), -500(2)): each drop
box is counted with its debit card slips apart from its cash, and the cage keeps a register of
the checks it accepted and of those returned. Markers a room took before it refused credit
stay as they were: the ledger's `drop-marker` transactions and the markers counted in
`drop_counts`, reported as markers (historical).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("drop_counts") as batch:
        batch.add_column(sa.Column("debit", sa.BigInteger, nullable=False,
                                   server_default="0"))
    op.create_table(
        "cage_checks",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tx_id", sa.Integer, sa.ForeignKey("ledger_transactions.id"),
                  nullable=False, unique=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("number", sa.String(20), nullable=False),
        sa.Column("drawer", sa.String(80), nullable=False),
        sa.Column("bank", sa.String(80), nullable=False),
        sa.Column("dated", sa.Date, nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("accepted_by", sa.String(40), nullable=False),
        sa.Column("accepted_at", TZ, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("returned_by", sa.String(40), nullable=True),
        sa.Column("returned_at", TZ, nullable=True),
        sa.Column("return_reason", sa.String(400), nullable=True),
        sa.Column("settled_by", sa.String(40), nullable=True),
        sa.Column("settled_at", TZ, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("cage_checks")
    with op.batch_alter_table("drop_counts") as batch:
        batch.drop_column("debit")
