"""The self-exclusion pages in a browser (RCW 9.46.071; WAC 230-23-025/-030), at a desktop's
width and at a phone's (375 px), each passing the shared page checks: the compliance officer
sees the stale-list warning, enrols a patron and finds the form in the worklist with its due
time; a listed person who registers reads only the neutral sentence. Screenshots go to
$CARDROOM_SCREENSHOTS when it is set."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from room.exclusion_lists import ALAN, GRACE, KEY, OPERATOR, grace_patron, state_list

from cardroom.room.compliance import exclusions
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room

from .page_checks import PageChecks
from .room_flows import PW, browser_at, log_in, shot

WIDTHS = [(1280, 800), (375, 740)]


def test_compliance_enrols_and_a_listed_person_cannot_register(room: Room) -> None:
    with room.storage.unit() as conn:
        cathy = create_account(conn, "cathy", PW, Role.CASHIER)
        create_account(conn, "connie", PW, Role.COMPLIANCE)
        found = create_account(conn, "alice", PW, Role.PLAYER)
        exclusions.confiscate(conn, found.id, [], place="table Mini 1", table_id=None,
                              entry_id=None, key="shown")
        grace = grace_patron(conn, cathy, name="Grace B. Hopper", number="OTHER 2")
        exclusions.import_list(conn, OPERATOR, state_list(
            ALAN, GRACE.replace("Hopper, Grace", "Lovelace, Ada"),
            dated=datetime.now(UTC) - timedelta(hours=50)), KEY)
    with browser_at(room) as (base, browser):
        for width, height in WIDTHS:
            page = browser.new_page(viewport={"width": width, "height": height})
            page.set_default_timeout(10_000)
            checks = PageChecks(page)
            page.goto(base + "/register")
            page.fill("#legal-name", "Alan Turing")
            page.fill("#date-of-birth", "1912-06-23")
            page.fill("#username", f"alan{width}")
            page.fill("#password", PW)
            page.click("#register")
            page.wait_for_selector(f"text={exclusions.NEUTRAL}")
            assert "exclu" not in page.inner_text("main").lower()
            # the refusal is a 400, which the browser reports: that one, and nothing else
            assert [e for e in checks.errors if "400" not in e] == []
            checks.errors.clear()
            checks.check(f"registration refused at {width}")
            shot(page, f"register-refused-{width}.png")
            log_in(page, base, "connie")
            assert "out of date" in page.inner_text("#exclusion-warning")
            checks.check(f"lobby with the warning at {width}")
            shot(page, f"lobby-warning-{width}.png")
            page.click("#menu-exclusions")
            page.wait_for_url("**/exclusions")
            assert "out of date" in page.inner_text("#list-status")
            if width == 1280:
                page.fill("#enrol-patron", str(grace.id))
                page.select_option("#enrol-years", "5")
                page.click("#enrol-submit")
                page.wait_for_selector("text=forward the form to the commission by")
            assert "Grace B. Hopper" in page.inner_text("#forms")
            assert "table Mini 1" in page.inner_text("#notices")
            checks.check(f"exclusions at {width}")
            shot(page, f"exclusions-{width}.png")
            page.click("#logout")
            page.close()
