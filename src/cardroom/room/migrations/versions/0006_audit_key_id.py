"""The audit key's fingerprint in the head row (`audit.key_id`, an HMAC under the key, never the
key): once books have been keyed they stay keyed, and a command holding another key, or none,
is refused instead of starting a new chain (issue 26). Null until a command that holds the key
has verified the books and recorded it.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("audit_head") as batch:
        batch.add_column(sa.Column("key_id", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("audit_head") as batch:
        batch.drop_column("key_id")
