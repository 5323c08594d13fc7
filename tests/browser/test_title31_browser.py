"""The Title 31 pages in a real browser (issue 22; 31 CFR 1021.311): the cashier looks up how
close a player's patron is to the report's threshold from the cage; the compliance officer
reads the multiple transaction log, the reports and a report's form. Each page renders under
the strict Content-Security-Policy with no console error and fits a 375-pixel phone with no
sideways scroll; screenshots of both widths go to $CARDROOM_SCREENSHOTS when it is set."""

from __future__ import annotations

from datetime import date

from cardroom.room.books.cashier import sell_chips
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.people.patrons import NewDocument, NewPatron
from cardroom.room.room import Room
from cardroom.room.storage.identity_key import IdentityKey

from .room_flows import (
    PW,
    cage_transaction,
    fits,
    log_in,
    skip_without_chromium,
    staff_page,
)

pytestmark = skip_without_chromium()


def cast(room: Room) -> None:
    """Alice's patron has identity on file and bought $12,000 and $3,500 in cash today (a
    report is open); bob (a patron without a taxpayer id) bought $9,500."""
    with room.storage.unit() as conn:
        p = {n: create_account(conn, n, PW, role) for n, role in (
            ("olga", Role.OWNER), ("cathy", Role.CASHIER), ("connie", Role.COMPLIANCE),
            ("alice", Role.PLAYER), ("bob", Role.PLAYER))}
        grace = patrons.create(conn, p["cathy"], NewPatron(
            "Alice Pleasance Liddell", "2 Rabbit Hole Lane, Apartment 14, Tacoma WA 98402",
            date(1980, 5, 4), "123-45-6789",
            (NewDocument("driver-licence", "WDL-1", "Washington", date(2040, 1, 1)),)),
            IdentityKey(bytes(32)))
        patrons.link_account(conn, p["cathy"], p["alice"].id, grace.id)
        bob = patrons.create(conn, p["cathy"], NewPatron(
            "Robert Stone", "9 Quay St, Tacoma WA", date(1971, 2, 3), None,
            (NewDocument("passport", "B-9", "United States", date(2040, 1, 1)),)),
            IdentityKey(bytes(32)))
        patrons.link_account(conn, p["cathy"], p["bob"].id, bob.id)
        sell_chips(conn, p["cathy"], p["alice"], 1_200_000, "s1")
        sell_chips(conn, p["cathy"], p["alice"], 350_000, "s2")
        sell_chips(conn, p["cathy"], p["bob"], 950_000, "s3")


def test_the_cashier_and_the_officer_read_the_title31_pages(room: Room) -> None:
    cast(room)
    with staff_page(room, "cathy") as (base, page, errors):
        page.goto(base + "/cage")
        fits(page, "cage")
        cage_transaction(page, "cash-today")
        page.fill("#cash-today-player", "bob")
        page.click("#cash-today-submit")
        page.wait_for_selector("#cash-standing")
        assert "identity not complete" in page.inner_text("#identity-status")
        fits(page, "cash-today")
        cage_transaction(page, "cash-today")
        page.click("#cash-today-all")
        page.wait_for_selector("#cash-everyone")
        assert page.locator("#cash-everyone tr").count() == 3
        fits(page, "cash-today-all")
        page.click("#logout")
        log_in(page, base, "connie")
        page.click("#menu-title31")
        page.wait_for_selector("#ctr")
        assert "Alice Pleasance Liddell" in page.inner_text("#ctr")
        fits(page, "compliance-ctr")
        page.click("#ctr a")
        page.wait_for_selector("#ctr-person")
        assert "123-45-6789" not in page.content() and "123456789" not in page.content()
        fits(page, "compliance-ctr-form")
        page.goto(base + "/compliance/mtl")
        page.wait_for_selector("#mtl")
        assert page.locator("#mtl tr").count() == 4
        fits(page, "compliance-mtl")
        assert errors == []
