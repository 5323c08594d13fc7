"""A double-entry ledger in integer cents.

Every movement of money is one transaction whose entries sum to zero. Accounts of people and
tables may never go below zero (checked here with a clear message, and by a CHECK constraint in
the database); only the house's own contra accounts may. Each transaction carries an
idempotency key: posting the same request twice applies it once, and reusing a key for a
different request is refused.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from cardroom.money import Cents, format_money, require_cents
from cardroom.room.errors import IdempotencyConflict, LedgerError
from cardroom.room.schema import ledger_accounts, ledger_entries, ledger_transactions

HOUSE_CAGE = "house:cage"
"""Chips issued against cash: negative by the chips outstanding."""
HOUSE_BANK = "house:bank"
"""The house's win and loss at the banked games."""
HOUSE_COMMISSION = "house:commission"
JACKPOT_SEED = "house:jackpot-seed"
"""House money put into progressive pools as seed (not recovered)."""
JACKPOT_ADJUST = "house:jackpot-adjustments"

NEGATIVE_ALLOWED = frozenset({HOUSE_CAGE, HOUSE_BANK, JACKPOT_SEED, JACKPOT_ADJUST})


def wallet(account_id: int) -> str:
    return f"wallet:{account_id}"


def stack(table_id: int, account_id: int) -> str:
    return f"stack:{table_id}:{account_id}"


def wagers(table_id: int) -> str:
    return f"wagers:{table_id}"


def jackpot(pool: str) -> str:
    return f"jackpot:{pool}"


@dataclass(frozen=True)
class Posted:
    tx_id: int
    replayed: bool


def _fingerprint(kind: str, entries: Mapping[str, Cents]) -> str:
    body = json.dumps([kind, sorted(entries.items())], separators=(",", ":"))
    return hashlib.sha256(body.encode()).hexdigest()


def _net(postings: Iterable[tuple[str, Cents]]) -> dict[str, Cents]:
    net: dict[str, Cents] = {}
    for name, amount in postings:
        require_cents(amount, f"entry for {name}")
        net[name] = net.get(name, 0) + amount
    return {k: v for k, v in net.items() if v != 0}


def _account_ids(conn: Connection, names: Iterable[str]) -> dict[str, int]:
    names = sorted(set(names))
    rows = conn.execute(select(ledger_accounts.c.name, ledger_accounts.c.id)
                        .where(ledger_accounts.c.name.in_(names))).all()
    ids = {r.name: r.id for r in rows}
    for name in names:
        if name not in ids:
            ids[name] = conn.execute(insert(ledger_accounts).values(
                name=name, allow_negative=name in NEGATIVE_ALLOWED, balance=0)
                .returning(ledger_accounts.c.id)).scalar_one()
    return ids


def existing(conn: Connection, key: str) -> int | None:
    return conn.execute(select(ledger_transactions.c.id)
                        .where(ledger_transactions.c.key == key)).scalar_one_or_none()


def post(conn: Connection, key: str, kind: str, postings: Iterable[tuple[str, Cents]], *,
         actor: str, memo: str = "") -> Posted:
    """Apply one balanced transaction (or recognise its retry). Raises LedgerError and changes
    nothing if it is unbalanced or would take a protected account below zero."""
    if not key or len(key) > 160:
        raise LedgerError("every transaction needs an idempotency key of 1-160 characters")
    entries = _net(postings)
    fingerprint = _fingerprint(kind, entries)
    row = conn.execute(select(ledger_transactions.c.id, ledger_transactions.c.fingerprint)
                       .where(ledger_transactions.c.key == key)).first()
    if row is not None:
        if row.fingerprint != fingerprint:
            raise IdempotencyConflict(f"idempotency key {key!r} was already used for a "
                                      "different request")
        return Posted(row.id, replayed=True)
    if sum(entries.values()) != 0:
        raise LedgerError(f"unbalanced transaction {kind}: entries sum to "
                          f"{format_money(sum(entries.values()))}")
    ids = _account_ids(conn, entries)
    rows = conn.execute(select(ledger_accounts.c.id, ledger_accounts.c.name,
                               ledger_accounts.c.balance, ledger_accounts.c.allow_negative)
                        .where(ledger_accounts.c.id.in_(ids.values()))
                        .with_for_update()).all()
    for r in rows:
        after = r.balance + entries[r.name]
        if after < 0 and not r.allow_negative:
            raise LedgerError(f"refused: {describe(r.name)} holds {format_money(r.balance)}, "
                              f"not enough for {format_money(-entries[r.name])}")
    tx_id = conn.execute(insert(ledger_transactions).values(
        key=key, fingerprint=fingerprint, kind=kind, memo=memo[:400], actor=actor[:40],
        created_at=datetime.now(UTC)).returning(ledger_transactions.c.id)).scalar_one()
    conn.execute(insert(ledger_entries), [
        {"tx_id": tx_id, "account_id": ids[name], "amount": amount}
        for name, amount in sorted(entries.items())])
    for name, amount in entries.items():
        conn.execute(update(ledger_accounts).where(ledger_accounts.c.id == ids[name])
                     .values(balance=ledger_accounts.c.balance + amount))
    return Posted(tx_id, replayed=False)


def describe(name: str) -> str:
    kind = name.split(":", 1)[0]
    return {"wallet": "the chip balance", "stack": "the table stack",
            "wagers": "the wagers in play", "jackpot": "the jackpot pool"}.get(kind, name)


def balance(conn: Connection, name: str) -> Cents:
    value = conn.execute(select(ledger_accounts.c.balance)
                         .where(ledger_accounts.c.name == name)).scalar_one_or_none()
    return int(value or 0)


def balances(conn: Connection, prefix: str = "") -> dict[str, Cents]:
    q = select(ledger_accounts.c.name, ledger_accounts.c.balance)
    if prefix:
        q = q.where(ledger_accounts.c.name.startswith(prefix, autoescape=True))
    return {r.name: int(r.balance) for r in conn.execute(q)}


@dataclass(frozen=True)
class TrialBalance:
    total: Cents
    unbalanced_transactions: tuple[int, ...]
    mismatched_accounts: tuple[str, ...]
    negative_accounts: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not (self.total or self.unbalanced_transactions or self.mismatched_accounts
                    or self.negative_accounts)


def trial_balance(conn: Connection) -> TrialBalance:
    """The books balance: every transaction sums to zero, every account's balance equals the sum
    of its entries, all balances sum to zero, and no protected account is negative."""
    unbalanced = conn.execute(select(ledger_entries.c.tx_id)
                              .group_by(ledger_entries.c.tx_id)
                              .having(func.sum(ledger_entries.c.amount) != 0)).scalars().all()
    sums: dict[int, int] = dict(conn.execute(select(ledger_entries.c.account_id,
                                    func.sum(ledger_entries.c.amount))
                             .group_by(ledger_entries.c.account_id)).all())
    mismatched, negative, total = [], [], 0
    for r in conn.execute(select(ledger_accounts)):
        total += r.balance
        if int(sums.get(r.id, 0)) != r.balance:
            mismatched.append(r.name)
        if r.balance < 0 and not r.allow_negative:
            negative.append(r.name)
    return TrialBalance(total, tuple(unbalanced), tuple(mismatched), tuple(negative))
