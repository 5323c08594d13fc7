"""Issue 23, "Pages for a shift, not forms": the floor's pit screen by clicks, a card per
table mid-shift (`pit_scene.mid_shift`): the floor sees each table's state, books, seats and
who is to act with the seconds counting down; acts for alice from her table's card; opens
Mini 2 from its card (the dealer accepts on their own screen, the card then says open, live,
without a reload); and the page fits 1280 and 375 px (no sideways scroll, no column one word
per line), with the shared page checks (no console error, every control named)."""

from __future__ import annotations

from cardroom.room.room import Room

from .page_checks import PageChecks, word_per_line
from .pit_scene import mid_shift
from .room_flows import browser_at, fits, log_in


def test_the_floor_runs_the_pit_by_clicks(room: Room) -> None:
    ids = mid_shift(room)
    with browser_at(room) as (base, browser):
        fiona = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        dan = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        checks = PageChecks(fiona)
        log_in(fiona, base, "fiona")
        log_in(dan, base, "dan")
        fiona.click("#menu-floor")
        fiona.wait_for_url("**/floor")
        checks.check("the pit")
        mini, nine, new = (f'#pit article[data-table="{ids[n]}"]'
                           for n in ("Mini 1", "Nine 1", "Mini 2"))
        assert fiona.inner_text(f"{mini} .pit-state") == "Open"
        assert fiona.inner_text(f"{mini} dd.fills") == "$2,000.00"
        assert fiona.inner_text(f"{mini} dd.drop") == "$100.00"
        assert "credit slip: $500.00 from Mini 1 (asked by cathy; waiting for dan and " \
               "fiona)" in fiona.inner_text(f"{mini} .pit-waiting")
        assert fiona.inner_text(f"{new} .pit-state") == "Awaiting its opener"
        assert fiona.inner_text(f"{nine} .turn-left").startswith("alice to act:")
        left = int(fiona.get_attribute(f"{nine} .turn-left", "data-left") or "0")
        assert 0 < left <= 300  # the house rules' five minutes, counting down
        first = fiona.inner_text(f"{nine} .left")
        fiona.wait_for_function(
            f"() => document.querySelector('{nine} .left').textContent !== '{first}'")
        fits(fiona, "floor")
        fiona.set_viewport_size({"width": 375, "height": 800})
        assert word_per_line(fiona) == []
        fiona.set_viewport_size({"width": 1280, "height": 900})
        # act for alice, who walked away: the timer's default (stand), audited by fiona
        fiona.click(f"{nine} form.act-for button")
        fiona.wait_for_selector("text=The default action was taken for the absent player")
        assert fiona.inner_text(f"{nine} .turn-left").startswith("bob to act:")
        # open Mini 2 from its card; dan accepts on his own screen; the card updates itself
        fiona.click(f"{new} details.open summary")
        fiona.fill(f"{new} input[name=counted]", "0")
        fiona.fill(f"{new} input[name=dealer]", "dan")
        fiona.click(f"{new} details.open button")
        fiona.wait_for_selector("text=waiting for the signature of dan")
        assert "the opener waits for dan's signature" in fiona.inner_text(f"{new} .pit-note")
        dan.click("#menu-signatures")
        dan.click("#waiting li:has-text('opener of Mini 2') button.accept")
        dan.wait_for_selector("text=signed and done: opener number")
        fiona.wait_for_function(
            f"() => document.querySelector('{new} .pit-state').textContent === 'Open'")
        checks.check("after the opener")
