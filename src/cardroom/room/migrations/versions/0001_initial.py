"""The first schema: accounts, sessions, ledger, audit log, jackpot pools, tables, hands.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

TZ = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False,
                  index=True),
        sa.Column("created_at", TZ, nullable=False),
        sa.Column("expires_at", TZ, nullable=False),
    )
    op.create_table(
        "login_failures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(40), nullable=False, index=True),
        sa.Column("client", sa.String(64), nullable=False, index=True),
        sa.Column("at", TZ, nullable=False),
    )
    op.create_table(
        "ledger_accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(120), nullable=False, unique=True),
        sa.Column("allow_negative", sa.Boolean, nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.CheckConstraint(sa.or_(sa.column("allow_negative").is_(True),
                                  sa.column("balance") >= 0),
                           name="ck_ledger_accounts_never_negative"),
    )
    op.create_table(
        "ledger_transactions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(160), nullable=False, unique=True),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("memo", sa.String(400), nullable=False),
        sa.Column("actor", sa.String(40), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tx_id", sa.Integer, sa.ForeignKey("ledger_transactions.id"), nullable=False,
                  index=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("ledger_accounts.id"),
                  nullable=False, index=True),
        sa.Column("amount", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "audit_log",
        sa.Column("seq", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("actor", sa.String(40), nullable=False),
        sa.Column("action", sa.String(60), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("hash", sa.String(64), nullable=False, unique=True),
    )
    op.create_table(
        "audit_head",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "jackpot_pools",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("contribution", sa.BigInteger, nullable=False),
        sa.Column("meter", sa.BigInteger, nullable=False),
        sa.Column("posted", sa.BigInteger, nullable=False),
        sa.Column("posted_on", sa.Date, nullable=True),
        sa.Column("seeded_total", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "room_tables",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(60), nullable=False, unique=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("rules_json", sa.Text, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", TZ, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("table_id", sa.Integer, sa.ForeignKey("room_tables.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("seat", sa.String(40), nullable=False),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("room_tables.id"), nullable=False,
                  index=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("opened_at", TZ, nullable=False),
        sa.Column("closed_at", TZ, nullable=True),
        sa.Column("history", sa.Text, nullable=True),
        sa.Column("voided_by", sa.String(40), nullable=True),
        sa.Column("void_reason", sa.String(400), nullable=True),
        sa.UniqueConstraint("table_id", "number", name="uq_hands_table_number"),
    )
    op.create_table(
        "hand_players",
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True,
                  index=True),
    )


def downgrade() -> None:
    for name in ("hand_players", "hands", "seats", "room_tables", "jackpot_pools", "audit_head",
                 "audit_log", "ledger_entries", "ledger_transactions", "ledger_accounts",
                 "login_failures", "sessions", "accounts"):
        op.drop_table(name)
