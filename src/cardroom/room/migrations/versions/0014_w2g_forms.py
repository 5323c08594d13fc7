"""Form W-2G (issue 21; compliance.md, "Taxes on jackpots"): one row per jackpot share that
needs a form, written when it is paid, with the winner's name and address of that day, the
gross winnings and the federal income tax withheld.

Revision ID: 0014
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "w2g_forms",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("hit_id", sa.Integer, sa.ForeignKey("progressive_hits.id"), nullable=False,
                  index=True),
        sa.Column("pool", sa.String(40), nullable=False),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("room_tables.id"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("patron_id", sa.Integer, sa.ForeignKey("patrons.id"), nullable=False,
                  index=True),
        sa.Column("legal_name", sa.String(200), nullable=False),
        sa.Column("address", sa.String(400), nullable=False),
        sa.Column("won_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("paid_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("paid_by", sa.String(40), nullable=False),
        sa.Column("gross", sa.BigInteger, nullable=False),
        sa.Column("withheld", sa.BigInteger, nullable=False),
        sa.Column("wager", sa.BigInteger, nullable=False),
        sa.Column("wager_type", sa.String(120), nullable=False),
        sa.UniqueConstraint("hit_id", "account_id", name="uq_w2g_forms_share"),
    )


def downgrade() -> None:
    op.drop_table("w2g_forms")
