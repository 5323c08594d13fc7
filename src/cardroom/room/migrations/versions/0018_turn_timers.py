"""Action timers (issue 23): each seat keeps how many turns in a row ran out on its player
(`misses`) and whether the player sits out after the house rules' number of misses
(`sitting_out`: no new Pan hand is dealt to them until they are back), so a restart keeps both.

Revision ID: 0018
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("misses", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("sitting_out", sa.Boolean, nullable=False,
                                   server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("sitting_out")
        batch.drop_column("misses")
