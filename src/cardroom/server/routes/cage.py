"""The cage and the table inventories (docs/operations.md): the cashier sells chips for cash, a
debit card or a check (entered in the check register, and marked when the bank returns it) and
redeems them, issues fills and receives credits, and counts drop boxes tender by tender; the
floor opens and closes tables on signed inventory slips and voids slips; a dealer sells chips at
a table for cash or a debit card, for the drop.

The person logged in signs as themselves (the cashier on a fill, the floor on an opener, the
first counter) and names the other signers; the slip waits for each of them to accept it on
their own session (`server/cosign.py`, the signatures page), and is written when the last one
does. Every refusal is audited and changes nothing (`Room.operate`), and comes back as one
sentence on the page."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.money import format_money, parse_money
from cardroom.room.books import checks, table_books
from cardroom.room.books.cashier import redeem_chips, sell_chips
from cardroom.room.books.operations_report import CAGE_KINDS, cage_report
from cardroom.room.books.regulator import cash_on_hand, record_cash_count
from cardroom.room.compliance import currency, exclusions
from cardroom.room.money import ledger, tenders
from cardroom.room.people import accounts as acc
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.people.approvals import Part
from cardroom.room.play.tables import list_tables
from cardroom.room.room import Room
from cardroom.room.storage.errors import NotFound
from cardroom.room.views import cage_desk
from cardroom.server import cosign, password_work
from cardroom.server.deps import Render, RoomDep, form_day, require
from cardroom.server.flash import Flash
from cardroom.server.ids import (
    FormCheckId,
    FormPatronId,
    FormTableId,
    NextSlipNumber,
    ReceiptNumber,
    SlipNumber,
)

router = APIRouter()
Cashier = Annotated[Account, require(Permission.CAGE)]
Floor = Annotated[Account, require(Permission.OPEN_TABLES)]
Counter = Annotated[Account, require(Permission.COUNT)]
Dealer = Annotated[Account, require(Permission.DEAL)]


def chosen(name: str, do: str = "") -> str:
    """The cage's address for the person `name` (and the transaction `do`)."""
    query = {k: v for k, v in (("player", name), ("do", do)) if v}
    return "/cage" + (f"?{urlencode(query)}" if query else "")


def back(path: str, message: str = "", error: str = "") -> Response:
    """Back to `path`, whose page says what was done or why it was refused (`flash`)."""
    return Flash(path, message=message, error=error)


def done(room: Room, who: Account, action: str, work: Callable[[Connection], Any],
         path: str, message: Callable[[Any], str]) -> Response:
    """Run one operation; back to the page saying what was done, or why it was refused."""
    try:
        result = room.operate(who, action, work)
    except CardroomError as exc:
        return back(path, error=str(exc))
    return back(path, message=message(result))


def asked(room: Room, who: Account, path: str, kind: str, form: cosign.Form,
          named: dict[Part, str]) -> Response:
    """Ask the people `named` to sign `who`'s `form` on their own sessions; back to `path`
    saying whom it waits for, or why it was refused."""
    try:
        return back(path, message=cosign.ask(room, who, kind, form, named))
    except CardroomError as exc:
        return back(path, error=str(exc))


PIT = "/floor"
"""The floor's pit screen, where the inventory, fill and credit forms are also sent from."""


def return_to(sent_from: str, page: str) -> str:
    """Where a form goes back to: the pit screen when it was sent from there, else its own
    page (never any other address)."""
    return PIT if sent_from == PIT else page


def receipted(room: Room, who: Account, action: str,
              work: Callable[[Connection], tuple[str, int]], player: str, do: str
              ) -> Response:
    """Run a sale or a redemption: on to its receipt saying what was done, or back to the
    person's form saying why it was refused."""
    try:
        said, number = room.operate(who, action, work)
    except CardroomError as exc:
        return back(chosen(player.strip()[:40], do), error=str(exc))
    return back(f"/cage/receipts/{number}", message=said)


def named_player(conn: Connection, name: str) -> Account:
    """The account a staff form names, or a sentence that there is none."""
    found = acc.find_account(conn, name)
    if found is None:
        raise NotFound(f"there is no player named {name.strip()[:40]!r}")
    return found


# the cage ------------------------------------------------------------------------------------
TRANSACTIONS = {"sell": "Sell chips", "redeem": "Redeem chips", "fill": "Fill a table",
                "credit": "Receive a credit", "count": "Count a drop box",
                "cash-count": "Cash on hand", "checks": "Checks", "patron": "New patron",
                "cash-today": "Cash today", "flag": "Something not right?"}
"""The cage's transactions, one form at a time (`/cage?do=...`), the first the default."""


@router.get("/cage", response_class=HTMLResponse)
def cage(room: RoomDep, page: Render, who: Cashier, player: str = "", do: str = "sell"
         ) -> HTMLResponse:
    """The cage for one person (`player`, a search result's link: their day and the sale
    and redemption forms filled in) and one transaction (`do`)."""
    return _cage_page(room, page, who, player=player, do=do)


@dataclass(frozen=True)
class PatronFound:
    """A patron as the cashier sees them in the search results: no number in clear."""

    patron: patrons.Patron
    age: int
    of_age: bool
    on_file: bool
    players: list[str]


@dataclass(frozen=True)
class Person:
    """The person the cashier serves: their account, patron, day at the cage and (for staff
    only: never told to the player) their cash today against the report's threshold."""

    account: Account
    patron: patrons.Patron | None
    day: cage_desk.PersonDay
    standing: currency.Standing


def _person(room: Room, conn: Connection, name: str, today: date) -> Person:
    account = named_player(conn, name)
    calendar = datetime.now(room.settings.clock.zone).date()
    return Person(account, patrons.patron_of(conn, account.id),
                  cage_desk.person_day(conn, room.settings.clock, account, today),
                  currency.standing(conn, account, today, calendar))


def _cage_page(room: Room, page: Render, who: Account, *, error: str = "", player: str = "",
               do: str = "sell", search: dict[str, str] | None = None,
               found: list[PatronFound] | None = None,
               unlinked: Account | None = None) -> HTMLResponse:
    """The cage page; after a search, the patrons found (`found`) and an account of that name
    no patron is linked to (`unlinked`); `error` is a refusal said here and now (a form's
    message after its redirect comes from the flash)."""
    clock = room.settings.clock
    today = clock.day_of(datetime.now(UTC))
    do = do if do in TRANSACTIONS else "sell"
    with room.storage.read() as conn:
        person = None
        if player.strip():
            try:
                person = _person(room, conn, player[:40], today)
            except CardroomError as exc:
                error = error or str(exc)
        tables = list_tables(conn)
        report = cage_report(conn, clock, today)
        next_fill = table_books.next_number(conn, "fill")
        next_credit = table_books.next_number(conn, "credit")
        register = [c for c in checks.register(conn) if c.status != "accepted"]
        taken = checks.register(conn, status="accepted")[:20]
        cash = cash_on_hand(conn, clock, today)
        recent = cage_desk.recent(conn)
    said: dict[str, Any] = {"error": error} if error else {}
    return page("cage.html", who, tables=tables, report=report, kinds=CAGE_KINDS, cash=cash,
                tenders=tenders.TENDERS, check_kinds=checks.KINDS,
                settlements=checks.SETTLEMENTS, register=register, taken=taken,
                calendar_day=datetime.now(clock.zone).date().isoformat(),
                next_fill=next_fill, next_credit=next_credit, today=today.isoformat(),
                key=secrets.token_urlsafe(12), search=search or {}, found=found,
                unlinked=unlinked, person=person, player=person.account.username
                if person else "", do=do, transactions=TRANSACTIONS, recent=recent,
                drawer=cage_desk.drawer(report.by_cashier.get(who.username, {})),
                document_kinds=patrons.DOCUMENT_KINDS, minimum_age=patrons.minimum_age(today),
                **said)


def _day(text: str, what: str) -> date | None:
    """A date on a patron form, or None when left empty."""
    return form_day(text, f"a {what}") if text.strip() else None


def _found(conn: Connection, room: Room, search: dict[str, str], born: date | None,
           today: date) -> tuple[list[PatronFound], Account | None]:
    """The patrons whose name, document number or player's account the search's `q` is (and
    born on `born`, when given), and the account of that name when no patron is linked to
    it; a document number found is cleared from `search`, which the page shows back."""
    text = search["q"]
    account = None
    if text.strip():
        with contextlib.suppress(NotFound):
            account = named_player(conn, text)
    key = room.identity_key()
    matches = {p.id: p for p in patrons.find(conn, key, document=text, born=born)}
    if matches:
        search["q"] = ""  # a document number is never shown back
    matches.update({p.id: p for p in patrons.find(conn, key, name=text, born=born)})
    linked = None if account is None else patrons.patron_of(conn, account.id)
    if linked is not None and (born is None or linked.date_of_birth == born):
        matches[linked.id] = linked
    least = patrons.minimum_age(today)
    found = [PatronFound(p, p.age_on(today), p.age_on(today) >= least,
                         patrons.identity_on_file(conn, p.id, today),
                         [a.username for a in patrons.accounts_of(conn, p.id)])
             for p in sorted(matches.values(), key=lambda p: (p.legal_name, p.id))]
    return found, account if linked is None else None


@router.post("/cage/find", response_class=HTMLResponse)
def cage_find(room: RoomDep, page: Render, who: Cashier, q: str = Form(""),
              born: str = Form("")) -> HTMLResponse:
    """Find the person by their name, their account's name or a document number, and a date
    of birth (posted, never in the address: a document number stays out of the server's
    logs)."""
    search = {"q": q[:200], "born": born[:20]}
    today = room.settings.clock.day_of(datetime.now(UTC))
    try:
        when = _day(born, "date of birth")
        if not (q.strip() or when):
            raise CardroomError("write a name, an account, a document number or a date of "
                                "birth to search")
        with room.storage.read() as conn:
            found, unlinked = _found(conn, room, search, when, today)
    except CardroomError as exc:
        return _cage_page(room, page, who, error=str(exc), search=search)
    only = [n for f in found for n in f.players] if len(found) == 1 and not unlinked else []
    return _cage_page(room, page, who, search=search, found=found, unlinked=unlinked,
                      player=only[0] if len(only) == 1 else "")


@router.post("/cage/patrons", response_model=None)
async def cage_new_patron(room: RoomDep, who: Cashier, legal_name: str = Form(...),
                          address: str = Form(...), born: str = Form(...),
                          taxpayer: str = Form(""), document_kind: str = Form(...),
                          document_number: str = Form(...), document_issuer: str = Form(...),
                          document_expires: str = Form(...), player: str = Form(""),
                          username: str = Form(""), password: str = Form("")) -> Response:
    """Record a patron from the identity document the cashier is holding, and link them to
    their online account (`player`), or open them an account to log in with (`username` and
    the `password` they choose: issue 23, the front desk opens accounts), or a walk-in account
    for their chips. A new account is checked against the self-exclusion list as a
    registration is, and its password judged and hashed off the writer."""
    def work(conn: Connection) -> str:
        when = _day(born, "date of birth")
        expires = _day(document_expires, "document's expiry date")
        if when is None or expires is None:
            raise CardroomError("write the date of birth and the document's expiry date")
        online = named_player(conn, player) if player.strip() else None
        made = patrons.create(conn, who, patrons.NewPatron(
            legal_name, address, when, taxpayer or None,
            (patrons.NewDocument(document_kind.strip(), document_number, document_issuer,
                                 expires),)), room.identity_key(),
            datetime.now(room.settings.clock.zone).date())
        if online is not None:
            patrons.link_account(conn, who, online.id, made.id)
            return online.username
        if login is not None:
            return patrons.open_account(conn, who, made.id, login).username
        return patrons.open_walk_in(conn, who, made.id).username
    login = None
    try:
        if username.strip() or password:
            if player.strip():
                raise CardroomError("name either the online player to link or a new "
                                    "username, not both")
            await run_in_threadpool(exclusions.refuse_registration, room.storage,
                                    legal_name[:200], born[:20])
            login = await password_work.new_credentials(username, password)
    except CardroomError as exc:
        await run_in_threadpool(room.refused, who, "patron.create", str(exc))
        return back(chosen("", "patron"), error=str(exc))
    try:
        name = await run_in_threadpool(room.operate, who, "patron.create", work)
    except CardroomError as exc:
        return back(chosen("", "patron"), error=str(exc))
    held = f"they log in as {name}" if login is not None else \
        f"their chips are held as {name}"
    return back(chosen(name), message=f"recorded the patron; {held}")


@router.post("/cage/patrons/walk-in", response_model=None)
def cage_walk_in(room: RoomDep, who: Cashier, patron_id: FormPatronId) -> Response:
    """Open (or find) the account that holds a walk-in patron's chips."""
    try:
        name = room.operate(who, "patron.walk-in",
                            lambda conn: patrons.open_walk_in(conn, who, patron_id).username)
    except CardroomError as exc:
        return back("/cage", error=str(exc))
    return back(chosen(name), message=f"the patron's chips are held as {name}")


@router.post("/cage/patrons/link", response_model=None)
def cage_link(room: RoomDep, who: Cashier, patron_id: FormPatronId,
              name: str = Form(..., alias="player")) -> Response:
    """Link a player who registered online to the patron whose identity the cashier saw."""
    def work(conn: Connection) -> str:
        online = named_player(conn, name)
        patrons.link_account(conn, who, online.id, patron_id)
        return online.username
    try:
        name = room.operate(who, "patron.link", work)
    except CardroomError as exc:
        return back("/cage", error=str(exc))
    return back(chosen(name), message=f"{name} is linked to the patron")


@router.get("/cage/receipts/{number}", response_model=None)
def cage_receipt(room: RoomDep, page: Render, who: Cashier, number: ReceiptNumber
                 ) -> Response:
    """A sale's or a redemption's receipt, to print for the player or show them: its number,
    the time, the cashier, the player and what moved; the cage's drawer and latest
    movements beside it."""
    today = room.settings.clock.day_of(datetime.now(UTC))
    with room.storage.read() as conn:
        found = cage_desk.receipt(conn, number)
        report = cage_report(conn, room.settings.clock, today)
        recent = cage_desk.recent(conn)
    if found is None:
        return page.error(404, f"there is no receipt number {number}")
    return page("cage_receipt.html", who, receipt=found, recent=recent,
                drawer=cage_desk.drawer(report.by_cashier.get(who.username, {})),
                again=chosen(found.move.player or ""))


def _check(kind: str, number: str, drawer: str, bank: str, dated: str) -> checks.Check:
    """The check as the cashier copied it onto the form."""
    when = form_day(dated, "the date on the check")
    return checks.Check(kind.strip(), number, drawer, bank, when)


@router.post("/cage/sell", response_model=None)
def cage_sell(room: RoomDep, who: Cashier, player_name: str = Form(..., alias="player"),
              amount: str = Form(...), key: str = Form(...), tender: str = Form("cash"),
              check_kind: str = Form("personal"), check_number: str = Form(""),
              check_drawer: str = Form(""), check_bank: str = Form(""),
              check_date: str = Form("")) -> Response:
    """Sell a player chips for cash, a debit card, or a check (its data recorded)."""
    def work(conn: Connection) -> tuple[str, int]:
        customer = named_player(conn, player_name)
        cents = parse_money(amount)
        paid = tender.strip().lower()
        check = _check(check_kind, check_number, check_drawer, check_bank, check_date) \
            if paid == "check" else None
        posted = sell_chips(conn, who, customer, cents, key[:60], paid, check,
                   datetime.now(room.settings.clock.zone).date())
        said = f"sold {format_money(cents)} of chips to {customer.username} " \
               f"({tenders.TENDERS[paid]})"
        return said + (f", check number {check.number}" if check is not None else ""), \
            posted.tx_id
    return receipted(room, who, "cage.sell", work, player_name, "sell")


@router.post("/cage/redeem", response_model=None)
def cage_redeem(room: RoomDep, who: Cashier, player_name: str = Form(..., alias="player"),
                amount: str = Form(...), key: str = Form(...)) -> Response:
    """Redeem a player's chips: take them and pay cash."""
    def work(conn: Connection) -> tuple[str, int]:
        customer = named_player(conn, player_name)
        cents = parse_money(amount)
        posted = redeem_chips(conn, who, customer, cents, key[:60])
        return f"redeemed {format_money(cents)} of chips for {customer.username}", \
            posted.tx_id
    return receipted(room, who, "cage.redeem", work, player_name, "redeem")


@router.post("/cage/checks/returned", response_model=None)
def check_returned(room: RoomDep, who: Cashier, check_id: FormCheckId,
                   reason: str = Form(...)) -> Response:
    """The bank returned a check unpaid: it enters the returned-check register."""
    return done(room, who, "check.returned",
                lambda conn: checks.returned(conn, who, check_id, reason), "/cage?do=checks",
                lambda c: f"check number {c.check.number} of {c.player} is in the "
                          "returned-check register")


@router.post("/cage/checks/settle", response_model=None)
def check_settle(room: RoomDep, who: Cashier, check_id: FormCheckId,
                 how: str = Form(...)) -> Response:
    """A returned check repaid by the player, or written off as uncollectible."""
    return done(room, who, "check.settle",
                lambda conn: checks.settle(conn, who, check_id, how), "/cage?do=checks",
                lambda c: f"returned check number {c.check.number} of {c.player} is "
                          f"{checks.SETTLEMENTS[c.status]}")


def _slip_route(kind: str) -> Callable[..., Response]:
    """The route of `/cage/<kind>`: a fill (chips from the cage to a table's tray) or a credit
    (back), the slip signed by the cashier, the dealer and the floor supervisor."""
    def route(room: RoomDep, who: Cashier, table_id: FormTableId,
              amount: str = Form(...), number: NextSlipNumber = None, dealer: str = Form(...),
              floor: str = Form(...), back: str = Form("")) -> Response:
        def form() -> tuple[str, dict[str, Any]]:
            cents = parse_money(amount)
            return (f"{table_books.FORMS[kind]}: {format_money(cents)} "
                    f"{'to' if kind == 'fill' else 'from'} {cosign.table_name(room, table_id)}",
                    {"table": table_id, "amount": cents, "number": number})
        return asked(room, who, return_to(back, f"/cage?do={kind}"), kind, form,
                     {cosign.DEALER: dealer, cosign.FLOOR: floor})
    return route


for _kind in ("fill", "credit"):
    router.add_api_route(f"/cage/{_kind}", _slip_route(_kind), methods=["POST"],
                         response_model=None, name=f"cage_{_kind}")


@router.post("/cage/count", response_model=None)
def cage_count(room: RoomDep, who: Counter, table_id: FormTableId,
               day: str = Form(...), cash: str = Form(...), debit: str = Form("0"),
               markers: str = Form("0"), second: str = Form(...)) -> Response:
    """Two counters enter one drop box's cash and debit card slips apart (and the markers of
    a box filled before the room refused credit); the second accepts on their own session."""
    def form() -> tuple[str, dict[str, Any]]:
        try:
            when = date.fromisoformat(day.strip())
        except ValueError:
            raise CardroomError(f"{day.strip()[:20]!r} is not a gambling day: write it as "
                                "YYYY-MM-DD") from None
        got = table_books.Dropped(parse_money(cash), parse_money(debit), parse_money(markers))
        return (f"drop count of {cosign.table_name(room, table_id)} for {when.isoformat()}: "
                f"{format_money(got.total)} (cash {format_money(got.cash)}, debit card "
                f"{format_money(got.debit)})",
                {"table": table_id, "day": when.isoformat(), "cash": got.cash,
                 "debit": got.debit, "markers": got.markers})
    return asked(room, who, "/cage?do=count", "count", form, {cosign.COUNTER: second})


@router.post("/cage/cash-count", response_model=None)
def cage_cash_count(room: RoomDep, who: Cashier, amount: str = Form(...)) -> Response:
    """The cage's cash count at the opening of today's gambling day (WAC 230-15-050)."""
    return done(room, who, "cage.cash_count", lambda conn: record_cash_count(
        conn, room.settings.clock, who, parse_money(amount)), "/cage?do=cash-count",
        lambda c: f"the cash on hand at opening is recorded: {format_money(c.amount)}")


# the table inventories -----------------------------------------------------------------------
@router.get("/floor/inventory", response_class=HTMLResponse)
def inventory(room: RoomDep, page: Render,
              who: Annotated[Account, require(Permission.OPEN_TABLES, Permission.DEAL,
                                              to="see the table inventories")]
              ) -> HTMLResponse:
    with room.storage.read() as conn:
        tables = list_tables(conn)
        open_ = {t.id: o for t in tables if (o := table_books.current_opener(conn, t.id))}
        trays = {t.id: ledger.balance(conn, ledger.tray(t.id)) for t in tables}
        errors = table_books.slips(conn, series="error")[::-1]
        next_inventory = table_books.next_number(conn, "inventory")
    return page("inventory.html", who, tables=tables, open=open_, closed=room.closed,
                trays=trays, errors=errors, table_names={t.id: t.name for t in tables},
                forms=table_books.FORMS, next_inventory=next_inventory,
                key=secrets.token_urlsafe(12))


def _inventory_route(kind: str) -> Callable[..., Response]:
    """The route of `/floor/inventory/<kind>`: open (count the tray against the last closer)
    or close (count the tray into a closer); the dealer signs with the floor."""
    def route(room: RoomDep, who: Floor, table_id: FormTableId,
              counted: str = Form(...), number: NextSlipNumber = None,
              dealer: str = Form(...), back: str = Form("")) -> Response:
        def form() -> tuple[str, dict[str, Any]]:
            cents = parse_money(counted)
            word = "opener" if kind == "open" else "closer"
            return (f"{word} of {cosign.table_name(room, table_id)}: counted "
                    f"{format_money(cents)}", {"table": table_id, "counted": cents,
                                               "number": number})
        return asked(room, who, return_to(back, "/floor/inventory"), kind, form,
                     {cosign.DEALER: dealer})
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
        customer = named_player(conn, player_name)
        cents = parse_money(amount)
        table_books.drop_buy_in(conn, who, table_id, customer, cents, key[:60], tender)
        return f"{customer.username} bought {format_money(cents)} of chips " \
               f"({tenders.TENDERS[tender.strip().lower()]})"
    return done(room, who, "table.drop", work, "/floor/inventory", str)
