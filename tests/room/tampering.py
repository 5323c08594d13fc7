"""Tampering as someone who can write the database but does not hold the audit key: the
cases the audit tests share (docs/security.md, "What is detected, and what is not"), on the
keyed room of `test_audit_tampering.room` (`BUYS` chip purchases), and running the installed
console script for its exit status."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine

from cardroom.room.money import ledger
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage, make_engine
from cardroom.room.storage.schema import (
    audit_head,
    audit_log,
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
)

CARDROOM = Path(sys.executable).parent / "cardroom"
BUYS = 6


def cardroom(*args: str, env: dict[str, str] | None = None,
             timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """The installed console script, as an operator or a cron job runs it (`env` replaces the
    variables it names)."""
    return subprocess.run([str(CARDROOM), *args], capture_output=True, text=True,
                          timeout=timeout, check=False, env={**os.environ, **(env or {})})


def url_of(storage: Storage) -> str:
    return storage.engine.url.render_as_string(hide_password=False)


def attacker(storage: Storage) -> Engine:
    """A separate connection without the key: what a person with database access has."""
    return make_engine(url_of(storage))


def rechain(conn: Connection, start: int) -> None:
    """Recompute every plain hash from `start` on, and the head, as an attacker can."""
    prev = conn.execute(select(audit_log.c.hash).where(audit_log.c.seq == start - 1)
                        ).scalar_one_or_none() or audit.GENESIS
    last = start
    for e in conn.execute(select(audit_log).where(audit_log.c.seq >= start)
                          .order_by(audit_log.c.seq)).all():
        digest = audit.entry_hash(e.seq, e.at, e.actor, e.action, e.detail, prev)
        conn.execute(update(audit_log).where(audit_log.c.seq == e.seq)
                     .values(prev_hash=prev, hash=digest))
        prev, last = digest, e.seq
    conn.execute(update(audit_head).values(seq=last, hash=prev))


def cut_tail_and_move_head(conn: Connection) -> None:
    """Delete the last three entries and point the head at the new last one."""
    keep = conn.execute(select(audit_log).order_by(audit_log.c.seq.desc()).offset(3)
                        .limit(1)).one()
    conn.execute(delete(audit_log).where(audit_log.c.seq > keep.seq))
    conn.execute(update(audit_head).values(seq=keep.seq, hash=keep.hash, mac=keep.mac))


def rewrite_and_rechain(conn: Connection) -> None:
    """Change who made entry 2 and recompute the chain after it, and the head."""
    conn.execute(update(audit_log).where(audit_log.c.seq == 2).values(actor="mallory"))
    rechain(conn, 2)


def strip_macs_and_rechain(conn: Connection) -> None:
    """Rewrite entry 2, recompute the chain, and drop every MAC (a downgrade to no key)."""
    conn.execute(update(audit_log).where(audit_log.c.seq == 2).values(actor="mallory"))
    rechain(conn, 2)
    conn.execute(update(audit_log).values(mac=None))
    conn.execute(update(audit_head).values(mac=None))


def account_id(conn: Connection, name: str) -> int:
    return int(conn.execute(select(ledger_accounts.c.id)
                            .where(ledger_accounts.c.name == name)).scalar_one())


def move_balance(conn: Connection, name: str, cents: int) -> None:
    conn.execute(update(ledger_accounts).where(ledger_accounts.c.name == name)
                 .values(balance=ledger_accounts.c.balance + cents))


def insert_balanced_pair(conn: Connection) -> None:
    """A made-up purchase of $50: a transaction, two entries summing to zero, balances moved
    to match, so the trial balance still holds."""
    tx = conn.execute(insert(ledger_transactions).values(
        key="buy:forged", fingerprint="0" * 64, kind="buy-chips", memo="", actor="cashier",
        created_at=conn.execute(select(ledger_transactions.c.created_at)).scalars().first())
        .returning(ledger_transactions.c.id)).scalar_one()
    conn.execute(insert(ledger_entries), [
        {"tx_id": tx, "account_id": account_id(conn, ledger.wallet(0)), "amount": 5_000},
        {"tx_id": tx, "account_id": account_id(conn, ledger.HOUSE_CAGE), "amount": -5_000}])
    move_balance(conn, ledger.wallet(0), 5_000)
    move_balance(conn, ledger.HOUSE_CAGE, -5_000)


def edit_balanced_pair(conn: Connection) -> None:
    """The first purchase's two entries raised from $10 to $60 each way, balances to match."""
    first = conn.execute(select(ledger_transactions.c.id)
                         .order_by(ledger_transactions.c.id)).scalars().first()
    conn.execute(update(ledger_entries).where(ledger_entries.c.tx_id == first)
                 .values(amount=ledger_entries.c.amount * 6))
    move_balance(conn, ledger.wallet(0), 5_000)
    move_balance(conn, ledger.HOUSE_CAGE, -5_000)


def delete_a_transaction(conn: Connection) -> None:
    """The last purchase removed with its entries, balances put back as if it never was."""
    last = conn.execute(select(ledger_transactions.c.id)
                        .order_by(ledger_transactions.c.id.desc())).scalars().first()
    conn.execute(delete(ledger_entries).where(ledger_entries.c.tx_id == last))
    conn.execute(delete(ledger_transactions).where(ledger_transactions.c.id == last))
    move_balance(conn, ledger.wallet(BUYS - 1), -1_000 * BUYS)
    move_balance(conn, ledger.HOUSE_CAGE, 1_000 * BUYS)


CASES: dict[str, tuple[Callable[[Connection], None], str]] = {
    "tail cut, head moved back": (cut_tail_and_move_head, "does not carry the audit key's MAC"),
    "entry rewritten, chain recomputed": (rewrite_and_rechain, "are forged or rewritten"),
    "MACs stripped, chain recomputed": (strip_macs_and_rechain, "are without a MAC"),
    "balanced pair inserted": (insert_balanced_pair, "is not in the audit chain"),
    "balanced pair edited": (edit_balanced_pair, "differs from the audit chain's record"),
    "transaction deleted": (delete_a_transaction, "was deleted from the ledger"),
}
