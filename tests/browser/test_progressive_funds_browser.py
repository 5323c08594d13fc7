"""Progressive funds in a real browser, by clicks (issue 21; WAC 230-15-455(2)(a),
230-15-685(4)): the jackpot page flags a deposit overdue, the cashier records it with the
page's form and the flag clears; the floor sets a maximum prize with a second person, and the
posted rules and the table's meter show it. Every page fits a 375-pixel phone with no console
error. Screenshots (1280 and 375 pixels) go to $CARDROOM_SCREENSHOTS when it is set."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from room.rooms import playing_table
from sqlalchemy import update

from cardroom.room.books.cashier import buy_chips
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage.schema import ledger_transactions
from cardroom.room.storage.settings import SELF_SERVICE

from .room_flows import PW, browser_at, console_errors, log_in, shot, sign_on_own_screen


def at_both_widths(browser: Any, base: str, who: str, path: str, name: str,
                   ready: str) -> list[str]:
    """Open `path` as `who` at 1280 and 375 pixels, wait for `ready`, screenshot both, check
    the phone's page does not scroll sideways; the console errors of both."""
    errors: list[str] = []
    for width in (1280, 375):
        page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
        errors += console_errors(page)
        log_in(page, base, who)
        page.goto(base + path)
        page.wait_for_selector(ready)
        shot(page, f"{name}-{width}.png")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width + 1, f"{path} is {wide}px wide at {width}px"
    return errors


def test_overdue_deposit_recorded_and_maximum_prize_posted_by_clicks(room: Room) -> None:
    with room.storage.unit() as conn:
        people = {n: create_account(conn, n, PW, r) for n, r in (
            ("olivia", Role.OWNER), ("fiona", Role.FLOOR), ("cathy", Role.CASHIER),
            ("alice", Role.PLAYER))}
        buy_chips(conn, SELF_SERVICE, people["alice"], 50_000, "k")
    t = playing_table(room, people["olivia"], "Mini 1", "baccarat").table_id
    alice = people["alice"]
    room.act(alice, t, {"type": "sit", "buy_in": 10_000, "key": "s"})
    for i in range(3):
        room.act(alice, t, {"type": "bet", "bets": {"banker": 500, "progressive": 100},
                            "key": f"b{i}"})
        room.act(alice, t, {"type": "deal"})
    with room.storage.unit() as conn:  # the coups were played nine days ago
        conn.execute(update(ledger_transactions)
                     .where(ledger_transactions.c.kind == "jackpot-contribution")
                     .values(created_at=datetime.now(UTC) - timedelta(days=9)))
    with browser_at(room) as (base, browser):
        errors = at_both_widths(browser, base, "cathy", "/floor/jackpot", "jackpot-overdue",
                                "#funds-status.warning")
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors += console_errors(page)
        log_in(page, base, "cathy")
        page.goto(base + "/floor/jackpot#funds")
        assert "$0.60 accrued since" in page.inner_text("#funds-status")
        assert page.input_value("#dep-amount") == "0.60"  # what is due, filled in
        page.fill("#dep-by", "cathy")
        page.fill("#dep-reference", "slip 2207")
        page.click("#deposit-submit")
        page.wait_for_selector("#deposits >> text=slip 2207")
        assert "Every contribution accrued is deposited" in page.inner_text("#funds-status")

        floor = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors += console_errors(floor)
        log_in(floor, base, "fiona")
        floor.goto(base + "/floor/jackpot")
        floor.fill("#set-maximum", "10000")
        floor.fill("#set-reason", "a maximum prize for the new sign")
        floor.fill("#set-second", "olivia")
        floor.click("#settings-submit")
        floor.wait_for_selector("text=waiting for the signature of olivia")
        sign_on_own_screen(browser, base, "olivia", "the settings of the pool super9 are "
                           "changed")
        floor.goto(base + "/floor/jackpot")
        floor.wait_for_selector("#maximum >> text=$10,000.00")
        errors += at_both_widths(browser, base, "fiona", "/floor/jackpot", "jackpot-maximum",
                                 "#maximum")
        errors += at_both_widths(browser, base, "alice", f"/tables/{t}/rules",
                                 "rules-maximum", "text=maximum prize of $10,000.00")
        errors += at_both_widths(browser, base, "alice", f"/tables/{t}", "table-maximum",
                                 "#jackpot-maximum:not([hidden])")
    assert errors == []
