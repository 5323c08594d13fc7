"""A second signature by clicks on the signer's own screen (issue 23, "Co-signers type their
passwords on the initiator's screen"; WAC 230-15-510 to -530: a fill slip is signed by the
cashier, the dealer and the floor supervisor). The cashier asks for a fill naming the dealer
and the floor; each of them, in a browser context of their own (their own session), sees it
counted in the menu and listed on their Signatures page with the table, the amount and who
asked, and accepts it; the fill is written when the last one does, and the cashier's page
says so. The pending list fits 1280 and 375 pixels (no sideways scroll); screenshots go to
$CARDROOM_SCREENSHOTS when it is set."""

from __future__ import annotations

import os
from pathlib import Path

from cardroom.room.money import ledger
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room

from .page_checks import word_per_line
from .room_flows import PW, browser_at, cage_transaction, console_errors, log_in


def test_the_floor_accepts_the_cashiers_fill_in_a_browser_of_their_own(
        room: Room, tmp_path: Path) -> None:
    shots = Path(os.environ.get("CARDROOM_SCREENSHOTS", tmp_path))
    with room.storage.unit() as conn:
        people = {n: create_account(conn, n, PW, r) for n, r in (
            ("olga", Role.OWNER), ("fred", Role.FLOOR), ("dan", Role.DEALER),
            ("cathy", Role.CASHIER))}
    room.create_table(people["olga"], "Mini 1", "baccarat")
    with browser_at(room) as (base, browser):
        own = {n: browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
               for n in ("fred", "dan", "cathy")}
        errors = [e for p in own.values() for e in console_errors(p)]
        for name, page in own.items():
            log_in(page, base, name)
        fred, dan, cathy = own["fred"], own["dan"], own["cathy"]
        fred.goto(base + "/floor/inventory")
        fred.fill("#open-counted", "0")
        fred.fill("#open-dealer", "dan")
        fred.click("#open-submit")
        fred.wait_for_selector("text=waiting for the signature of dan")
        dan.click("#menu-signatures")
        dan.click("#waiting button.accept")
        dan.wait_for_selector("text=signed and done: opener number 1: $0.00")
        cage_transaction(cathy, "fill")
        cathy.fill("#fill-amount", "750")
        cathy.fill("#fill-dealer", "dan")
        cathy.fill("#fill-floor", "fred")
        cathy.click("#fill-submit")
        cathy.wait_for_selector("text=fill slip: $750.00 to Mini 1: waiting for the signature "
                                "of dan and fred on their own screen")
        fred.reload()
        assert fred.inner_text("#menu-signatures").split() == ["Signatures", "1"]
        fred.click("#menu-signatures")
        waiting = fred.inner_text("#waiting")
        assert "fill slip: $750.00 to Mini 1" in waiting and "Asked by cathy" in waiting
        assert "you sign as the floor supervisor, with dan (dealer: not yet)" in waiting
        fred.screenshot(path=str(shots / "signatures-desktop.png"), full_page=True)
        squeezed = word_per_line(fred)
        fred.set_viewport_size({"width": 375, "height": 800})
        wide = fred.evaluate("document.documentElement.scrollWidth")
        squeezed += word_per_line(fred)
        fred.screenshot(path=str(shots / "signatures-375.png"), full_page=True)
        assert wide <= 375 and squeezed == []
        fred.click("#waiting button.accept")
        fred.wait_for_selector("text=signed: fill slip: $750.00 to Mini 1; waiting for dan")
        with room.storage.read() as conn:
            assert ledger.balance(conn, ledger.tray(1)) == 0  # not until the last signature
        dan.click("#menu-signatures")
        dan.click("#waiting button.accept")
        dan.wait_for_selector("text=signed and done: fill slip number 1: $750.00")
        cathy.click("#menu-signatures")
        assert "done by dan: fill slip number 1: $750.00" in cathy.inner_text("#mine")
        cathy.screenshot(path=str(shots / "signatures-asked-desktop.png"), full_page=True)
        assert errors == []
    with room.storage.read() as conn:
        assert ledger.balance(conn, ledger.tray(1)) == 75_000
