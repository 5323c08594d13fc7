"""The posted rules page of every game (WAC 230-15-060) in a real browser, without logging in:
it renders under the strict Content-Security-Policy with no console error, reads in large type,
and fits a 375-pixel phone without sideways scrolling. Screenshots at desktop and phone width
go to $CARDROOM_SCREENSHOTS when it is set (docs/screenshots holds the committed ones)."""

from __future__ import annotations

import os
from pathlib import Path

from room.rooms import playing_table

from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room

from .room_flows import browser_at, console_errors

SEED = 7
"""The room's shuffles (the `room` fixture, tests/browser/conftest.py)."""

GAMES = ("baccarat", "super-pan-9", "pai-gow", "pan")
SIZES = {"desktop": (1280, 900), "375": (375, 800)}


def test_posted_rules_of_every_game_at_desktop_and_phone_width(room: Room, tmp_path: Path
                                                                ) -> None:
    with room.storage.unit() as conn:
        owner = create_account(conn, "olga", "correct horse", Role.OWNER)
    fee = {"fee": {"kind": "hand", "cents": 100}}
    tables = {g: playing_table(room, owner, f"{g} 1", g, fee if g == "pan" else None).table_id
              for g in GAMES}
    shots = Path(os.environ.get("CARDROOM_SCREENSHOTS", tmp_path))
    with browser_at(room) as (base, browser):
        for size, (width, height) in SIZES.items():
            page = browser.new_context(viewport={"width": width, "height": height}
                                       ).new_page()
            errors = console_errors(page)
            for game, t in tables.items():
                page.goto(f"{base}/tables/{t}/rules")
                assert page.inner_text("h1").startswith(
                    {"baccarat": "Mini-Baccarat", "super-pan-9": "Super Pan 9",
                     "pai-gow": "Pai Gow Poker", "pan": "Panguingue"}[game])
                assert page.is_visible("#disputes") and page.is_visible("#limits")
                if game in ("super-pan-9", "pan"):  # the turn timer (issue 23)
                    assert "you have 60 seconds to act" in page.inner_text("#turns")
                body = page.evaluate("parseFloat(getComputedStyle("
                                     "document.querySelector('#limits p')).fontSize)")
                assert body >= 18, f"{game} at {size}: {body}px type"
                wide = page.evaluate("document.documentElement.scrollWidth")
                assert wide <= width, f"{game} at {size}: {wide}px wide"
                page.screenshot(path=str(shots / f"rules-{game}-{size}.png"),
                                full_page=True)
            if size == "desktop":
                page.goto(f"{base}/tables/{tables['pai-gow']}/rules")
                assert page.locator("ol.house-way li").count() > 20
                page.goto(f"{base}/tables/{tables['pan']}/rules")
                assert "$1.00 a hand from each player" in page.inner_text("#limits")
            assert errors == []
