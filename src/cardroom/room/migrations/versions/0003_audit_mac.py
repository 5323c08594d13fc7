"""The audit chain keyed: an HMAC-SHA256 per entry and on the head, under a key kept outside
the database (`cardroom.room.storage.audit_key`). Null on entries written before the room had a key,
until `cardroom audit seal` adopts them.

Revision ID: 0003
Revises: 0002_login_backoff
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002_login_backoff"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("audit_log") as batch:
        batch.add_column(sa.Column("mac", sa.String(64), nullable=True))
    with op.batch_alter_table("audit_head") as batch:
        batch.add_column(sa.Column("mac", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("audit_head") as batch:
        batch.drop_column("mac")
    with op.batch_alter_table("audit_log") as batch:
        batch.drop_column("mac")
