"""Currency transactions, the multiple transaction log and currency transaction reports (issue
22, "Currency transactions"; 31 CFR 1021.311, 1021.313, 1010.312, 1021.410).

Every cash movement of a player is a currency transaction of their patron, derived from the
ledger: a ledger transaction of a currency kind (`KINDS`: chips sold for cash at the cage,
`cage-sale`; chips bought with cash at a table, `drop-cash`; chips redeemed for cash,
`cage-redeem`) gets one row in `currency_transactions`, written by `record` in the same database
transaction as its ledger post, so the two never disagree (`problems`, run by `audit verify`,
holds the rows to the ledger). A debit card or a check is not currency. The room pays no
winnings or jackpots in cash (they go to the player's chips), so there is no cash payout kind.

A patron's cash in and cash out are summed apart, never netted, per gaming day (the room's
06:00 day). The transaction that takes either side over the profile's threshold ($10,000) is
refused (`IdentityRequired`) until the patron's identity is on file (`patrons.identity_on_file`);
then it completes and a report item opens (`currency_reports`), due the profile's days later.
`record` runs after the ledger post, inside the room's one writer (`Storage.unit`: a process
lock and, on PostgreSQL, an advisory lock; on SQLite the ledger write holds the database's write
lock), so the day's total it reads includes every committed transaction and none can slip past
in between. A refusal raises, and the whole transaction (the ledger post too) is rolled back.

Players never see any of it: the refusal carries a neutral sentence for them
(`IdentityRequired.player_sentence`); the figures are for the cage and the compliance officer.
Rows here are never updated or deleted; a report item changes only when it is filed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, insert, select, update
from sqlalchemy.engine import Connection, Row
from sqlalchemy.sql.elements import ColumnElement

from cardroom.errors import CardroomError
from cardroom.money import Cents, format_money
from cardroom.profile import profile_in_force
from cardroom.room.money import ledger
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.storage import audit, db
from cardroom.room.storage.errors import NotFound
from cardroom.room.storage.identity_key import IdentityKey
from cardroom.room.storage.schema import (
    accounts,
    currency_reports,
    currency_transactions,
    ledger_transactions,
    room_tables,
)
from cardroom.room.storage.schema import patrons as patrons_table
from cardroom.room.storage.settings import GamblingClock

IN, OUT = "in", "out"
DIRECTIONS = {IN: "cash in", OUT: "cash out"}
KINDS: dict[str, tuple[str, str]] = {
    "cage-sale": (IN, "chip-purchase"), "drop-cash": (IN, "chip-purchase"),
    "cage-redeem": (OUT, "chip-redemption")}
"""The ledger kinds that move currency, each with its direction and its kind on the report."""
FORM_KINDS = {IN: {"chip-purchase": "purchase(s) of casino chips", "bet-of-currency":
                   "bet(s) of currency"},
              OUT: {"chip-redemption": "redemption(s) of casino chips", "payout":
                    "payment(s) on bets, jackpots"}}
"""The amounts by kind of FinCEN Form 112 (the casino CTR) that a card room can have: the
room records purchases at the cage and at tables and redemptions; it takes no bets of currency
(chips only) and pays nothing in cash but redemptions, so those lines stay at zero."""
PLAYER_SENTENCE = {IN: "The cashier needs to see you before this buy-in.",
                   OUT: "The cashier needs to see you before this cash-out."}
"""What a player is told of a refusal: no figure, no threshold, no compliance word."""
PENDING, FILED = "pending", "filed"
MAX_REFERENCE = 60

FILER_ENV = {"name": "CARDROOM_ROOM_NAME", "address": "CARDROOM_ROOM_ADDRESS",
             "ein": "CARDROOM_ROOM_EIN"}
"""The room as the filer of its reports, read from the environment like its clock."""


class IdentityRequired(CardroomError):
    """A cash transaction that would take a patron's cash in or out for the gaming day over the
    threshold, refused until their identity is on file (31 CFR 1010.312). `str()` is the
    sentence for the cashier or dealer; `player_sentence` the only thing the player hears."""

    def __init__(self, staff: str, player_sentence: str) -> None:
        super().__init__(staff)
        self.player_sentence = player_sentence


class ReportError(CardroomError):
    """A report item that cannot be filed as asked, in one sentence."""


@dataclass(frozen=True)
class Transaction:
    """One currency transaction (amount in cents; `place` "cage" or "table:<id>")."""

    id: int
    tx_id: int
    account_id: int
    player: str
    patron_id: int | None
    patron_name: str | None
    direction: str
    kind: str
    amount: Cents
    place: str
    table_id: int | None
    table_name: str | None
    employee: str
    at: datetime
    gaming_day: date

    @property
    def where(self) -> str:
        """The place in words: "cage" or "table 3 (Mini 1)"."""
        if self.table_id is None:
            return "cage"
        return f"table {self.table_id}" + (f" ({self.table_name})" if self.table_name else "")

    @property
    def who(self) -> str:
        """The patron's name, or the account's when the cage has not seen them."""
        return self.patron_name or f"{self.player} (no patron on file)"

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "ledger_tx": self.tx_id, "player": self.player,
                "patron": self.patron_id, "patron_name": self.patron_name,
                "direction": self.direction, "kind": self.kind, "amount": self.amount,
                "place": self.where, "table": self.table_id, "employee": self.employee,
                "at": _aware(self.at).isoformat(), "gaming_day": self.gaming_day.isoformat()}


@dataclass(frozen=True)
class Totals:
    """A patron's cash in and cash out for a gaming day, apart (never netted)."""

    cash_in: Cents = 0
    cash_out: Cents = 0

    def side(self, direction: str) -> Cents:
        return self.cash_in if direction == IN else self.cash_out


@dataclass(frozen=True)
class LogLine:
    """A line of the multiple transaction log: the transaction and the patron's running total
    for the gaming day in its direction, every cash transaction of the day up to it counted."""

    transaction: Transaction
    running: Cents

    def as_json(self) -> dict[str, Any]:
        return {**self.transaction.as_json(), "running_total": self.running}


@dataclass(frozen=True)
class Report:
    """A currency transaction report item: a patron's gaming day over the threshold."""

    id: int
    patron_id: int
    patron_name: str
    gaming_day: date
    cash_in_over: bool
    cash_out_over: bool
    opened_at: datetime
    opened_by: str
    due: date
    status: str
    reference: str | None
    filed_by: str | None
    filed_at: datetime | None
    transactions: tuple[Transaction, ...] = field(default=())

    @property
    def totals(self) -> Totals:
        return Totals(sum(t.amount for t in self.transactions if t.direction == IN),
                      sum(t.amount for t in self.transactions if t.direction == OUT))

    @property
    def contributing(self) -> tuple[Transaction, ...]:
        """The transactions of each side over the threshold (what the report adds up)."""
        sides = {d for d, over in ((IN, self.cash_in_over), (OUT, self.cash_out_over)) if over}
        return tuple(t for t in self.transactions if t.direction in sides)

    def overdue(self, today: date) -> bool:
        return self.status == PENDING and today > self.due

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "patron": self.patron_id, "patron_name": self.patron_name,
                "gaming_day": self.gaming_day.isoformat(), "cash_in": self.totals.cash_in,
                "cash_out": self.totals.cash_out, "cash_in_over": self.cash_in_over,
                "cash_out_over": self.cash_out_over, "opened_by": self.opened_by,
                "opened_at": _aware(self.opened_at).isoformat(), "due": self.due.isoformat(),
                "status": self.status, "reference": self.reference, "filed_by": self.filed_by,
                "filed_at": None if self.filed_at is None else _aware(self.filed_at).isoformat(),
                "transactions": [t.id for t in self.contributing]}


@dataclass(frozen=True)
class Standing:
    """How close a patron is to the threshold today: for the cashier's eyes only."""

    totals: Totals
    threshold: Cents
    floor: Cents
    identity_on_file: bool
    patron: patrons.Patron | None

    def left(self, direction: str) -> Cents:
        """What more cash in (or out) today stays within the threshold."""
        return max(0, self.threshold - self.totals.side(direction))


# figures of the profile --------------------------------------------------------------------
def threshold(day: date) -> Cents:
    """The amount over which a CTR is due (31 CFR 1021.311: $10,000), on `day`."""
    return profile_in_force().ctr_threshold.on(day).cents


def log_floor(day: date) -> Cents:
    """The multiple transaction log's floor (the profile's, $3,000), on `day`."""
    return profile_in_force().mtl_floor.on(day).cents


def due_on(day: date) -> date:
    """When a report of the gaming day `day` is due (31 CFR 1010.306(a)(1): 15 days)."""
    return day + timedelta(days=profile_in_force().ctr_due_days.on(day).days)


# reading -----------------------------------------------------------------------------------
_person_id = func.coalesce(currency_transactions.c.patron_id, accounts.c.patron_id)
"""A transaction's patron: the one linked then, or the one the account is linked to now (a
player the cage identified later in the day counts with their earlier cash)."""
_SELECT = (select(currency_transactions, accounts.c.username, _person_id.label("person"),
                  patrons_table.c.legal_name, room_tables.c.name.label("table_name"))
           .join(accounts, accounts.c.id == currency_transactions.c.account_id)
           .outerjoin(patrons_table, patrons_table.c.id == _person_id)
           .outerjoin(room_tables, room_tables.c.id == currency_transactions.c.table_id))


def _transaction(r: Row[Any]) -> Transaction:
    return Transaction(r.id, r.tx_id, r.account_id, r.username, r.person, r.legal_name,
                       r.direction, r.kind, int(r.amount), r.place, r.table_id, r.table_name,
                       r.employee, _aware(r.at), r.gaming_day)


def _of(patron_id: int | None, account_id: int | None) -> ColumnElement[bool]:
    if patron_id is not None:
        return _person_id == patron_id
    return and_(currency_transactions.c.account_id == account_id, _person_id.is_(None))


def transactions(conn: Connection, *, day: date | None = None, patron_id: int | None = None,
                 account_id: int | None = None) -> list[Transaction]:
    """Currency transactions, oldest first: of a gaming day, of a patron (every account linked
    to them), or of an account the cage has not linked to a patron; all when none is given."""
    query = _SELECT
    if day is not None:
        query = query.where(currency_transactions.c.gaming_day == day)
    if patron_id is not None or account_id is not None:
        query = query.where(_of(patron_id, account_id))
    return [_transaction(r) for r in conn.execute(
        query.order_by(currency_transactions.c.at, currency_transactions.c.id))]


def transactions_by_id(conn: Connection, ids: Iterable[int]) -> list[Transaction]:
    """The currency transactions of these ids, oldest first."""
    wanted = list(ids)
    if not wanted:
        return []
    return [_transaction(r) for r in conn.execute(_SELECT.where(
        currency_transactions.c.id.in_(wanted)).order_by(currency_transactions.c.at,
                                                         currency_transactions.c.id))]


def patron_day(conn: Connection, patron_id: int, day: date) -> list[Transaction]:
    """A patron's currency transactions on a gaming day, oldest first (the suspicious-activity
    alerts read these)."""
    return transactions(conn, day=day, patron_id=patron_id)


def totals(conn: Connection, day: date, *, patron_id: int | None = None,
           account_id: int | None = None) -> Totals:
    """A patron's (or an unidentified account's) cash in and cash out on a gaming day."""
    query = (select(currency_transactions.c.direction, func.sum(currency_transactions.c.amount))
             .join(accounts, accounts.c.id == currency_transactions.c.account_id)
             .where(currency_transactions.c.gaming_day == day, _of(patron_id, account_id))
             .group_by(currency_transactions.c.direction))
    sums = {d: int(s) for d, s in conn.execute(query)}
    return Totals(sums.get(IN, 0), sums.get(OUT, 0))


def standing(conn: Connection, player: Account, day: date, calendar_day: date | None = None
             ) -> Standing:
    """The player's patron's cash in and out on the gaming day `day`, the threshold and the
    log's floor, and whether their identity is on file (for the cage page only)."""
    patron = patrons.patron_of(conn, player.id)
    pid = None if patron is None else patron.id
    held = totals(conn, day, patron_id=pid, account_id=player.id)
    on_file = patron is not None and patrons.identity_on_file(conn, patron.id,
                                                              calendar_day or day)
    return Standing(held, threshold(day), log_floor(day), on_file, patron)


@dataclass(frozen=True)
class DayTotal:
    """A patron's (or an unidentified player's) cash in and out on a gaming day."""

    who: str
    player: str
    patron_id: int | None
    totals: Totals


def day_totals(conn: Connection, day: date) -> list[DayTotal]:
    """Every patron (and unidentified player) with cash on the gaming day, the most cash in
    or out first: what the cashier watches."""
    sums: dict[tuple[int | None, int | None], tuple[Transaction, dict[str, Cents]]] = {}
    for t in transactions(conn, day=day):
        key = (t.patron_id, None if t.patron_id is not None else t.account_id)
        _, held = sums.setdefault(key, (t, {IN: 0, OUT: 0}))
        held[t.direction] += t.amount
    out = [DayTotal(t.who, t.player, t.patron_id, Totals(held[IN], held[OUT]))
           for t, held in sums.values()]
    return sorted(out, key=lambda d: (-max(d.totals.cash_in, d.totals.cash_out), d.who))


def log(conn: Connection, day: date) -> list[LogLine]:
    """The multiple transaction log of a gaming day: every transaction at or above the floor,
    with its patron's running total for the day in its direction (all of the day's cash in that
    direction up to it, the transactions under the floor included)."""
    floor = log_floor(day)
    running: dict[tuple[str, str], Cents] = {}
    out = []
    for t in transactions(conn, day=day):
        who = f"patron:{t.patron_id}" if t.patron_id is not None else f"account:{t.account_id}"
        total = running[(who, t.direction)] = running.get((who, t.direction), 0) + t.amount
        if t.amount >= floor:
            out.append(LogLine(t, total))
    return out


def _report(conn: Connection, r: Row[Any]) -> Report:
    return Report(r.id, r.patron_id, r.legal_name, r.gaming_day, r.cash_in_over,
                  r.cash_out_over, _aware(r.opened_at), r.opened_by, r.due, r.status,
                  r.reference, r.filed_by, None if r.filed_at is None else _aware(r.filed_at),
                  tuple(patron_day(conn, r.patron_id, r.gaming_day)))


_REPORTS = select(currency_reports, patrons_table.c.legal_name).join(
    patrons_table, patrons_table.c.id == currency_reports.c.patron_id)


def reports(conn: Connection, pending: bool = False) -> list[Report]:
    """The report items, oldest gaming day first; only those not yet filed with `pending`."""
    query = _REPORTS if not pending else _REPORTS.where(currency_reports.c.status == PENDING)
    return [_report(conn, r) for r in conn.execute(
        query.order_by(currency_reports.c.gaming_day, currency_reports.c.id))]


def get_report(conn: Connection, report_id: int) -> Report:
    r = conn.execute(_REPORTS.where(currency_reports.c.id == report_id)).first()
    if r is None:
        raise NotFound("There is no such currency transaction report.")
    return _report(conn, r)


# writing -----------------------------------------------------------------------------------
def record(conn: Connection, posted: ledger.Posted, kind: str, player: Account, amount: Cents,
           employee: str, table_id: int | None = None,
           clock: GamblingClock | None = None) -> Transaction | None:
    """The currency transaction of a ledger post just made (nothing for a retry, or a kind that
    is not currency), then the threshold held: `IdentityRequired` if it takes the patron's
    cash in or out for the gaming day over the threshold and their identity is not on file;
    else, over it, the day's report item opened (or its side added). Call it in the ledger
    post's own transaction, right after it."""
    if posted.replayed or kind not in KINDS:
        return None
    direction, form_kind = KINDS[kind]
    at = _aware(conn.execute(select(ledger_transactions.c.created_at).where(
        ledger_transactions.c.id == posted.tx_id)).scalar_one())
    clock = clock or GamblingClock.from_env()
    day = clock.day_of(at)
    patron = patrons.patron_of(conn, player.id)
    pid = None if patron is None else patron.id
    row_id = conn.execute(insert(currency_transactions).values(
        tx_id=posted.tx_id, account_id=player.id, patron_id=pid, direction=direction,
        kind=form_kind, amount=amount, place="cage" if table_id is None else f"table:{table_id}",
        table_id=table_id, employee=employee[:40], at=at, gaming_day=day)
        .returning(currency_transactions.c.id)).scalar_one()
    held = totals(conn, day, patron_id=pid, account_id=player.id)
    limit = threshold(day)
    if held.side(direction) > limit:
        calendar = at.astimezone(clock.zone).date()
        if patron is None or not patrons.identity_on_file(conn, patron.id, calendar):
            raise IdentityRequired(_refusal(player, patron, direction, amount, held, limit, day),
                                   PLAYER_SENTENCE[direction])
        _open(conn, patron.id, day, held, limit, employee)
    db.after_commit(conn, _alerts_after(row_id))
    return _transaction(conn.execute(_SELECT.where(
        currency_transactions.c.id == row_id)).one())


def _alerts_after(row_id: int) -> Callable[[db.Storage], object]:
    """The suspicious-activity alerts of this transaction, computed once it has committed
    (31 CFR 1021.320; `suspicious.after_transaction`): never in the sale's transaction."""
    def work(storage: db.Storage) -> object:
        from cardroom.room.compliance import suspicious

        return suspicious.after_transaction(storage, row_id)
    return work


def _refusal(player: Account, patron: patrons.Patron | None, direction: str, amount: Cents,
             held: Totals, limit: Cents, day: date) -> str:
    who = patron.legal_name if patron is not None else player.username
    need = ("the cage has not yet recorded who this player is: record the patron with their "
            "taxpayer id and an identity document" if patron is None else
            "record their taxpayer id and a valid identity document at the cage")
    return (f"Refused until the patron's identity is on file: this {format_money(amount)} "
            f"would take {who}'s {DIRECTIONS[direction]} for the gaming day {day.isoformat()} "
            f"to {format_money(held.side(direction))}, over the {format_money(limit)} that "
            f"needs a currency transaction report (31 CFR 1021.311); {need} first "
            f"(31 CFR 1010.312). Tell the player only: \"{PLAYER_SENTENCE[direction]}\"")


def _open(conn: Connection, patron_id: int, day: date, held: Totals, limit: Cents,
          employee: str) -> None:
    over_in, over_out = held.cash_in > limit, held.cash_out > limit
    r = conn.execute(select(currency_reports).where(
        currency_reports.c.patron_id == patron_id,
        currency_reports.c.gaming_day == day)).first()
    if r is None:
        rid = conn.execute(insert(currency_reports).values(
            patron_id=patron_id, gaming_day=day, cash_in_over=over_in, cash_out_over=over_out,
            opened_at=datetime.now(UTC), opened_by=employee[:40], due=due_on(day),
            status=PENDING).returning(currency_reports.c.id)).scalar_one()
        audit.append(conn, employee, "ctr.open", {
            "report": rid, "patron": patron_id, "day": day.isoformat(),
            "due": due_on(day).isoformat(), "cash_in_over": over_in, "cash_out_over": over_out})
    elif (over_in, over_out) != (r.cash_in_over, r.cash_out_over):
        conn.execute(update(currency_reports).where(currency_reports.c.id == r.id).values(
            cash_in_over=over_in or r.cash_in_over, cash_out_over=over_out or r.cash_out_over))
        audit.append(conn, employee, "ctr.side", {
            "report": r.id, "cash_in_over": over_in or r.cash_in_over,
            "cash_out_over": over_out or r.cash_out_over})


def file_report(conn: Connection, staff: Account, report_id: int, reference: str,
                gaming_today: date) -> Report:
    """Record a report item filed with FinCEN, with the filing's reference (its BSA id). A
    report is filed once its gaming day has ended (its totals are final)."""
    staff.require(Permission.TITLE_31)
    report = get_report(conn, report_id)
    ref = " ".join(reference.split())
    if not ref or len(ref) > MAX_REFERENCE:
        raise ReportError("Write the filing's reference (the BSA identifier FinCEN gave it), "
                          f"at most {MAX_REFERENCE} characters.")
    if report.status == FILED:
        raise ReportError(f"This report was already filed ({report.reference}).")
    if report.gaming_day >= gaming_today:
        raise ReportError("This gaming day has not ended: its totals may still change, so the "
                          "report is filed from tomorrow's gaming day on.")
    conn.execute(update(currency_reports).where(currency_reports.c.id == report_id).values(
        status=FILED, reference=ref, filed_by=staff.username, filed_at=datetime.now(UTC)))
    audit.append(conn, staff.username, "ctr.filed", {"report": report_id, "reference": ref})
    return get_report(conn, report_id)


# the form ----------------------------------------------------------------------------------
def filer() -> dict[str, str]:
    """The room as the filer (its name, address and EIN, from the environment)."""
    return {k: os.environ.get(env, "").strip() or f"(not set: {env})"
            for k, env in FILER_ENV.items()}


def form(conn: Connection, staff: Account, report_id: int, key: IdentityKey | None = None
         ) -> dict[str, Any]:
    """The report's data as FinCEN Form 112 (Currency Transaction Report by Casinos) asks it:
    the person (name, address, date of birth, taxpayer id, identity document), the amounts by
    kind in and out, the date of the transactions, the room as filer, and the transactions it
    adds up. The taxpayer id and document number are in clear only for the compliance officer
    with the identity key (`patrons.reveal`, audited); anyone else sees that they are on file."""
    staff.require(Permission.TITLE_31)
    report = get_report(conn, report_id)
    person = patrons.get(conn, report.patron_id)
    clear = patrons.reveal(conn, staff, person.id, key) \
        if key is not None and staff.may(Permission.READ_IDENTITIES) else None
    hidden = "(on file: shown to the compliance officer only)"
    docs = []
    for d in person.documents:
        number = next((x.number for x in clear.documents if x.id == d.id), hidden) \
            if clear is not None else hidden
        docs.append({"kind": d.kind_words, "number": number, "issuer": d.issuer,
                     "expires": d.expires.isoformat(), "examined_by": d.checked_by,
                     "examined_on": d.checked_on.isoformat()})
    amounts: dict[str, dict[str, Cents]] = {}
    for side, over in ((IN, report.cash_in_over), (OUT, report.cash_out_over)):
        kinds = dict.fromkeys(FORM_KINDS[side], 0)
        for t in report.transactions:
            if t.direction == side:
                kinds[t.kind] = kinds.get(t.kind, 0) + t.amount
        amounts[side] = {**kinds, "total": sum(kinds.values())} if over else {"total": 0}
    return {
        "form": "FinCEN Form 112, Currency Transaction Report by Casinos",
        "report": report.id, "status": report.status, "reference": report.reference,
        "person": {"name": person.legal_name, "address": person.address,
                   "date_of_birth": person.date_of_birth.isoformat(),
                   "taxpayer_id": (clear.taxpayer_id if clear is not None
                                   else hidden if person.has_taxpayer_id else None),
                   "identity_documents": docs},
        "date_of_transaction": report.gaming_day.isoformat(),
        "cash_in": amounts[IN], "cash_out": amounts[OUT],
        "filer": filer(), "due": report.due.isoformat(),
        "transactions": [t.as_json() for t in report.contributing]}


# holding the rows to the ledger ------------------------------------------------------------
def problems(conn: Connection) -> list[str]:
    """Every way the currency rows disagree with the ledger (a cash movement without its row, a
    row without its movement, or with another amount or player), and every patron's gaming day
    over the threshold without its report item: a row edited, deleted or inserted directly."""
    out: list[str] = []
    wanted = {r.id: (r.kind, r.actor) for r in conn.execute(
        select(ledger_transactions.c.id, ledger_transactions.c.kind,
               ledger_transactions.c.actor).where(ledger_transactions.c.kind.in_(KINDS)))}
    held = {r.tx_id: r for r in conn.execute(select(currency_transactions))}
    wallets = _wallet_moves(conn, wanted)
    for tx_id in sorted(wanted.keys() - held.keys()):
        out.append(f"ledger transaction {tx_id} moved cash but has no currency transaction: "
                   "deleted in the database")
    for tx_id in sorted(held.keys() - wanted.keys()):
        out.append(f"currency transaction {held[tx_id].id} names ledger transaction {tx_id}, "
                   "which moved no cash: inserted or edited in the database")
    for tx_id in sorted(held.keys() & wanted.keys()):
        r = held[tx_id]
        direction, kind = KINDS[wanted[tx_id][0]]
        if (r.direction, r.kind, int(r.amount), r.account_id) != (
                direction, kind, *wallets.get(tx_id, (0, 0))):
            out.append(f"currency transaction {r.id} differs from ledger transaction {tx_id}: "
                       "edited in the database")
    for (pid, day), limit_over in _days_over(conn).items():
        if limit_over and not conn.execute(select(currency_reports.c.id).where(
                currency_reports.c.patron_id == pid,
                currency_reports.c.gaming_day == day)).first():
            out.append(f"patron {pid}'s cash on {day.isoformat()} went over the threshold but "
                       "there is no currency transaction report item: deleted in the database")
    return out


def _wallet_moves(conn: Connection, txs: Iterable[int]) -> dict[int, tuple[int, int]]:
    """Each transaction's player account and the amount their chips moved (unsigned)."""
    from cardroom.room.storage.schema import ledger_accounts, ledger_entries

    ids = list(txs)
    out: dict[int, tuple[int, int]] = {}
    for r in conn.execute(ledger.entry_rows(ledger_entries.c.tx_id, ledger_accounts.c.name,
                                            ledger_entries.c.amount)
                          .where(ledger_entries.c.tx_id.in_(ids),
                                 ledger_accounts.c.name.startswith("wallet:"))):
        out[int(r.tx_id)] = (abs(int(r.amount)), int(r.name.split(":", 1)[1]))
    return out


def _days_over(conn: Connection) -> dict[tuple[int, date], bool]:
    sums: dict[tuple[int, date, str], int] = {}
    for t in transactions(conn):
        if t.patron_id is not None:
            k = (t.patron_id, t.gaming_day, t.direction)
            sums[k] = sums.get(k, 0) + t.amount
    over: dict[tuple[int, date], bool] = {}
    for (pid, day, _), total in sums.items():
        over[(pid, day)] = over.get((pid, day), False) or total > threshold(day)
    return over


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def require_records(staff: Account) -> None:
    """The MTL and CTR records are for the compliance officer and the owner only."""
    staff.require(Permission.TITLE_31)



def export(conn: Connection, staff: Account, key: IdentityKey | None = None
           ) -> dict[str, list[dict[str, Any]]]:
    """Every record for an examiner (31 CFR 1021.410): the currency transactions, the multiple
    transaction log of every gaming day that has any, the report items and each one's form
    (taxpayer ids in clear only for the compliance officer with the key, as `form`)."""
    require_records(staff)
    every = transactions(conn)
    days = sorted({t.gaming_day for t in every})
    items = reports(conn)
    return {"currency_transactions": [t.as_json() for t in every],
            "mtl": [line.as_json() for d in days for line in log(conn, d)],
            "ctr": [r.as_json() for r in items],
            "ctr_forms": [form(conn, staff, r.id, key) for r in items]}
