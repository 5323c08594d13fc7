"""Suspicious activity (issue 22; 31 CFR 1021.320): the alerts the room raises, the compliance
officer's cases, and each case's narrative and evidence. Nothing is copied in: alerts of the
days already in the books come from `cardroom compliance alerts --date D`.

Revision ID: 0015
Revises: 0018
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0018"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "compliance_alerts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(160), nullable=False, unique=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("patron_id", sa.Integer, sa.ForeignKey("patrons.id"), nullable=True,
                  index=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("gaming_day", sa.Date, nullable=False, index=True),
        sa.Column("detected_at", TZ, nullable=False),
        sa.Column("detected_by", sa.String(40), nullable=False),
        sa.Column("summary", sa.String(600), nullable=False),
        sa.Column("evidence", sa.Text, nullable=False),
    )
    op.create_table(
        "compliance_cases",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("patron_id", sa.Integer, sa.ForeignKey("patrons.id"), nullable=True,
                  index=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("opened_at", TZ, nullable=False),
        sa.Column("opened_by", sa.String(40), nullable=False),
        sa.Column("detected_on", sa.Date, nullable=False),
        sa.Column("due", sa.Date, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("decided_at", TZ, nullable=True),
        sa.Column("decided_by", sa.String(40), nullable=True),
        sa.Column("reference", sa.String(60), nullable=True),
        sa.Column("reasons", sa.Text, nullable=True),
    )
    op.create_table(
        "compliance_case_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("case_id", sa.Integer, sa.ForeignKey("compliance_cases.id"),
                  nullable=False, index=True),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("ref", sa.Integer, nullable=True),
        sa.Column("text", sa.Text, nullable=True),
        sa.Column("at", TZ, nullable=False),
        sa.Column("by", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("compliance_case_entries")
    op.drop_table("compliance_cases")
    op.drop_table("compliance_alerts")
