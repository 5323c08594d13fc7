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
from room.storage_fixture import migrated_engine

from cardroom.money import format_money, parse_money
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.identity_key import IdentityKey
from cardroom.room.storage.settings import SELF_SERVICE, RoomSettings
from cardroom.shoe import SeededRandom

from .page_checks import console_errors, shown_cards, word_per_line
from .server_thread import running

__all__ = ["ARGS", "CHROMIUM", "PW", "browser_at", "cage_finds", "cage_transaction", "chromium",
           "console_errors", "fits", "log_in", "owner_opens_table", "phone_width", "player_sits",
           "register", "seeded_room", "shot", "shown_cards", "skip_without_chromium",
           "staff_page"]

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


def seeded_room(tmp_path: Path, seed: int, settings: RoomSettings = SELF_SERVICE,
                identity: IdentityKey | None = None) -> Iterator[Room]:
    """A room on SQLite whose shuffles follow `seed`: by default a demonstration room
    (players buy their own chips); a real card room with `settings` and its `identity` key."""
    engine = migrated_engine(f"sqlite:///{tmp_path / 'browser.sqlite3'}")
    r = Room(Storage(engine), SeededRandom(seed), settings=settings, identity=identity)
    r.start()
    yield r
    engine.dispose()


def owner_opens_table(page: Any, base: str, name: str, game: str, room: Room) -> None:
    """The owner's first run, then a table of `game` made on the floor page; its inventory is
    opened by the room's dealer and floor (`open_for_play`: no house-banked table plays
    before its opener, WAC 230-15-495)."""
    first_run(page, base, "olga")
    floor_makes_table(page, base, name, game)
    page.click("#logout")
    open_for_play(room, table_number(room, name))


def first_run(page: Any, base: str, owner: str) -> None:
    """The room's first visit: it makes the owner's account."""
    page.goto(base + "/")
    page.fill("#username", owner)
    page.fill("#password", PW)
    page.click("#create-owner")
    page.wait_for_url("**/home")  # the owner's own page (issue 23: staff land on theirs)


def floor_makes_table(page: Any, base: str, name: str, game: str) -> None:
    """A table of `game` made on the floor page (closed until its opener)."""
    page.goto(base + "/floor")
    page.fill("input[name=name]", name)
    page.select_option("select[name=game]", game)
    page.click("#add-table-submit")
    page.wait_for_selector(f"text=table {name} added")


def table_number(room: Room, name: str) -> int:
    """The number of the table called `name` (its page is /tables/<number>)."""
    return next(t for t, live in room.tables.items() if live.name == name)


def log_in(page: Any, base: str, name: str) -> None:
    """Log in as `name`, landing on their own page (a player's lobby, a cashier's cage...)."""
    page.goto(base + "/login")
    page.fill("#username", name)
    page.fill("#password", PW)
    page.click("#login")
    page.wait_for_url(lambda url: not url.endswith("/login"))


def shot(page: Any, name: str) -> None:
    """A screenshot of the whole page, kept under $CARDROOM_SCREENSHOTS when it is set."""
    if SCREENS:
        page.screenshot(path=str(Path(SCREENS) / name), full_page=True)


def fits(page: Any, name: str) -> None:
    """The page at 1280 and at 375 px, shot at both; no sideways scroll at 375, and at both
    widths no table column drawn one word per line (issue 23)."""
    narrow = word_per_line(page)
    wide = phone_width(page, name, Path(SCREENS) if SCREENS else None)
    page.set_viewport_size({"width": 375, "height": 800})
    narrow += word_per_line(page)
    page.set_viewport_size({"width": 1280, "height": 900})
    assert wide <= 375, f"{name}: {wide}px wide at 375"
    assert narrow == [], f"{name}: one word per line in {narrow}"


def phone_width(page: Any, name: str, shots: Path | None) -> int:
    """The page's width at a 375-pixel phone (over 375: it scrolls sideways); shot whole at
    1280 and at 375 px into `shots` (`<name>-1280.png`, `<name>-375.png`) when it is given."""
    if shots is not None:
        page.screenshot(path=str(shots / f"{name}-1280.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 800})
    wide: int = page.evaluate("document.documentElement.scrollWidth")
    if shots is not None:
        page.screenshot(path=str(shots / f"{name}-375.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    return wide


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
    accept_signature(page, done)
    context.close()


def accept_signature(page: Any, done: str) -> None:
    """On the page of a member of staff already logged in (their own session): accept the
    newest request waiting for their signature; they are told `done`."""
    page.click("#menu-signatures")
    page.locator("#waiting button.accept").last.click()
    page.wait_for_selector(f"text={done}")


# the staff's own screens: the staff page, the cage, the table inventories -------------------
def hire(page: Any, base: str, name: str, role: str) -> None:
    """The owner makes a member of staff's account on the staff page."""
    page.goto(base + "/staff")
    page.fill("#hire-username", name)
    page.fill("#hire-password", PW)
    page.select_option("#hire-role", role)
    page.click("#hire-submit")
    page.wait_for_selector(f"text={role} {name} created")


def cage_identifies(page: Any, base: str, player: str, legal_name: str, document: str) -> None:
    """The cashier records a patron from the identity document in hand (a driver's licence)
    and links them to their online account `player`."""
    page.goto(base + "/cage")
    cage_transaction(page, "patron")
    page.fill("#patron-name", legal_name)
    page.fill("#patron-address", "1 Main St, Tacoma WA")
    page.fill("#patron-born", "1985-03-02")
    page.fill("#patron-document-number", document)
    page.fill("#patron-document-issuer", "Washington")
    page.fill("#patron-document-expires", "2031-01-01")
    page.fill("#patron-player", player)
    page.click("#patron-submit")
    page.wait_for_selector(f"text=recorded the patron; their chips are held as {player}")


def cage_sells(page: Any, base: str, player: str, cents: int) -> None:
    """The cashier sells `player` chips for cash."""
    page.goto(base + "/cage")
    cage_transaction(page, "sell")
    page.fill("#sell-player", player)
    page.fill("#sell-amount", format_money(cents))
    page.click("#sell-submit")
    page.wait_for_selector(f"text=sold {format_money(cents)} of chips to {player} (cash)")


def cage_counts_cash(page: Any, base: str, cents: int) -> None:
    """The cashier records the cage's cash on hand at the opening of the day."""
    page.goto(base + "/cage")
    cage_transaction(page, "cash-count")
    page.fill("#cash-count-amount", format_money(cents))
    page.click("#cash-count-submit")
    page.wait_for_selector("text=the cash on hand at opening is recorded")


def cage_asks_slip(page: Any, base: str, kind: str, table: str, cents: int, dealer: str,
                   floor: str) -> None:
    """The cashier signs a fill or credit slip (`kind`) and asks the dealer and the floor for
    theirs, which they give on their own screens (`accept_signature`)."""
    page.goto(base + "/cage")
    cage_transaction(page, kind)
    page.select_option(f"#{kind}-table", label=table)
    page.fill(f"#{kind}-amount", format_money(cents))
    page.fill(f"#{kind}-dealer", dealer)
    page.fill(f"#{kind}-floor", floor)
    page.click(f"#{kind}-submit")
    page.wait_for_selector(f"text=waiting for the signature of {dealer} and {floor}")


def cage_asks_count(page: Any, base: str, table: str, cash: int, second: str) -> None:
    """The cashier enters a drop box's cash and asks the second counter to sign."""
    page.goto(base + "/cage")
    cage_transaction(page, "count")
    page.select_option("#count-table", label=table)
    page.fill("#count-cash", format_money(cash))
    page.fill("#count-second", second)
    page.click("#count-submit")
    page.wait_for_selector(f"text=waiting for the signature of {second}")


def floor_asks_inventory(page: Any, base: str, kind: str, table: str, counted: int,
                         dealer: str) -> None:
    """The floor counts a table's tray into an opener (`kind` "open") or a closer ("close")
    and asks the dealer to sign on their own screen."""
    page.goto(base + "/floor/inventory")
    page.select_option(f"#{kind}-table", label=table)
    page.fill(f"#{kind}-counted", format_money(counted))
    page.fill(f"#{kind}-dealer", dealer)
    page.click(f"#{kind}-submit")
    page.wait_for_selector(f"text=waiting for the signature of {dealer}")


def books_tray(page: Any, base: str, table: str) -> int:
    """The tray of `table` in the books, as the inventory page shows it (cents)."""
    page.goto(base + "/floor/inventory")
    row = page.locator("#inventories tbody tr", has=page.locator(f'td.name:text-is("{table}")'))
    return parse_money(row.locator('td[data-label="Tray (books)"]').inner_text())


def table_sale(page: Any, base: str, table: str, player: str, cents: int) -> None:
    """The floor sells a player chips at a table for cash, into its drop box."""
    page.goto(base + "/floor/inventory")
    page.select_option("#drop-table", label=table)
    page.fill("#drop-player", player)
    page.fill("#drop-amount", format_money(cents))
    page.click("#drop-submit")
    page.wait_for_selector(f"text={player} bought {format_money(cents)} of chips (cash)")


def chips(page: Any, base: str) -> int:
    """The player's chips away from the tables, as their cashier page shows them (cents)."""
    page.goto(base + "/cashier")
    return parse_money(page.inner_text("#wallet"))


def takes_seat(page: Any, base: str, table: int, buy_in: int) -> None:
    """The player opens a table's page and sits with `buy_in` of their chips."""
    page.goto(f"{base}/tables/{table}")
    page.wait_for_selector("#sit-box:not([hidden])")
    page.fill("#buy-in", format_money(buy_in).lstrip("$"))
    page.click("#sit")
    page.wait_for_selector("#sit-box", state="hidden")


def leaves(page: Any) -> None:
    """The seated player leaves the table, their stack back to their chips."""
    page.click("#leave")
    page.wait_for_selector("#sit-box:not([hidden])")


def cage_transaction(page: Any, do: str) -> None:
    """The cashier opens the cage from the menu and chooses the transaction `do` (issue 23:
    one form at a time): "sell", "redeem", "fill", "credit", "count", "cash-count", "checks",
    "patron", "cash-today" or "flag"."""
    page.click("#menu-cage")
    page.click(f"#do-{do}")
    page.wait_for_selector(f"#do-{do}[aria-current=page]")


def cage_finds(page: Any, text: str) -> None:
    """On the cage page, the cashier finds the person by a name, an account or a document
    number; the patrons found are listed (and one patron with one account is chosen)."""
    page.fill("#find-q", text)
    page.click("#find-submit")
    page.wait_for_selector("#patrons-found, #no-patron")
