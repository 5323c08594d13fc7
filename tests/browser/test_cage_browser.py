"""The cage and the table inventories in a real browser, by clicks: the cashier sells a player
chips; the floor opens a table with the dealer's signature, the cage fills it with the
dealer's and the floor's, the floor closes it; the games report with its hold chart. Each page
renders under the strict Content-Security-Policy with no console error and fits a 375-pixel
phone; screenshots go to $CARDROOM_SCREENSHOTS when it is set."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardroom.room import ledger
from cardroom.room.accounts import Role, create_account
from cardroom.room.db import Storage, make_engine, migrate
from cardroom.room.room import Room
from cardroom.shoe import SeededRandom

from .room_flows import PW, browser_at, console_errors, log_in


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    """A room run as a card room (no self-service chips)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'cage.sqlite3'}")
    migrate(engine)
    r = Room(Storage(engine), SeededRandom(5))
    r.start()
    with r.storage.unit() as conn:
        people = {n: create_account(conn, n, PW, role) for n, role in (
            ("olga", Role.OWNER), ("fred", Role.FLOOR), ("dan", Role.DEALER),
            ("cathy", Role.CASHIER), ("alice", Role.PLAYER))}
    r.create_table(people["olga"], "Mini 1", "baccarat")
    yield r
    engine.dispose()


def log_out(page: Any) -> None:
    page.click("#logout")
    page.wait_for_url("**/login")


def sign(page: Any, form: str, part: str, name: str) -> None:
    page.fill(f"#{form}-{part}", name)
    page.fill(f"#{form}-{part}-password", PW)


def fits(page: Any, shots: Path, name: str) -> None:
    """The page at 375 px: no sideways scroll of the page itself; both widths shot."""
    page.screenshot(path=str(shots / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 800})
    wide = page.evaluate("document.documentElement.scrollWidth")
    page.screenshot(path=str(shots / f"{name}-375.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    assert wide <= 375, f"{name}: {wide}px wide at 375"


def test_cashier_sells_chips_and_a_table_opens_fills_and_closes_by_clicks(
        room: Room, tmp_path: Path) -> None:
    shots = Path(os.environ.get("CARDROOM_SCREENSHOTS", tmp_path))
    with browser_at(room) as (base, browser):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors = console_errors(page)
        # the cashier sells alice chips
        log_in(page, base, "cathy")
        page.click("text=Cage")
        page.fill("#sell-player", "alice")
        page.fill("#sell-amount", "250")
        page.click("#sell-submit")
        page.wait_for_selector("text=sold $250.00 of chips to alice")
        fits(page, shots, "cage")
        log_out(page)
        # the floor opens Mini 1; the dealer signs with his password
        log_in(page, base, "fred")
        page.click("text=Floor")
        page.click("#inventory-page")
        page.fill("#open-counted", "0")
        sign(page, "open", "dealer", "dan")
        page.click("#open-submit")
        page.wait_for_selector("text=opener number 1: $0.00")
        log_out(page)
        # the cage fills it: dealer and floor sign on the cashier's form
        log_in(page, base, "cathy")
        page.click("text=Cage")
        page.fill("#fill-amount", "2,000")
        sign(page, "fill", "dealer", "dan")
        sign(page, "fill", "floor", "fan")  # a mistyped name is refused...
        page.click("#fill-submit")
        page.wait_for_selector("text=the floor supervisor's signature: wrong username "
                               "or password")
        page.fill("#fill-amount", "2,000")
        sign(page, "fill", "dealer", "dan")
        sign(page, "fill", "floor", "fred")  # ...the right one signs
        page.click("#fill-submit")
        page.wait_for_selector("text=fill slip number 1: $2,000.00")
        log_out(page)
        # the floor closes it, counting the tray
        log_in(page, base, "fred")
        page.goto(base + "/floor/inventory")
        page.fill("#close-counted", "1999")
        sign(page, "close", "dealer", "dan")
        page.click("#close-submit")
        page.wait_for_selector("text=does not match the tray of Mini 1")
        page.fill("#close-counted", "2000")
        sign(page, "close", "dealer", "dan")
        page.click("#close-submit")
        page.wait_for_selector("text=closer number 2: $2,000.00")
        assert "closed" in page.inner_text("#inventories")
        fits(page, shots, "inventory")
        page.click("text=Reports")
        page.wait_for_selector("#hold-chart")
        assert "Mini 1" in page.inner_text("table.figures")
        loaded = page.evaluate("document.querySelector('#hold-chart').naturalWidth")
        assert loaded > 0  # the SVG chart is drawn, under the page's policy
        fits(page, shots, "games-report")
        assert errors == []
    with room.storage.read() as conn:
        assert ledger.balance(conn, ledger.tray(1)) == 200_000
        assert ledger.balance(conn, ledger.wallet(5)) == 25_000
