"""Two players in two browsers play two Super Pan 9 hands with clicks only, at a desktop's
width and at a phone's (375 px): chips onto the wager and the tie bet, placed, dealt; the seat
in turn alone gets the large Draw and Stand buttons while every page says whose turn it is;
the dealer's reveal and draw are told in order and each wager's result stays until the next
deal; before the first deal a placed wager is changed and taken back. After every step the
shared page checks run, and neither page shows a card its player may not see: before the
showdown only their own three cards, the dealer's face down."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cardroom.games.super_pan_9 import Phase
from cardroom.money import format_money
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.play.super_pan_9_live import SuperPan9Live
from cardroom.room.play.super_pan_9_protocol import SuperPan9Result
from cardroom.room.room import Room

from .page_checks import PageChecks, shown_cards
from .room_flows import (
    PW,
    browser_at,
    first_run,
    log_in,
    open_for_play,
    owner_opens_table,
    player_sits,
    shot,
)
from .table_flows import (
    change_and_take_back,
    put_chips,
    super_pan_9_bet,
    super_pan_9_decide,
)

SEED = 21
"""The room's shuffles (the `room` fixture, tests/browser/conftest.py)."""


def visible(room: Room, seat: int) -> list[str]:
    """What the rules let the player at `seat` see now: their own cards while the round is
    played; every card of the last round once it is settled (the showdown)."""
    live = room.tables.get(1)
    if not isinstance(live, SuperPan9Live):
        return []
    e = live.engine
    if e.phase in (Phase.PLAYERS, Phase.DEALER):
        return [str(c) for c in e.seats[seat].cards] if seat in e.seats else []
    last = live.last
    if not isinstance(last, SuperPan9Result):
        return []
    return [c.text for s in [*last.seats, last.dealer] for c in s.cards or []]


def alice_and_bob_seated(room: Room, base: str, browser: Any, width: int
                         ) -> tuple[Any, Any, PageChecks, PageChecks, SuperPan9Live]:
    """Alice's and Bob's pages at `width`, each checked (axe once per state for both), seated
    at Pan Nine, a Super Pan 9 table the owner opened; and the live table."""
    a, b = (browser.new_context(viewport={"width": width, "height": 900}).new_page()
            for _ in range(2))
    seen: set[tuple[str, int]] = set()
    ca = PageChecks(a, lambda: visible(room, 1), seen)
    cb = PageChecks(b, lambda: visible(room, 2), seen)
    for page in (a, b):
        page.set_default_timeout(15_000)
    owner_opens_table(a, base, "Pan Nine", "super-pan-9", room)
    player_sits(a, base, "alice")
    player_sits(b, base, "bob")
    live = room.table(1)
    assert isinstance(live, SuperPan9Live)
    return a, b, ca, cb, live


@pytest.mark.parametrize("width", [1280, 375])
def test_two_super_pan_9_hands_in_two_browsers(room: Room, width: int) -> None:
    with browser_at(room) as (base, browser):
        a, b, ca, cb, live = alice_and_bob_seated(room, base, browser, width)
        # until the deal alice may change her placed wager ($5 to $10) or take it back

        def changed() -> None:
            assert live.engine.seats[1].wager == 1000

        change_and_take_back(a, ca, "wager", [500], [500, 500], changed)
        assert 1 not in live.engine.seats
        # hand 1: alice $10 and a $1 tie bet, bob $25; bob deals
        super_pan_9_bet(a, ca, {"wager": [500, 500], "tie": [100]})
        assert a.inner_text("#stack") == "$189.00"
        super_pan_9_bet(b, cb, {"wager": [2500]})
        assert shown_cards(a) == [] and shown_cards(b) == []
        b.click("#deal")
        a.wait_for_selector("#decide:not([hidden])")
        ca.check("dealt")
        assert a.locator("#dealer-cards img.back").count() == 3
        assert sorted(shown_cards(a)) == sorted(str(c) for c in live.engine.seats[1].cards)
        b.wait_for_selector("#result:has-text('Seat 1 (alice) is to act')")
        assert b.locator("#decide").is_hidden()  # seat 1 acts first (rule 6)
        super_pan_9_decide(a, ca, draw=False)
        super_pan_9_decide(b, cb, draw=True)
        for page, checks in ((a, ca), (b, cb)):
            page.wait_for_selector("body[data-state=settled]")
            checks.check("hand 1 settled")
        assert len(live.engine.seats[2].cards) == 4
        dealt = [str(c) for s in live.engine.seats.values() for c in s.cards]
        dealt += [str(c) for c in live.engine.dealer_cards]
        assert Counter(shown_cards(a)) == Counter(dealt)
        log = a.inner_text("#dealer-log")
        assert log.startswith("The dealer turns up ") and ("draws" in log or "stands" in log)
        mine = a.inner_text("#my-results")
        assert mine.startswith("Wager $10.00, your total ") and "Tie bet $1.00: " in mine
        assert "you loss" not in a.inner_text("body")
        stack = next(p["stack"] for p in live.snapshot(None)["players"]
                     if p["name"] == "alice")
        assert a.inner_text("#stack") == format_money(stack)
        # hand 2: alice repeats her bet with Re-bet and deals; she draws, bob stands
        a.click("#rebet")
        assert a.inner_text('[data-kind="wager"] .amount') == "$10.00"
        a.click("#bet")
        a.wait_for_selector("#bet", state="hidden")
        put_chips(b, {"wager": [500]})
        b.click("#bet")
        a.wait_for_selector("#deal:not([hidden])")
        a.click("#deal")
        super_pan_9_decide(a, ca, draw=True)
        super_pan_9_decide(b, cb, draw=False)
        for page, checks in ((a, ca), (b, cb)):
            page.wait_for_selector('body[data-state=settled][data-hand="2"]')
            checks.finish()
        assert a.inner_text("#result").startswith("Hand 2 (table's hand 2): the dealer has ")


class TableClock:
    """The table's clock, moved on by the test (the server's timer looks every second)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 26, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.mark.parametrize("width", [1280, 375])
def test_a_turn_runs_out_in_the_browser(room: Room, width: int) -> None:
    """Issue 23, action timers: every page says whose turn it is and the time left; when the
    turn runs out (the table's clock moved on, the server's own timer takes it) the seat
    stands (rule 6) and the next seat's clock starts; the player who missed sits out (the
    house rules here: after one miss), the page says so, and "I'm back" deals them in again."""
    with browser_at(room) as (base, browser):
        a, b, ca, cb, live = alice_and_bob_seated(room, base, browser, width)
        clock = TableClock()
        live.clock = clock
        live.rules = live.rules.model_copy(update={"misses_to_sit_out": 1})
        super_pan_9_bet(a, ca, {"wager": [500]})
        super_pan_9_bet(b, cb, {"wager": [500]})
        assert a.locator("#turn-clock").is_hidden()
        b.click("#deal")
        a.wait_for_selector("#turn-clock:has-text('You are to act: 1:00 left')")
        b.wait_for_selector("#turn-clock:has-text('alice is to act: 1:00 left')")
        ca.check("alice's turn, timed")
        shot(a, f"turn-timer-alice-{width}.png")
        clock.now += timedelta(seconds=60)  # alice walked away: her time runs out
        b.wait_for_selector("#turn-clock:has-text('You are to act: 1:00 left')")
        a.wait_for_selector("#sitting-out:not([hidden])")
        assert a.locator("#decide").is_hidden() and b.locator("#decide").is_visible()
        assert live.engine.seats[1].acted and len(live.engine.seats[1].cards) == 3
        cb.check("bob's turn after alice's ran out")
        shot(b, f"turn-timer-bob-{width}.png")
        super_pan_9_decide(b, cb, draw=False)
        for page in (a, b):
            page.wait_for_selector("body[data-state=settled]")
        assert a.locator("#turn-clock").is_hidden()
        shot(a, f"turn-timer-sitting-out-{width}.png")
        ca.check("sitting out")
        a.click("#back")
        a.wait_for_selector("#sitting-out", state="hidden")
        assert live.away == set()
        for checks in (ca, cb):
            checks.finish()


@pytest.mark.parametrize("width", [1280, 375])
def test_the_dealer_deals_and_stands_for_a_player_from_the_table_page(
        room: Room, width: int) -> None:
    """Issue 23, dealer and floor controls: a dealer who is not seated has their own controls
    on the table page: Deal once wagers are down, and "Stand for alice" when the seat in turn
    does not act (rule 6; the timer's default), by clicks; the players' pages follow."""
    with browser_at(room) as (base, browser):
        a, b, d = (browser.new_context(viewport={"width": width, "height": 900}).new_page()
                   for _ in range(3))
        seen: set[tuple[str, int]] = set()
        ca = PageChecks(a, lambda: visible(room, 1), seen)
        cb = PageChecks(b, lambda: visible(room, 2), seen)
        cd = PageChecks(d, lambda: visible(room, 0), seen)  # no seat: the showdown only
        for page in (a, b, d):
            page.set_default_timeout(15_000)
        owner_opens_table(a, base, "Pan Nine", "super-pan-9", room)
        with room.storage.unit() as conn:
            create_account(conn, "dan", PW, Role.DEALER)
        player_sits(a, base, "alice")
        player_sits(b, base, "bob")
        log_in(d, base, "dan")
        d.goto(base + "/tables/1")
        d.wait_for_selector("#staff-box:not([hidden])")
        assert d.locator("#bet-box").is_hidden() and d.locator("#act-for").is_hidden()
        super_pan_9_bet(a, ca, {"wager": [500]})
        super_pan_9_bet(b, cb, {"wager": [500]})
        d.wait_for_selector("#staff-deal:not([hidden])")
        cd.check("wagers down")
        shot(d, f"dealer-controls-deal-{width}.png")
        d.click("#staff-deal")
        d.wait_for_selector("#act-for:has-text('Stand for alice')")
        assert d.locator("#staff-deal").is_hidden()
        a.wait_for_selector("#decide:not([hidden])")
        cd.check("dealt")
        shot(d, f"dealer-controls-stand-for-{width}.png")
        d.click("#act-for")
        b.wait_for_selector("#decide:not([hidden])")
        d.wait_for_selector("#act-for:has-text('Stand for bob')")
        live = room.table(1)
        assert live.engine.seats[1].acted and len(live.engine.seats[1].cards) == 3
        a.wait_for_selector("#decide", state="hidden")
        super_pan_9_decide(b, cb, draw=True)
        d.wait_for_selector("body[data-state=settled]")
        assert d.locator("#act-for").is_hidden()
        for checks in (ca, cb, cd):
            checks.finish()


FIVE_DOLLAR_CHIP = {"smallest_chip_cents": 500, "min_wager_cents": 1_000,
                    "tie_min_cents": 500}
"""House rules of a table whose smallest chip is $5 (every limit a whole number of it)."""


def test_a_five_dollar_table_racks_five_dollar_chips(room: Room) -> None:
    """Issue 23: wagers are placed in the table's smallest chip (WAC 230-15-500), so at a $5
    table the chip rack starts at $5, offering no $1 chip the table would refuse, and a click of
    that chip and of the wager spot puts $5 there; clicked twice more, the $10 minimum (and
    $5 over it) is placed and held by the table."""
    with browser_at(room) as (base, browser):
        page = browser.new_context(viewport={"width": 375, "height": 900}).new_page()
        page.set_default_timeout(15_000)
        first_run(page, base, "olga")
        page.click("#logout")
        owner = room.account(1)
        assert owner is not None
        table = room.create_table(owner, "Five Nine", "super-pan-9", FIVE_DOLLAR_CHIP).table_id
        open_for_play(room, table)
        player_sits(page, base, "alice")
        chips = page.locator("#chips button.chip")
        values = [int(v) for v in chips.evaluate_all("bs => bs.map((b) => b.dataset.chip)")]
        assert values[0] == 500 and min(values) == 500, values
        assert chips.first.inner_text() == "$5"
        shot(page, "super-pan-9-five-dollar-rack-375.png")
        put_chips(page, {"wager": [500]})
        page.wait_for_selector('[data-kind="wager"] .amount:text-is("$5.00")')
        put_chips(page, {"wager": [500, 500]})
        page.click("#bet")
        page.wait_for_selector('[data-kind="wager"] .amount:text-is("$15.00")')
        page.wait_for_selector("#bet", state="hidden")
        shot(page, "super-pan-9-five-dollar-chips-375.png")
        live = room.table(table)
        assert isinstance(live, SuperPan9Live)
        assert live.engine.seats[1].wager == 1_500
