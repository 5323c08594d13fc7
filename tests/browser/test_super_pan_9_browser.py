"""Two players in two browsers play a Super Pan 9 round from log-in to settlement; neither
page ever shows a card it should not: before the showdown each sees only their own three
cards, the dealer's stay face down, and at the end exactly the cards dealt are shown."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.money import format_money
from cardroom.room.room import Room
from cardroom.room.super_pan_9_live import SuperPan9Live

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
    yield from seeded_room(tmp_path, 21)


def test_play_a_super_pan_9_round_in_two_browsers(room: Room) -> None:
    with running(room) as base, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            a = browser.new_context().new_page()
            b = browser.new_context().new_page()
            errors = [console_errors(a), console_errors(b)]
            for page in (a, b):
                page.set_default_timeout(15_000)
            owner_opens_table(a, base, "Pan Nine", "super-pan-9")
            player_sits(a, base, "alice")
            player_sits(b, base, "bob")
            a.fill("#wager", "10")
            a.fill("#tie", "1")
            a.click("#bet")
            a.wait_for_selector("body[data-state=betting]")
            b.fill("#wager", "20")
            b.click("#bet")
            b.wait_for_selector("#deal:not([hidden])")
            assert shown_cards(a) == [] and shown_cards(b) == []
            b.click("#deal")
            for page in (a, b):
                page.wait_for_selector("body[data-state=players]")
            live = room.table(1)
            assert isinstance(live, SuperPan9Live)
            e = live.engine
            alice, bob = [str(c) for c in e.seats[1].cards], [str(c) for c in e.seats[2].cards]
            a.wait_for_selector("#decide:not([hidden])")
            assert sorted(shown_cards(a)) == sorted(alice)
            assert sorted(shown_cards(b)) == sorted(bob)
            assert a.locator("#dealer-cards img.back").count() == 3
            assert b.locator("#decide").is_hidden()  # seat 1 acts first (rule 6)
            a.click("#stand")
            b.wait_for_selector("#decide:not([hidden])")
            assert sorted(shown_cards(a)) == sorted(alice)  # still only her own
            b.click("#draw")
            for page in (a, b):
                page.wait_for_selector("body[data-state=settled]")
            dealt = alice + [str(c) for c in e.seats[2].cards] + [str(c) for c in
                                                                  e.dealer_cards]
            assert len(e.seats[2].cards) == 4
            for page in (a, b):
                assert Counter(shown_cards(page)) == Counter(dealt)
            assert a.inner_text("#result").startswith("Hand 1: dealer ")
            stack = next(p["stack"] for p in live.snapshot(None)["players"]
                         if p["name"] == "alice")
            assert a.inner_text("#stack") == format_money(stack)
            assert errors == [[], []]
        finally:
            browser.close()
