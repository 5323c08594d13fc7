"""The cage's cash count at opening (WAC 230-15-050, minimum cash on hand): how much was
counted, by whom, when, for which gambling day; one count a day.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cage_cash_counts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("gambling_day", sa.Date, nullable=False, unique=True),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("counted_by", sa.String(40), nullable=False),
        sa.Column("counted_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("cage_cash_counts")
