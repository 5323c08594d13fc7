"""Steps the card-room browser tests share: a room on SQLite, the owner's first run, a
player's registration and chips, a seat at a table, logging in, screenshots."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from room.rooms import open_for_play

from cardroom.room.db import Storage, make_engine, migrate
from cardroom.room.room import Room
from cardroom.room.settings import SELF_SERVICE
from cardroom.shoe import SeededRandom

from .page_checks import console_errors, shown_cards, squeezed
from .server_thread import running

__all__ = ["ARGS", "CHROMIUM", "PW", "browser_at", "chromium", "console_errors", "fits", "log_in",
           "owner_opens_table", "player_sits", "register", "seeded_room", "shot", "shown_cards",
           "skip_without_chromium", "staff_page"]

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
HAVE_CHROMIUM = Path(CHROMIUM).exists() or shutil.which("chromium") is not None
PW = "correct horse"
"""Every test account's password."""
SCREENS = os.environ.get("CARDROOM_SCREENSHOTS")
"""Where to keep screenshots of the pages (unset: none are taken)."""


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's headless chromium, driven by Playwright, closed at the end."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def browser_at(room: Room) -> Iterator[tuple[str, Any]]:
    """The room served on a free local port, and a browser to visit it: (its address, the
    browser)."""
    with running(room) as base, chromium() as browser:
        yield base, browser


@contextmanager
def staff_page(room: Room, name: str) -> Iterator[tuple[str, Any, list[str]]]:
    """The room served and a 1280-pixel page logged in as `name`: (the room's address, the
    page, the console errors it collects)."""
    with browser_at(room) as (base, browser):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors = console_errors(page)
        log_in(page, base, name)
        yield base, page, errors


def seeded_room(tmp_path: Path, seed: int) -> Iterator[Room]:
    engine = make_engine(f"sqlite:///{tmp_path / 'browser.sqlite3'}")
    migrate(engine)
    r = Room(Storage(engine), SeededRandom(seed), settings=SELF_SERVICE)
    r.start()
    yield r
    engine.dispose()


def owner_opens_table(page: Any, base: str, name: str, game: str, room: Room) -> None:
    """The owner's first run, then a table of `game` made on the floor page; its inventory is
    opened by the room's dealer and floor (`open_for_play`: no house-banked table plays
    before its opener, WAC 230-15-495)."""
    page.goto(base + "/")
    page.fill("#username", "olga")
    page.fill("#password", PW)
    page.click("#create-owner")
    page.wait_for_url("**/lobby")
    page.goto(base + "/floor")
    page.fill("input[name=name]", name)
    page.select_option("select[name=game]", game)
    page.click("text=Open table")
    page.wait_for_selector(f"text=table {name} opened")
    page.click("#logout")
    open_for_play(room, next(t for t, live in room.tables.items() if live.name == name))


def log_in(page: Any, base: str, name: str) -> None:
    page.goto(base + "/login")
    page.fill("#username", name)
    page.fill("#password", PW)
    page.click("#login")
    page.wait_for_url("**/lobby")


def shot(page: Any, name: str) -> None:
    """A screenshot of the whole page, kept under $CARDROOM_SCREENSHOTS when it is set."""
    if SCREENS:
        page.screenshot(path=str(Path(SCREENS) / name), full_page=True)


def fits(page: Any, name: str) -> None:
    """The page at 1280 and at 375 px, shot at both; no sideways scroll at 375, and at both
    widths no table column drawn one word per line (issue 23)."""
    shot(page, f"{name}-1280.png")
    narrow = squeezed(page)
    page.set_viewport_size({"width": 375, "height": 800})
    wide = page.evaluate("document.documentElement.scrollWidth")
    narrow += squeezed(page)
    shot(page, f"{name}-375.png")
    page.set_viewport_size({"width": 1280, "height": 900})
    assert wide <= 375, f"{name}: {wide}px wide at 375"
    assert narrow == [], f"{name}: one word per line in {narrow}"


def player_sits(page: Any, base: str, name: str, buy_in: str = "200") -> None:
    register(page, base, name)
    page.wait_for_url("**/lobby")
    page.goto(base + "/cashier")
    page.fill("#buy-amount", "500")
    page.click("#buy")
    page.wait_for_selector("#wallet:has-text('$500.00')")
    page.goto(base + "/lobby")
    page.click("a.join")
    page.wait_for_selector("#sit-box:not([hidden])")
    page.fill("#buy-in", buy_in)
    page.click("#sit")
    page.wait_for_selector("#bet-box:not([hidden])")


def register(page: Any, base: str, name: str) -> None:
    """Open a player account on the registration form (a legal name and a date of birth, which
    the room checks against the self-exclusion list, then the username and password)."""
    page.goto(base + "/register")
    page.fill("#legal-name", f"Player {name}")
    page.fill("#date-of-birth", "1990-01-31")
    page.fill("#username", name)
    page.fill("#password", PW)
    page.click("#register")


def skip_without_chromium() -> Any:
    return pytest.mark.skipif(not HAVE_CHROMIUM,
                              reason="Debian's chromium is not installed (.ci/run installs it)")


def sign_on_own_screen(browser: Any, base: str, name: str, done: str) -> None:
    """Issue 23: `name` accepts the newest request waiting for their signature from their own
    Signatures page, in a browser context of their own (their own session), and is told
    `done`."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    log_in(page, base, name)
    page.click("#menu-signatures")
    page.locator("#waiting button.accept").last.click()
    page.wait_for_selector(f"text={done}")
    context.close()
