"""A player plays two Pai Gow hands in the browser with clicks only, at a desktop's width and at a
phone's (375 px): a placed wager changed and taken back before the first deal; chips onto the
wager, placed, dealt (the dice and the first hand shown); she arranges her seven cards by
tapping them between the high and the low hand, the hands named as she goes; a foul arrangement
is flagged before she confirms anything; the second hand she leaves to the house way. At
settlement the dealer's hand is shown as set, the house way, with every result. After every
step the shared page checks run, and the page never shows a card she may not see: before
settlement only her own seven."""

from __future__ import annotations

from collections import Counter

import pytest

from cardroom.games.pai_gow.settings import all_settings, legal_settings
from cardroom.games.pai_gow.table import Phase
from cardroom.money import format_money
from cardroom.room.play.pai_gow_live import PaiGowLive
from cardroom.room.play.pai_gow_protocol import PaiGowResult
from cardroom.room.room import Room

from .page_checks import PageChecks, shown_cards
from .room_flows import (
    browser_at,
    owner_opens_table,
    player_sits,
)
from .table_flows import change_and_take_back, pai_gow_arrange, put_chips

SEED = 8
"""The room's shuffles (the `room` fixture, tests/browser/conftest.py)."""


def visible(room: Room) -> list[str]:
    """Her own seven cards while hands are set; every hand once settled (the showdown)."""
    live = room.tables.get(1)
    if not isinstance(live, PaiGowLive):
        return []
    if live.engine.phase is Phase.SETTING:
        return [str(c) for c in live.engine.hands.get(1, ())]
    last = live.last
    return [c.text for s in last.spots for c in s.cards] if isinstance(last, PaiGowResult) \
        else []


def deal(page: object, checks: PageChecks) -> None:
    page.click("#bet")  # type: ignore[attr-defined]
    page.wait_for_selector("#deal:not([hidden])")  # type: ignore[attr-defined]
    checks.check("wager placed")
    page.click("#deal")  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", [1280, 375])
def test_two_pai_gow_hands_with_chips(room: Room, width: int) -> None:
    with browser_at(room) as (base, browser):
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.set_default_timeout(15_000)
        checks = PageChecks(page, lambda: visible(room))
        owner_opens_table(page, base, "Pai Gow 1", "pai-gow", room)
        player_sits(page, base, "alice")
        live = room.table(1)
        assert isinstance(live, PaiGowLive)
        # until the deal she may change her placed wager ($25 to $50) or take it back

        def changed() -> None:
            assert live.engine.wagers == {1: 5000}

        change_and_take_back(page, checks, "wager", [2500], [2500, 2500], changed)
        assert live.engine.wagers == {}
        # hand 1: a $25 wager; she sets a legal arrangement of her own
        put_chips(page, {"wager": [2500]})
        checks.check("chips down")
        deal(page, checks)
        page.wait_for_selector("#arrange-box:not([hidden])")
        mine = live.engine.hands[1]
        assert sorted(shown_cards(page)) == sorted(str(c) for c in mine)
        assert page.locator("#dealer img.back").count() == 7
        if live.rules.use_dice:
            assert page.locator("#dice .die").count() == 3
        assert "first hand went to" in page.inner_text("#first-hand")
        setting = legal_settings(mine)[-1]
        low = [str(c) for c in setting.front]
        pai_gow_arrange(page, checks, low)
        page.wait_for_selector("body[data-state=settled]")
        checks.check("hand 1 settled")
        dealer = live.engine.settings.get(0)
        assert isinstance(live.last, PaiGowResult)
        assert Counter(shown_cards(page)) == Counter(
            c.text for s in live.last.spots for c in s.cards)
        assert "Set the house way." in page.inner_text("#dealer")
        assert page.locator("#dealer .cards").count() == 2  # low and high rows
        assert dealer is None  # the engine moved on; the page keeps the result
        result = page.inner_text("#my-results")
        assert result.startswith("Your hand ($25.00): ")
        assert any(w in result for w in ("Won", "Lost", "Push"))
        stack = live.snapshot(None)["players"][0]["stack"]
        assert page.inner_text("#stack") == format_money(stack)
        # hand 2: re-bet; a foul arrangement is flagged before it is confirmed
        page.click("#rebet")
        deal(page, checks)
        page.wait_for_selector("#arrange-box:not([hidden])")
        foul = next(s for s in all_settings(live.engine.hands[1]) if s.is_foul)
        for card in foul.front:
            page.click(f'#high-cards button[data-card="{card}"]')
        page.wait_for_selector("#foul-flag:not([hidden])")
        assert page.inner_text("#foul-flag").startswith("Foul: the high hand must beat")
        assert page.inner_text("#low-name") and page.inner_text("#high-name")
        checks.check("foul flagged")
        page.click("#house-way")
        page.wait_for_selector('body[data-state=settled][data-hand="2"]')
        assert "set the house way" in page.inner_text('#spots [data-spot="1"]').lower()
        checks.finish()
