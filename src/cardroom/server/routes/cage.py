"""The cage and the table inventories (docs/operations.md): the cashier sells chips for cash, a
debit card or a check (entered in the check register, and marked when the bank returns it) and
redeems them, issues fills and receives credits, and counts drop boxes tender by tender; the
floor opens and closes tables on signed inventory slips and voids slips; a dealer sells chips at
a table for cash or a debit card, for the drop.

The person logged in signs as themselves (the cashier on a fill, the floor on an opener, the
first counter); each other signer confirms on the same form with their own password, as the
jackpot adjustment's second approver does. Every refusal is audited and changes nothing
(`Room.operate`), and comes back as one sentence on the page."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.money import format_money, parse_money
from cardroom.room import accounts as acc
from cardroom.room import checks, ledger, table_books, tenders
from cardroom.room.accounts import Account, Permission
from cardroom.room.cashier import redeem_chips, sell_chips
from cardroom.room.errors import AuthError, NotFound
from cardroom.room.operations_report import CAGE_KINDS, cage_report
from cardroom.room.room import Room
from cardroom.room.signatures import countersign
from cardroom.room.tables import list_tables
from cardroom.server.deps import Render, RoomDep, require
from cardroom.server.ids import FormCheckId, FormTableId, NextSlipNumber, SlipNumber

router = APIRouter()
Cashier = Annotated[Account, require(Permission.CAGE)]
Floor = Annotated[Account, require(Permission.OPEN_TABLES)]
Counter = Annotated[Account, require(Permission.COUNT)]
Dealer = Annotated[Account, require(Permission.DEAL)]


def back(path: str, message: str = "", error: str = "") -> Response:
    return RedirectResponse(f"{path}?" + urlencode({"message": message, "error": error}),
                            status_code=303)


def done(room: Room, who: Account, action: str, work: Callable[[Connection], Any],
         path: str, message: Callable[[Any], str]) -> Response:
    """Run one operation; back to the page saying what was done, or why it was refused."""
    try:
        result = room.operate(who, action, work)
    except CardroomError as exc:
        return back(path, error=str(exc))
    return back(path, message=message(result))


def cosigner(room: Room, who: Account, title: str, name: str, password: str) -> Account:
    """Another signer of `who`'s slip, confirming with their own password (`room.signatures`:
    failed log-ins cannot hold it back)."""
    try:
        return countersign(room.storage, who, name, password)
    except AuthError as exc:
        raise CardroomError(f"the {title}'s signature: {exc}") from None


def player(conn: Connection, name: str) -> Account:
    found = acc.find_account(conn, name)
    if found is None:
        raise NotFound(f"there is no player named {name.strip()[:40]!r}")
    return found


# the cage ------------------------------------------------------------------------------------
@router.get("/cage", response_class=HTMLResponse)
def cage(room: RoomDep, page: Render, who: Cashier, message: str = "", error: str = ""
         ) -> HTMLResponse:
    clock = room.settings.clock
    today = clock.day_of(datetime.now(UTC))
    with room.storage.read() as conn:
        tables = list_tables(conn)
        report = cage_report(conn, clock, today)
        next_fill = table_books.next_number(conn, "fill")
        next_credit = table_books.next_number(conn, "credit")
        register = [c for c in checks.register(conn) if c.status != "accepted"]
        taken = checks.register(conn, status="accepted")[:20]
    return page("cage.html", who, tables=tables, report=report, kinds=CAGE_KINDS,
                tenders=tenders.TENDERS, check_kinds=checks.KINDS,
                settlements=checks.SETTLEMENTS, register=register, taken=taken,
                calendar_day=datetime.now(clock.zone).date().isoformat(),
                next_fill=next_fill, next_credit=next_credit, today=today.isoformat(),
                key=secrets.token_urlsafe(12), message=message, error=error)


def _check(kind: str, number: str, drawer: str, bank: str, dated: str) -> checks.Check:
    """The check as the cashier copied it onto the form."""
    try:
        when = date.fromisoformat(dated.strip())
    except ValueError:
        raise CardroomError(f"{dated.strip()[:20]!r} is not the date on the check: write it as "
                            "YYYY-MM-DD") from None
    return checks.Check(kind.strip(), number, drawer, bank, when)


@router.post("/cage/sell", response_model=None)
def cage_sell(room: RoomDep, who: Cashier, player_name: str = Form(..., alias="player"),
              amount: str = Form(...), key: str = Form(...), tender: str = Form("cash"),
              check_kind: str = Form("personal"), check_number: str = Form(""),
              check_drawer: str = Form(""), check_bank: str = Form(""),
              check_date: str = Form("")) -> Response:
    """Sell a player chips for cash, a debit card, or a check (its data recorded)."""
    def work(conn: Connection) -> str:
        customer = player(conn, player_name)
        cents = parse_money(amount)
        paid = tender.strip().lower()
        check = _check(check_kind, check_number, check_drawer, check_bank, check_date) \
            if paid == "check" else None
        sell_chips(conn, who, customer, cents, key[:60], paid, check,
                   datetime.now(room.settings.clock.zone).date())
        said = f"sold {format_money(cents)} of chips to {customer.username} " \
               f"({tenders.TENDERS[paid]})"
        return said + (f", check number {check.number}" if check is not None else "")
    return done(room, who, "cage.sell", work, "/cage", str)


@router.post("/cage/redeem", response_model=None)
def cage_redeem(room: RoomDep, who: Cashier, player_name: str = Form(..., alias="player"),
                amount: str = Form(...), key: str = Form(...)) -> Response:
    """Redeem a player's chips: take them and pay cash."""
    def work(conn: Connection) -> str:
        customer = player(conn, player_name)
        cents = parse_money(amount)
        redeem_chips(conn, who, customer, cents, key[:60])
        return f"redeemed {format_money(cents)} of chips for {customer.username}"
    return done(room, who, "cage.redeem", work, "/cage", str)


@router.post("/cage/checks/returned", response_model=None)
def check_returned(room: RoomDep, who: Cashier, check_id: FormCheckId,
                   reason: str = Form(...)) -> Response:
    """The bank returned a check unpaid: it enters the returned-check register."""
    return done(room, who, "check.returned",
                lambda conn: checks.returned(conn, who, check_id, reason), "/cage",
                lambda c: f"check number {c.check.number} of {c.player} is in the "
                          "returned-check register")


@router.post("/cage/checks/settle", response_model=None)
def check_settle(room: RoomDep, who: Cashier, check_id: FormCheckId,
                 how: str = Form(...)) -> Response:
    """A returned check repaid by the player, or written off as uncollectible."""
    return done(room, who, "check.settle",
                lambda conn: checks.settle(conn, who, check_id, how), "/cage",
                lambda c: f"returned check number {c.check.number} of {c.player} is "
                          f"{checks.SETTLEMENTS[c.status]}")


def _slip_route(kind: str) -> Callable[..., Response]:
    """The route of `/cage/<kind>`: a fill (chips from the cage to a table's tray) or a credit
    (back), the slip signed by the cashier, the dealer and the floor supervisor."""
    move = table_books.fill if kind == "fill" else table_books.credit

    def route(room: RoomDep, who: Cashier, table_id: FormTableId,
              amount: str = Form(...), number: NextSlipNumber = None, dealer: str = Form(...),
              dealer_password: str = Form(...), floor: str = Form(...),
              floor_password: str = Form(...)) -> Response:
        def work(conn: Connection) -> table_books.Slip:
            return move(conn, table_id, who, signers[0], signers[1], parse_money(amount),
                        number)
        try:
            signers = (cosigner(room, who, "dealer", dealer, dealer_password),
                       cosigner(room, who, "floor supervisor", floor, floor_password))
        except CardroomError as exc:
            room.refused(who, f"table.{kind}", str(exc), {"table": table_id})
            return back("/cage", error=str(exc))
        return done(room, who, f"table.{kind}", work, "/cage",
                    lambda s: f"{s.form} number {s.number}: {format_money(s.amount)}")
    return route


for _kind in ("fill", "credit"):
    router.add_api_route(f"/cage/{_kind}", _slip_route(_kind), methods=["POST"],
                         response_model=None, name=f"cage_{_kind}")


@router.post("/cage/count", response_model=None)
def cage_count(room: RoomDep, who: Counter, table_id: FormTableId,
               day: str = Form(...), cash: str = Form(...), debit: str = Form("0"),
               markers: str = Form("0"), second: str = Form(...),
               second_password: str = Form(...)) -> Response:
    """Two counters enter one drop box's cash and debit card slips apart (and the markers of
    a box filled before the room refused credit)."""
    try:
        other = cosigner(room, who, "second counter", second, second_password)
        when = date.fromisoformat(day.strip())
    except (CardroomError, ValueError) as exc:
        reason = str(exc) if isinstance(exc, CardroomError) else \
            f"{day.strip()[:20]!r} is not a gambling day: write it as YYYY-MM-DD"
        room.refused(who, "drop.count", reason, {"table": table_id})
        return back("/cage", error=reason)
    return done(room, who, "drop.count", lambda conn: table_books.count_drop(
        conn, room.settings.clock, table_id, when,
        table_books.Dropped(parse_money(cash), parse_money(debit), parse_money(markers)),
        who, other), "/cage",
        lambda c: f"counted {format_money(c.counted.total)} (cash "
                  f"{format_money(c.counted.cash)}, debit card "
                  f"{format_money(c.counted.debit)}); the books say "
                  f"{format_money(c.expected)}; variance {format_money(c.variance)}")


# the table inventories -----------------------------------------------------------------------
@router.get("/floor/inventory", response_class=HTMLResponse)
def inventory(room: RoomDep, page: Render,
              who: Annotated[Account, require(Permission.OPEN_TABLES, Permission.DEAL,
                                              to="see the table inventories")],
              message: str = "", error: str = "") -> HTMLResponse:
    with room.storage.read() as conn:
        tables = list_tables(conn)
        open_ = {t.id: o for t in tables if (o := table_books.current_opener(conn, t.id))}
        trays = {t.id: ledger.balance(conn, ledger.tray(t.id)) for t in tables}
        errors = table_books.slips(conn, series="error")[::-1]
        next_inventory = table_books.next_number(conn, "inventory")
    return page("inventory.html", who, tables=tables, open=open_, closed=room.closed,
                trays=trays, errors=errors, table_names={t.id: t.name for t in tables},
                forms=table_books.FORMS, next_inventory=next_inventory,
                key=secrets.token_urlsafe(12), message=message, error=error)


def _inventory_route(kind: str) -> Callable[..., Response]:
    """The route of `/floor/inventory/<kind>`: open (count the tray against the last closer)
    or close (count the tray into a closer); the dealer signs with the floor."""
    def route(room: RoomDep, who: Floor, table_id: FormTableId,
              counted: str = Form(...), number: NextSlipNumber = None, dealer: str = Form(...),
              dealer_password: str = Form(...)) -> Response:
        try:
            signer = cosigner(room, who, "dealer", dealer, dealer_password)
        except CardroomError as exc:
            room.refused(who, f"table.{kind}", str(exc), {"table": table_id})
            return back("/floor/inventory", error=str(exc))

        def work(conn: Connection) -> str:
            cents = parse_money(counted)
            if kind == "close":
                slip = table_books.close_table(conn, table_id, signer, who, cents,
                                               number)
                return f"closer number {slip.number}: {format_money(slip.amount)}" + "".join(
                    f"; notification of error number {e.number}: {e.note}"
                    for e in table_books.errors_of(conn, slip))
            opening = table_books.open_table(conn, table_id, signer, who, cents, number)
            said = f"opener number {opening.opener.number}: {format_money(cents)}"
            if opening.error is not None:
                said += (f"; notification of error number {opening.error.number}: "
                         f"{opening.error.note}")
            return said
        return done(room, who, f"table.{kind}", work, "/floor/inventory", str)
    return route


for _kind in ("open", "close"):
    router.add_api_route(f"/floor/inventory/{_kind}", _inventory_route(_kind), methods=["POST"],
                         response_model=None, name=f"{_kind}_table")


@router.post("/floor/inventory/void", response_model=None)
def void(room: RoomDep, who: Floor, number: SlipNumber, series: str = Form(...),
         reason: str = Form(...)) -> Response:
    return done(room, who, "slip.void",
                lambda conn: table_books.void_slip(conn, who, series, number, reason),
                "/floor/inventory",
                lambda s: f"{s.form} number {s.number} is void")


@router.post("/floor/inventory/drop", response_model=None)
def drop(room: RoomDep, who: Dealer, table_id: FormTableId,
         player_name: str = Form(..., alias="player"), amount: str = Form(...),
         tender: str = Form("cash"), key: str = Form(...)) -> Response:
    def work(conn: Connection) -> str:
        customer = player(conn, player_name)
        cents = parse_money(amount)
        table_books.drop_buy_in(conn, who, table_id, customer, cents, key[:60], tender)
        return f"{customer.username} bought {format_money(cents)} of chips " \
               f"({tenders.TENDERS[tender.strip().lower()]})"
    return done(room, who, "table.drop", work, "/floor/inventory", str)
