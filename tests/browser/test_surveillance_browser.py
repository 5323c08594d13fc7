"""WAC 230-15-320(4) in a real browser, by clicks: two $3,600 Banker 9 payouts held for
surveillance; the player's table says the payout is awaiting verification (the fact only,
no figure); the floor opens the surveillance queue from the menu, verifies one (paid to the
winner) and refuses the other (the wager void). The queue page fits a 375-pixel phone with
no sideways scroll and logs no console error. Screenshots go to $CARDROOM_SCREENSHOTS when
it is set (else the test's folder)."""

from __future__ import annotations

import os
from pathlib import Path

from room.rooms import playing_table, rig_coup

from cardroom.cards import parse_cards
from cardroom.room.books.cashier import buy_chips
from cardroom.room.compliance import surveillance
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage.settings import SELF_SERVICE

from .room_flows import PW, browser_at, console_errors, log_in

SUITED_NINE = parse_cards("2c 4s 3d 5s")
"""Player 2-3 (five), banker 4-5 of spades: a suited natural nine, banker wins."""


def test_wac_230_15_320_4_the_surveillance_queue_by_clicks(room: Room, tmp_path: Path
                                                           ) -> None:
    with room.storage.unit() as conn:
        people = {n: create_account(conn, n, PW, r) for n, r in (
            ("olivia", Role.OWNER), ("fiona", Role.FLOOR), ("alice", Role.PLAYER))}
        buy_chips(conn, SELF_SERVICE, people["alice"], 100_000, "k")
    t = playing_table(room, people["olivia"], "High 1", "baccarat",
                          {"paytable": 2, "bonus_max_cents": 30_000}).table_id
    alice = people["alice"]
    room.act(alice, t, {"type": "sit", "buy_in": 100_000, "key": "s"})
    for i in range(2):
        room.act(alice, t, {"type": "bet", "bets": {"banker": 500, "banker_9": 30_000},
                            "key": f"b{i}"})
        rig_coup(room, t, SUITED_NINE)
        room.act(alice, t, {"type": "deal"})
    with room.storage.read() as conn:
        first, second = surveillance.waiting(conn)
        wallet = ledger.balance(conn, ledger.wallet(alice.id))
    shots = Path(os.environ.get("CARDROOM_SCREENSHOTS", tmp_path))
    with browser_at(room) as (base, browser):
        player = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
        player_errors = console_errors(player)
        log_in(player, base, "alice")
        player.goto(f"{base}/tables/{t}")
        player.wait_for_selector("#awaiting:not([hidden])")
        said = player.inner_text("#awaiting")
        assert said == "alice's Banker 9 payout is awaiting verification."
        assert "Banker 9 $300.00: Won $3,600.00 (suited nine) \u2014 awaiting verification" \
            in player.inner_text("#my-results")
        assert "3,000" not in player.content()
        player.screenshot(path=str(shots / "surveillance-table-375.png"), full_page=True)

        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        errors = console_errors(page)
        log_in(page, base, "fiona")
        page.click("#menu-surveillance")
        page.wait_for_url("**/floor/surveillance")
        assert page.locator("#held > li").count() == 2
        assert "Banker 9 $300.00 won $3,600.00" in page.inner_text(f"#held-{first.id}")
        page.screenshot(path=str(shots / "surveillance-queue-1280.png"), full_page=True)
        page.set_viewport_size({"width": 375, "height": 800})
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        page.screenshot(path=str(shots / "surveillance-queue-375.png"), full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})

        page.click(f"#held-{first.id} button.verify")  # no note: the browser asks for one
        assert page.locator("#held > li").count() == 2
        page.fill(f"#held-{first.id} input[name=note]", "camera 3, 21:04: suited nine")
        page.click(f"#held-{first.id} button.verify")
        page.wait_for_selector(f"text=Payout {first.id} verified: paid to the winner.")
        page.fill(f"#held-{second.id} input[name=note]", "camera 3: the bonus was late")
        page.click(f"#held-{second.id} button.refuse")
        page.wait_for_selector(f"text=Payout {second.id} refused: the wager is void.")
        page.wait_for_selector("#held-none")
        assert "paid by fiona" in page.inner_text(f"#decided-{first.id}")
        assert "refused by fiona" in page.inner_text(f"#decided-{second.id}")
        page.screenshot(path=str(shots / "surveillance-decided-1280.png"), full_page=True)
        player.wait_for_selector("#awaiting[hidden]", state="attached")
        assert errors == [] and player_errors == []
    with room.storage.read() as conn:
        assert ledger.balance(conn, ledger.wallet(alice.id)) == wallet + 390_000 + 30_000
        assert ledger.balance(conn, ledger.held(t)) == 0
