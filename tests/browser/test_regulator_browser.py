"""The reports to the regulator in a real browser (issue 21): the owner follows the link from the
daily games report to the monthly records (WAC 230-06-070) and opens the quarterly license
report (WAC 230-05-124) of three gambling days played in the past; the cashier records the
cage's cash count at opening and sees its shortfall (WAC 230-15-050). Each page has no console
error, no page-level sideways scroll at 375 px and passes axe; screenshots at 1280 and 375 px go
to $CARDROOM_SCREENSHOTS when it is set."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from room.past_days import PastDays

from cardroom.room.books import table_books
from cardroom.room.storage.db import Storage, make_engine, migrate

from .page_checks import PageChecks
from .room_flows import browser_at, cage_transaction, log_in


@pytest.fixture
def played(tmp_path: Path) -> Iterator[PastDays]:
    engine = make_engine(f"sqlite:///{tmp_path / 'regulator.sqlite3'}")
    migrate(engine)
    days = PastDays(Storage(engine))
    days.room.settings = replace(days.room.settings, clock=days.clock)
    days.play(date(2024, 12, 16), 4, cash_counted=150_000)
    days.play(date(2025, 1, 31), 4)
    days.play(date(2025, 2, 3), 3)
    yield days
    engine.dispose()


def both_widths(page: Any, checks: PageChecks, shots: Path, name: str) -> None:
    checks.check()
    page.screenshot(path=str(shots / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size({"width": 375, "height": 800})
    checks.check()
    page.screenshot(path=str(shots / f"{name}-375.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_owner_reads_month_and_quarter_and_the_cage_counts_its_cash(
        played: PastDays, tmp_path: Path) -> None:
    shots = Path(os.environ.get("CARDROOM_SCREENSHOTS", tmp_path))
    with browser_at(played.room) as (base, browser):
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        checks = PageChecks(page)
        log_in(page, base, "olivia")
        page.goto(base + "/reports/games?date=2025-01-31")
        page.click("#regulator-link")
        page.fill("#period-month", "2025-01")
        page.click("text=Show the month")
        page.wait_for_selector("text=Ready by 2025-03-02")
        assert "Reconciled" in page.inner_text("#period-reconciled")
        both_widths(page, checks, shots, "regulator-month")
        page.fill("#period-year", "2025")
        page.select_option("#period-quarter", "1")
        page.click("text=Show the quarter")
        page.wait_for_selector("text=Quarterly license report")
        assert "2025-04-30" in page.inner_text("#period-due")
        both_widths(page, checks, shots, "regulator-quarter")
        page.click("#logout")
        # today: the floor opens Mini 1, the cashier counts too little cash
        p, t = played.p, played.mini
        played.room.operate(p["fiona"], "table.open", lambda c: table_books.open_table(
            c, t, p["dan"], p["fiona"], table_books.last_closer(c, t).amount))  # type: ignore[union-attr]
        log_in(page, base, "cathy")
        cage_transaction(page, "cash-count")
        page.fill("#cash-count-amount", "1,000")
        page.click("#cash-count-submit")
        page.wait_for_selector("text=the cash on hand at opening is recorded: $1,000.00")
        assert "short of the" in page.inner_text("#cash-problems")
        both_widths(page, checks, shots, "cage-cash-on-hand")
        checks.finish()
