"""At a phone's screen (375 by 740 px) the acting player's buttons and chips stay on the screen
with their cards (issue 23): a hand at each game played by clicks, and at each decision the
action bar is wholly on the screen while the cards it is about are too, none under it
(`bar_beside_cards`, Playwright's bounding boxes). At Pan the moves sit right under the
discard and the player's hand, and declaring one's own hand foul (foul rule 2) is apart from
them and asks first: cancelling changes nothing, confirming declares it."""

from __future__ import annotations

from typing import Any

from cardroom.games.pai_gow.settings import legal_settings
from cardroom.games.pan.state import Status
from cardroom.room.play.pai_gow_live import PaiGowLive
from cardroom.room.play.pan_live import PanLive
from cardroom.room.room import Room

from .page_checks import PageChecks
from .room_flows import browser_at, owner_opens_table, player_sits
from .table_flows import (
    bar_beside_cards,
    pai_gow_arrange,
    pan_step,
    put_chips,
    super_pan_9_bet,
    tap_cards,
)

SEED = 21
PHONE = {"width": 375, "height": 740}


def phone(browser: Any) -> Any:
    page = browser.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15_000)
    return page


def test_baccarat_chips_and_buttons_stay_with_the_spots_and_the_cards(room: Room) -> None:
    with browser_at(room) as (base, browser):
        page = phone(browser)
        checks = PageChecks(page)
        owner_opens_table(page, base, "Mini 1", "baccarat", room)
        player_sits(page, base, "alice")
        checks.check("seated")
        bar_beside_cards(page, "#action-bar", '#spots [data-kind="banker"]')
        assert page.locator("#chips").is_visible()
        put_chips(page, {"banker": [2500]})
        page.click("#bet")
        page.wait_for_selector("#deal:not([hidden])")
        page.click("#deal")
        page.wait_for_selector("body[data-state=settled]")
        checks.check("settled")
        bar_beside_cards(page, "#action-bar", "#player-cards img, #banker-cards img")
        assert page.locator("#rebet").is_visible()


def test_super_pan_9_draw_and_stand_stay_with_the_players_cards(room: Room) -> None:
    with browser_at(room) as (base, browser):
        alice, bob = phone(browser), phone(browser)
        checks = PageChecks(alice)
        owner_opens_table(alice, base, "Pan Nine", "super-pan-9", room)
        player_sits(alice, base, "alice")
        player_sits(bob, base, "bob")
        bar_beside_cards(alice, "#action-bar", '#spots [data-kind="wager"]')
        super_pan_9_bet(alice, checks, {"wager": [500]})
        super_pan_9_bet(bob, PageChecks(bob), {"wager": [500]})
        bob.click("#deal")
        alice.wait_for_selector("#decide:not([hidden])")
        checks.check("my turn")
        mine = '#hands [data-seat="1"] img'
        bar_beside_cards(alice, "#action-bar", mine)
        assert alice.locator("#draw").is_visible() and alice.locator("#stand").is_visible()
        # the bar names her cards in brief beside the buttons
        cards = alice.eval_on_selector_all(mine, "els => els.map(e => e.dataset.card)")
        assert len(cards) == 3
        assert alice.inner_text("#my-total").count(" ") >= 4  # "You have N: c c c."


def test_pai_gow_hand_is_set_in_the_bar(room: Room) -> None:
    with browser_at(room) as (base, browser):
        page = phone(browser)
        checks = PageChecks(page)
        owner_opens_table(page, base, "Pai Gow 1", "pai-gow", room)
        player_sits(page, base, "alice")
        bar_beside_cards(page, "#action-bar", '#wager-spots [data-kind="wager"]')
        put_chips(page, {"wager": [2500]})
        page.click("#bet")
        page.wait_for_selector("#deal:not([hidden])")
        page.click("#deal")
        page.wait_for_selector("#arrange-box:not([hidden])")  # the deal is in the engine
        live = room.table(1)
        assert isinstance(live, PaiGowLive)
        low = [str(c) for c in legal_settings(live.engine.hands[1])[-1].front]

        def seen(moment: str) -> None:
            bar_beside_cards(page, "#action-bar", "#low-cards img, #high-cards img")
            assert page.locator("#set").is_visible()
            assert page.locator("#house-way").is_visible()

        pai_gow_arrange(page, checks, low, seen)
        page.wait_for_selector("body[data-state=settled]")


def pan_table(room: Room, browser: Any, base: str) -> tuple[Any, PageChecks, PanLive]:
    """Alice at Pan with two house players, the hand dealt."""
    page = phone(browser)
    owner_opens_table(page, base, "Pan 1", "pan", room)
    checks = PageChecks(page)
    player_sits(page, base, "alice", "20")
    for n in (1, 2):
        page.click("#add-bot")
        page.wait_for_selector(f"#players li:nth-child({n + 1})")
    page.click("#deal")
    page.wait_for_selector("#decide:not([hidden])")
    live = room.table(1)
    assert isinstance(live, PanLive)
    return page, checks, live


def pan_until(page: Any, checks: PageChecks, done: str) -> None:
    """Play Alice's plain moves until `done` (a selector) is on the page."""
    for step in range(150):
        checks.check(f"step {step}")
        if page.locator(done).count():
            return
        seq = page.get_attribute("body", "data-seq")
        pan_step(page, checks.latest)  # type: ignore[arg-type]
        page.wait_for_selector(f"body:not([data-seq='{seq}'])", state="attached")
    raise AssertionError(f"{done} never shown")


def test_pan_moves_sit_under_the_discard_and_the_hand(room: Room) -> None:
    with browser_at(room) as (base, browser):
        page, checks, _ = pan_table(room, browser, base)
        pan_until(page, checks, '#with-cards button[data-act="discard"]')
        # the discard, her hand and her moves on one screen, the felt's top at the screen's top
        page.evaluate("document.getElementById('felt').scrollIntoView()")
        bar_beside_cards(page, "#decide", "#discard img")
        bar_beside_cards(page, "#decide", "#my-seat .hand-cards img")
        # and in the page's flow, the moves follow her hand at once
        gap = page.evaluate("""() => {
            const hand = document.getElementById('felt').getBoundingClientRect();
            const moves = document.getElementById('decide');
            return moves.offsetTop - (hand.bottom + scrollY);
          }""")
        assert gap < 40, f"'Your move' is {gap} px below the table"
        main = page.eval_on_selector_all("#direct button", "els => els.map(e => e.dataset.act)")
        assert "foul_self" not in main and "call_foul" not in main


def test_pan_own_foul_asks_first_cancel_changes_nothing_confirm_declares(room: Room) -> None:
    with browser_at(room) as (base, browser):
        page, checks, live = pan_table(room, browser, base)
        foul = '#rare button[data-act="foul_self"]'
        pan_until(page, checks, foul)
        hand = live.engine.hand
        assert hand is not None
        me = next(i for i, s in hand.seats.items() if s.name == "alice")
        events = len(hand.events)
        seq = page.get_attribute("body", "data-seq")
        page.click(foul)
        page.wait_for_selector("#foul-dialog[open]")
        checks.check("asked")
        page.click("#foul-cancel")
        page.wait_for_selector("#foul-dialog", state="hidden")
        page.wait_for_timeout(300)  # nothing is sent: nothing comes back
        assert page.get_attribute("body", "data-seq") == seq
        assert hand.seats[me].status is Status.IN and len(hand.events) == events
        page.click(foul)
        page.click("#foul-confirm")
        page.wait_for_selector(f"body:not([data-seq='{seq}'])", state="attached")
        checks.check("declared")
        assert hand.seats[me].status is Status.SELF_FOULED
        assert page.locator(foul).count() == 0
        checks.finish()


def test_tapping_cards_keeps_the_moves_on_the_screen(room: Room) -> None:
    """Choosing cards in her hand (a tap each) does not push the moves off the screen."""
    with browser_at(room) as (base, browser):
        page, checks, _ = pan_table(room, browser, base)
        pan_until(page, checks, '#with-cards button[data-act="discard"]')
        latest = checks.latest
        assert isinstance(latest, dict)
        mine = next(s for s in latest["play"]["seats"] if s["hand"] is not None
                    and s["seat"] == latest["you"]["hand_seat"])
        tap_cards(page, [mine["hand"][0]["text"]])
        bar_beside_cards(page, "#decide", "#my-seat .hand-cards img")
        assert page.locator('#with-cards button[data-act="discard"]:not([disabled])').is_visible()
