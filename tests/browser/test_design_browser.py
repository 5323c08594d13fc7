"""The room's design system on the pages every player sees (log-in, lobby, cashier) and the
main menu by role: at a desktop's width and at a phone's (375 px) each page passes the shared
page checks (no console error, no horizontal scroll, every control named, axe-core's WCAG 2 AA
rules with colour contrast)."""

from __future__ import annotations

from cardroom.room.room import Room

from .page_checks import PageChecks
from .room_flows import (
    PW,
    browser_at,
    log_in,
    owner_opens_table,
)

SEED = 3
"""The room's shuffles (the `room` fixture, tests/browser/conftest.py)."""


WIDTHS = [(1280, 800), (375, 740)]


def menu(page: object) -> list[str]:
    items: list[str] = page.eval_on_selector_all(  # type: ignore[attr-defined]
        "nav .menu a", "els => els.map(e => e.textContent.trim())")
    return items


def test_player_pages_and_menus_by_role(room: Room) -> None:
    with browser_at(room) as (base, browser):
        owner = browser.new_page()
        owner.set_default_timeout(10_000)
        owner_opens_table(owner, base, "Mini 1", "baccarat", room)
        for width, height in WIDTHS:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.set_default_timeout(10_000)
            checks = PageChecks(page)
            page.goto(base + "/register")
            checks.check(f"register at {width}")
            page.fill("#legal-name", "Alice Liddell")
            page.fill("#date-of-birth", "1990-05-04")
            page.fill("#username", f"alice{width}")
            page.fill("#password", PW)
            page.click("#register")
            page.wait_for_url("**/lobby")
            checks.check(f"lobby at {width}")
            assert menu(page) == ["Lobby", "Tables", "Cashier", "Hand history"]
            page.click("#menu-cashier")
            page.wait_for_url("**/cashier")
            assert page.get_attribute("#menu-cashier", "aria-current") == "page"
            checks.check(f"cashier at {width}")
            page.goto(base + "/login")
            checks.check(f"log-in at {width}")
            page.close()
        log_in(owner, base, "olga")
        assert menu(owner) == ["Lobby", "Tables", "Cashier", "Cage", "Hand history",
                               "Floor", "Jackpot", "Surveillance", "Reports", "Title 31",
                               "Staff", "Signatures", "Self-exclusion",
                               "Audit"]
