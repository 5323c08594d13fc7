"""Progressive funds (WAC 230-15-455, -685): the register of deposits of a pool's accrued
funds to the progressive's own bank account, and a pool's optional posted maximum prize (0:
none), set like its other settings by two people and logged in `progressive_changes`.

Revision ID: 0011
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "progressive_deposits",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("pool", sa.String(40), nullable=False, index=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deposited_on", sa.Date, nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("recorded_by", sa.String(40), nullable=False),
        sa.Column("deposited_by", sa.String(80), nullable=False),
        sa.Column("reference", sa.String(80), nullable=False),
    )
    # the maximum prize, 0 (none) for the pools that exist
    with op.batch_alter_table("jackpot_pools") as batch:
        batch.add_column(sa.Column("maximum", sa.BigInteger, nullable=False,
                                   server_default="0"))


def downgrade() -> None:
    op.drop_table("progressive_deposits")
    with op.batch_alter_table("jackpot_pools") as batch:
        batch.drop_column("maximum")
