"""The audit log as several chains (issue 25, "a writer design that does not serialize the
whole room"): every entry names its chain (`audit_log.chain`; 0 is the room chain, where every
entry written before this revision stays), and an entry is identified by its chain and its
sequence number in that chain. Each chain's head is its own `audit_head` row (`id` = chain +
1: the room chain's head keeps id 1). Nothing of chain 0 changes, so its hashes and MACs
verify as before.

Revision ID: 0029
Revises: 0028
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

import sqlalchemy as sa
from alembic import op
from alembic.operations import BatchOperations

revision = "0029"
down_revision = "0028"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with _log(with_chain=False) as batch:
        batch.add_column(sa.Column("chain", sa.BigInteger, nullable=False,
                                   server_default="0"))
        batch.create_primary_key("audit_log_pkey", ["chain", "seq"])


def downgrade() -> None:
    """Back to one chain: refused for books that hold entries of another chain (their
    sequence numbers repeat the room chain's, and dropping them would lose history)."""
    if op.get_bind().execute(sa.text("SELECT count(*) FROM audit_log WHERE chain <> 0")
                             ).scalar():
        raise RuntimeError("the audit log holds writer chains: these books cannot go back "
                           "before revision 0029")
    op.execute("DELETE FROM audit_head WHERE id <> 1")
    with _log(with_chain=True) as batch:
        batch.create_primary_key("audit_log_pkey", ["seq"])
        batch.drop_column("chain")


def _log(with_chain: bool) -> AbstractContextManager[BatchOperations]:
    """The log's table altered with its primary key dropped: PostgreSQL's named constraint
    dropped in place; SQLite's table copied from its columns without a key (reflecting it
    would carry the old key into the copy)."""
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint("audit_log_pkey", "audit_log", type_="primary")
        return op.batch_alter_table("audit_log")
    columns: list[sa.Column[Any]] = [
        sa.Column("seq", sa.BigInteger, nullable=False, autoincrement=False),
        sa.Column("at", sa.String(40), nullable=False),
        sa.Column("actor", sa.String(40), nullable=False),
        sa.Column("action", sa.String(60), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("hash", sa.String(64), nullable=False, unique=True),
        sa.Column("mac", sa.String(64), nullable=True)]
    if with_chain:
        columns.append(sa.Column("chain", sa.BigInteger, nullable=False, server_default="0"))
    return op.batch_alter_table("audit_log", recreate="always",
                                copy_from=sa.Table("audit_log", sa.MetaData(), *columns))
