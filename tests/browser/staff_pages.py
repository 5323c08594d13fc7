"""Every staff page, for the phone-width test (`test_staff_pages_browser.py`) and for
`scripts/screenshots staff`: a room cast with a day's books through the room layer (a
Mini-Baccarat table opened, filled, sold at, played with the progressive, closed $5 short and
its box counted; a fill waiting for signatures; cash buys that raise a structuring alert, a
case about it, and a buy over the currency-report threshold by a patron whose identity is on
file), then each page opened by the member of staff whose page it is.

The list is the one place that says which pages are the staff's: a new staff page is added
here, and both the test and the screenshots then visit it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime
from typing import Any

from room.people import IDENTITY_KEY, PW, make_people
from room.rooms import playing_table, progressive_coup

from cardroom.room.books import table_books
from cardroom.room.books.cashier import sell_chips
from cardroom.room.compliance import currency, suspicious
from cardroom.room.money import ledger
from cardroom.room.people import approvals, patrons
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.people.patrons import NewDocument, NewPatron
from cardroom.room.room import Room

from .room_flows import console_errors, log_in

CAST = (("olga", Role.OWNER), ("fred", Role.FLOOR), ("dan", Role.DEALER),
        ("cathy", Role.CASHIER), ("carl", Role.CASHIER), ("connie", Role.COMPLIANCE),
        ("alice", Role.PLAYER), ("bob", Role.PLAYER))

STAFF_PAGES: tuple[tuple[str, str, str], ...] = (
    # (the screenshot's name, the page's address, whose page it is)
    ("floor", "/floor", "fred"),
    ("inventory", "/floor/inventory", "fred"),
    ("jackpot-controller", "/floor/jackpot", "fred"),
    ("surveillance", "/floor/surveillance", "fred"),
    ("signatures", "/signatures", "fred"),
    ("cage", "/cage", "cathy"),
    ("cash-today", "/cage/cash-today", "cathy"),
    ("games-report", "/reports/games", "olga"),
    ("cage-report", "/reports/cage", "olga"),
    ("slips-report", "/reports/slips", "olga"),
    ("reconcile-report", "/reports/reconcile", "olga"),
    ("regulator-month", "/reports/regulator/month?month={month}", "olga"),
    ("regulator-quarter", "/reports/regulator/quarter?year={year}&quarter={quarter}", "olga"),
    ("exclusions", "/exclusions", "olga"),
    ("audit", "/audit", "olga"),
    ("staff", "/staff", "olga"),
    ("every-hand", "/history?all=1", "olga"),
    ("recall-staff", "/hands/{hand}", "fred"),
    ("compliance-alerts", "/compliance/alerts", "connie"),
    ("compliance-cases", "/compliance/cases", "connie"),
    ("compliance-case", "/compliance/cases/{case}", "connie"),
    ("compliance-mtl", "/compliance/mtl", "connie"),
    ("compliance-ctr", "/compliance/ctr", "connie"),
    ("compliance-ctr-form", "/compliance/ctr/{report}", "connie"),
)


def cast_day(room: Room) -> dict[str, int]:
    """The day's books every staff page shows something of; the numbers the pages' addresses
    name (`STAFF_PAGES`): the hand, the case, the currency report, this month and quarter."""
    with room.storage.unit() as conn:
        people = make_people(conn, CAST)
    staff = people["cathy"], people["dan"], people["fred"]
    table = playing_table(room, people["olga"], "Mini 1", "baccarat").table_id
    with room.storage.unit() as conn:
        table_books.fill(conn, table, *staff, 1_000_00)
        for key, cents in (("a1", 2_900_00), ("a2", 2_850_00)):  # just under the log floor
            sell_chips(conn, people["cathy"], people["alice"], cents, key)
        grace = create_account(conn, "grace", PW, Role.PLAYER)
        patrons.link_account(conn, people["cathy"], grace.id, patrons.create(
            conn, people["cathy"], NewPatron(
                "Grace Brewster Hopper", "1 Main St, Tacoma WA", date(1980, 12, 9),
                "123-45-6789", (NewDocument("passport", "P-1", "United States",
                                            date(2040, 1, 1)),)), IDENTITY_KEY).id)
        sell_chips(conn, people["cathy"], grace, 10_500_00, "g1")  # a report's worth
        sell_chips(conn, people["cathy"], people["bob"], 400_00, "b1")
        table_books.drop_buy_in(conn, people["dan"], table, people["bob"], 100_00, "d1")
    progressive_coup(room, people, table)
    for name in ("alice", "bob"):
        room.act(people[name], table, {"type": "leave", "key": f"l{name}"})
    with room.storage.unit() as conn:
        # a fill the cashier asked for, waiting for the dealer's and the floor's signatures
        approvals.ask(conn, people["cathy"], "fill", "fill slip: $500.00 to Mini 1",
                      {"table": table, "amount": 500_00, "number": None},
                      {"dealer": people["dan"], "floor": people["fred"]})
        tray = ledger.balance(conn, ledger.tray(table))
    room.operate(people["fred"], "table.close", lambda conn: table_books.close_table(
        conn, table, people["dan"], people["fred"], tray - 500))  # the room knows it closed
    with room.storage.unit() as conn:
        day = room.settings.clock.day_of(datetime.now(UTC))
        table_books.count_drop(conn, room.settings.clock, table, day,
                               table_books.Dropped(cash=100_00), people["cathy"],
                               people["carl"])
        case = suspicious.open_case(conn, people["connie"], "Two buys just under the log "
                                    "floor, minutes apart.", player=people["alice"])
        report = currency.reports(conn)[0].id
    return {"hand": 1, "case": case.id, "report": report, "month": day.month,
            "year": day.year, "quarter": (day.month - 1) // 3 + 1}


def staff_pages(browser: Any, base: str, numbers: dict[str, int],
                errors: dict[str, list[str]]) -> Iterator[tuple[str, Any]]:
    """Each staff page opened at 1280 px by its member of staff (each logged in once, in a
    context of their own): (its name, the page), one after the other; the console errors of
    each page, by its name, into `errors`."""
    own: dict[str, tuple[Any, list[str]]] = {}
    for name, address, who in STAFF_PAGES:
        if who not in own:
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            own[who] = page, console_errors(page)
            log_in(page, base, who)
        page, said = own[who]
        said.clear()
        path = address.format(month=f"{numbers['year']}-{numbers['month']:02d}", **{
            k: v for k, v in numbers.items() if k != "month"})
        response = page.goto(base + path)
        assert response is not None and response.ok, f"{name}: {path} {response}"
        yield name, page
        if said:
            errors[name] = list(said)
    for page, _ in own.values():
        page.context.close()
