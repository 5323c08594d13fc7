"""The cage and the table games' books: numbered table slips (inventory, fill, credit,
notification of error) and the count of each drop box.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "table_slips",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("series", sa.String(12), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("room_tables.id"), nullable=False,
                  index=True),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("opener_id", sa.Integer, sa.ForeignKey("table_slips.id"), nullable=True),
        sa.Column("tx_id", sa.Integer, sa.ForeignKey("ledger_transactions.id"),
                  nullable=True),
        sa.Column("created_at", TZ, nullable=False, index=True),
        sa.Column("cashier", sa.String(40), nullable=True),
        sa.Column("dealer", sa.String(40), nullable=True),
        sa.Column("floor", sa.String(40), nullable=True),
        sa.Column("note", sa.String(400), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("voided_by", sa.String(40), nullable=True),
        sa.Column("void_reason", sa.String(400), nullable=True),
        sa.Column("voided_at", TZ, nullable=True),
        sa.UniqueConstraint("series", "number", name="uq_table_slips_series_number"),
        sa.CheckConstraint("number > 0", name="ck_table_slips_number_positive"),
    )
    op.create_table(
        "drop_counts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("room_tables.id"), nullable=False),
        sa.Column("gambling_day", sa.Date, nullable=False),
        sa.Column("cash", sa.BigInteger, nullable=False),
        sa.Column("markers", sa.BigInteger, nullable=False),
        sa.Column("expected", sa.BigInteger, nullable=False),
        sa.Column("first_counter", sa.String(40), nullable=False),
        sa.Column("second_counter", sa.String(40), nullable=False),
        sa.Column("counted_at", TZ, nullable=False),
        sa.UniqueConstraint("table_id", "gambling_day", name="uq_drop_counts_table_day"),
    )


def downgrade() -> None:
    op.drop_table("drop_counts")
    op.drop_table("table_slips")
