"""What the cashier's window reads (issue 23, "The cage"): the cage's movements as receipts, a
person's day at the cage, and a cashier's drawer.

Every chip sale, redemption, fill and credit is one ledger transaction that moves
`house:cage`; its transaction number is the receipt's number (no other movement shares it, and
it is written when the money moves, so a receipt cannot be numbered ahead of its sale). The
regulator's consecutively numbered forms are the fill and credit slips
(`cardroom.room.books.table_books`), which a fill or credit receipt names. Reading only: nothing
here writes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from cardroom.money import Cents
from cardroom.room.books.operations_report import CAGE_KINDS
from cardroom.room.money import ledger, tenders
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Account
from cardroom.room.storage.schema import (
    accounts,
    cage_checks,
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
    room_tables,
)
from cardroom.room.storage.settings import GamblingClock

RECENT = 12
"""How many of the cage's latest movements its page lists."""
SALE_TENDERS = {kind: tender for tender, kind in tenders.SALE_KINDS.items()}
"""The tender of each sale's ledger kind."""
WITH_PLAYER = (*tenders.SALE_KINDS.values(), "cage-redeem")
"""The movements a player takes part in (the rest move chips between the cage and a table)."""


@dataclass(frozen=True)
class CageMove:
    """One movement of the cage, as its receipt says it: `amount` the chips moved (positive);
    `player` the account for a sale or a redemption, `table` the table of a fill or credit."""

    number: int
    kind: str
    amount: Cents
    cashier: str
    at: datetime
    player: str | None
    table: str | None

    @property
    def words(self) -> str:
        """What it was, in words ("chips sold for cash")."""
        return CAGE_KINDS[self.kind]

    @property
    def tender(self) -> str | None:
        """How a sale was paid for, in words; None for anything else."""
        paid = SALE_TENDERS.get(self.kind)
        return None if paid is None else tenders.TENDERS[paid]

    @property
    def with_whom(self) -> str:
        """The player or the table it was with."""
        return self.player or self.table or ""


@dataclass(frozen=True)
class Receipt:
    """A sale or a redemption, printed for the player: their patron's name, and a check's
    number when one paid."""

    move: CageMove
    patron_name: str | None
    check_number: str | None


@dataclass(frozen=True)
class Drawer:
    """What one cashier's window took and paid today: the cash (a debit card's slip and a
    check are not cash, and count apart) and the chips sent to and taken from the tables."""

    cash_in: Cents
    debit: Cents
    checks: Cents
    cash_out: Cents
    fills: Cents
    credits: Cents

    @property
    def cash(self) -> Cents:
        """The cash the drawer holds beyond its opening bank: taken less paid."""
        return self.cash_in - self.cash_out


def drawer(by_kind: Mapping[str, Cents]) -> Drawer:
    """A cashier's drawer from their line of the cage report (amount per ledger kind)."""
    return Drawer(by_kind.get(tenders.SALE_KINDS["cash"], 0),
                  by_kind.get(tenders.SALE_KINDS["debit"], 0),
                  by_kind.get(tenders.SALE_KINDS["check"], 0),
                  by_kind.get("cage-redeem", 0), by_kind.get("fill", 0),
                  by_kind.get("credit", 0))


@dataclass(frozen=True)
class PersonDay:
    """A player's gambling day at the cage: their receipts, what they bought and redeemed,
    and the chips they hold now (at the cage's window, not yet at a table)."""

    moves: tuple[CageMove, ...]
    holds: Cents

    @property
    def bought(self) -> Cents:
        return sum(m.amount for m in self.moves if m.kind in SALE_TENDERS)

    @property
    def redeemed(self) -> Cents:
        return sum(m.amount for m in self.moves if m.kind == "cage-redeem")


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=UTC)


_CAGE_SIDE = (ledger.entry_rows(ledger_transactions.c.id, ledger_transactions.c.kind,
                                ledger_transactions.c.actor, ledger_transactions.c.created_at,
                                ledger_entries.c.amount)
              .where(ledger_accounts.c.name == ledger.HOUSE_CAGE,
                     ledger_transactions.c.kind.in_(list(CAGE_KINDS))))


def _counterparts(conn: Connection, tx_ids: list[int]) -> dict[int, tuple[str | None,
                                                                            str | None]]:
    """For each transaction, the player (a wallet's account) or the table (a tray's) the
    cage moved chips with."""
    if not tx_ids:
        return {}
    names = conn.execute(ledger.entry_rows(ledger_entries.c.tx_id, ledger_accounts.c.name)
                         .where(ledger_entries.c.tx_id.in_(tx_ids))).all()
    wallets = {int(n.removeprefix("wallet:")) for _, n in names if n.startswith("wallet:")}
    trays = {int(n.removeprefix(ledger.TRAY_PREFIX)) for _, n in names
             if n.startswith(ledger.TRAY_PREFIX)}
    users = dict(conn.execute(select(accounts.c.id, accounts.c.username)
                              .where(accounts.c.id.in_(wallets))).all()) if wallets else {}
    tables = dict(conn.execute(select(room_tables.c.id, room_tables.c.name)
                               .where(room_tables.c.id.in_(trays))).all()) if trays else {}
    found: dict[int, tuple[str | None, str | None]] = {}
    for tx, name in names:
        player, table = found.get(tx, (None, None))
        if name.startswith("wallet:"):
            player = users.get(int(name.removeprefix("wallet:")))
        elif name.startswith(ledger.TRAY_PREFIX):
            table = tables.get(int(name.removeprefix(ledger.TRAY_PREFIX)))
        found[tx] = (player, table)
    return found


def _moves(conn: Connection, rows: list[Any]) -> list[CageMove]:
    sides = _counterparts(conn, [int(r.id) for r in rows])
    return [CageMove(int(r.id), r.kind, abs(int(r.amount)), r.actor, _aware(r.created_at),
                     *sides.get(int(r.id), (None, None))) for r in rows]


def recent(conn: Connection, limit: int = RECENT) -> list[CageMove]:
    """The cage's latest movements, the newest first."""
    rows = conn.execute(_CAGE_SIDE.order_by(ledger_transactions.c.id.desc()).limit(limit))
    return _moves(conn, list(rows))


def receipt(conn: Connection, number: int) -> Receipt | None:
    """The receipt of a sale or a redemption (None: no such movement of a player at the
    cage)."""
    rows = list(conn.execute(_CAGE_SIDE.where(ledger_transactions.c.id == number,
                                              ledger_transactions.c.kind.in_(WITH_PLAYER))))
    if not rows:
        return None
    move = _moves(conn, rows)[0]
    player = conn.execute(select(accounts.c.id).where(accounts.c.username == move.player)
                          ).scalar_one_or_none()
    patron = None if player is None else patrons.patron_of(conn, player)
    check = conn.execute(select(cage_checks.c.number).where(cage_checks.c.tx_id == number)
                         ).scalar_one_or_none()
    return Receipt(move, None if patron is None else patron.legal_name, check)


def person_day(conn: Connection, clock: GamblingClock, player: Account, day: date
               ) -> PersonDay:
    """`player`'s sales and redemptions at the cage on the gambling day `day`, oldest first,
    and the chips they hold at the window now."""
    start, end = clock.bounds(day)
    mine = (select(ledger_entries.c.tx_id)
            .join(ledger_accounts, ledger_accounts.c.id == ledger_entries.c.account_id)
            .where(ledger_accounts.c.name == ledger.wallet(player.id)))
    rows = conn.execute(_CAGE_SIDE.where(ledger_transactions.c.id.in_(mine),
                                         ledger_transactions.c.kind.in_(WITH_PLAYER),
                                         ledger_transactions.c.created_at >= start,
                                         ledger_transactions.c.created_at < end)
                        .order_by(ledger_transactions.c.id))
    return PersonDay(tuple(_moves(conn, list(rows))),
                     ledger.balance(conn, ledger.wallet(player.id)))
