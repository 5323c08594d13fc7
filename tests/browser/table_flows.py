"""Hands played at the table pages with clicks only, shared by the browser tests and by
`scripts/screenshots`: chips onto wager spots, place, deal, decide, settle. Each step waits for
the page to show its result and then runs the page checks (`PageChecks.check`); `shot`, where
given, is called at the moments the screenshots show (mid-hand, settled)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from cardroom.money import format_money, parse_money

from .page_checks import PageChecks

Shot = Callable[[str], None]


def _no_shot(moment: str) -> None:
    """No screenshot."""


def put_chips(page: Any, chips: Mapping[str, list[int]]) -> None:
    """For each wager spot, click the chips (cents) onto it, picking each chip first."""
    for kind, values in chips.items():
        for chip in values:
            page.click(f'#chips button[data-chip="{chip}"]')
            page.click(f'#felt button.spot[data-kind="{kind}"]')


def change_and_take_back(page: Any, checks: PageChecks, kind: str, first: list[int],
                         second: list[int], changed: Callable[[], None] = lambda: None) -> None:
    """Placed wagers change until the deal (`change_bets`), by clicks: `first` (chips, cents)
    placed on the `kind` spot; **Change my wagers** puts them back on the rack, the stack shown
    counting them again; `second` placed instead (`changed()` then looks at the table); **Take
    my wagers back** returns them, the stack as before."""
    stack = parse_money(page.inner_text("#stack"))
    put_chips(page, {kind: first})
    page.click("#bet")
    page.click("#change")
    page.wait_for_selector(f'[data-kind="{kind}"] .amount:text-is("{format_money(sum(first))}")')
    page.click("#clear")
    put_chips(page, {kind: second})
    left = format_money(stack - sum(second))
    assert page.inner_text("#on-layout").endswith(f" · {left} left")
    page.click("#bet")
    page.wait_for_selector(f'[data-kind="{kind}"] .amount:text-is("{format_money(sum(second))}")')
    page.wait_for_selector("#withdraw:not([hidden])")
    checks.check("wagers changed")
    assert page.inner_text("#stack") == left
    changed()
    page.click("#withdraw")
    page.wait_for_selector("#bet:not([hidden])")
    checks.check("wagers taken back")
    assert page.inner_text("#stack") == format_money(stack)


def wait_hand(page: Any, state: str, hand: int | None = None) -> None:
    selector = f"body[data-state={state}]"
    if hand is not None:
        selector = f'body[data-state={state}][data-hand="{hand}"]'
    page.wait_for_selector(selector)


def baccarat_hand(page: Any, checks: PageChecks, number: int,
                  chips: Mapping[str, list[int]], shot: Shot = _no_shot) -> None:
    """Put chips on the layout, place them, deal; the coup settles at once."""
    put_chips(page, chips)
    checks.check(f"hand {number}: chips on the layout")
    page.click("#bet")
    page.wait_for_selector("#deal:not([hidden])")
    checks.check(f"hand {number}: bets placed")
    shot("mid-hand")
    page.click("#deal")
    page.wait_for_selector('#my-results li >> nth=0')
    wait_hand(page, "settled")
    checks.check(f"hand {number}: settled")
    shot("settled")


def super_pan_9_bet(page: Any, checks: PageChecks, chips: Mapping[str, list[int]]) -> None:
    put_chips(page, chips)
    page.click("#bet")
    page.wait_for_selector("#bet", state="hidden")
    checks.check("wager placed")


def super_pan_9_decide(page: Any, checks: PageChecks, draw: bool) -> None:
    """The seat in turn clicks Draw or Stand (its large buttons are shown only to it)."""
    page.wait_for_selector("#decide:not([hidden])")
    checks.check("my turn")
    page.click("#draw" if draw else "#stand")
    page.wait_for_selector("#decide", state="hidden")
    checks.check("decided")


def pai_gow_arrange(page: Any, checks: PageChecks, low: list[str], shot: Shot = _no_shot
                    ) -> None:
    """Tap the two cards of the low hand (by their short text), then set the hand."""
    page.wait_for_selector("#arrange-box:not([hidden])")
    checks.check("hand dealt")
    for card in low:
        page.click(f'#high-cards button[data-card="{card}"]')
        page.wait_for_selector(f'#low-cards button[data-card="{card}"]')
    checks.check("low hand chosen")
    shot("mid-hand")
    page.click("#set")
    page.wait_for_selector("#arrange-box", state="hidden")
    checks.check("hand set")


def tap_cards(page: Any, cards: list[str]) -> None:
    """Tap each card in her hand (an identical card already tapped: the next one)."""
    for text in cards:
        page.click(f'#my-seat .pan-seat.you .hand-cards button[data-card="{text}"]'
                   f'[aria-pressed="false"] >> nth=0')


def pan_step(page: Any, state: dict[str, Any]) -> str:
    """Press what a plain player presses (the drawn card used when it can be, melds made,
    a single card thrown); returns the kind pressed."""
    actions = state["play"]["actions"]
    direct = {a["kind"]: a for a in actions if a["drawn"] or a["kind"] not in
              ("meld", "lay_off", "discard", "borrow", "split")}
    for kind in ("play", "take_tops", "take", "meld", "lay_off", "draw", "discard",
                 "accept_split", "go_out"):
        if kind in direct and not direct[kind]["choose"]:
            page.click(f'#direct button[data-act="{kind}"] >> nth=0')
            return kind
    melds = [a for a in actions if a["kind"] == "meld" and not a["choose"] and not a["drawn"]]
    if melds:
        tap_cards(page, melds[0]["cards"])
        page.click('#with-cards button[data-act="meld"]')
        return "meld"
    if "collect" in direct:
        page.click('#direct button[data-act="collect"]')
        return "collect"
    discards = [a for a in actions if a["kind"] == "discard" and not a["drawn"]]
    if discards:
        mine = next(s for s in state["play"]["seats"] if s["hand"] is not None
                    and s["seat"] == state["you"]["hand_seat"])
        ranks = Counter(c["text"][:-1] for c in mine["hand"])
        singles = [a for a in discards if ranks[a["cards"][0][:-1]] == 1] or discards
        tap_cards(page, singles[-1]["cards"])
        page.click('#with-cards button[data-act="discard"]')
        return "discard"
    rest = [a for a in actions if a["kind"] in direct and a["kind"] not in
            ("call_foul", "foul_self", "force_back", "force_option")]
    page.click(f'#decide button[data-act="{(rest or actions)[0]["kind"]}"] >> nth=0')
    return str((rest or actions)[0]["kind"])


def bar_beside_cards(page: Any, bar: str, cards: str) -> None:
    """At a phone's width (issue 23): with the player's `cards` (a selector) scrolled to the
    top of the screen, the action bar `bar` is wholly on the screen and covers none of them:
    buttons, chips and cards seen together."""
    page.evaluate("""sel => window.scrollBy(0, Math.min(...[...document.querySelectorAll(sel)]
        .map((e) => e.getBoundingClientRect().top)) - 8)""", cards)
    height = page.viewport_size["height"]
    box = page.locator(bar).bounding_box()
    assert box is not None and box["height"] > 0, f"{bar} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= height + 1, f"{bar} off the screen: {box}"
    hidden = page.evaluate("""sel => [...document.querySelectorAll(sel)].filter((e) => {
        const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
        if (r.top < 0 || r.bottom > innerHeight) return true;
        const hit = document.elementFromPoint(x, y);
        return !(hit && (hit === e || e.contains(hit) || hit.contains(e)));
      }).map((e) => e.dataset.card || e.alt || e.textContent.trim())""", cards)
    assert hidden == [], f"cards off the screen or under the bar {bar}: {hidden}"

