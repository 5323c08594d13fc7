"""Second signatures given on the signer's own session (issue 23, "Co-signers type their
passwords on the initiator's screen"; WAC 230-15-495, -510 to -535, -615): a form that needs
another person's signature waits in `approvals` until each signer in `approval_signers`
accepts it, logged in as themselves.

Revision ID: 0017
Revises: 0014
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "approvals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(30), nullable=False),
        sa.Column("asked_by", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("summary", sa.String(400), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("closed_by", sa.String(40), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("outcome", sa.String(400), nullable=True),
    )
    op.create_table(
        "approval_signers",
        sa.Column("approval_id", sa.Integer, sa.ForeignKey("approvals.id"), primary_key=True),
        sa.Column("part", sa.String(20), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("signed_at", sa.DateTime(timezone=True), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("approval_signers")
    op.drop_table("approvals")
