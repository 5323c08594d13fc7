"""The cage: chips bought for cash and cashed out, each a balanced, idempotent transaction.

A player's cage requests share one key space (`cage:<account>:<key>`), so a key that bought
chips cannot also cash out: the same key is a retry of the same request or it is refused."""

from __future__ import annotations

from sqlalchemy.engine import Connection

from cardroom.money import Cents, format_money, require_cents
from cardroom.room import audit, ledger
from cardroom.room.accounts import Account, Permission
from cardroom.room.errors import LedgerError
from cardroom.room.messages import MAX_KEY

MAX_BUY_CENTS = 10_000_000


def _check(amount: Cents, key: str) -> None:
    if not 0 < len(key) <= MAX_KEY:
        raise LedgerError("this form has no valid request key: reload the page")
    require_cents(amount, "amount")
    if not 0 < amount <= MAX_BUY_CENTS:
        raise LedgerError(f"an amount must be between $0.01 and {format_money(MAX_BUY_CENTS)}")


def buy_chips(conn: Connection, who: Account, amount: Cents, key: str) -> ledger.Posted:
    who.require(Permission.CASHIER)
    _check(amount, key)
    posted = ledger.post(conn, f"cage:{who.id}:{key}", "buy-chips",
                         [(ledger.HOUSE_CAGE, -amount), (ledger.wallet(who.id), amount)],
                         actor=who.username, memo=f"buy {format_money(amount)}")
    if not posted.replayed:
        audit.append(conn, who.username, "cashier.buy", {"amount": amount, "tx": posted.tx_id})
    return posted


def cash_out(conn: Connection, who: Account, amount: Cents, key: str) -> ledger.Posted:
    who.require(Permission.CASHIER)
    _check(amount, key)
    posted = ledger.post(conn, f"cage:{who.id}:{key}", "cash-out",
                         [(ledger.wallet(who.id), -amount), (ledger.HOUSE_CAGE, amount)],
                         actor=who.username, memo=f"cash out {format_money(amount)}")
    if not posted.replayed:
        audit.append(conn, who.username, "cashier.cash-out",
                     {"amount": amount, "tx": posted.tx_id})
    return posted
