"""Self-exclusion (issue 22; RCW 9.46.071, chapter 230-23 WAC): the imported state lists, the
excluded people (state entries and in-room enrolments with their forwarding worklist), their
identifiers as blind indexes only, matches cleared by staff, breaches with their notice to the
commission, and the patrons closed to marketing.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "exclusion_lists",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("list_date", TZ, nullable=False),
        sa.Column("digest", sa.String(64), nullable=False, unique=True),
        sa.Column("entries", sa.Integer, nullable=False),
        sa.Column("added", sa.Integer, nullable=False),
        sa.Column("removed", sa.Integer, nullable=False),
        sa.Column("imported_by", sa.String(40), nullable=False),
        sa.Column("imported_at", TZ, nullable=False),
    )
    op.create_table(
        "exclusion_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("source", sa.String(10), nullable=False),
        sa.Column("entry_key", sa.String(64), nullable=False, index=True),
        sa.Column("date_of_birth", sa.Date, nullable=False, index=True),
        sa.Column("legal_name", sa.String(200), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False),
        sa.Column("period", sa.String(20), nullable=False),
        sa.Column("active", sa.Boolean, nullable=False, index=True),
        sa.Column("added_list", sa.Integer, sa.ForeignKey("exclusion_lists.id"), nullable=True),
        sa.Column("removed_list", sa.Integer, sa.ForeignKey("exclusion_lists.id"),
                  nullable=True),
        sa.Column("patron_id", sa.Integer, sa.ForeignKey("patrons.id"), nullable=True),
        sa.Column("enrolled_by", sa.String(40), nullable=True),
        sa.Column("enrolled_at", TZ, nullable=True),
        sa.Column("form_due", TZ, nullable=True),
        sa.Column("forwarded_by", sa.String(40), nullable=True),
        sa.Column("forwarded_at", TZ, nullable=True),
        sa.CheckConstraint("source IN ('state', 'room')", name="ck_exclusion_entries_source"),
    )
    op.create_table(
        "exclusion_identifiers",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("entry_id", sa.Integer, sa.ForeignKey("exclusion_entries.id"),
                  nullable=False, index=True),
        sa.Column("number_index", sa.String(64), nullable=False, index=True),
    )
    op.create_table(
        "exclusion_clearances",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("entry_id", sa.Integer, sa.ForeignKey("exclusion_entries.id"),
                  nullable=False, index=True),
        sa.Column("patron_id", sa.Integer, sa.ForeignKey("patrons.id"), nullable=False,
                  index=True),
        sa.Column("reason", sa.String(400), nullable=False),
        sa.Column("cleared_by", sa.String(40), nullable=False),
        sa.Column("cleared_at", TZ, nullable=False),
        sa.UniqueConstraint("entry_id", "patron_id", name="uq_exclusion_clearance"),
    )
    op.create_table(
        "exclusion_breaches",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("patron_id", sa.Integer, sa.ForeignKey("patrons.id"), nullable=True),
        sa.Column("entry_id", sa.Integer, sa.ForeignKey("exclusion_entries.id"),
                  nullable=True),
        sa.Column("table_id", sa.Integer, nullable=True),
        sa.Column("place", sa.String(120), nullable=False),
        sa.Column("confiscated", sa.BigInteger, nullable=False),
        sa.Column("tx_id", sa.Integer, nullable=True),
        sa.Column("found_at", TZ, nullable=False),
        sa.Column("notice_due", TZ, nullable=False),
        sa.Column("notified_by", sa.String(40), nullable=True),
        sa.Column("notified_at", TZ, nullable=True),
    )
    op.create_table(
        "marketing_closed",
        sa.Column("patron_id", sa.Integer, sa.ForeignKey("patrons.id"), primary_key=True),
        sa.Column("reason", sa.String(40), nullable=False),
        sa.Column("since", TZ, nullable=False),
    )


def downgrade() -> None:
    for name in ("marketing_closed", "exclusion_breaches", "exclusion_clearances",
                 "exclusion_identifiers", "exclusion_entries", "exclusion_lists"):
        op.drop_table(name)
