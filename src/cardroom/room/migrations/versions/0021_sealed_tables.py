"""Resuming a hand after a restart (issue 25): each table's sealed state, committed with every
action: the shoe or deck still to be dealt (`shoe`: its order, salt, cut card and position)
and the hand in play as far as it went (`hand`: its history so far, every card dealt in it
included). Hidden information: no page, report or history reads this table; a restart
replays the hand from it (`cardroom.room.play.resume`).

Revision ID: 0021
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sealed_tables",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("room_tables.id"), primary_key=True),
        sa.Column("hand_id", sa.Integer, nullable=True),
        sa.Column("shoe", sa.Text, nullable=True),
        sa.Column("hand", sa.Text, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("sealed_tables")
