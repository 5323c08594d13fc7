"""Issue 25, "every page and table updates from any process (lobby, floor, jackpot meters,
cage)", in a real browser: two `cardroom serve` processes of one PostgreSQL room
(`server.room_processes`). A cashier's cage page open at B, a sale half typed on it, shows a
sale made by clicks at A's cage (her drawer, the cage's latest movements) without a reload
and without losing what she typed; the same sale moves the chips at the cage on alice's table
page at B. A coup at A (Mini 1, its progressive wager) moves the meter
on B's jackpot page, and the day's posting clicked at A moves the amount posted on B's
jackpot page and on Mini 2's table page at B (B holds Mini 2, on the same pool). Each page
renders with no console error; both widths are shot into $CARDROOM_SCREENSHOTS when it is
set."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from room.storage_fixture import migrated_schema
from server.room_processes import (
    browser,
    coup,
    hand_over,
    message,
    process,
    socket,
    the_room,
    two_tables,
    wait_linked,
)

from .room_flows import SCREENS, cage_sells, chromium, console_errors, log_in, phone_width

WITHIN_MS = 5_000
"""How soon a change at one process shows on a page of the other (the socket's notice, at
most a second of the page's own pacing, and its fetch, on a loaded machine)."""


@pytest.fixture
def pg_url() -> Iterator[str]:
    yield from migrated_schema()


def shots(name: str, page: Any) -> None:
    """The page at 1280 and 375 px, shot when $CARDROOM_SCREENSHOTS is set; it fits a phone."""
    assert phone_width(page, name, Path(SCREENS) if SCREENS else None) <= 375, name


def changed(page: Any, selector: str, was: str) -> str:
    """The element's text once it is no longer `was` (within `WITHIN_MS`; the page's strict
    Content-Security-Policy refuses Playwright's own wait for a condition)."""
    deadline = time.monotonic() + WITHIN_MS / 1000
    while (now := page.inner_text(selector)) == was:
        assert time.monotonic() < deadline, f"{selector} still {was}"
        page.wait_for_timeout(100)
    return str(now)


def desktop(chrome: Any) -> Any:
    """A page of its own (a browser context of its own, its own log-in) at 1280 x 900."""
    return chrome.new_context(viewport={"width": 1280, "height": 900}).new_page()


@contextmanager
def linked_processes(pg_url: str) -> Iterator[tuple[str, str, Any]]:
    """Two processes of the room at `pg_url` whose changes reach each other, and a browser:
    A's address, B's, and the browser."""
    with process(pg_url, 1) as (_, a_port, _), process(pg_url, 2) as (_, b_port, _), \
            chromium() as chrome:
        wait_linked(a_port, b_port)
        yield f"http://127.0.0.1:{a_port}", f"http://127.0.0.1:{b_port}", chrome


def test_a_sale_at_one_process_shows_on_the_cage_page_at_the_other(pg_url: str) -> None:
    the_room(pg_url)
    with linked_processes(pg_url) as (at_a, at_b, chrome):
        cage = desktop(chrome)
        errors = console_errors(cage)
        log_in(cage, at_b, "olivia")
        cage.goto(at_b + "/cage")
        assert cage.inner_text("#drawer-cash") == "$0.00"
        cage.fill("#sell-player", "alice")
        cage.fill("#sell-amount", "12")  # half typed: kept while the page updates
        cage.evaluate("window.notReloaded = true")
        other = desktop(chrome)
        log_in(other, at_a, "olivia")
        cage_sells(other, at_a, "alice", 25_000)
        cage.wait_for_selector('#drawer-cash:text-is("$250.00")', timeout=WITHIN_MS)
        latest = cage.inner_text("#recent")
        assert "chips sold for cash" in latest and "alice" in latest and "$250.00" in latest
        assert cage.evaluate("window.notReloaded") is True
        assert cage.input_value("#sell-amount") == "12"
        assert cage.input_value("#sell-player") == "alice"
        shots("cage-live", cage)
        assert errors == []


def test_a_sale_at_one_process_moves_the_chips_at_the_cage_on_a_table_page_at_the_other(
        pg_url: str) -> None:
    """Issue 25, "every page and table updates from any process (... cage)": alice's table
    page open at B says her chips at the cage; olivia sells her $250 of chips by clicks at
    A's cage, and the figure on alice's page moves to the new sum without a reload (its
    `cage` topic, the page drawn again at B from the books)."""
    t = the_room(pg_url)
    with linked_processes(pg_url) as (at_a, at_b, chrome):
        table = desktop(chrome)
        errors = console_errors(table)
        log_in(table, at_b, "alice")
        table.goto(f"{at_b}/tables/{t}")
        assert table.inner_text("#wallet") == "$1,000.00"
        table.evaluate("window.notReloaded = true")
        cage = desktop(chrome)
        log_in(cage, at_a, "olivia")
        cage_sells(cage, at_a, "alice", 25_000)
        assert changed(table, "#wallet", "$1,000.00") == "$1,250.00"
        assert table.evaluate("window.notReloaded") is True
        shots("table-wallet-live", table)
        assert errors == []


def test_a_meter_moved_at_one_process_moves_on_the_pages_of_the_other(pg_url: str) -> None:
    t1, t2 = two_tables(pg_url)
    with process(pg_url, 1) as (a, a_port, _), process(pg_url, 2) as (b, b_port, _), \
            chromium() as chrome:
        hand_over(b, t2)  # Mini 1 held by A, Mini 2 by B
        deadline = time.monotonic() + 5
        while t2 in a.tables:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        wait_linked(a_port, b_port)
        at_a, at_b = (f"http://127.0.0.1:{p}" for p in (a_port, b_port))
        jackpot = desktop(chrome)
        table = desktop(chrome)
        errors = [console_errors(jackpot), console_errors(table)]
        log_in(jackpot, at_b, "olivia")
        jackpot.goto(at_b + "/floor/jackpot")
        log_in(table, at_b, "alice")
        table.goto(f"{at_b}/tables/{t2}")
        table.wait_for_selector("#meter:not([hidden])")
        meter, posted = jackpot.inner_text("#meter"), table.inner_text("#jackpot")
        assert jackpot.inner_text("#posted") == posted

        async def jackpot_coup() -> None:  # alice at Mini 1, at A, with a progressive wager
            async with socket(a_port, f"/ws/tables/{t1}", browser(a_port, "alice")) as mini_1:
                await message(mini_1)
                await mini_1.send(json.dumps({"type": "sit", "buy_in": 20_000, "key": "s"}))
                await message(mini_1)
                await coup(mini_1, "b", progressive=100)

        with ThreadPoolExecutor(1) as aside:  # Playwright's loop runs in this thread
            aside.submit(asyncio.run, jackpot_coup()).result()
        moved = changed(jackpot, "#meter", meter)
        assert table.inner_text("#jackpot") == posted  # the table shows the amount posted
        floor = desktop(chrome)
        log_in(floor, at_a, "olivia")
        floor.goto(at_a + "/floor/jackpot")
        floor.click("#post-today")  # the day's posting, at A
        floor.wait_for_selector("text=jackpot posted at")
        table.wait_for_selector(f'#jackpot:text-is("{moved}")', timeout=WITHIN_MS)
        jackpot.wait_for_selector(f'#posted:text-is("{moved}")', timeout=WITHIN_MS)
        shots("jackpot-live", jackpot)
        shots("table-jackpot-live", table)
        assert errors == [[], []]
