"""The suspicious-activity pages in a real browser (issue 22, "Suspicious activity"; 31 CFR
1021.320): the compliance officer reads the alerts, ticks one and opens a case with its
narrative, reads the case with its evidence, adds a note and records the decision. Each page
renders under the strict Content-Security-Policy with no console error and fits a 375-pixel
phone with no sideways scroll; screenshots of both widths go to $CARDROOM_SCREENSHOTS."""

from __future__ import annotations

from datetime import date

from cardroom.room.books.cashier import sell_chips
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.people.patrons import NewPatron
from cardroom.room.room import Room
from cardroom.room.storage.identity_key import IdentityKey

from .room_flows import PW, fits, log_in, skip_without_chromium, staff_page

pytestmark = skip_without_chromium()


def cast(room: Room) -> None:
    """Alice's patron (a long name and address) buys $2,900 and $2,850 in cash at the cage:
    a structuring alert (two buys just under the $3,000 log floor)."""
    with room.storage.unit() as conn:
        p = {n: create_account(conn, n, PW, role) for n, role in (
            ("olga", Role.OWNER), ("cathy", Role.CASHIER), ("connie", Role.COMPLIANCE),
            ("alice", Role.PLAYER))}
        grace = patrons.create(conn, p["cathy"], NewPatron(
            "Alice Pleasance Liddell", "2 Rabbit Hole Lane, Apartment 14, Tacoma WA 98402",
            date(1980, 5, 4)), IdentityKey(bytes(32)))
        patrons.link_account(conn, p["cathy"], p["alice"].id, grace.id)
    for i, amount in enumerate((290_000, 285_000)):
        with room.storage.unit() as conn:
            sell_chips(conn, p["cathy"], p["alice"], amount, f"s{i}")


def test_the_officer_works_a_case_from_an_alert(room: Room) -> None:
    """31 CFR 1021.320(b)(3): from the alert to a decided case, every page at both widths."""
    cast(room)
    with staff_page(room, "connie") as (base, page, errors):
        page.click("#menu-cases")
        page.wait_for_selector("#cases-empty")
        fits(page, "compliance-cases-empty")
        page.goto(base + "/compliance/alerts")
        page.wait_for_selector("#alerts")
        assert "2 cash buys just under the log floor" in page.inner_text("#alerts")
        fits(page, "compliance-alerts")
        page.check("#alert-1")
        page.fill("#alerts-narrative", "Two buys just under the log floor, minutes apart.")
        page.click("#alerts-open-submit")
        page.wait_for_selector(".message")
        page.goto(base + "/compliance/cases")
        page.wait_for_selector("#cases")
        assert "Alice Pleasance Liddell" in page.inner_text("#cases")
        fits(page, "compliance-cases")
        page.click("#cases a")
        page.wait_for_selector("#case-transactions")
        assert page.locator("#case-transactions tr").count() == 3
        fits(page, "compliance-case")
        page.fill("#case-note-text", "The cashier recalls her paying from two envelopes.")
        page.click("#case-note-submit")
        page.wait_for_selector("#case-narrative p:nth-child(2)")
        page.check("input[value=not-filed]")
        page.fill("#case-decide-text", "A regular; both buys were one evening of play.")
        page.click("#case-decide-submit")
        page.wait_for_selector("#case-status")
        assert page.inner_text("#case-status").startswith("not filed")
        fits(page, "compliance-case-decided")
        page.click("#logout")
        log_in(page, base, "olga")
        assert page.locator("#menu-cases").count() == 0
        assert errors == []
