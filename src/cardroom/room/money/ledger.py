"""A double-entry ledger in integer cents.

Every movement of money is one transaction whose entries sum to zero. Accounts of people and
tables may never go below zero (checked here with a clear message, and by a CHECK constraint in
the database); only the house's own contra accounts may. Each transaction carries an
idempotency key and a fingerprint of the request it applied (the request as the client stated
it, or else the transaction's kind and entries): the same key with the same request is a retry,
answered as applied and applied once; the same key with a different request is refused.

Each transaction is also written to the audit chain (a `ledger.tx` entry naming its accounts
and amounts), so rows inserted, edited or deleted in the ledger tables directly, even balanced
ones, no longer agree with the chain (`cardroom.room.books`).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    TextClause,
    bindparam,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection

from cardroom.money import Cents, format_money, require_cents
from cardroom.room.storage import audit
from cardroom.room.storage.db import unit_memo
from cardroom.room.storage.errors import IdempotencyConflict, LedgerError
from cardroom.room.storage.pipeline import ahead, deferred, on_driver
from cardroom.room.storage.schema import ledger_accounts, ledger_entries, ledger_transactions

HOUSE_CAGE = "house:cage"
"""Chips issued against cash: negative by the chips outstanding."""
HOUSE_BANK = "house:bank"
"""The house's own chips outside the cage and the trays (the banked games' win and loss is in
each table's tray, `tray`; Pan's house players have their own account, `house_players`)."""
HOUSE_COMMISSION = "house:commission"
JACKPOT_SEED = "house:jackpot-seed"
"""House money put into progressive pools as seed (not recovered)."""
JACKPOT_ADJUST = "house:jackpot-adjustments"

HOUSE_VARIANCE = "house:tray-variance"
"""What opening counts found over (or short of) the books' trays: kept apart from the win."""

NEGATIVE_ALLOWED = frozenset({HOUSE_CAGE, HOUSE_BANK, JACKPOT_SEED, JACKPOT_ADJUST,
                              HOUSE_VARIANCE})
TRAY_PREFIX = "tray:"
"""A house-banked table's chip tray: the house's side of every wager settled there. A tray
may run below zero in the books rather than stop a hand mid-settlement (a real dealer calls
for a fill first); a table cannot be closed on a tray below zero."""


HOUSE_PLAYERS_PREFIX = "house:players:"


def may_go_negative(name: str) -> bool:
    return name in NEGATIVE_ALLOWED or name.startswith((TRAY_PREFIX, HOUSE_PLAYERS_PREFIX))


def house_players(table_id: int) -> str:
    """The house's stake in its proposition players at one Pan table (the house bots: licensed,
    disclosed players of the house's money, docs/compliance.md): their buy-ins come from it
    and their chips go back to it, so what it is short is what they hold or have won."""
    return f"{HOUSE_PLAYERS_PREFIX}{table_id}"


def wallet(account_id: int) -> str:
    return f"wallet:{account_id}"


def stack(table_id: int, account_id: int) -> str:
    return f"stack:{table_id}:{account_id}"


def tray(table_id: int) -> str:
    return f"{TRAY_PREFIX}{table_id}"


def wagers(table_id: int) -> str:
    return f"wagers:{table_id}"


def held(table_id: int) -> str:
    """Wager payouts of the table held for surveillance (WAC 230-15-320(4)): out of the tray,
    not yet the winner's (`cardroom.room.compliance.surveillance`)."""
    return f"held:{table_id}"


FEES_PREFIX = "house:fees:"
"""The house accounts of the fees the games collect at their tables (Pan's), one a table."""


def fees_prefix(game: str) -> str:
    """The start of the names of a game's fee accounts (`house:fees:pan:`)."""
    return f"{FEES_PREFIX}{game}:"


def fees(game: str, table_id: int) -> str:
    """The house account that holds one table's fees, and nothing else (WAC 230-15-075: apart
    from every other house account): `house:fees:<game>:<table>` (`house:fees:pan:7`)."""
    return f"{fees_prefix(game)}{table_id}"


def jackpot(pool: str) -> str:
    return f"jackpot:{pool}"


def jackpot_reserve(pool: str) -> str:
    """The pool's hidden reserve (seeds the next jackpot; never shown to players)."""
    return f"jackpot-reserve:{pool}"


def jackpot_pending(pool: str) -> str:
    """Top awards hit and not yet verified and paid."""
    return f"jackpot-pending:{pool}"


Postings = list[tuple[str, Cents]]
"""A transaction's entries: (account, cents), summing to zero once posted."""


def move(source: str, target: str, amount: Cents) -> Postings:
    """The entries of `amount` moving from the account `source` to `target` (the one
    builder of a two-account movement: a buy-in, a cash-out, a wager, a fill, a fee...)."""
    return [(source, -amount), (target, amount)]


@dataclass(frozen=True)
class Posted:
    tx_id: int
    replayed: bool


Request = Mapping[str, Any]
"""What a client asked for, in JSON terms (e.g. `{"bets": {"banker": 1000}}`)."""

KEY_REUSED = ("refused: this request's key was already used for a different request, so "
              "nothing was changed (a new request needs a new key: reload the page)")


def _fingerprint(kind: str, body: object) -> str:
    text = json.dumps([kind, body], separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _net(postings: Iterable[tuple[str, Cents]]) -> dict[str, Cents]:
    net: dict[str, Cents] = {}
    for name, amount in postings:
        require_cents(amount, f"entry for {name}")
        net[name] = net.get(name, 0) + amount
    return {k: v for k, v in net.items() if v != 0}


# The hot path's statements are built once (bound parameters), so an action pays neither for
# building them nor for computing their cache keys again.
_LOCK_ACCOUNTS = ("SELECT id, name, balance, allow_negative FROM ledger_accounts "
                  "WHERE name = ANY(CAST(:names AS TEXT[])) FOR UPDATE")
"""PostgreSQL: the accounts named (an array), locked to the commit."""
_SELECT_ACCOUNTS = {
    "postgresql": text(_LOCK_ACCOUNTS),
    "sqlite": text("SELECT id, name, balance, allow_negative FROM ledger_accounts "
                   "WHERE name IN (SELECT value FROM json_each(:names))")}
"""The accounts named, locked: one text whatever their number (an array, or a JSON list on
SQLite, not an expanding IN), so that it runs on the driver's cursor (`on_driver`)."""
_INSERT_ACCOUNT = (insert(ledger_accounts)
                   .values(name=bindparam("name"), allow_negative=bindparam("neg"), balance=0)
                   .returning(ledger_accounts.c.id))
_SELECT_KEY = select(ledger_transactions.c.id, ledger_transactions.c.fingerprint).where(
    ledger_transactions.c.key == bindparam("key"))
_INSERT_TX = (insert(ledger_transactions)
              .values({c: bindparam(c) for c in ("key", "fingerprint", "kind", "memo", "actor",
                                                 "created_at")})
              .returning(ledger_transactions.c.id))
_INSERT_ENTRIES = insert(ledger_entries).values(
    tx_id=bindparam("tx"), account_id=bindparam("acct"), amount=bindparam("amount"))
_ADD_BALANCE = (update(ledger_accounts)
                .where(ledger_accounts.c.id == bindparam("acct"))
                .values(balance=ledger_accounts.c.balance + bindparam("amount")))
_SELECT_BALANCE = select(ledger_accounts.c.balance).where(
    ledger_accounts.c.name == bindparam("name"))


_KEY_AND_ACCOUNTS = text(
    "WITH n AS (SELECT nextval(pg_get_serial_sequence('ledger_transactions', 'id')) AS tx), "
    "k AS (SELECT id, fingerprint FROM ledger_transactions WHERE key = :key), "
    f"a AS ({_LOCK_ACCOUNTS}) "
    "SELECT n.tx, k.id AS applied, k.fingerprint, a.id, a.name, a.balance, a.allow_negative "
    "FROM n LEFT JOIN k ON true LEFT JOIN a ON true")
"""PostgreSQL: the idempotency key's transaction (if any), the accounts the transaction is to
move, locked, and the id it will have: one round trip where there were two (issue 25). At
least one row (the id's); an account not there yet has none. One text whatever the number of
accounts (an array, not an expanding IN), so that it is sent on the driver's cursor
(`pipeline.ahead`, compiled once), without SQLAlchemy's execution path."""

_LOCKED = "ledger.locked"
"""In a unit's memo: each account the unit has locked (name -> id, balance, allow_negative),
its balance as the unit's own transactions left it. Under the writer lock and the row lock
nobody else writes it until the commit, so a later transaction of the unit reads it here."""
_UNUSED = "ledger.unused"
"""In a unit's memo: the keys this unit found unused (`replayed`, `post`), each with the id
reserved for its transaction on PostgreSQL (None on SQLite), so that `post` with the same key
neither looks again nor reads an id."""

_PENDING = "ledger.pending"
"""In a unit's memo: the look-ups sent together by `look_ahead`, by key, each read when its
key is first looked for."""

Held = tuple[int, int, bool]
"""An account as a transaction checks it: (id, balance, allow_negative)."""


def _memo(conn: Connection) -> dict[str, Any]:
    """The unit's memo (`unit_memo`); outside a unit, a new one (for one call)."""
    memo = unit_memo(conn)
    return {} if memo is None else memo


def _find_key(conn: Connection, memo: dict[str, Any], key: str, names: Iterable[str] = ()
              ) -> tuple[tuple[int, str] | None, int | None]:
    """The transaction `key` applied (its id and fingerprint), or None: the key is then kept
    in `memo` as unused, not looked up again in the unit. With it, on PostgreSQL, the id
    reserved for the key's transaction: the same statement reserves it and locks and reads
    the accounts `names` (those the transaction will move, `_KEY_AND_ACCOUNTS`), so that
    posting it reads nothing more."""
    unused: dict[str, int | None] = memo.setdefault(_UNUSED, {})
    if key in unused:
        return None, unused[key]
    if conn.dialect.name != "postgresql":
        row = on_driver(conn, _SELECT_KEY, {"key": key}).fetchone()
        if row is not None:
            return (int(row[0]), str(row[1])), None
        unused[key] = None
        return None, None
    pending = memo.get(_PENDING, {}).pop(key, None)
    rows = (pending or _look_up(conn, key, names))()
    locked = memo.setdefault(_LOCKED, {})
    for _, _, _, account, name, balance, negative in rows:
        if name is not None:  # (one the unit moved since the look-up was sent holds on)
            locked.setdefault(name, (int(account), int(balance), bool(negative)))
    tx, applied, fingerprint = rows[0][:3]
    if applied is not None:
        return (int(applied), str(fingerprint)), None
    unused[key] = int(tx)
    return None, unused[key]


def _accounts(conn: Connection, memo: dict[str, Any], names: Iterable[str]
              ) -> dict[str, Held]:
    """Each named account's (id, balance, allow_negative), locked for the unit and read once
    in it (kept in `memo`; on PostgreSQL read with the key, `_find_key`); a missing account
    is created at zero."""
    locked: dict[str, Held] = memo.setdefault(_LOCKED, {})
    names = sorted(set(names))
    if missing := [name for name in names if name not in locked]:
        postgres = conn.dialect.name == "postgresql"
        locked.update({name: (int(account), int(balance), bool(negative))
                       for account, name, balance, negative in on_driver(
                           conn, _SELECT_ACCOUNTS[conn.dialect.name],
                           {"names": missing if postgres else json.dumps(missing)})})
        for name in missing:
            if name not in locked:
                neg = may_go_negative(name)
                locked[name] = (conn.execute(_INSERT_ACCOUNT, {"name": name, "neg": neg})
                                .scalar_one(), 0, neg)
    return {name: locked[name] for name in names}


@functools.cache
def _tx_in_one(rows: int) -> TextClause:
    """PostgreSQL: the transaction row, its entries and the balances they move written by one
    statement, for a transaction of `rows` entries; nothing waits for it (`deferred`)."""
    values = ", ".join(f"(CAST(:a{i} AS INTEGER), CAST(:m{i} AS BIGINT), {i})"
                       for i in range(rows))
    return deferred(text(
        "WITH tx AS (INSERT INTO ledger_transactions "
        '(id, "key", fingerprint, kind, memo, actor, created_at) '
        "VALUES (:id, :key, :fingerprint, :kind, :memo, :actor, :created_at) RETURNING id), "
        f"v (account_id, amount, ord) AS (VALUES {values}), "
        "e AS (INSERT INTO ledger_entries (tx_id, account_id, amount) "
        "SELECT tx.id, v.account_id, v.amount FROM tx CROSS JOIN v ORDER BY v.ord), "
        "b AS (UPDATE ledger_accounts SET balance = ledger_accounts.balance + v.amount "
        "FROM v WHERE ledger_accounts.id = v.account_id) "
        "SELECT id FROM tx"))


def _write(conn: Connection, tx: dict[str, Any], moves: list[tuple[int, Cents]],
           tx_id: int | None) -> int:
    """Write the transaction `tx` and its entries (account id, amount), moving the balances;
    its id. On PostgreSQL it has the id reserved for it (`tx_id`), so nothing waits for the
    one statement that writes it (deferred)."""
    if conn.dialect.name == "postgresql":
        assert tx_id is not None  # (`_find_key` reserved it)
        params = dict(tx, id=tx_id)
        for i, (account_id, amount) in enumerate(moves):
            params[f"a{i}"], params[f"m{i}"] = account_id, amount
        on_driver(conn, _tx_in_one(len(moves)), params)
        return tx_id
    tx_id = int(on_driver(conn, _INSERT_TX, tx).fetchall()[0][0])
    moved = [{"tx": tx_id, "acct": a, "amount": m} for a, m in moves]
    on_driver(conn, _INSERT_ENTRIES, moved)
    on_driver(conn, _ADD_BALANCE, moved)
    return tx_id


def _look_up(conn: Connection, key: str, names: Iterable[str]
             ) -> Callable[[], list[tuple[Any, ...]]]:
    return ahead(conn, _KEY_AND_ACCOUNTS, {"key": key, "names": sorted(set(names))})


def look_ahead(conn: Connection, postings: Iterable[tuple[str, Iterable[str]]]) -> None:
    """On PostgreSQL, send now the look-ups of the transactions a unit is about to `post`
    (each key with the accounts it will move), all together: reading the first waits for
    them all, one round trip where each posting took one (a Pan deal's fees, one a player,
    issue 25). Elsewhere nothing: each `post` looks itself up."""
    if conn.dialect.name != "postgresql":
        return
    memo = _memo(conn)
    pending = memo.setdefault(_PENDING, {})
    for key, names in postings:
        if key not in pending and key not in memo.get(_UNUSED, {}):
            pending[key] = _look_up(conn, key, names)


def replayed(conn: Connection, key: str, kind: str, request: Request,
             moves: Iterable[str] = ()) -> bool:
    """Whether `key` has already applied this very request (a retry: answer it as applied and
    change nothing). Raises `IdempotencyConflict` if the key applied a different request.
    `moves`: the accounts the request's transaction will move, if the caller knows them: on
    PostgreSQL they are locked and read with the key, one round trip for both (`_find_key`)."""
    row, _ = _find_key(conn, _memo(conn), key, moves)
    if row is None:
        return False
    if row[1] != _fingerprint(kind, request):
        raise IdempotencyConflict(KEY_REUSED)
    return True


def post(conn: Connection, key: str, kind: str, postings: Iterable[tuple[str, Cents]], *,
         actor: str, memo: str = "", request: Request | None = None) -> Posted:
    """Apply one balanced transaction (or recognise its retry). Raises LedgerError and changes
    nothing if it is unbalanced or would take a protected account below zero, or if `key`
    applied a different request (`request`, or if none is given the kind and entries)."""
    if not key or len(key) > 160:
        raise LedgerError("every transaction needs an idempotency key of 1-160 characters")
    entries = _net(postings)
    fingerprint = _fingerprint(kind, sorted(entries.items()) if request is None else request)
    unit = _memo(conn)
    row, tx_id = _find_key(conn, unit, key, entries)
    if row is not None:
        if row[1] != fingerprint:
            raise IdempotencyConflict(KEY_REUSED)
        return Posted(row[0], replayed=True)
    if not entries:
        raise LedgerError(f"a {kind} transaction must move money: its entries net to nothing")
    if sum(entries.values()) != 0:
        raise LedgerError(f"unbalanced transaction {kind}: entries sum to "
                          f"{format_money(sum(entries.values()))}")
    accounts = _accounts(conn, unit, entries)
    for name, (_, held, allow_negative) in accounts.items():
        if held + entries[name] < 0 and not allow_negative:
            raise LedgerError(f"refused: {describe(name)} holds {format_money(held)}, "
                              f"not enough for {format_money(-entries[name])}")
    ordered = sorted(entries.items())
    tx_id = _write(conn, {"key": key, "fingerprint": fingerprint, "kind": kind,
                          "memo": memo[:400], "actor": actor[:40],
                          "created_at": datetime.now(UTC)},
                   [(accounts[name][0], amount) for name, amount in ordered], tx_id)
    unit[_UNUSED].pop(key)
    for name, amount in ordered:  # the balances as this transaction leaves them
        account_id, held, allow_negative = accounts[name]
        unit[_LOCKED][name] = (account_id, held + amount, allow_negative)
    audit.append(conn, actor, TX_ACTION, tx_record(tx_id, key, kind, ordered))
    return Posted(tx_id, replayed=False)


TX_ACTION = "ledger.tx"


def tx_record(tx_id: int, key: str, kind: str, entries: Iterable[tuple[str, Cents]]
              ) -> dict[str, object]:
    """What the audit chain records of a transaction: enough to recompute every balance."""
    return {"tx": tx_id, "key": key, "kind": kind,
            "entries": [[name, amount] for name, amount in sorted(entries)]}


def describe(name: str) -> str:
    kind = name.split(":", 1)[0]
    return {"wallet": "the chip balance", "stack": "the table stack",
            "wagers": "the wagers in play", "jackpot": "the jackpot pool",
            "tray": "the table's chip tray",
            "held": "the payouts held for surveillance"}.get(kind, name)


def entry_rows(*columns: ColumnElement[Any]) -> Select[Any]:
    """The one query of money movements: ledger entries, each joined to its transaction
    (`ledger_transactions`: when, kind, key, who) and its account (`ledger_accounts`: the
    name), selecting `columns` of the three; the caller adds its filter, grouping and order."""
    return (select(*columns).select_from(ledger_transactions)
            .join(ledger_entries, ledger_entries.c.tx_id == ledger_transactions.c.id)
            .join(ledger_accounts, ledger_accounts.c.id == ledger_entries.c.account_id))


def balance(conn: Connection, name: str) -> Cents:
    value = conn.execute(_SELECT_BALANCE, {"name": name}).scalar_one_or_none()
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
