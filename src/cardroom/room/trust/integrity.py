"""The room's integrity check: the audit chain, the ledger against the chain, and the books.

The ledger's rows are not hash-chained themselves; every transaction is recorded in the chain
instead (`ledger.tx` entries, `cardroom.room.money.ledger.tx_record`), so the ledger the database
holds must be exactly the ledger the chain describes: every transaction with the same key,
kind, actor and entries, no transaction the chain does not know, and every account's balance
equal to the chain's total for it. A check may start from an earlier sound `Checkpoint` and
read only what was written since (the `/audit` page does, on every load); the per-account totals
and the transaction count still cover the whole ledger, but an edit to an old transaction that
leaves every account's total as it was is found only by a full check, as are the slips and
accounts held to the chain's record of them (`records_check`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from cardroom.money import format_money
from cardroom.room.compliance import currency, suspicious
from cardroom.room.money import ledger
from cardroom.room.storage import audit
from cardroom.room.storage.schema import (
    audit_log,
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
)
from cardroom.room.trust import records_check

TxRecord = tuple[str, str, str, tuple[tuple[str, int], ...]]
"""A transaction as (key, kind, actor, sorted (account, amount) pairs)."""


@dataclass(frozen=True)
class Checkpoint:
    """Where a sound check ended: the chain's last entry, the chain's total per ledger account
    and its count of ledger transactions."""
    chain: audit.Checkpoint = audit.START
    entries: int = 0
    totals: Mapping[str, int] = field(default_factory=dict)
    transactions: int = 0


@dataclass(frozen=True)
class Report(audit.Verification[Checkpoint]):
    checked_from: int
    """The first entry this check read (1 for a full check)."""


@dataclass
class _ChainLedger:
    """Collects the chain's `ledger.tx` entries as the chain is walked."""
    totals: dict[str, int]
    transactions: int
    records: dict[int, TxRecord] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def __call__(self, e: audit.AuditEntry) -> None:
        if e.action != ledger.TX_ACTION:
            return
        try:
            data = e.data
            tx_id, pairs = int(data["tx"]), [(str(n), int(a)) for n, a in data["entries"]]
            record = (str(data["key"]), str(data["kind"]), e.actor, tuple(sorted(pairs)))
        except (ValueError, KeyError, TypeError):
            self.problems.append(f"entry {e.seq} is not a readable ledger record")
            return
        if tx_id in self.records:
            self.problems.append(f"entry {e.seq} records ledger transaction {tx_id} again")
        self.records[tx_id] = record
        self.transactions += 1
        for name, amount in pairs:
            self.totals[name] = self.totals.get(name, 0) + amount


def check(conn: Connection, key: bytes | None = None, since: Checkpoint | None = None
          ) -> Report:
    """Check everything (or, from `since`, what was written after it). Run it in one
    `Storage.snapshot()`."""
    start = since or Checkpoint()
    seen = _ChainLedger(dict(start.totals), start.transactions)
    records = records_check.ChainRecords()

    def observe(e: audit.AuditEntry) -> None:
        seen(e)
        records(e)

    chain = audit.verify(conn, key, start.chain, observe if since is None else seen)
    problems = [*chain.problems, *seen.problems, *_ledger_problems(conn, seen, since is None),
                *(records_check.problems(conn, records) if since is None else []),
                *(currency.problems(conn) if since is None else []),
                *(suspicious.problems(conn) if since is None else [])]
    entries = start.entries + chain.entries
    reached = start if problems else Checkpoint(chain.reached, entries, seen.totals,
                                                seen.transactions)
    return Report(entries, tuple(problems), chain.keyed, reached, start.chain.seq + 1)


def _db_transactions(conn: Connection, from_id: int) -> dict[int, TxRecord]:
    names = dict(conn.execute(select(ledger_accounts.c.id, ledger_accounts.c.name)).all())
    pairs: dict[int, list[tuple[str, int]]] = {}
    for r in conn.execute(select(ledger_entries.c.tx_id, ledger_entries.c.account_id,
                                 ledger_entries.c.amount)
                          .where(ledger_entries.c.tx_id >= from_id)):
        pairs.setdefault(int(r.tx_id), []).append((names.get(r.account_id, "?"),
                                                    int(r.amount)))
    return {int(r.id): (r.key, r.kind, r.actor, tuple(sorted(pairs.get(int(r.id), []))))
            for r in conn.execute(select(ledger_transactions.c.id, ledger_transactions.c.key,
                                         ledger_transactions.c.kind,
                                         ledger_transactions.c.actor)
                                  .where(ledger_transactions.c.id >= from_id))}


def _ledger_problems(conn: Connection, seen: _ChainLedger, full: bool) -> list[str]:
    problems: list[str] = []
    from_id = 0 if full else min(seen.records, default=None) or 0
    if full or seen.records:
        held = _db_transactions(conn, from_id)
        for tx_id, record in seen.records.items():
            if tx_id not in held:
                problems.append(f"ledger transaction {tx_id} is in the audit chain but was "
                                "deleted from the ledger")
            elif held[tx_id] != record:
                problems.append(f"ledger transaction {tx_id} differs from the audit chain's "
                                "record of it: edited in the database")
        for tx_id in sorted(held.keys() - seen.records.keys()):
            problems.append(f"ledger transaction {tx_id} is not in the audit chain: "
                            "inserted in the database directly")
    count = conn.execute(select(func.count()).select_from(ledger_transactions)).scalar_one()
    if count != seen.transactions:
        problems.append(f"the ledger holds {count} transactions but the audit chain records "
                        f"{seen.transactions}")
    balances = ledger.balances(conn)
    for name in sorted(balances.keys() | seen.totals.keys()):
        held_cents, chained = balances.get(name, 0), seen.totals.get(name, 0)
        if held_cents != chained:
            problems.append(f"account {name} holds {format_money(held_cents)} but the audit "
                            f"chain's transactions give {format_money(chained)}")
    problems.extend(_books_problems(ledger.trial_balance(conn)))
    return problems


def _books_problems(books: ledger.TrialBalance) -> list[str]:
    out = [f"ledger transaction {t} does not sum to zero" for t in books.unbalanced_transactions]
    out += [f"account {n}'s balance is not the sum of its entries"
            for n in books.mismatched_accounts]
    out += [f"account {n} is below zero" for n in books.negative_accounts]
    if books.total:
        out.append(f"the balances sum to {format_money(books.total)}, not zero")
    return out


def needs_seal(conn: Connection) -> bool:
    """Whether the log holds entries without a MAC (written before the room had its key)."""
    audit.flush(conn)
    return conn.execute(select(audit_log.c.seq).where(audit_log.c.mac.is_(None))
                        .limit(1)).first() is not None


def seal(conn: Connection, key: bytes) -> dict[str, Any]:
    """Adopt a room that predates the key and the ledger's coverage (call in `Storage.unit()`,
    on a storage holding `key`; only `keying.adopt` does, for books never keyed): record in
    the chain every ledger transaction it lacks, write an `audit.sealed` entry naming the key,
    MAC every entry that has no MAC, and record the key's fingerprint. What is sealed is
    trusted as it stands now, so a broken chain, or a ledger that disagrees with its records,
    is refused."""
    seen = _ChainLedger({}, 0)
    chain = audit.verify(conn, None, audit.START, seen)
    held = _db_transactions(conn, 0)
    differing = [t for t, record in seen.records.items() if held.get(t) != record]
    if not chain.ok or seen.problems or differing:
        raise audit.ChainBroken("the audit chain or the ledger is not sound; it cannot be "
                                "sealed: " + "; ".join([*chain.problems, *seen.problems]
                                                        + [f"ledger transaction {t} differs"
                                                           for t in differing]))
    missing = sorted(held.keys() - seen.records.keys())
    for tx_id in missing:
        tx_key, kind, actor, pairs = held[tx_id]
        audit.append(conn, actor, ledger.TX_ACTION, ledger.tx_record(tx_id, tx_key, kind, pairs))
    audit.flush(conn)
    unkeyed = conn.execute(select(func.count()).select_from(audit_log)
                           .where(audit_log.c.mac.is_(None))).scalar_one()
    detail: dict[str, Any] = {"ledger_recorded": missing, "unkeyed_entries": unkeyed,
                              "key": audit.key_id(key)}
    audit.append(conn, "house", "audit.sealed", detail)
    audit.mac_entries(conn, key)
    audit.record_key(conn, key)
    return detail
