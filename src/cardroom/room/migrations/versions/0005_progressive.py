"""The progressive controller (Super-9; GLI-12 as adopted by state rules): the pool's hidden
reserve and its reconciliation baseline, meters per table and award level, top-award hits with
their verification and payment, the log of settings changes; and the Pan time fee's paid
periods (WAC 230-15-080), kept across a restart.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("jackpot_pools") as batch:
        for name in ("reserve_rate", "reserve_limit", "reserve", "opening", "opening_tx"):
            batch.add_column(sa.Column(name, sa.BigInteger, nullable=False,
                                       server_default="0"))
    # a pool that exists already reconciles from here: its meter now is its opening balance,
    # the ledger's transactions so far are before the controller's records
    last_tx = op.get_bind().execute(sa.text("SELECT max(id) FROM ledger_transactions")).scalar()
    op.execute(sa.text("UPDATE jackpot_pools SET opening = meter, opening_tx = :tx")
               .bindparams(tx=int(last_tx or 0)))
    op.create_table(
        "progressive_table_meters",
        sa.Column("pool", sa.String(40), primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("room_tables.id"), primary_key=True),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("wagers", sa.BigInteger, nullable=False),
        sa.Column("coin_in", sa.BigInteger, nullable=False),
        sa.Column("contributed", sa.BigInteger, nullable=False),
        sa.Column("reserved", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "progressive_award_meters",
        sa.Column("pool", sa.String(40), primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("room_tables.id"), primary_key=True),
        sa.Column("day", sa.Date, primary_key=True),
        sa.Column("level", sa.String(40), primary_key=True),
        sa.Column("hits", sa.BigInteger, nullable=False),
        sa.Column("won", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "progressive_hits",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("pool", sa.String(40), nullable=False, index=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("room_tables.id"), nullable=False),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=False,
                  unique=True),
        sa.Column("at", TZ, nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("shares_json", sa.Text, nullable=False),
        sa.Column("reseed_house", sa.BigInteger, nullable=False),
        sa.Column("reseed_reserve", sa.BigInteger, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("verified_by", sa.String(40), nullable=True),
        sa.Column("second_by", sa.String(40), nullable=True),
        sa.Column("verified_at", TZ, nullable=True),
        sa.Column("verify_note", sa.String(400), nullable=True),
        sa.Column("surveillance_by", sa.String(40), nullable=True),
        sa.Column("surveillance_note", sa.String(400), nullable=True),
        sa.Column("surveillance_at", TZ, nullable=True),
        sa.Column("paid_by", sa.String(40), nullable=True),
        sa.Column("paid_at", TZ, nullable=True),
    )
    op.create_table(
        "progressive_changes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("pool", sa.String(40), nullable=False, index=True),
        sa.Column("at", TZ, nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("first_by", sa.String(40), nullable=False),
        sa.Column("second_by", sa.String(40), nullable=False),
        sa.Column("reason", sa.String(400), nullable=False),
        sa.Column("before_json", sa.Text, nullable=False),
        sa.Column("after_json", sa.Text, nullable=False),
    )
    op.create_table(
        "pan_fee_periods",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("room_tables.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("paid_until", TZ, nullable=False),
    )


def downgrade() -> None:
    for name in ("pan_fee_periods", "progressive_changes", "progressive_hits",
                 "progressive_award_meters", "progressive_table_meters"):
        op.drop_table(name)
    with op.batch_alter_table("jackpot_pools") as batch:
        for name in ("opening_tx", "opening", "reserve", "reserve_limit", "reserve_rate"):
            batch.drop_column(name)
