"""The room-wide check of a gambling day: the day's reports together explain every movement of
the ledger (issue 23, "Reconciled must mean every cent").

Each kind of ledger transaction the room writes is explained by one report (`EXPLAINED`): the
games report (play at the tables, the trays, the drop, fees, commission, the jackpot's
contributions and awards, house players, variances), the cage report (chips sold and
redeemed, fills and credits), the jackpot report (seeds, adjustments, payments of top
awards, the federal tax withheld from them into `house:w2g-withholding` with their Forms
W-2G), the surveillance queue (payouts held in `held:<table>`, then verified or refused) and
the self-exclusion breaches (chips confiscated to `house:confiscated-self-exclusion`). The
check lists

- every transaction of the day whose kind no report explains (a posting made outside the
  room's own operations, or by a feature whose report does not know it yet), with its
  accounts and amounts; and
- every report of the day that does not reconcile with the ledger itself: a table whose win
  is not what play moved into its tray or whose counted drop is not the books', the cage's
  lines against `house:cage`.

`ok` only when both lists are empty; `cardroom report reconcile` exits 1 otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy.engine import Connection

from cardroom import registry
from cardroom.money import Cents, format_money
from cardroom.room.books import operations_report, table_books
from cardroom.room.compliance import exclusions
from cardroom.room.money import ledger, tenders
from cardroom.room.storage.schema import ledger_accounts, ledger_entries, ledger_transactions
from cardroom.room.storage.settings import GamblingClock

GAMES = "games report"
CAGE = "cage report"
JACKPOT = "jackpot report"
SURVEILLANCE = "surveillance queue"
EXCLUSION = "self-exclusion breaches"

EXPLAINED: dict[str, str] = {
    # play at the tables: wagers, settlements, voids, seats, a game's own steps (Pan's: tray,
    # stacks)
    **dict.fromkeys(("buy-in", "leave", "wager", "wager-returned", "settle", "void",
                     *registry.play_kinds()), GAMES),
    # the table inventories: variances of an opening count, the drop into the box
    **dict.fromkeys(("tray-variance", "tray-variance-void", *table_books.CLOSING_VARIANCES,
                     *tenders.DROPPED_KINDS.values()), GAMES),
    # Pan's fees, the progressive's share of each coup and a top award hit (games report)
    **dict.fromkeys(("fee-hand", "fee-time", "fee-rake", "jackpot-contribution",
                     "jackpot-hit"), GAMES),
    # the cage: its lines against house:cage (fills and credits are in both reports)
    **dict.fromkeys(operations_report.CAGE_KINDS, CAGE),
    # the progressive controller: the seed, a meter adjustment, a top award paid (with the
    # federal tax withheld from it into house:w2g-withholding, each on its Form W-2G)
    **dict.fromkeys(("jackpot-seed", "jackpot-adjust", "jackpot-pay"), JACKPOT),
    # payouts held for surveillance (WAC 230-15-320(4)): paid when verified, void if refused
    **dict.fromkeys(("payout-verified", "payout-refused"), SURVEILLANCE),
    # an excluded person found playing: their chips to house:confiscated-self-exclusion, each
    # a breach with its notice to the commission (WAC 230-23-030; the Self-exclusion page)
    exclusions.CONFISCATION: EXCLUSION,
}
"""Each kind of ledger transaction and the report of the day that explains it. A feature that
posts a new kind adds it here with its report; until then the check lists it."""


@dataclass(frozen=True)
class Movement:
    """One ledger transaction: when, its kind and key, who, and each account's amount."""

    tx_id: int
    at: datetime
    kind: str
    key: str
    actor: str
    memo: str
    entries: tuple[tuple[str, Cents], ...]

    def words(self) -> str:
        moved = ", ".join(f"{name} {format_money(amount)}" for name, amount in self.entries)
        return (f"transaction {self.tx_id} ({self.kind}, by {self.actor}"
                f"{': ' + self.memo if self.memo else ''}): {moved}")

    def as_json(self) -> dict[str, Any]:
        return {"tx": self.tx_id, "at": self.at.isoformat(), "kind": self.kind, "key": self.key,
                "actor": self.actor, "memo": self.memo,
                "entries": [{"account": n, "amount": a} for n, a in self.entries]}


@dataclass(frozen=True)
class Reconciliation:
    day: date
    explained: dict[str, dict[str, int]]
    """Per report, per kind: how many of the day's transactions it explains."""
    unexplained: list[Movement]
    not_reconciled: list[str]
    """Each report's own failure to agree with the ledger, in words."""

    @property
    def ok(self) -> bool:
        return not self.unexplained and not self.not_reconciled

    @property
    def transactions(self) -> int:
        return sum(sum(kinds.values()) for kinds in self.explained.values()) \
            + len(self.unexplained)

    def as_json(self) -> dict[str, Any]:
        return {"report": "reconcile", "gambling_day": self.day.isoformat(),
                "transactions": self.transactions, "explained": self.explained,
                "unexplained": [m.as_json() for m in self.unexplained],
                "not_reconciled": self.not_reconciled, "reconciled": self.ok}


def movements(conn: Connection, start: datetime, end: datetime) -> list[Movement]:
    """Every ledger transaction between two moments, with its entries."""
    rows = conn.execute(
        ledger.entry_rows(ledger_transactions.c.id, ledger_transactions.c.created_at,
                          ledger_transactions.c.kind, ledger_transactions.c.key,
                          ledger_transactions.c.actor, ledger_transactions.c.memo,
                          ledger_accounts.c.name, ledger_entries.c.amount)
        .where(ledger_transactions.c.created_at >= start,
               ledger_transactions.c.created_at < end)
        .order_by(ledger_transactions.c.id, ledger_entries.c.id)).all()
    found: dict[int, Movement] = {}
    for r in rows:
        m = found.get(r.id)
        entry = ((str(r.name), int(r.amount)),)
        found[r.id] = Movement(int(r.id), r.created_at, str(r.kind), str(r.key), str(r.actor),
                               str(r.memo or ""), entry) if m is None else \
            Movement(m.tx_id, m.at, m.kind, m.key, m.actor, m.memo, m.entries + entry)
    return list(found.values())


def reconcile(conn: Connection, clock: GamblingClock, day: date) -> Reconciliation:
    """The day's reports against every ledger movement of the gambling day (see the module)."""
    explained: dict[str, dict[str, int]] = {}
    unexplained: list[Movement] = []
    for m in movements(conn, *clock.bounds(day)):
        report = EXPLAINED.get(m.kind)
        if report is None:
            unexplained.append(m)
            continue
        kinds = explained.setdefault(report, {})
        kinds[m.kind] = kinds.get(m.kind, 0) + 1
    failures: list[str] = []
    games = operations_report.games_report(conn, clock, day)
    for line in games.lines:
        if not line.reconciled:
            failures.append(
                f"{GAMES}: {line.table}: win {format_money(line.win)} but play moved "
                f"{format_money(line.ledger_win)} into its tray (closing variance "
                f"{format_money(line.variance)}); drop {format_money(line.drop)}, in the books "
                f"{format_money(line.drop_in_books)}")
    cage = operations_report.cage_report(conn, clock, day)
    if not cage.reconciled:
        failures.append(f"{CAGE}: its lines do not add up to what house:cage moved "
                        f"({format_money(cage.cage_account_moved)})")
    return Reconciliation(day, explained, unexplained, failures)
