"""Patrons and identity (issue 22; 31 CFR 1010.312): a patron record apart from the web log-in
(legal name, address, date of birth, taxpayer id), the identity documents staff examined, and
the link from a player's account to their patron. Taxpayer ids and document numbers are stored
only encrypted under the identity key, kept outside the database, each with a keyed blind index
for search.

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "patrons",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("legal_name", sa.String(200), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False, index=True),
        sa.Column("address", sa.String(400), nullable=False),
        sa.Column("date_of_birth", sa.Date, nullable=False, index=True),
        sa.Column("taxpayer_ct", sa.Text, nullable=True),
        sa.Column("taxpayer_index", sa.String(64), nullable=True, index=True),
        sa.Column("created_by", sa.String(40), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "patron_documents",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("patron_id", sa.Integer, sa.ForeignKey("patrons.id"), nullable=False,
                  index=True),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("number_ct", sa.Text, nullable=False),
        sa.Column("number_index", sa.String(64), nullable=False, index=True),
        sa.Column("issuer", sa.String(120), nullable=False),
        sa.Column("expires", sa.Date, nullable=False),
        sa.Column("checked_by", sa.String(40), nullable=False),
        sa.Column("checked_on", sa.Date, nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("patron_id", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_accounts_patron_id", "patrons", ["patron_id"], ["id"])
        batch.create_index("ix_accounts_patron_id", ["patron_id"])


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_index("ix_accounts_patron_id")
        batch.drop_constraint("fk_accounts_patron_id", type_="foreignkey")
        batch.drop_column("patron_id")
    op.drop_table("patron_documents")
    op.drop_table("patrons")
