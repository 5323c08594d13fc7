"""A player plays a Pai Gow hand in the browser from log-in to settlement: she sees her own
seven cards and nothing else (the dealer's hand face down), picks her front hand by clicking
two cards, and at settlement the dealer's hand appears, set the house way."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.games.pai_gow.settings import legal_settings
from cardroom.money import format_money
from cardroom.room.pai_gow_live import PaiGowLive
from cardroom.room.room import Room

from .room_flows import (
    ARGS,
    CHROMIUM,
    console_errors,
    owner_opens_table,
    player_sits,
    seeded_room,
    shown_cards,
    skip_without_chromium,
)
from .server_thread import running

sync_api = pytest.importorskip("playwright.sync_api")
pytestmark = skip_without_chromium()


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    yield from seeded_room(tmp_path, 8)


def test_play_a_pai_gow_hand_in_the_browser(room: Room) -> None:
    with running(room) as base, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page()
            errors = console_errors(page)
            page.set_default_timeout(15_000)
            owner_opens_table(page, base, "Pai Gow 1", "pai-gow")
            player_sits(page, base, "alice")
            page.fill("#wager", "10")
            page.click("#bet")
            page.wait_for_selector("#deal:not([hidden])")
            assert shown_cards(page) == []
            page.click("#deal")
            page.wait_for_selector("#set-box:not([hidden])")
            live = room.table(1)
            assert isinstance(live, PaiGowLive)
            mine = live.engine.hands[1]
            assert sorted(shown_cards(page)) == sorted(str(c) for c in mine)
            assert page.locator("[data-spot='0'] img.back").count() == 7  # the dealer's
            front = legal_settings(mine)[0].front
            for c in front:
                page.click(f"[data-spot='1'] img.card[alt='{c}']")
            assert page.inner_text("#front") == f"{front[0]} {front[1]}"
            dealer = live.engine.hands[0]
            page.click("#set")
            page.wait_for_selector("body[data-state=settled]")
            assert Counter(shown_cards(page)) == Counter(str(c) for c in [*mine, *dealer])
            front_row = page.eval_on_selector_all("[data-spot='1'] .front img.card",
                                                  "els => els.map(e => e.alt)")
            assert front_row == [str(c) for c in front]
            assert "house way" in page.inner_text("[data-spot='0'] h3")
            assert page.inner_text("#result").startswith("Hand 1 settled - you ")
            stack = live.snapshot(None)["players"][0]["stack"]
            assert page.inner_text("#stack") == format_money(stack)
            assert errors == []
        finally:
            browser.close()
