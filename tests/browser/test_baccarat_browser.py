"""A real browser (Playwright driving Debian's headless Chromium) plays a Mini-Baccarat hand
from the first-run owner page to settlement, and checks that the page never shows a card the
player may not see: no card before the deal, and after it exactly the cards dealt."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.money import format_money
from cardroom.room.db import Storage, make_engine, migrate
from cardroom.room.room import Room
from cardroom.room.settings import SELF_SERVICE
from cardroom.shoe import SeededRandom

from .room_flows import console_errors
from .server_thread import running

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists() and not shutil.which("chromium"),
                                reason="Debian's chromium is not installed (.ci/run installs it)")


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    engine = make_engine(f"sqlite:///{tmp_path / 'browser.sqlite3'}")
    migrate(engine)
    r = Room(Storage(engine), SeededRandom(5), settings=SELF_SERVICE)
    r.start()
    yield r
    engine.dispose()


def test_play_a_baccarat_hand_in_the_browser(room: Room) -> None:
    with running(room) as base, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page()
            errors = console_errors(page)
            page.set_default_timeout(15_000)
            # first run: the owner account, then a table from the floor page
            page.goto(base + "/")
            assert page.url.endswith("/setup")
            page.fill("#username", "olga")
            page.fill("#password", "correct horse")
            page.click("#create-owner")
            page.wait_for_url("**/lobby")
            page.goto(base + "/floor")
            page.fill("input[name=name]", "Mini 1")
            page.click("text=Open table")
            page.wait_for_selector("text=table Mini 1 opened")
            page.click("#logout")
            # a player opens an account, buys chips, joins the table
            page.goto(base + "/register")
            page.fill("#username", "alice")
            page.fill("#password", "correct horse")
            page.click("#register")
            page.wait_for_url("**/lobby")
            page.goto(base + "/cashier")
            page.fill("#buy-amount", "500")
            page.click("#buy")
            page.wait_for_selector("#wallet:has-text('$500.00')")
            page.goto(base + "/lobby")
            assert page.inner_text("#jackpot") == "$2,500.00"
            page.click("a.join")
            page.wait_for_selector("#sit-box:not([hidden])")
            assert page.inner_text("#jackpot") == "$2,500.00"
            page.fill("#buy-in", "200")
            page.click("#sit")
            page.wait_for_selector("#bet-box:not([hidden])")
            assert page.inner_text("#stack") == "$200.00"
            page.fill("input.wager[data-kind=player]", "10")
            page.check("#progressive")
            page.click("#bet")
            page.wait_for_selector("body[data-state=betting]")
            assert page.locator("img.card").count() == 0  # nothing dealt, nothing shown
            assert page.inner_text("#stack") == "$189.00"
            page.click("#deal")
            page.wait_for_selector("body[data-state=settled]")
            shown = page.eval_on_selector_all("img.card", "els => els.map(e => e.alt)")
            live = room.table(1)
            shoe = live.engine.shoe  # type: ignore[attr-defined]
            dealt = [str(c) for c in shoe.order[:shoe.position]][len(shoe.burned):]
            assert sorted(shown) == sorted(dealt) and 4 <= len(shown) <= 6
            html = page.content()
            undealt = {str(c) for c in shoe.order[shoe.position:]} - set(dealt)
            assert not any(f'alt="{c}"' in html for c in undealt)
            result = page.inner_text("#result")
            assert result.startswith("Hand 1:") and "wins" in result
            stack = live.snapshot(None)["seats"][0]["stack"]
            assert page.inner_text("#stack") == format_money(stack)
            page.goto(base + "/history")
            page.click("text=#1")
            page.wait_for_selector("text=the result matches")
            assert errors == []
        finally:
            browser.close()
