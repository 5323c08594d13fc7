"""The company's patron register (issue 25, "Many rooms, one head office"): when a patron's
details were last written (`patrons.updated_at`, the patron's `created_at` for those recorded
before), so that a pull never takes an older record over a newer one; and the register's
merges (at the head office) and pulls (at a room) with their dates (`patron_registers`).

Revision ID: 0028
Revises: 0024
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("patrons") as batch:
        batch.add_column(sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE patrons SET updated_at = created_at")
    op.create_table(
        "patron_registers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("register_date", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("added", sa.Integer, nullable=False),
        sa.Column("updated", sa.Integer, nullable=False),
        sa.Column("kept", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("patron_registers")
    # Native on both databases (SQLite 3.35+): a batch copy of `patrons` would break the
    # foreign keys that point at it.
    op.execute("ALTER TABLE patrons DROP COLUMN updated_at")
