"""A player plays a hand of Pan in the browser against two house bots, from log-in to
settlement: she seats the bots, deals, declares, draws and discards by clicking her legal
moves. At every step the page shows only her own hand, the melds on the table, the drawn card
and the top discard: never a bot's hand or a card of the stock. The hand is short because the
room is seeded (tests only); the result and the recall page come from the ledger and the
hand's history."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.money import format_money
from cardroom.room import ledger
from cardroom.room.pan_live import PanLive
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
    yield from seeded_room(tmp_path, 21)


def simple_move(legal: list[str]) -> str:
    """A plain player: plays, draws, discards the drawn card or the first card she may."""
    for first in ("play", "draw"):
        if first in legal:
            return first
    discards = [c for c in legal if c.startswith("discard")]
    return discards[0] if discards else legal[0]


def visible_to_alice(live: PanLive, me: int) -> Counter[str]:
    """What the rules let her see: her hand, every meld, the drawn card, the top discard."""
    hand = live.engine.hand
    assert hand is not None
    cards = [str(c) for c in hand.seats[me].hand]
    cards += [str(c) for s in hand.seats for m in s.melds for c in m.cards]
    if hand.drawn is not None:
        cards.append(str(hand.drawn))
    if hand.discards:
        cards.append(str(hand.discards[-1].card))
    return Counter(cards)


def test_play_a_pan_hand_against_bots(room: Room) -> None:
    with running(room) as base, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_context().new_page()
            errors = console_errors(page)
            page.set_default_timeout(15_000)
            owner_opens_table(page, base, "Pan 1", "pan")
            player_sits(page, base, "alice")
            live = room.table(1)
            assert isinstance(live, PanLive)
            for n in (1, 2):
                page.click("#add-bot")
                page.wait_for_selector(f"#players li:nth-child({n + 1})")
            assert shown_cards(page) == []
            page.click("#deal")
            page.wait_for_selector("#decide:not([hidden])")
            alice = next(a for a in live.engine.accounts if a > 0)
            me = live.engine.accounts.index(alice)
            steps = 0
            while page.get_attribute("body", "data-state") not in ("settled", "voided"):
                shown = Counter(shown_cards(page))
                allowed = visible_to_alice(live, me)
                assert not shown - allowed, f"hidden cards shown: {shown - allowed}"
                hand = live.engine.hand
                assert hand is not None
                assert shown[str(hand.seats[me].hand[0])] >= 1  # her own hand is drawn
                legal = page.eval_on_selector_all("button.legal",
                                                  "bs => bs.map(b => b.dataset.command)")
                mine = [c for c in legal if not c.startswith(("force", "foul"))]
                seq = page.get_attribute("body", "data-seq")
                page.click(f'button.legal[data-command="{simple_move(mine)}"]')
                page.wait_for_selector(f"body:not([data-seq='{seq}'])", state="attached")
                steps += 1
                assert steps < 60
            assert page.get_attribute("body", "data-state") == "settled"
            result = page.inner_text("#result")
            assert "over: went out" in result and "chips" in result
            with room.storage.read() as conn:
                stack = ledger.balance(conn, ledger.stack(1, alice))
                assert ledger.trial_balance(conn).ok
            assert page.inner_text("#stack") == format_money(stack)
            assert shown_cards(page) == []  # between hands no card is on the page
            page.goto(base + "/history")
            page.click("text=#1")
            page.wait_for_selector("text=the result matches")
            assert errors == []
        finally:
            browser.close()
