"""Payouts held for surveillance (WAC 230-15-320(4), issue 21): a wager's win over the
profile's surveillance figure waits in the table's `held:T` ledger account until a person
with the duty verifies it or refuses it; `held_payouts` records each and what became of it.

Revision ID: 0009
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "held_payouts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("room_tables.id"), nullable=False,
                  index=True),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=False,
                  index=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("wager", sa.String(20), nullable=False),
        sa.Column("stake", sa.BigInteger, nullable=False),
        sa.Column("won", sa.BigInteger, nullable=False),
        sa.Column("commission", sa.BigInteger, nullable=False),
        sa.Column("bank", sa.String(60), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("decided_by", sa.String(40), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("note", sa.String(400), nullable=True),
        sa.UniqueConstraint("hand_id", "account_id", "wager", name="uq_held_payouts_wager"),
    )


def downgrade() -> None:
    op.drop_table("held_payouts")
