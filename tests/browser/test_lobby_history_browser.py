"""Issue 23 in the browser, by clicks, at 1280 and 375 px with the shared page checks: the
lobby shows each table's state, limits, seats free and least buy-in (a table not opened yet
or closed offers no Join) and updates itself when a table is added (issue 25); the hand
history's filters and pages; a member of staff lands on their own page."""

from __future__ import annotations

from typing import Any

from cardroom.room.room import Room

from .lobby_flows import lobby_room
from .page_checks import PageChecks
from .room_flows import browser_at, fits, floor_makes_table, log_in


def rows(page: Any) -> list[str]:
    return [" ".join(t.split()) for t in page.locator("#hands tbody tr").all_inner_texts()]


def test_the_lobby_and_the_hand_history_by_clicks(room: Room) -> None:
    with browser_at(room) as (base, browser):
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.set_default_timeout(15_000)
        ids = lobby_room(page, base, room)
        checks = PageChecks(page)
        checks.check("lobby")
        state = {name: page.inner_text(f"#lobby-table-{t} .table-state")
                 for name, t in ids.items()}
        assert state == {"Mini 1": "Open for play", "Mini 2": "Not opened yet",
                         "Mini 3": "Closed", "Pan 1": "Open for play"}
        assert page.inner_text(f"#lobby-table-{ids['Mini 1']} .seats-free") == \
            "6 of 7 seats free"
        for closed in ("Mini 2", "Mini 3"):
            assert page.locator(f"#lobby-table-{ids[closed]} a.join").count() == 0
        fits(page, "lobby")
        page.set_viewport_size({"width": 375, "height": 800})
        checks.check("lobby at 375")
        page.set_viewport_size({"width": 1280, "height": 900})
        # the lobby keeps itself up to date (lobby.js, told by /ws/changes): a table the
        # floor adds in another browser appears without a reload
        floor = browser.new_page(viewport={"width": 1280, "height": 900})
        log_in(floor, base, "olga")
        floor_makes_table(floor, base, "Mini 4", "baccarat")
        page.wait_for_selector("#lobby-live .name:text-is('Mini 4')", timeout=5_000)
        floor.close()

        page.click("#menu-history")
        page.wait_for_url("**/history")
        checks.check("history")
        assert "27 hands, page 1 of 2" in page.inner_text("#count")
        first = rows(page)
        assert len(first) == 25 and "$5.00 won $5.00" in first[0]
        fits(page, "history")
        page.click("#older")
        page.wait_for_url("**page=2")
        last = rows(page)
        assert len(last) == 2 and "Mini 3" in last[-1] and "lost $20.00" in last[-1]
        assert "lost $5.00" in last[0]
        page.click("#newer")
        page.wait_for_url("**page=1")
        # filters: one table, then the hands lost
        page.select_option("#filter-table", label="Mini 3")
        page.click("#filter-show")
        page.wait_for_url("**table=*")
        assert [r.split(" Mini-Baccarat ")[1][:6] for r in rows(page)] == ["Mini 3"]
        page.click("#filter-clear")
        page.select_option("#filter-outcome", "lost")
        page.click("#filter-show")
        page.wait_for_url("**outcome=lost*")
        lost = rows(page)
        assert len(lost) == 2 and "lost $5.00" in lost[0] and "lost $20.00" in lost[1]
        assert page.locator("#older").count() == 0
        page.fill("#filter-since", "2026-03-02")
        page.fill("#filter-until", "2026-03-01")
        page.click("#filter-show")
        page.wait_for_selector("text=The to date comes before the from date.")
        assert len(rows(page)) == 25  # nothing filtered, nothing changed
        checks.errors.clear()  # the browser logs the page's own 400 status
        page.set_viewport_size({"width": 375, "height": 800})
        checks.check("history with a refusal at 375")
        page.click("#logout")
        # the owner lands on her own page, not the player lobby
        log_in(page, base, "olga")
        assert page.url.endswith("/home")
        page.click("#home-floor")
        page.wait_for_url("**/floor")
