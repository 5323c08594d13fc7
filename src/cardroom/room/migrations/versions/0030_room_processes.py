"""Tables balanced between the processes of a room (issue 25): every `cardroom serve` process
of the room beats in `room_processes` (its holder id, its last heartbeat, when it counts as
gone), whether it holds tables or not, so that each process knows how many share the room's
tables and aims at its fair share of them (`cardroom.room.play.leases.spread`).

Revision ID: 0030
Revises: 0029
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0030"
down_revision = "0029"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "room_processes",
        sa.Column("holder", sa.String(120), primary_key=True),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("room_processes")
