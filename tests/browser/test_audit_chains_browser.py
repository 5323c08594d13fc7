"""The audit page of a room served by several processes (issue 25: one audit chain per
process), in a browser at a desktop's width and at a phone's (375 px), each passing the shared
page checks: entries of two writer chains interleaved, each row naming the process that wrote
it, the chain filter and the next page. Screenshots go to $CARDROOM_SCREENSHOTS when it is
set."""

from __future__ import annotations

from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage

from .page_checks import PageChecks
from .room_flows import PW, browser_at, log_in, shot

WIDTHS = [(1280, 800), (375, 740)]
WRITERS = ("10.0.0.1:8001", "10.0.0.2:8001")


def test_the_audit_page_shows_which_process_wrote_each_entry(room: Room) -> None:
    with room.storage.unit() as conn:
        create_account(conn, "audrey", PW, Role.OWNER)
    chains = [Storage(room.storage.engine) for _ in WRITERS]
    for storage, name in zip(chains, WRITERS, strict=True):
        storage.write_as(name)
    for i in range(60):
        for storage in chains:
            with storage.unit() as conn:
                audit.append(conn, "floor", "cashier.fill",
                             {"table": 1, "amount": 2_500 * (i + 1), "tray": "rack 2"})
    with browser_at(room) as (base, browser):
        for width, height in WIDTHS:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.set_default_timeout(10_000)
            checks = PageChecks(page)
            log_in(page, base, "audrey")
            page.goto(base + "/audit")
            cells = page.locator("td.chain").all_inner_texts()
            assert {f"{WRITERS[0]} (chain 1)", f"{WRITERS[1]} (chain 2)"} <= set(cells)
            checks.check(f"the log at {width}")
            shot(page, f"audit-chains-{width}.png")
            page.select_option("select[name=chain]", "2")
            page.click("#filter button")
            page.wait_for_url("**chain=2**")
            assert set(page.locator("td.chain").all_inner_texts()) == {f"{WRITERS[1]} (chain 2)"}
            checks.check(f"one chain at {width}")
            page.goto(base + "/audit")
            page.click("#older")
            page.wait_for_url("**before=**")
            assert page.locator("td.chain").count() > 0
            checks.finish()
            page.close()
