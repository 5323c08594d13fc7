"""Issue 23, "Figures to reach": one whole shift by clicks, every member of staff on their own
screen (a browser context each: their own session). The owner makes the staff's accounts; the
players register and the cashier identifies them and sells them chips; the floor makes a
Mini-Baccarat, a Pai Gow, a Super Pan 9 and a Pan table (the last two with a 10-second turn
timer in their house rules), opens the house-banked ones with an opener the dealer signs on
his own Signatures page, and the cage fills them (the dealer and the floor sign on theirs);
the floor sells chips at the Pai Gow table (its drop); the players play every game; a turn
runs out at Super Pan 9 and at Pan and the house rules' default is taken; the floor recalls
the hand a player disputes; the cage takes a credit; the floor closes the tables, Mini 1 $5
short of its books (recorded as a variance, not refused); two cashiers count the drop box;
then the day's reports.

Every figure of the games and cage reports is set against what the test itself did (what it
sold, filled, credited, dropped and counted, the hands it dealt, what the players' chips show
before and after each table), never against the code's own sums; the room-wide check
(`cardroom report reconcile`, and its page) explains every ledger movement of the day."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from cli.console import cardroom
from room.people import IDENTITY_KEY

from cardroom.games.pai_gow.settings import legal_settings
from cardroom.money import format_money
from cardroom.room.play.pai_gow_live import PaiGowLive
from cardroom.room.room import Room
from cardroom.room.storage.audit import entries
from cardroom.room.storage.settings import GamblingClock, RoomSettings

from .page_checks import PageChecks
from .room_flows import (
    accept_signature,
    books_tray,
    browser_at,
    cage_asks_count,
    cage_asks_slip,
    cage_counts_cash,
    cage_identifies,
    cage_sells,
    chips,
    console_errors,
    first_run,
    floor_asks_inventory,
    floor_makes_table,
    hire,
    leaves,
    log_in,
    register,
    seeded_room,
    table_number,
    table_sale,
    takes_seat,
)
from .table_flows import baccarat_hand, pai_gow_arrange, pan_step, put_chips, super_pan_9_bet

STAFF = {"fred": "floor", "dan": "dealer", "cathy": "cashier", "carl": "cashier"}
HOUSE_RULES = {"turn_seconds": 10}
"""The Super Pan 9 and Pan tables' house rules: a short turn, so that the test sees it run
out (the room's smallest)."""
FILL = 1_000_00
BANKED = ("Mini 1", "Pai Gow 1", "Nine 1")


@pytest.fixture
def room(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Room]:
    """A real card room (no self-service chips) whose gambling day began six hours ago in
    UTC, for the room and for the report commands alike (so that the shift never straddles
    the day's end)."""
    starts = (datetime.now(UTC) - timedelta(hours=6)).time().replace(microsecond=0)
    monkeypatch.setenv("CARDROOM_TIMEZONE", "UTC")
    monkeypatch.setenv("CARDROOM_DAY_STARTS", starts.isoformat())
    settings = RoomSettings(clock=GamblingClock(ZoneInfo("UTC"), starts))
    yield from seeded_room(tmp_path, 8, settings, IDENTITY_KEY)


class Tally:
    """What the test did at each table, in cents: the slips, the drop, the closing count,
    the hands dealt and what the players' chips went down by there."""

    def __init__(self) -> None:
        self.fills: dict[str, int] = {}
        self.credits: dict[str, int] = {}
        self.drop: dict[str, int] = {}
        self.closer: dict[str, int] = {}
        self.hands: dict[str, int] = {}
        self.lost: dict[str, int] = {}
        self.sold = 0

    def played(self, page: Any, base: str, table: str, hands: int, play: Any) -> None:
        """`play()` at `table`: the player's chips before she sits and after she leaves."""
        before = chips(page, base)
        play()
        leaves(page)
        self.lost[table] = self.lost.get(table, 0) + before - chips(page, base)
        self.hands[table] = self.hands.get(table, 0) + hands


def test_a_whole_shift_by_clicks_on_every_ones_own_screen(room: Room) -> None:
    tally = Tally()
    with browser_at(room) as (base, browser):
        pages = {}
        for name in ("olga", *STAFF, "alice", "bob"):
            pages[name] = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            pages[name].set_default_timeout(20_000)
        checks = {n: PageChecks(pages[n]) for n in ("alice", "bob")}
        errors = {n: checks[n].errors if n in checks else console_errors(pages[n])
                  for n in pages}
        olga, fred, dan = pages["olga"], pages["fred"], pages["dan"]
        cathy, carl, alice, bob = pages["cathy"], pages["carl"], pages["alice"], pages["bob"]

        # the owner's first run; she makes the staff's accounts
        first_run(olga, base, "olga")
        for name, role in STAFF.items():
            hire(olga, base, name, role)
        for name in STAFF:
            log_in(pages[name], base, name)
        # the players register; the cashier sees their licences and sells them chips
        for name in ("alice", "bob"):
            register(pages[name], base, name)
            pages[name].wait_for_url("**/lobby")
        cage_counts_cash(cathy, base, 40_000_00)
        for name, document, cents in (("alice", "WDL1234567", 500_00),
                                      ("bob", "WDL7654321", 300_00)):
            cage_identifies(cathy, base, name, f"Player {name}", document)
            cage_sells(cathy, base, name, cents)
            tally.sold += cents

        # the floor makes the tables; the timed games get their house rules
        floor_makes_table(fred, base, "Mini 1", "baccarat")
        floor_makes_table(fred, base, "Pai Gow 1", "pai-gow")
        owner = room.account(1)
        assert owner is not None
        # house rules are a file the owner gives (`cardroom tables create --rules`)
        room.create_table(owner, "Nine 1", "super-pan-9", HOUSE_RULES)
        room.create_table(owner, "Pan 1", "pan", HOUSE_RULES)
        # the house-banked tables open on an opener the dealer signs; the cage fills them
        for number, table in enumerate(BANKED, start=1):
            floor_asks_inventory(fred, base, "open", table, 0, "dan")
            accept_signature(dan, f"signed and done: opener number {number}: $0.00")
        for number, table in enumerate(BANKED, start=1):
            cage_asks_slip(cathy, base, "fill", table, FILL, "dan", "fred")
            accept_signature(dan, "waiting for fred")
            accept_signature(fred, f"fill slip number {number}: {format_money(FILL)}")
            tally.fills[table] = FILL
        # bob buys $100 of chips at the Pai Gow table: cash into its drop box
        table_sale(fred, base, "Pai Gow 1", "bob", 100_00)
        tally.drop["Pai Gow 1"] = 100_00

        # Mini-Baccarat: alice two coups on Player, then bob one
        mini = table_number(room, "Mini 1")

        def mini_alice() -> None:
            takes_seat(alice, base, mini, 200_00)
            for n in (1, 2):
                baccarat_hand(alice, checks["alice"], n, {"player": [2500]})

        def mini_bob() -> None:
            takes_seat(bob, base, mini, 100_00)
            baccarat_hand(bob, checks["bob"], 3, {"player": [500, 500]})

        tally.played(alice, base, "Mini 1", 2, mini_alice)
        tally.played(bob, base, "Mini 1", 1, mini_bob)

        # Pai Gow: bob plays the chips he bought at the table
        pai_gow = table_number(room, "Pai Gow 1")

        def pai_gow_bob() -> None:
            takes_seat(bob, base, pai_gow, 100_00)
            put_chips(bob, {"wager": [2500]})
            bob.click("#bet")
            bob.click("#deal")
            live = room.table(pai_gow)
            assert isinstance(live, PaiGowLive)
            bob.wait_for_selector("#arrange-box:not([hidden])")
            seat = next(iter(live.seat_of.values()))  # bob, alone at the table
            low = [str(c) for c in legal_settings(live.engine.hands[seat])[-1].front]
            pai_gow_arrange(bob, checks["bob"], low)
            bob.wait_for_selector("body[data-state=settled]")

        tally.played(bob, base, "Pai Gow 1", 1, pai_gow_bob)

        # Super Pan 9: alice stands on the first hand; on the second she walks away
        nine = table_number(room, "Nine 1")
        disputed: list[int] = []

        def nine_alice() -> None:
            takes_seat(alice, base, nine, 200_00)
            super_pan_9_bet(alice, checks["alice"], {"wager": [500, 500]})
            alice.click("#deal")
            alice.wait_for_selector("#decide:not([hidden])")
            alice.click("#stand")
            alice.wait_for_selector("body[data-state=settled]")
            first = alice.get_attribute("body", "data-hand")
            alice.click("#rebet")
            alice.click("#bet")
            alice.click("#deal")
            alice.wait_for_selector("#turn-clock:has-text('You are to act')")
            # ten seconds go by: the timer stands for her (rule 6) and the round settles
            alice.wait_for_selector(f'body[data-state=settled]:not([data-hand="{first}"])',
                                    timeout=30_000)
            checks["alice"].check("super pan 9: the turn ran out")
            said = re.match(r"Hand (\d+) ", alice.inner_text("#result"))
            assert said is not None
            disputed.append(int(said.group(1)))

        tally.played(alice, base, "Nine 1", 2, nine_alice)

        # Pan: alice and two house players; once she lets her turn run out
        pan = table_number(room, "Pan 1")

        def pan_alice() -> None:
            takes_seat(alice, base, pan, 20_00)
            for n in (1, 2):
                alice.click("#add-bot")
                alice.wait_for_selector(f"#players li:nth-child({n + 1})")
            alice.click("#deal")
            alice.wait_for_selector("#decide:not([hidden])")
            waited = False
            for step in range(200):
                if alice.get_attribute("body", "data-state") in ("settled", "voided"):
                    break
                checks["alice"].check(f"pan step {step}")
                seq = alice.get_attribute("body", "data-seq")
                if step == 3 and not waited:
                    waited = True  # she looks away: the house rules' default play is made
                    alice.wait_for_selector("text=alice's time ran out", timeout=30_000)
                    continue
                pan_step(alice, checks["alice"].latest)
                alice.wait_for_selector(f"body:not([data-seq='{seq}'])", state="attached")
            assert waited and alice.get_attribute("body", "data-state") == "settled"

        tally.played(alice, base, "Pan 1", 1, pan_alice)

        # the floor recalls the hand alice disputes, from the number her page showed
        fred.goto(f"{base}/hands/{disputed[0]}")
        fred.wait_for_selector("#step-controls:not([hidden])")
        fred.click("#step-first")
        fred.click("#step-end")
        recalled = fred.inner_text("main")
        assert recalled.startswith(f"Hand {disputed[0]} (table's hand 2) Nine 1")
        assert "alice: wager ($10.00)" in recalled and "alice: stand" in recalled

        # the cage takes $200 back from Mini 1
        cage_asks_slip(cathy, base, "credit", "Mini 1", 200_00, "dan", "fred")
        accept_signature(dan, "waiting for fred")
        accept_signature(fred, f"credit slip number 1: {format_money(200_00)}")
        tally.credits["Mini 1"] = 200_00

        # closing: the tray counted, Mini 1 $5 short of its books
        for number, table in enumerate(BANKED, start=4):
            counted = books_tray(fred, base, table) - (500 if table == "Mini 1" else 0)
            floor_asks_inventory(fred, base, "close", table, counted, "dan")
            accept_signature(dan, f"closer number {number}: {format_money(counted)}")
            tally.closer[table] = counted
        fred.goto(base + "/floor/inventory")
        assert "$5.00 short of the books" in fred.inner_text("body")

        # the drop box of Pai Gow 1, counted by two cashiers
        cage_asks_count(cathy, base, "Pai Gow 1", 100_00, "carl")
        accept_signature(carl, "counted $100.00 (cash $100.00, debit card $0.00); the books say "
                               "$100.00; variance $0.00")

        # the day's reports, as the floor reads them
        fred.click("#menu-reports")
        fred.wait_for_selector("#hold-chart")
        shown = fred.locator("#tables-win tbody tr", has=fred.locator('td.name:text-is("Mini 1")'))
        assert shown.locator('td[data-label="Variance"]').inner_text() == "-$5.00"
        games = linked_json(fred, base, "#games-json")
        fred.goto(base + "/reports/reconcile")
        verdict = fred.inner_text("#verdict")
        explained = {kind: int(n) for _, kind, n in (
            row.split("\t") for row in fred.inner_text("#explained").splitlines()[1:])}
        cathy.goto(base + "/reports/cage")
        cage = linked_json(cathy, base, "a[href^='/reports/cage.json']")
        assert all(e == [] for e in errors.values()), errors

    lines = {line["table"]: line for line in games["tables"]}
    assert timeouts(room) == [nine, pan]
    for table in BANKED:
        line = lines[table]
        short = 500 if table == "Mini 1" else 0
        win = (tally.closer[table] - 0 + tally.credits.get(table, 0) - tally.fills[table]
               + tally.drop.get(table, 0))
        assert (line["opener"], line["closer"], line["fills"], line["credits"], line["drop"],
                line["hands"], line["win"], line["variance"]) == (
            0, tally.closer[table], tally.fills[table], tally.credits.get(table, 0),
            tally.drop.get(table, 0), tally.hands[table], win, -short), table
        # what the players lost there is the win, the shortage, the commission and the
        # jackpot's contributions
        assert tally.lost[table] == win + short + line["commission"] \
            + line["jackpot_contributions"], table
        assert line["reconciled"], table
    assert lines["Mini 1"]["commission"] == 0  # Player wagers only
    assert lines["Pan 1"]["hands"] == 1 and lines["Pan 1"]["house_players"] == tally.lost["Pan 1"]
    total = games["total"]
    assert (total["drop"], total["fills"], total["credits"]) == (
        100_00, 3 * FILL, 200_00)
    assert total["win"] == sum(lines[t]["win"] for t in BANKED)
    assert games["reconciled"]
    # the room-wide check: every movement explained, and as many of each as the test made
    assert verdict.startswith("Every one of the ") and verdict.endswith(
        "is explained by a report, and every report reconciles.")
    seats = 3 + 2 + 2  # alice at three tables, bob at two, and Pan's two house players
    wagers = sum(tally.hands[t] for t in BANKED)
    assert {k: explained.get(k) for k in (
        "cage-sale", "fill", "credit", "drop-cash", "closing-variance", "buy-in", "leave",
        "wager", "settle")} == {
        "cage-sale": 2, "fill": 3, "credit": 1, "drop-cash": 1, "closing-variance": 1,
        "buy-in": seats, "leave": seats, "wager": wagers, "settle": wagers}
    assert cage["reconciled"], cage
    assert cage["moves"]["cage-sale"]["amount"] == tally.sold
    assert cage["moves"]["fill"]["amount"] == 3 * FILL
    assert cage["moves"]["credit"]["amount"] == 200_00
    assert cage["drop_cash_counted"] == 100_00
    said = cardroom("report", "reconcile", "--database", database(room))
    assert said.returncode == 0, said.stdout + said.stderr
    said = cardroom("report", "games", "--database", database(room), "--json")
    assert said.returncode == 0 and json.loads(said.stdout)["total"] == total


def linked_json(page: Any, base: str, link: str) -> Any:
    """The JSON file a report page links (`link`), fetched in the page's own session."""
    got = page.request.get(base + page.get_attribute(link, "href"))
    assert got.ok
    return got.json()


def timeouts(room: Room) -> list[int]:
    """The tables of the audit's `hand.timeout` entries (a turn run out), in order."""
    with room.storage.read() as conn:
        return [json.loads(e.detail)["table"] for e in entries(conn)
                if e.action == "hand.timeout"]


def database(room: Room) -> str:
    return str(room.storage.engine.url)
