"""Tampering by someone who can write the database but does not hold the audit key, on SQLite
and PostgreSQL: each case is found by `cardroom audit verify` (the installed console script,
exit status 1) and named by the in-process check. docs/security.md, "The audit chain and the
books", lists what is and is not detected."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection, Engine

from cardroom.room import audit, integrity, ledger
from cardroom.room.anchors import write_anchor
from cardroom.room.audit_key import load_or_create_key
from cardroom.room.db import Storage, make_engine, open_database
from cardroom.room.schema import (
    audit_head,
    audit_log,
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
)

CARDROOM = Path(sys.executable).parent / "cardroom"
BUYS = 6


@pytest.fixture
def room(db_url: str, tmp_path: Path) -> Iterator[tuple[Storage, Path]]:
    """A keyed room with six chip purchases (a ledger transaction and a cashier entry each)."""
    key_file = tmp_path / "audit.key"
    key, _ = load_or_create_key(key_file)
    storage = open_database(db_url, key)
    for i in range(BUYS):
        with storage.unit() as conn:
            ledger.post(conn, f"buy:{i}", "buy-chips",
                        [(ledger.wallet(i), 1_000 * (i + 1)), (ledger.HOUSE_CAGE,
                                                               -1_000 * (i + 1))],
                        actor="cashier")
            audit.append(conn, "cashier", "cashier.buy", {"amount": 1_000 * (i + 1)})
    yield storage, key_file
    storage.engine.dispose()


def verify_cli(storage: Storage, key_file: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    url = storage.engine.url.render_as_string(hide_password=False)
    return subprocess.run([str(CARDROOM), "audit", "verify", "--database", url,
                           "--audit-key-file", str(key_file), *extra],
                          capture_output=True, text=True, timeout=120, check=False)


def problems(storage: Storage) -> str:
    with storage.snapshot() as conn:
        return " | ".join(integrity.check(conn, storage.audit_key).problems)


def attacker(storage: Storage) -> Engine:
    """A separate connection without the key: what a person with database access has."""
    return make_engine(storage.engine.url.render_as_string(hide_password=False))


def _rechain(conn: Connection, start: int) -> None:
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
    _rechain(conn, 2)


def strip_macs_and_rechain(conn: Connection) -> None:
    """Rewrite entry 2, recompute the chain, and drop every MAC (a downgrade to no key)."""
    conn.execute(update(audit_log).where(audit_log.c.seq == 2).values(actor="mallory"))
    _rechain(conn, 2)
    conn.execute(update(audit_log).values(mac=None))
    conn.execute(update(audit_head).values(mac=None))


def _account(conn: Connection, name: str) -> int:
    return int(conn.execute(select(ledger_accounts.c.id)
                            .where(ledger_accounts.c.name == name)).scalar_one())


def _move(conn: Connection, name: str, cents: int) -> None:
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
        {"tx_id": tx, "account_id": _account(conn, ledger.wallet(0)), "amount": 5_000},
        {"tx_id": tx, "account_id": _account(conn, ledger.HOUSE_CAGE), "amount": -5_000}])
    _move(conn, ledger.wallet(0), 5_000)
    _move(conn, ledger.HOUSE_CAGE, -5_000)


def edit_balanced_pair(conn: Connection) -> None:
    """The first purchase's two entries raised from $10 to $60 each way, balances to match."""
    first = conn.execute(select(ledger_transactions.c.id)
                         .order_by(ledger_transactions.c.id)).scalars().first()
    conn.execute(update(ledger_entries).where(ledger_entries.c.tx_id == first)
                 .values(amount=ledger_entries.c.amount * 6))
    _move(conn, ledger.wallet(0), 5_000)
    _move(conn, ledger.HOUSE_CAGE, -5_000)


def delete_a_transaction(conn: Connection) -> None:
    """The last purchase removed with its entries, balances put back as if it never was."""
    last = conn.execute(select(ledger_transactions.c.id)
                        .order_by(ledger_transactions.c.id.desc())).scalars().first()
    conn.execute(delete(ledger_entries).where(ledger_entries.c.tx_id == last))
    conn.execute(delete(ledger_transactions).where(ledger_transactions.c.id == last))
    _move(conn, ledger.wallet(BUYS - 1), -1_000 * BUYS)
    _move(conn, ledger.HOUSE_CAGE, 1_000 * BUYS)


CASES: dict[str, tuple[Callable[[Connection], None], str]] = {
    "tail cut, head moved back": (cut_tail_and_move_head, "does not carry the audit key's MAC"),
    "entry rewritten, chain recomputed": (rewrite_and_rechain, "are forged or rewritten"),
    "MACs stripped, chain recomputed": (strip_macs_and_rechain, "are without a MAC"),
    "balanced pair inserted": (insert_balanced_pair, "is not in the audit chain"),
    "balanced pair edited": (edit_balanced_pair, "differs from the audit chain's record"),
    "transaction deleted": (delete_a_transaction, "was deleted from the ledger"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_tampering_is_detected_with_exit_status_1(room: tuple[Storage, Path], case: str
                                                   ) -> None:
    storage, key_file = room
    tamper, named = CASES[case]
    assert problems(storage) == ""
    engine = attacker(storage)
    with engine.begin() as conn:
        tamper(conn)
    engine.dispose()
    with storage.snapshot() as conn:
        assert ledger.trial_balance(conn).ok  # the books alone still look right
    assert named in problems(storage)
    r = verify_cli(storage, key_file)
    assert r.returncode == 1, r.stdout + r.stderr
    assert named in " ".join(r.stdout.split())


def test_cut_back_to_an_old_copy_of_the_head_is_found_by_an_anchor(
        room: tuple[Storage, Path], tmp_path: Path) -> None:
    """With a copy of the head row taken earlier (an old backup) the MACs all hold after the
    tail is cut; the anchor written outside the database since then does not."""
    storage, key_file = room
    with storage.snapshot() as conn:
        saved = conn.execute(select(audit_head)).one()
    with storage.unit() as conn:
        audit.append(conn, "cashier", "cashier.note", {"after": "the copy"})
    anchors = tmp_path / "anchors"
    with storage.snapshot() as conn:
        write_anchor(anchors, load_or_create_key(key_file)[0],
                     integrity.check(conn, storage.audit_key).reached.chain)
    engine = attacker(storage)
    with engine.begin() as conn:
        conn.execute(delete(audit_log).where(audit_log.c.seq > saved.seq))
        conn.execute(update(audit_head).values(seq=saved.seq, hash=saved.hash, mac=saved.mac))
    engine.dispose()
    assert problems(storage) == ""  # the limit of the key alone (docs/security.md)
    r = verify_cli(storage, key_file, "--anchors", str(anchors))
    assert r.returncode == 1 and "the log was cut back" in r.stdout, r.stdout + r.stderr


def test_a_forged_anchor_is_refused(room: tuple[Storage, Path], tmp_path: Path) -> None:
    storage, key_file = room
    anchors = tmp_path / "anchors"
    with storage.snapshot() as conn:
        write_anchor(anchors, b"k" * 32, integrity.check(conn, storage.audit_key).reached.chain)
    r = verify_cli(storage, key_file, "--anchors", str(anchors))
    assert r.returncode == 1 and "not signed with this room's audit key" in r.stdout
