"""The checks every browser test runs on every page it opens, and after every table message:

- no console error and no uncaught exception (a CSP violation is reported there);
- no horizontal scroll (the page fits its viewport, 375 px included);
- no table column drawn one word per line (`word_per_line`, issue 23);
- every control (button, link, field) has an accessible name;
- axe-core (the `axe-playwright-python` package bundles it) finds no WCAG 2 A/AA violation,
  colour contrast included: run once per page state (`body[data-state]`) and width, since it
  takes a few hundred milliseconds;
- no hidden card: every face-up card on the page (`img[data-card]`) is one the latest table
  message held for this viewer, and, where the test says what the rules let the viewer see
  now (`visible`), one of those.

Use: `checks = PageChecks(page)` right after the page is made (it listens from then on), then
`checks.check()` after every step (it first waits until the page has rendered every table
message received), `checks.finish()` at the end.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from axe_playwright_python.sync_playwright import Axe

TABLE_SOCKET = "/ws/tables/"
"""The path of a table's socket (`server/routes/tables.py`): the messages `rendered` waits for."""

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
_axe = Axe()

IN_PAGE = (Path(__file__).with_name("page_checks.js")).read_text()


def console_errors(page: Any) -> list[str]:
    """From now on, the page's console errors and uncaught exceptions: the list fills as the
    test goes, and should stay empty."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.text} ({m.location.get('url')})")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def shown_cards(page: Any) -> list[str]:
    """Every face-up card on the page, by its short text ("As"); face-down cards are backs."""
    cards: list[str] = page.eval_on_selector_all("img[data-card]",
                                                 "els => els.map(e => e.dataset.card)")
    return cards


def message_cards(message: object) -> Counter[str]:
    """The face-up cards a table message holds: every `{"code": .., "text": ..}` in it, counted
    once per place (a card shown twice, in the hand and in the last result, is one card; two
    places of the table, a spread and the discard, hold two)."""
    found: Counter[str] = Counter()

    def walk(node: object) -> Counter[str]:
        here: Counter[str] = Counter()
        if isinstance(node, dict):
            if isinstance(node.get("text"), str) and isinstance(node.get("code"), int):
                here[node["text"]] += 1
                return here
            for k, v in node.items():
                # a place of the table holds its own cards (Pan's eight packs: an ace on a
                # spread and another on the discard are two cards); a previous result may
                # show the cards still on the table again
                here = here | walk(v) if k == "last" else here + walk(v)
        elif isinstance(node, list):
            for v in node:
                here += walk(v)
        return here

    found |= walk(message)
    return found


def word_per_line(page: Any) -> list[str]:
    """The text in the page's table cells (runs of two words or more) drawn one word per line:
    a column squeezed too narrow to read (issue 23); the check every browser test runs
    (`PageChecks.check`, `room_flows.fits`)."""
    return list(page.evaluate(f"({IN_PAGE}).wordPerLine()"))


class PageChecks:
    """The checks on one page (see the module's text). `visible()`, where given, is what the
    rules let this viewer see now, as card texts (the test computes it from the room).
    `axe_seen`: the (state, width) pairs axe has checked, shared by pages of the same kind."""

    def __init__(self, page: Any, visible: Callable[[], Iterable[str]] | None = None,
                 axe_seen: set[tuple[str, int]] | None = None) -> None:
        self.page = page
        self.visible = visible
        self.errors = console_errors(page)
        self.frames: list[object] = []  # every table message this page received, in order
        self.latest: object = None  # the last state message the page has drawn (at a check)
        # the page states axe has checked (share one set between pages of the same kind)
        self.axe_seen = axe_seen if axe_seen is not None else set()
        page.on("websocket", self._socket)
        # another page (another table) counts its own messages from none
        page.on("framenavigated", lambda frame: self.frames.clear()
                if frame == page.main_frame else None)

    def _socket(self, ws: Any) -> None:
        """A table's socket: its messages count (the lobby's and floor's socket of what changed
        in the room, `/ws/changes`, carries no table message and is not counted)."""
        if TABLE_SOCKET in ws.url:
            ws.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

    def rendered(self) -> tuple[list[str], object]:
        """Wait until the page has handled every table message received so far; then the
        cards it shows and the last state message it drew them from (read together)."""
        if self.frames:
            self.page.wait_for_function(
                "n => Number(document.body.dataset.messages || 0) >= n", arg=len(self.frames))
        count, cards = self.page.evaluate(
            "() => [Number(document.body.dataset.messages || 0),"
            " [...document.querySelectorAll('img[data-card]')].map(e => e.dataset.card)]")
        for _ in range(200):  # the page may be ahead of this side's event queue
            if len(self.frames) >= count:
                break
            self.page.wait_for_timeout(10)
        states = [m for m in self.frames[:count] if isinstance(m, dict)
                  and m.get("type") == "state"]
        return cards, states[-1] if states else None

    def check(self, where: str = "") -> None:
        page = self.page
        cards, latest = self.rendered()
        self.latest = latest
        assert self.errors == [], f"{where}: console errors {self.errors}"
        scroll, width, wide = page.evaluate(f"({IN_PAGE}).overflow()")
        assert scroll <= width, f"{where}: horizontal scroll at {width} px ({scroll} px): {wide}"
        narrow = word_per_line(page)
        assert narrow == [], f"{where}: one word per line at {width} px in {narrow}"
        unnamed = page.evaluate(f"({IN_PAGE}).unnamedControls()")
        assert unnamed == [], f"{where}: controls without an accessible name: {unnamed}"
        shown = Counter(cards)
        if latest is not None:
            extra = shown - message_cards(latest)
            assert not extra, f"{where}: cards on the page the table never sent: {extra}"
        if self.visible is not None:
            extra = shown - Counter(self.visible())
            assert not extra, f"{where}: hidden cards on the page: {sorted(extra)}"
        state = (page.evaluate("document.body.dataset.state || location.pathname"),
                 page.viewport_size["width"])
        if state not in self.axe_seen:
            self.axe_seen.add(state)
            self.axe(where)

    def axe(self, where: str = "") -> None:
        """axe-core's WCAG 2 A and AA rules, colour contrast among them."""
        results = _axe.run(self.page, options={"runOnly": {"type": "tag", "values": AXE_TAGS}})
        assert results.violations_count == 0, f"{where}: {results.generate_report()}"

    def finish(self) -> None:
        self.check("at the end")
