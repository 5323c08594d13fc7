"""Issue 13's pages beyond the tables in the browser, by clicks, at a desktop's width and at a
phone's (375 px), with the shared page checks on every page (no console error, no horizontal
scroll, every control named, axe-core's WCAG 2 AA rules with contrast): the recall of a Pan
hand stepped back and forward (the table drawn per step), the floor's irregularity button at a
Super Pan 9 table (a misdeal: every hand void, the row updates), the hand history, the audit
log, and a 404 page with a way back."""

from __future__ import annotations

import pytest
from room.people import player
from room.rooms import playing_table

from cardroom.room.money import ledger
from cardroom.room.play.pan_live import PanLive
from cardroom.room.room import Room

from .page_checks import PageChecks
from .room_flows import (
    PW,
    browser_at,
    log_in,
    owner_opens_table,
    shot,
)

WIDTHS = [(1280, 900), (375, 740)]


def pan_hand_with_bots(room: Room, table: int) -> None:
    """Alice plays a Pan hand against two bots through the room (typed actions)."""
    with room.storage.unit() as conn:
        alice = player(conn, "alice", PW)
        ledger.post(conn, "seed-alice", "buy-chips", [(ledger.HOUSE_CAGE, -50_000),
                                                      (ledger.wallet(alice.id), 50_000)],
                    actor="t")
    room.act(alice, table, {"type": "sit", "buy_in": 2_000, "key": "s"})
    for k in ("b1", "b2"):
        room.act(alice, table, {"type": "bot", "key": k})
    room.act(alice, table, {"type": "deal"})
    live = room.table(table)
    assert isinstance(live, PanLive)
    for _ in range(300):
        if live.hand_id is None:
            return
        actions = live.snapshot(alice)["play"]["actions"]
        by = {a["kind"]: a for a in reversed(actions) if not a["choose"]}
        pick = next((by[k] for k in ("play", "take", "draw", "meld", "lay_off", "discard")
                     if k in by), None) or next(a for a in actions if not a["choose"])
        room.act(alice, table, {"type": "pan", "seq": live.seq, "action": {
            k: v for k, v in pick.items() if k not in ("label", "choose")}})
    raise AssertionError("the hand did not end")


@pytest.mark.parametrize("size", WIDTHS, ids=["desktop", "phone"])
def test_recall_floor_history_audit_and_404_by_clicks(room: Room, size: tuple[int, int]
                                                      ) -> None:
    width, height = size
    with browser_at(room) as (base, browser):
        page = browser.new_page(viewport={"width": width, "height": height})
        page.set_default_timeout(15_000)
        owner_opens_table(page, base, "Pan 1", "pan", room)
        pan_hand_with_bots(room, 1)
        checks = PageChecks(page)
        # recall, stepped
        log_in(page, base, "alice")
        page.click("#menu-history")
        page.wait_for_url("**/history")
        checks.check("history")
        shot(page, f"history-{width}.png")
        page.click("#hands a >> nth=0")
        page.wait_for_selector("#step-controls:not([hidden])")
        steps = int(page.get_attribute("body", "data-step") or 0)
        assert steps > 3 and page.is_visible("#board")
        checks.check("recall at the end")
        shot(page, f"recall-{width}.png")
        page.click("#step-back")
        assert page.get_attribute("body", "data-step") == str(steps - 1)
        page.click("#step-first")
        assert page.inner_text("#step-at") == f"Step 1 of {steps}"
        assert page.get_attribute("#step-1", "aria-current") == "step"
        page.click("#step-forward")
        page.click("#step-forward")
        assert page.get_attribute("body", "data-step") == "3"
        checks.check("recall at step 3")
        page.click("#step-end")
        assert page.get_attribute("body", "data-step") == str(steps)
        # a Pan history file names the bots' concealed hands: the staff's, not alice's
        assert page.is_visible("#download-withheld") and not page.is_visible("#download")
        # a 404 is a page with a way back
        page.goto(base + "/tables/abc")
        # the browser reports the page's own 404 status on its console: that one only
        assert [e for e in checks.errors if "/tables/abc" not in e] == []
        checks.errors.clear()
        checks.check("404")
        assert page.inner_text("#problem") == "There is no table abc."
        shot(page, f"not-found-{width}.png")
        page.click("#lobby-link")
        page.wait_for_url("**/lobby")
        page.click("#logout")
        # the floor: a misdeal at a Super Pan 9 table, by its button
        olga = room.account(1)
        assert olga is not None
        sp9 = playing_table(room, olga, f"Nine {width}", "super-pan-9").table_id
        with room.storage.unit() as conn:
            bob = player(conn, f"bob{width}", PW)
            ledger.post(conn, f"seed-bob{width}", "buy-chips",
                        [(ledger.HOUSE_CAGE, -50_000), (ledger.wallet(bob.id), 50_000)],
                        actor="t")
        room.act(bob, sp9, {"type": "sit", "buy_in": 20_000, "key": "s"})
        room.act(bob, sp9, {"type": "bet", "bets": {"wager": 1_000}, "key": "b"})
        room.act(bob, sp9, {"type": "deal"})
        log_in(page, base, "olga")
        page.click("#menu-floor")
        page.wait_for_url("**/floor")
        row = f'#pit article[data-table="{sp9}"]'
        page.wait_for_selector(f"{row} form.irregular")
        checks.check("floor with a hand in play")
        shot(page, f"floor-{width}.png")
        page.fill(f"{row} form.irregular input[name=reason]", "two cards stuck together")
        page.click(f'{row} form.irregular button[value="misdeal"]')
        page.wait_for_selector("text=Misdeal recorded")
        assert room.table(sp9).hand_id is None
        page.wait_for_function(
            f"() => document.querySelector('{row} .last').textContent.includes('voided')")
        checks.check("floor after the misdeal")
        page.click("#menu-audit")
        page.wait_for_url("**/audit")
        checks.check("audit")
        assert page.is_visible("dl.fields")
        shot(page, f"audit-{width}.png")
        checks.finish()
