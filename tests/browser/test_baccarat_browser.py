"""A player plays two Mini-Baccarat hands in the browser with clicks only, at a desktop's width
and at a phone's (375 px): chips onto the named wager spots (Player, Player 9, Jackpot), place,
deal; the result of every wager stays on the table, the stack follows, the scoreboard grows by
one coup a hand. After every step the shared page checks run (console, 375 px, names, axe
contrast) and no card that has not left the shoe is ever on the page."""

from __future__ import annotations

from collections import Counter

import pytest

from cardroom.games.baccarat.wagers import WagerKind
from cardroom.money import format_money
from cardroom.room.play.baccarat_live import BaccaratLive
from cardroom.room.play.baccarat_protocol import BaccaratResult
from cardroom.room.room import Room

from .page_checks import PageChecks, shown_cards
from .room_flows import (
    browser_at,
    owner_opens_table,
    player_sits,
)
from .table_flows import baccarat_hand, change_and_take_back


@pytest.mark.parametrize("width", [1280, 375])
def test_two_baccarat_hands_with_chips(room: Room, width: int) -> None:
    with browser_at(room) as (base, browser):
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.set_default_timeout(15_000)

        def dealt() -> list[str]:
            """The cards out of the shoe so far: the only ones the page may show."""
            live = room.tables.get(1)
            shoe = live.engine.shoe if isinstance(live, BaccaratLive) else None
            return [] if shoe is None else [str(c) for c in shoe.order[:shoe.position]]

        checks = PageChecks(page, dealt)
        owner_opens_table(page, base, "Mini 1", "baccarat", room)
        player_sits(page, base, "alice")
        checks.check("seated")
        assert page.inner_text("#jackpot") == "$2,500.00"
        assert page.inner_text("#stack") == "$200.00"
        live = room.table(1)
        assert isinstance(live, BaccaratLive)
        # hand 1: $10 on Player ($5 + $5), $1 on Player 9, the $1 jackpot chip
        page.click('#chips button[data-chip="500"]')
        page.click('#felt button.spot[data-kind="player"]')
        assert page.inner_text("#on-layout").startswith("$5.00 on the layout")
        page.click("#clear")  # changed her mind: the layout is empty again
        assert page.inner_text('[data-kind="player"] .amount') == ""
        assert shown_cards(page) == []
        baccarat_hand(page, checks, 1, {"player": [500, 500], "player_9": [100],
                                        "progressive": [100]})
        assert isinstance(live.last, BaccaratResult)
        coup = [*live.last.player, *live.last.banker]
        assert Counter(shown_cards(page)) == Counter(c.text for c in coup)
        kinds = page.eval_on_selector_all("#my-results li", "els => els.map(e => "
                                          "e.textContent)")
        assert [k.split(" $")[0] for k in kinds] == ["Player", "Player 9", "Jackpot"]
        assert all(("Won" in k) or ("Lost" in k) or ("Push" in k) for k in kinds)
        assert "player_9" not in page.inner_text("body")
        stack = live.snapshot(None)["seats"][0]["stack"]
        assert page.inner_text("#stack") == format_money(stack)
        assert page.locator("#bead-plate span").count() == 1
        # hand 2: the same wagers again with one click (re-bet)
        page.click("#rebet")
        assert page.inner_text('[data-kind="player"] .amount') == "$10.00"
        page.click("#clear")
        # placed wagers may be changed or taken back until the deal (change_bets)
        (seat,) = live.seat_of.values()  # alice's, the engine's key for her wagers

        def changed() -> None:
            assert live.engine.bets[seat] == {WagerKind.BANKER: 1000}

        change_and_take_back(page, checks, "banker", [2500], [500, 500], changed)
        assert seat not in live.engine.bets
        assert page.inner_text("#stack") == format_money(stack)
        baccarat_hand(page, checks, 2, {"banker": [2500]})
        assert page.locator("#bead-plate span").count() == 2
        banker = page.inner_text("#my-results li")
        assert banker.startswith("Banker $25.00: ")
        if isinstance(live.last, BaccaratResult) and live.last.winner == "banker":
            assert "commission" in banker
        # a dropped connection: the page reconnects and is whole again, seat kept
        page.evaluate("window.cardroomSocket.close()")
        page.wait_for_selector("#connection[data-state=open]")
        page.wait_for_selector("#status:has-text('Connected again')")
        assert page.inner_text("#stack") == format_money(
            live.snapshot(None)["seats"][0]["stack"])
        checks.finish()
