"""Progressive funds (WAC 230-15-455(2)(a)): the money accrued for a progressive is kept in its
own bank account, deposited at least weekly. The ledger knows what was accrued: every coup's
contribution to the pool's meter and to its hidden reserve (`jackpot-contribution`
transactions; the house's seed and adjustments are the house's money, not accrued from
wagers). The cage records each deposit here (the register `progressive_deposits`, audited);
what is due is what was accrued and not yet deposited, oldest first, and it is overdue once
its oldest part has waited more than seven gambling days.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.money import Cents, form_amount, format_money
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.storage import audit
from cardroom.room.storage.errors import NotFound
from cardroom.room.storage.schema import (
    jackpot_pools,
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
    progressive_deposits,
)
from cardroom.room.storage.settings import GamblingClock

DEPOSIT_EVERY = timedelta(days=7)
"""WAC 230-15-455(2)(a)(ii): "Deposit all funds accrued for progressive jackpot prizes at
least weekly"."""


@dataclass(frozen=True)
class Deposit:
    id: int
    pool: str
    at: datetime
    deposited_on: date
    amount: Cents
    recorded_by: str
    deposited_by: str
    reference: str


@dataclass(frozen=True)
class Funds:
    """Where a pool's funds stand on `today` (a gambling day)."""

    accrued: Cents
    """Every contribution since the pool opened, to the meter and to the hidden reserve."""
    deposited: Cents
    due: Cents
    """Accrued and not yet deposited."""
    oldest: date | None
    """The gambling day of the oldest contribution not yet deposited (None: nothing due)."""
    today: date
    last_deposit: date | None

    @property
    def due_by(self) -> date | None:
        """The last gambling day the deposit of what is due may wait to."""
        return None if self.oldest is None else self.oldest + DEPOSIT_EVERY

    @property
    def overdue(self) -> bool:
        return self.due_by is not None and self.today > self.due_by

    def sentence(self) -> str:
        """The state of the deposits for a person, one sentence."""
        if self.due_by is None:
            return "Every contribution accrued is deposited in the progressive account."
        what = (f"{format_money(self.due)} accrued since {self.oldest} is not yet deposited "
                "in the progressive account")
        if self.overdue:
            return f"{what}: the deposit was due by {self.due_by} (WAC 230-15-455: at least " \
                   "weekly) and is overdue."
        return f"{what}: deposit it by {self.due_by}."

    def to_json(self) -> dict[str, Any]:
        return {"accrued": self.accrued, "deposited": self.deposited, "due": self.due,
                "oldest_undeposited": self.oldest.isoformat() if self.oldest else None,
                "due_by": self.due_by.isoformat() if self.due_by else None,
                "last_deposit": self.last_deposit.isoformat() if self.last_deposit else None,
                "today": self.today.isoformat(), "overdue": self.overdue,
                "status": self.sentence()}


def _contributions(conn: Connection, pool: str) -> list[tuple[datetime, int]]:
    """Each coup's contribution to the pool (its meter and hidden reserve), oldest first."""
    names = (ledger.jackpot(pool), ledger.jackpot_reserve(pool))
    rows = conn.execute(
        ledger.entry_rows(ledger_transactions.c.created_at, func.sum(ledger_entries.c.amount))
        .where(ledger_accounts.c.name.in_(names),
               ledger_transactions.c.kind == "jackpot-contribution")
        .group_by(ledger_transactions.c.id, ledger_transactions.c.created_at)
        .order_by(ledger_transactions.c.id))
    return [(at if at.tzinfo else at.replace(tzinfo=UTC), int(amount or 0))
            for at, amount in rows]


def deposits(conn: Connection, pool: str) -> list[Deposit]:
    """The pool's deposits, newest first."""
    rows = conn.execute(select(progressive_deposits)
                        .where(progressive_deposits.c.pool == pool)
                        .order_by(progressive_deposits.c.id.desc()))
    return [Deposit(**dict(r._mapping)) for r in rows]


def funds(conn: Connection, pool: str, today: date | None = None) -> Funds:
    """What the pool accrued, what was deposited, and what is due by when."""
    clock = GamblingClock.from_env()
    today = today if today is not None else clock.day_of(datetime.now(UTC))
    made = deposits(conn, pool)
    deposited = sum(d.amount for d in made)
    covered, oldest, accrued = deposited, None, 0
    for at, amount in _contributions(conn, pool):
        accrued += amount
        if oldest is None and accrued > covered:
            oldest = clock.day_of(at)
    return Funds(accrued, deposited, accrued - deposited, oldest, today,
                 made[0].deposited_on if made else None)


def record_deposit(conn: Connection, who: Account, pool: str, amount: Cents,
                   deposited_on: date, deposited_by: str, reference: str) -> Deposit:
    """Record a deposit of the pool's accrued funds to its bank account (the cage or the
    owner): at most what is due, on a day not in the future, with the slip's reference."""
    who.require(Permission.CAGE)
    if conn.execute(select(jackpot_pools.c.name).where(jackpot_pools.c.name == pool)
                    ).first() is None:
        raise NotFound(f"there is no jackpot pool named {pool[:40]} in this room")
    form_amount(amount, "a deposit")
    reference, deposited_by = reference.strip(), deposited_by.strip()
    if not reference:
        raise CardroomError("write the deposit slip's reference")
    if not deposited_by:
        raise CardroomError("write who took the deposit to the bank")
    now = datetime.now(UTC)
    if deposited_on > now.astimezone(GamblingClock.from_env().zone).date():
        raise CardroomError("a deposit cannot be dated in the future")
    due = funds(conn, pool).due
    if amount > due:
        raise CardroomError(f"the deposit is more than the contributions not yet deposited, "
                            f"{format_money(due)}")
    new_id = conn.execute(insert(progressive_deposits).values(
        pool=pool, at=now, deposited_on=deposited_on, amount=amount,
        recorded_by=who.username, deposited_by=deposited_by[:80], reference=reference[:80])
        .returning(progressive_deposits.c.id)).scalar_one()
    audit.append(conn, who.username, "jackpot.deposit", {
        "pool": pool, "deposit": new_id, "amount": amount,
        "deposited_on": deposited_on.isoformat(), "deposited_by": deposited_by[:80],
        "reference": reference[:80]})
    return next(d for d in deposits(conn, pool) if d.id == new_id)


def deposits_json(conn: Connection, pool: str) -> list[dict[str, Any]]:
    return [{"id": d.id, "at": d.at.isoformat(), "deposited_on": d.deposited_on.isoformat(),
             "amount": d.amount, "recorded_by": d.recorded_by,
             "deposited_by": d.deposited_by, "reference": d.reference}
            for d in deposits(conn, pool)]
