"""A table's chips as a Washington card room keeps them (WAC 230-15-495 to -535, -090, -610).

- **Opening** (-495): dealer and floor count the tray against the last closer and both sign an
  opener slip; a count that differs produces a numbered notification of error and the books
  take the counted tray (the difference to `house:tray-variance`).
- **No play before the opener** (-495, -500): a house-banked table neither seats, takes a wager
  nor deals until its opener is signed (`closed_tables`).
- **Closing** (-535): dealer and floor count the tray into a closer slip; a count that is not
  what the books hold is recorded, not refused: a notification of error on the closer, the
  books set to the count (the difference to `house:tray-variance`, kind `closing-variance`).
- **Fills and credits** (-510 to -530): chips from the cage to the tray and back, each on a
  numbered slip signed by the cashier, the dealer and the floor, and one balanced ledger
  transaction (`house:cage` and `tray:<table>`).
- **Drop** (-090): the cash a player hands the dealer for chips from the tray, or the slip of
  their debit card (-500(2)), goes to the table's drop box; the ledger records each by its
  tender (`cardroom.room.money.tenders`: `drop-cash`, `drop-debit`; no marker, which is credit), and
  the count of each box (-610/-615), entered by two counters tender by tender, is reconciled
  against it.

Every amount a form or the drop moves through a tray, and every count of it, is a whole number
of the table's smallest chip (`_in_chips`; WAC 230-15-500: chips enter or leave the tray only
at equal value): a tray holds chips, never cents (issue 23).

Every form is numbered in its series (`SERIES`), consecutively, with no gap: the next number
is taken inside the write transaction, a number already used or one that would leave a gap is
refused, and a slip is voided (who, why, when), never deleted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.money import Cents, form_amount, format_money, off_chip
from cardroom.room.compliance import currency
from cardroom.room.money import ledger, tenders
from cardroom.room.people.accounts import Account, Permission, Role
from cardroom.room.play.messages import MAX_KEY
from cardroom.room.play.tables import banked_games, get_table, parse_rules
from cardroom.room.storage import audit
from cardroom.room.storage.errors import NotFound, PermissionDenied
from cardroom.room.storage.schema import (
    drop_counts,
    hands,
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
    room_tables,
    table_slips,
)
from cardroom.room.storage.settings import GamblingClock

SERIES = {"opener": "inventory", "closer": "inventory", "fill": "fill", "credit": "credit",
          "error": "error"}
"""Each kind of slip and the numbered series it is drawn from: openers and closers are both
table inventory slips (one series), fills, credits and notifications of error each their own."""
FORMS = {"inventory": "table inventory slip", "fill": "fill slip", "credit": "credit slip",
         "error": "notification of error"}
MOVES = {"fill": "fill", "credit": "credit"}
CLOSING_VARIANCE = "closing-variance"
"""A closing count that is not what the books hold: the tray set to the count, the difference
to `house:tray-variance` (a shortage or overage of the inventory, on a notification of
error)."""
CLOSING_VARIANCES = frozenset({CLOSING_VARIANCE, f"{CLOSING_VARIANCE}-void"})
"""A closing count's difference from the books and its reversal: not play, but in the win,
since the closer is the count (the games report's win = the play + these)."""
NOT_MOVED_BY_PLAY = frozenset({"fill", "credit", "fill-void", "credit-void", "tray-variance",
                               "tray-variance-void", *CLOSING_VARIANCES,
                               *tenders.DROPPED_KINDS.values()})
"""Ledger kinds that move a tray's chips other than by play (what is left is the table's win
from play: settlements, and anything else that pays or takes at the table)."""


@dataclass(frozen=True)
class Slip:
    id: int
    series: str
    number: int
    kind: str
    table_id: int
    amount: Cents
    opener_id: int | None
    tx_id: int | None
    created_at: datetime
    cashier: str | None
    dealer: str | None
    floor: str | None
    note: str
    status: str
    voided_by: str | None
    void_reason: str | None

    @property
    def form(self) -> str:
        return FORMS[self.series]

    @property
    def valid(self) -> bool:
        return self.status == "valid"

    def as_json(self) -> dict[str, Any]:
        return {"series": self.series, "number": self.number, "kind": self.kind,
                "table": self.table_id, "amount": self.amount, "status": self.status,
                "created_at": _aware(self.created_at).isoformat(), "cashier": self.cashier,
                "dealer": self.dealer, "floor": self.floor, "note": self.note,
                "voided_by": self.voided_by, "void_reason": self.void_reason}


def _slip(r: Any) -> Slip:
    return Slip(r.id, r.series, r.number, r.kind, r.table_id, int(r.amount), r.opener_id,
                r.tx_id, _aware(r.created_at), r.cashier, r.dealer, r.floor, r.note, r.status,
                r.voided_by, r.void_reason)


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=UTC)


# signatures and amounts ----------------------------------------------------------------------
SIGNER_ROLES = {"cashier": (Permission.CAGE, "a cashier"),
                "dealer": (Permission.DEAL, "a dealer"),
                "floor": (Permission.OPEN_TABLES, "a floor supervisor")}


def _signers(**signers: Account) -> None:
    """Each signature by someone who may give it, and no one signing twice."""
    for part, who in signers.items():
        permission, title = SIGNER_ROLES[part]
        if not who.may(permission):
            raise PermissionDenied(f"refused: {who.username} is a {who.role.value} and may not "
                                   f"sign as {title}")
    names = [who.username for who in signers.values()]
    for name in names:
        if names.count(name) > 1:
            parts = " and the ".join(p for p, w in signers.items() if w.username == name)
            raise CardroomError(f"the {parts} must be different people: {name} cannot sign "
                                "one slip twice")


def _in_chips(conn: Connection, table_id: int, amount: Cents, what: str) -> Cents:
    """`amount`, once it is a whole number of the table's smallest chip (its house rules): a
    tray holds chips, and chips enter or leave it only at equal value (WAC 230-15-500), so a
    count, a fill, a credit or chips for cash off the chip is refused in one sentence."""
    row = get_table(conn, table_id)
    if row is not None:
        why = off_chip(amount, parse_rules(row.game, row.rules).smallest_chip, what)
        if why is not None:
            raise CardroomError(why)
    return amount


def _table_name(conn: Connection, table_id: int) -> str:
    name = conn.execute(select(room_tables.c.name).where(room_tables.c.id == table_id)
                        ).scalar_one_or_none()
    if name is None:
        raise NotFound(f"there is no table {table_id}")
    return str(name)


# numbering -----------------------------------------------------------------------------------
def next_number(conn: Connection, series: str) -> int:
    last = conn.execute(select(func.max(table_slips.c.number))
                        .where(table_slips.c.series == series)).scalar_one_or_none()
    return int(last or 0) + 1


def _number(conn: Connection, kind: str, number: int | None) -> int:
    """The number the next slip of `kind`'s series takes; `number`, when the person states
    the number printed on their form, must be that one."""
    series = SERIES[kind]
    expected = next_number(conn, series)
    if number is not None and number != expected:
        form = FORMS[series]
        if number < expected:
            raise CardroomError(f"{form} number {number} is already used: the next one is "
                                f"number {expected}")
        raise CardroomError(f"{form} number {number} would leave a gap: the next one is "
                            f"number {expected}")
    return expected


def _issue(conn: Connection, kind: str, table_id: int, amount: Cents, number: int | None,
           *, note: str, cashier: str | None = None, dealer: str | None = None,
           floor: str | None = None, opener_id: int | None = None,
           tx_id: int | None = None) -> Slip:
    """Write the next slip of `kind`'s series (see `_number`)."""
    series = SERIES[kind]
    expected = _number(conn, kind, number)
    row = conn.execute(insert(table_slips).values(
        series=series, number=expected, kind=kind, table_id=table_id, amount=amount,
        opener_id=opener_id, tx_id=tx_id, created_at=datetime.now(UTC), cashier=cashier,
        dealer=dealer, floor=floor, note=note[:400], status="valid")
        .returning(*table_slips.c)).one()
    slip = _slip(row)
    audit.append(conn, floor or cashier or dealer or "?", f"slip.{kind}", {
        "series": series, "number": expected, "table": table_id, "amount": amount,
        "cashier": cashier, "dealer": dealer, "floor": floor})
    return slip


def slips(conn: Connection, table_id: int | None = None, series: str | None = None
          ) -> list[Slip]:
    q = select(table_slips).order_by(table_slips.c.series, table_slips.c.number)
    if table_id is not None:
        q = q.where(table_slips.c.table_id == table_id)
    if series is not None:
        q = q.where(table_slips.c.series == series)
    return [_slip(r) for r in conn.execute(q)]


def find_slip(conn: Connection, series: str, number: int) -> Slip:
    r = conn.execute(select(table_slips).where(table_slips.c.series == series,
                                               table_slips.c.number == number)).first()
    if r is None:
        raise NotFound(f"there is no {FORMS.get(series, 'slip')} number {number}")
    return _slip(r)


def gaps(conn: Connection) -> dict[str, list[int]]:
    """The numbers missing from each series (none, in books kept by this module)."""
    found: dict[str, list[int]] = {}
    for s in slips(conn):
        found.setdefault(s.series, []).append(s.number)
    return {series: missing for series, numbers in found.items()
            if (missing := sorted(set(range(1, max(numbers) + 1)) - set(numbers)))}


# the table's state ---------------------------------------------------------------------------
def current_opener(conn: Connection, table_id: int) -> Slip | None:
    """The opener of the table's open inventory, or None when it is closed (or never opened)."""
    r = conn.execute(select(table_slips).where(
        table_slips.c.table_id == table_id, table_slips.c.series == "inventory",
        table_slips.c.status == "valid").order_by(table_slips.c.number.desc()).limit(1)).first()
    return _slip(r) if r is not None and r.kind == "opener" else None


def errors_of(conn: Connection, inventory: Slip) -> list[Slip]:
    """The valid notifications of error of an opener or a closer."""
    return [_slip(r) for r in conn.execute(select(table_slips).where(
        table_slips.c.kind == "error", table_slips.c.opener_id == inventory.id,
        table_slips.c.status == "valid").order_by(table_slips.c.number))]


def closing_variance(conn: Connection, closer: Slip) -> Cents:
    """What the closing count was over (negative: short of) the books, on the closer's
    notifications of error (nothing when the count was the books')."""
    return sum(e.amount for e in errors_of(conn, closer))


def last_closer(conn: Connection, table_id: int) -> Slip | None:
    r = conn.execute(select(table_slips).where(
        table_slips.c.table_id == table_id, table_slips.c.kind == "closer",
        table_slips.c.status == "valid").order_by(table_slips.c.number.desc()).limit(1)).first()
    return _slip(r) if r is not None else None


def open_tables(conn: Connection) -> set[int]:
    """Tables whose latest valid table inventory slip is an opener (open for play)."""
    latest = (select(table_slips.c.table_id, func.max(table_slips.c.number).label("n"))
              .where(table_slips.c.series == "inventory", table_slips.c.status == "valid")
              .group_by(table_slips.c.table_id).subquery())
    rows = conn.execute(select(table_slips.c.table_id).join(
        latest, (latest.c.table_id == table_slips.c.table_id)
        & (latest.c.n == table_slips.c.number)).where(table_slips.c.series == "inventory",
                                                      table_slips.c.kind == "opener"))
    return {int(r.table_id) for r in rows}


def closed_tables(conn: Connection) -> set[int]:
    """Tables that may not play now: every house-banked table without an opener signed (never
    opened, or closed since: WAC 230-15-495, the tray is counted and the opener signed before
    play), and any other table whose inventory was closed."""
    opened = open_tables(conn)
    banked = banked_games()
    kept = set(conn.execute(select(table_slips.c.table_id).where(
        table_slips.c.series == "inventory", table_slips.c.status == "valid")).scalars())
    return {int(r.id) for r in conn.execute(select(room_tables.c.id, room_tables.c.game))
            if r.id not in opened and (r.game in banked or r.id in kept)}


def _require_open(conn: Connection, table_id: int, name: str) -> Slip:
    opener = current_opener(conn, table_id)
    if opener is None:
        raise CardroomError(f"{name} is closed: the floor opens it with a table inventory "
                            "first")
    return opener


def _hand_in_progress(conn: Connection, table_id: int) -> bool:
    return conn.execute(select(hands.c.id).where(hands.c.table_id == table_id,
                                                 hands.c.status == "open")).first() is not None


# opening and closing -------------------------------------------------------------------------
@dataclass(frozen=True)
class Opening:
    opener: Slip
    expected: Cents
    error: Slip | None
    """The notification of error, when the count was not the last closer."""


def open_table(conn: Connection, table_id: int, dealer: Account, floor: Account,
               counted: Cents, number: int | None = None) -> Opening:
    """Count the tray against the last closer (nothing, for a table's first opening) and
    sign the opener; a difference is a notification of error, and the books take the count."""
    _signers(dealer=dealer, floor=floor)
    name = _table_name(conn, table_id)
    _in_chips(conn, table_id, form_amount(counted, "the opening count", allow_zero=True),
              "the opening count")
    if current_opener(conn, table_id) is not None:
        raise CardroomError(f"{name} is already open")
    closer = last_closer(conn, table_id)
    expected = closer.amount if closer is not None else 0
    against = (f"against closer number {closer.number} ({format_money(expected)})"
               if closer is not None else "first opening, against an empty tray")
    opener = _issue(conn, "opener", table_id, counted, number, dealer=dealer.username,
                    floor=floor.username, opener_id=closer.id if closer else None,
                    note=f"{name}: opened with {format_money(counted)}, {against}")
    held = ledger.balance(conn, ledger.tray(table_id))
    error = None
    if counted != expected or held != counted:
        tx = None
        if held != counted:
            tx = ledger.post(conn, f"tray-variance:{opener.id}", "tray-variance",
                             ledger.move(ledger.HOUSE_VARIANCE, ledger.tray(table_id),
                                         counted - held), actor=floor.username,
                             memo=f"{name}: opening count against the books").tx_id
        diff = counted - expected
        error = _issue(conn, "error", table_id, diff, None, dealer=dealer.username,
                       floor=floor.username, opener_id=opener.id, tx_id=tx,
                       note=f"{name}: the opening count {format_money(counted)} is "
                            f"{format_money(abs(diff))} {'over' if diff > 0 else 'short of'} "
                            f"the last closer ({format_money(expected)}); reported to the "
                            "shift manager")
    return Opening(opener, expected, error)


def close_table(conn: Connection, table_id: int, dealer: Account, floor: Account,
                counted: Cents, number: int | None = None) -> Slip:
    """Count the tray into a closer. A count that is not what the books hold is a shortage (or
    an overage) of the inventory, recorded on a notification of error signed by the same
    dealer and floor (WAC 230-15-495's procedure for an error), the tray set to the count:
    never hidden by asking for a count that matches the books (issue 23)."""
    _signers(dealer=dealer, floor=floor)
    name = _table_name(conn, table_id)
    _in_chips(conn, table_id, form_amount(counted, "the closing count", allow_zero=True),
              "the closing count")
    opener = _require_open(conn, table_id, name)
    if _hand_in_progress(conn, table_id):
        raise CardroomError(f"a hand is in progress at {name}: finish or void it before "
                            "closing")
    held = ledger.balance(conn, ledger.tray(table_id))
    if held < 0:
        raise CardroomError(f"the tray of {name} holds less than nothing in the books "
                            f"({format_money(held)}): the cage fills it before it closes")
    closer = _issue(conn, "closer", table_id, counted, number, dealer=dealer.username,
                    floor=floor.username, opener_id=opener.id,
                    note=f"{name}: closed with {format_money(counted)}")
    if counted != held:
        tx = ledger.post(conn, f"closing-variance:{closer.id}", CLOSING_VARIANCE,
                         ledger.move(ledger.HOUSE_VARIANCE, ledger.tray(table_id),
                                     counted - held), actor=floor.username,
                         memo=f"{name}: closing count against the books").tx_id
        diff = counted - held
        _issue(conn, "error", table_id, diff, None, dealer=dealer.username,
               floor=floor.username, opener_id=closer.id, tx_id=tx,
               note=f"{name}: the closing count {format_money(counted)} is "
                    f"{format_money(abs(diff))} {'over' if diff > 0 else 'short of'} the "
                    f"books ({format_money(held)}); recorded on the closer signed by "
                    f"{dealer.username} and {floor.username}, reported to the shift manager")
    return closer


# fills and credits ---------------------------------------------------------------------------
def fill(conn: Connection, table_id: int, cashier: Account, dealer: Account, floor: Account,
         amount: Cents, number: int | None = None) -> Slip:
    """Chips from the cage to the table's tray on a fill slip."""
    return _move(conn, "fill", table_id, cashier, dealer, floor, amount, number)


def credit(conn: Connection, table_id: int, cashier: Account, dealer: Account,
           floor: Account, amount: Cents, number: int | None = None) -> Slip:
    """Chips from the table's tray back to the cage on a credit slip."""
    return _move(conn, "credit", table_id, cashier, dealer, floor, amount, number)


def _move(conn: Connection, kind: str, table_id: int, cashier: Account, dealer: Account,
          floor: Account, amount: Cents, number: int | None) -> Slip:
    _signers(cashier=cashier, dealer=dealer, floor=floor)
    name = _table_name(conn, table_id)
    _in_chips(conn, table_id, form_amount(amount, f"a {kind}"), f"a {kind}")
    _require_open(conn, table_id, name)
    sign = 1 if kind == "fill" else -1
    slip_number = _number(conn, kind, number)
    if kind == "credit":
        held = ledger.balance(conn, ledger.tray(table_id))
        if amount > held:
            raise CardroomError(f"the tray of {name} holds {format_money(held)}: it cannot "
                                f"credit {format_money(amount)} to the cage")
    tx = ledger.post(conn, f"slip:{kind}:{slip_number}", MOVES[kind],
                     ledger.move(ledger.HOUSE_CAGE, ledger.tray(table_id), sign * amount),
                     actor=cashier.username,
                     memo=f"{name}: {kind} {format_money(amount)}")
    return _issue(conn, kind, table_id, amount, slip_number, cashier=cashier.username,
                  dealer=dealer.username, floor=floor.username, tx_id=tx.tx_id,
                  note=f"{name}: {kind} of {format_money(amount)}")


# voids ---------------------------------------------------------------------------------------
def void_slip(conn: Connection, who: Account, series: str, number: int, reason: str) -> Slip:
    """Write VOID on a slip (who, why, when); its effect on the books is reversed. Only what
    nothing has been built on since may be voided: a fill or credit of the table's open
    inventory, or the table's latest inventory slip."""
    who.require(Permission.VOID)
    reason = reason.strip()
    if not reason:
        raise CardroomError("say why the slip is voided")
    if series not in FORMS:
        raise CardroomError(f"there is no series {series!r}: choose one of "
                            f"{', '.join(FORMS)}")
    slip = find_slip(conn, series, number)
    name = _table_name(conn, slip.table_id)
    if not slip.valid:
        raise CardroomError(f"{slip.form} number {number} is already void")
    opener = current_opener(conn, slip.table_id)
    if slip.kind == "error":
        raise CardroomError("a notification of error is voided with its opener or closer, "
                            "not alone")
    if slip.kind in MOVES:
        if opener is None or slip.created_at < opener.created_at:
            raise CardroomError(f"{name} has closed since {slip.form} number {number}: "
                                "correct it with a new slip")
        _reverse(conn, slip, who, f"{slip.kind}-void")
    elif slip.kind == "closer":
        if opener is not None or (last := last_closer(conn, slip.table_id)) is None \
                or last.id != slip.id:
            raise CardroomError(f"{slip.form} number {number} is not the table's last one")
        _void_errors(conn, slip, who, reason, f"{CLOSING_VARIANCE}-void")
    else:  # an opener
        if opener is None or opener.id != slip.id:
            raise CardroomError(f"{slip.form} number {number} is not the table's last one")
        if _tray_moved_since(conn, slip):
            raise CardroomError(f"chips have moved at {name} since it opened: close it "
                                "instead")
        _void_errors(conn, slip, who, reason, "tray-variance-void")
    _mark_void(conn, slip, who, reason)
    return find_slip(conn, series, number)


def _void_errors(conn: Connection, inventory: Slip, who: Account, reason: str,
                 kind: str) -> None:
    """Void the notifications of error of an opener or a closer, their variance reversed."""
    for err in errors_of(conn, inventory):
        _reverse(conn, err, who, kind)
        _mark_void(conn, err, who, reason)


def _mark_void(conn: Connection, slip: Slip, who: Account, reason: str) -> None:
    conn.execute(update(table_slips).where(table_slips.c.id == slip.id).values(
        status="void", voided_by=who.username, void_reason=reason[:400],
        voided_at=datetime.now(UTC)))
    audit.append(conn, who.username, "slip.void", {
        "series": slip.series, "number": slip.number, "table": slip.table_id,
        "reason": reason[:400]})


def _reverse(conn: Connection, slip: Slip, who: Account, kind: str) -> None:
    """Post the opposite of the slip's ledger transaction."""
    if slip.tx_id is None:
        return
    rows = conn.execute(ledger.entry_rows(ledger_accounts.c.name, ledger_entries.c.amount)
                        .where(ledger_entries.c.tx_id == slip.tx_id)).all()
    ledger.post(conn, f"void:{slip.series}:{slip.number}", kind,
                [(r.name, -int(r.amount)) for r in rows], actor=who.username,
                memo=f"void {slip.form} number {slip.number}")


def _tray_moved_since(conn: Connection, opener: Slip) -> bool:
    tray_id = conn.execute(select(ledger_accounts.c.id).where(
        ledger_accounts.c.name == ledger.tray(opener.table_id))).scalar_one_or_none()
    if tray_id is None:
        return False
    return conn.execute(select(ledger_entries.c.id).join(
        ledger_transactions, ledger_transactions.c.id == ledger_entries.c.tx_id).where(
        ledger_entries.c.account_id == tray_id,
        ledger_transactions.c.created_at >= opener.created_at,
        ledger_transactions.c.kind != "tray-variance").limit(1)).first() is not None


# drop and count ------------------------------------------------------------------------------
def drop_buy_in(conn: Connection, dealer: Account, table_id: int, player: Account,
                amount: Cents, key: str, tender: str = "cash") -> ledger.Posted:
    """A player hands the dealer cash (or pays by debit card) for chips from the tray: the
    cash or the card's slip goes into the table's drop box, the chips to the player. A marker
    is credit and is refused (`tenders.require`)."""
    dealer.require(Permission.DEAL)
    name = _table_name(conn, table_id)
    tender = tenders.require(tender, tenders.AT_TABLE, "at a table")
    if player.role is not Role.PLAYER:
        raise CardroomError(f"{player.username} is not a player")
    _in_chips(conn, table_id, form_amount(amount, "a buy-in"), "a buy-in of chips")
    if not 0 < len(key) <= MAX_KEY:
        raise CardroomError("this form has no valid request key: reload the page")
    _require_open(conn, table_id, name)
    posted = ledger.post(conn, f"drop:{table_id}:{key}", tenders.DROP_KINDS[tender],
                         ledger.move(ledger.tray(table_id), ledger.wallet(player.id), amount),
                         actor=dealer.username,
                         memo=f"{name}: {player.username} bought {format_money(amount)} "
                              f"of chips ({tenders.TENDERS[tender]})")
    if not posted.replayed:
        audit.append(conn, dealer.username, "table.drop", {
            "table": table_id, "player": player.username, "amount": amount, "tender": tender,
            "tx": posted.tx_id})
        currency.record(conn, posted, tenders.DROP_KINDS[tender], player, amount,
                        dealer.username, table_id)
    return posted


@dataclass(frozen=True)
class Dropped:
    """A drop box's contents by tender: cash, debit card slips, and the markers (historical)
    of a box filled before the room refused credit."""

    cash: Cents = 0
    debit: Cents = 0
    markers: Cents = 0

    @property
    def total(self) -> Cents:
        return self.cash + self.debit + self.markers

    def as_json(self) -> dict[str, Cents]:
        return {"cash": self.cash, "debit": self.debit, "markers": self.markers}


@dataclass(frozen=True)
class DropCount:
    table_id: int
    day: date
    counted: Dropped
    expected: Cents
    """What the ledger says went into the box, every tender together."""
    counters: tuple[str, str]

    @property
    def variance(self) -> Cents:
        """What the box held more (or, negative, less) than the books say went into it."""
        return self.counted.total - self.expected

    def as_json(self) -> dict[str, Any]:
        return {"table": self.table_id, "day": self.day.isoformat(), **self.counted.as_json(),
                "expected": self.expected, "variance": self.variance,
                "counters": list(self.counters)}


def tray_movements(conn: Connection, table_id: int, start: datetime, end: datetime
                   ) -> dict[str, Cents]:
    """What moved into (+) or out of (-) the table's tray between two moments, per ledger
    kind of transaction."""
    rows = conn.execute(
        ledger.entry_rows(ledger_transactions.c.kind, func.sum(ledger_entries.c.amount))
        .where(ledger_accounts.c.name == ledger.tray(table_id),
               ledger_transactions.c.created_at >= start,
               ledger_transactions.c.created_at < end)
        .group_by(ledger_transactions.c.kind))
    return {str(k): int(v) for k, v in rows}


def count_drop(conn: Connection, clock: GamblingClock, table_id: int, day: date,
               counted: Dropped, first: Account, second: Account) -> DropCount:
    """Two counters enter what one table's drop box held for a gambling day, tender by
    tender; the count is set against what the ledger says went into the box (once per box).
    Markers are counted only in a box the books say holds some (from before the room refused
    credit)."""
    for who in (first, second):
        if not who.may(Permission.COUNT):
            raise PermissionDenied(f"refused: {who.username} is a {who.role.value} and may "
                                   "not count a drop box")
    if first.username == second.username:
        raise CardroomError(f"a drop box is counted by two different people: "
                            f"{first.username} cannot count it twice")
    name = _table_name(conn, table_id)
    form_amount(counted.cash, "the cash counted", allow_zero=True)
    form_amount(counted.debit, "the debit card slips counted", allow_zero=True)
    form_amount(counted.markers, "the markers counted", allow_zero=True)
    if conn.execute(select(drop_counts.c.id).where(drop_counts.c.table_id == table_id,
                                                   drop_counts.c.gambling_day == day)).first():
        raise CardroomError(f"the drop box of {name} for {day.isoformat()} is already counted")
    books = dropped(conn, table_id, *clock.bounds(day))
    if counted.markers and not books.markers:
        raise CardroomError(f"no marker went into the drop box of {name} on "
                            f"{day.isoformat()}: the room takes no credit (WAC 230-06-035)")
    result = DropCount(table_id, day, counted, books.total, (first.username, second.username))
    conn.execute(insert(drop_counts).values(
        table_id=table_id, gambling_day=day, cash=counted.cash, debit=counted.debit,
        markers=counted.markers, expected=result.expected,
        first_counter=first.username, second_counter=second.username,
        counted_at=datetime.now(UTC)))
    audit.append(conn, first.username, "drop.count", {**result.as_json(), "table_name": name})
    return result


def drop_count(conn: Connection, table_id: int, day: date) -> DropCount | None:
    r = conn.execute(select(drop_counts).where(drop_counts.c.table_id == table_id,
                                               drop_counts.c.gambling_day == day)).first()
    if r is None:
        return None
    return DropCount(int(r.table_id), r.gambling_day,
                     Dropped(int(r.cash), int(r.debit), int(r.markers)),
                     int(r.expected), (r.first_counter, r.second_counter))


def dropped(conn: Connection, table_id: int, start: datetime, end: datetime) -> Dropped:
    """What the ledger says went into the table's drop box between two moments, by tender."""
    return _dropped(tray_movements(conn, table_id, start, end))


def _dropped(moved: dict[str, Cents]) -> Dropped:
    return Dropped(*(-moved.get(tenders.DROPPED_KINDS[t], 0)
                     for t in ("cash", "debit", "marker")))


def won_by_play(moved: dict[str, Cents]) -> Cents:
    """What play moved into (negative: out of) a tray, of its movements by kind
    (`tray_movements`): all of them but those in `NOT_MOVED_BY_PLAY`."""
    return sum(v for k, v in moved.items() if k not in NOT_MOVED_BY_PLAY)


@dataclass(frozen=True)
class SoFar:
    """A table's books over part of a gambling day that is still running (the floor's pit
    screen, over the shift so far), from what moved through its tray: the drop, the fills
    and credits (less those voided) and the win, which is the games report's (closer - opener
    + credits - fills + drop), there reconciled to what play moved into the tray and the
    closing counts' variance."""

    drop: Cents
    fills: Cents
    credits: Cents
    win: Cents


def so_far(conn: Connection, table_id: int, start: datetime, end: datetime) -> SoFar:
    """The table's `SoFar` between two moments."""
    moved = tray_movements(conn, table_id, start, end)
    return SoFar(drop=_dropped(moved).total,
                 fills=moved.get("fill", 0) + moved.get("fill-void", 0),
                 credits=-moved.get("credit", 0) - moved.get("credit-void", 0),
                 win=won_by_play(moved) + moved.get(CLOSING_VARIANCE, 0)
                 + moved.get(f"{CLOSING_VARIANCE}-void", 0))
