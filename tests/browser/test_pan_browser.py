"""A player plays a whole hand of Pan in the browser against two house bots, by clicks only,
at a desktop's width and at a phone's (375 px): she seats the bots, deals, declares, draws,
melds with the drawn card, melds cards she taps in her hand, takes the card the bot before
her threw from the stock, discards cards she taps, until the hand ends. The pack is stacked
(tests only) so that the first turns hold a meld, a take and a discard; the rest of the hand
is played from the buttons the page offers. After every table message the shared page checks
run (no console error, no horizontal scroll, every control named, axe-core's WCAG 2 AA rules
with contrast, no card the table did not send) and no card the rules hide from her is on the
page. The end shows the winner's spreads and every payment; the recall page steps back and
forward through the hand."""

from __future__ import annotations

from collections import Counter

import pytest
from pan.helpers import stacked_pack

from cardroom.room.play.pan_live import PanLive
from cardroom.room.play.pan_protocol import PanResult
from cardroom.room.room import Room

from .page_checks import PageChecks
from .room_flows import (
    browser_at,
    owner_opens_table,
    player_sits,
    shot,
)
from .table_flows import pan_step

SEED = 21
"""The room's shuffles (the `room` fixture, tests/browser/conftest.py)."""


WIDTHS = [(1280, 900), (375, 740)]
HANDS = ["5c 5d 6c 6d 6s 2h 2s Jd Qs 4h",   # alice, first hand
         "Kc Kc Kc 3d 3d 3h 7h Jc Qh 4s",   # bot at seat 2
         "Ac Ac Ac 7d 7d 7c Jh Qc 4d 2c"]   # bot at seat 3, the dealer
STOCK = "5h Qd 2d"
"""Alice draws 5h (a meld with 5c 5d); the bot after her draws Qd and throws it; the bot
before her draws 2d, which it cannot use, and throws it: alice takes it (with 2h 2s)."""


def visible_to(live: PanLive, me: int) -> Counter[str]:
    """What the rules let her see: her hand, every meld, the drawn card, the top discard."""
    hand = live.engine.hand
    if hand is None:
        return Counter()
    cards = [str(c) for c in hand.seats[me].hand]
    cards += [str(c) for s in hand.seats.values() for m in s.melds for c in m.cards]
    if hand.drawn is not None:
        cards.append(str(hand.drawn))
    if hand.discards:
        cards.append(str(hand.discards[-1].card))
    if isinstance(live.last, PanResult) and live.hand_id is None:
        cards += [c.text for m in live.last.winner_spreads for c in m]
    return Counter(cards)


@pytest.mark.parametrize("size", WIDTHS, ids=["desktop", "phone"])
def test_play_a_whole_pan_hand_against_bots_by_clicks(room: Room, size: tuple[int, int]
                                                      ) -> None:
    width, height = size
    with browser_at(room) as (base, browser):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.set_default_timeout(15_000)
        owner_opens_table(page, base, "Pan 1", "pan", room)
        live = room.table(1)
        assert isinstance(live, PanLive)
        checks = PageChecks(page, visible=lambda: visible_to(live, me))
        me = 0
        player_sits(page, base, "alice", "20")
        for n in (1, 2):
            page.click("#add-bot")
            page.wait_for_selector(f"#players li:nth-child({n + 1})")
        checks.check("seated")
        # as if alice (seat 1) won the last hand: she is first hand, the bot at seat 3 deals;
        # the pack is stacked
        live.engine.last_dealer_seat, live.engine.winner_seat = 3, 1
        live.engine.next_pack = stacked_pack(HANDS, STOCK, live.rules, first_hand=0)
        page.click("#deal")
        page.wait_for_selector("#decide:not([hidden])")
        alice = next(a for a in live.engine.accounts.values() if a > 0)
        me = live.engine.seat_of(alice)
        assert me == 1  # her table seat, as the engine knows it
        pressed: list[str] = []
        while page.get_attribute("body", "data-state") not in ("settled", "voided"):
            checks.check(f"step {len(pressed)}")
            if len(pressed) == 4:
                shot(page, f"pan-mid-hand-{width}.png")
            state = checks.latest
            assert isinstance(state, dict)
            seq = page.get_attribute("body", "data-seq")
            pressed.append(pan_step(page, state))
            page.wait_for_selector(f"body:not([data-seq='{seq}'])", state="attached")
            assert len(pressed) < 150, pressed
        checks.check("settled")
        assert pressed[:3] == ["play", "draw", "meld"], pressed  # 5h with 5c 5d
        assert {"meld", "take", "discard"} <= set(pressed), pressed
        result = page.inner_text("#result")
        assert "wins" in result and "Every payment of the hand" in result
        assert " pays " in result
        log = page.inner_text("#log")
        assert "bot-2 draws" in log and "bot-3 discards" in log
        assert "seat 0" not in log and "seat 1 " not in log
        shot(page, f"pan-settled-{width}.png")
        checks.finish()
