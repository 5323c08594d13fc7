"""A player's hand history with amounts (issue 23): each player's row of a hand keeps what they
wagered (`wagered`) and their net result (`net`), in cents, written when the hand settles or
is voided, so the history page filters (won, lost) and pages in the database. Null while the
hand is in play and for hands closed before this revision.

Revision ID: 0022
Revises: 0021
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("hand_players") as batch:
        batch.add_column(sa.Column("wagered", sa.BigInteger, nullable=True))
        batch.add_column(sa.Column("net", sa.BigInteger, nullable=True))
    op.create_index("ix_hands_opened_at", "hands", ["opened_at"])


def downgrade() -> None:
    op.drop_index("ix_hands_opened_at", "hands")
    with op.batch_alter_table("hand_players") as batch:
        batch.drop_column("net")
        batch.drop_column("wagered")
