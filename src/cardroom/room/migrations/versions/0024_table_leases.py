"""Tables that outlive their process (issue 25): each table is held by one `cardroom serve`
process at a time under a lease (`table_leases`): who holds it (`holder`), its fencing number
(`fence`, one more at every takeover: every action checks it in its own transaction, so a
process that lost the lease writes nothing), the last heartbeat and when the lease expires
(`cardroom.room.play.leases`).

Revision ID: 0024
Revises: 0022
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("room_tables.id"), primary_key=True),
        sa.Column("holder", sa.String(120), nullable=False),
        sa.Column("fence", sa.BigInteger, nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_leases")
