"""Log-in back-off buckets and trusted devices replace the per-failure table.

Revision ID: 0002_login_backoff
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002_login_backoff"
down_revision = "0001"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "throttle",
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("last_at", TZ, nullable=False, index=True),
    )
    op.create_table(
        "trusted_devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.drop_table("login_failures")


def downgrade() -> None:
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(40), nullable=False, index=True),
        sa.Column("client", sa.String(64), nullable=False, index=True),
        sa.Column("at", TZ, nullable=False),
    )
    op.drop_table("trusted_devices")
    op.drop_table("throttle")
