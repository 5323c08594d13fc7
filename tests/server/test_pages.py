"""Issue 13's pages beyond the tables, through the app: the hand history (table names, room
time to the second), recall (the steps, the cards, the download), the floor's live rows and
its irregularity buttons, the audit's readable fields, and errors a person can cause as plain
sentences on a page (404 with a way back, a bad id, a refused role)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from room.rooms import playing_table

from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.settings import TIMEZONE_ENV
from cardroom.server.app import create_app
from cardroom.shoe import SeededRandom

from .forms import FormClient, log_in, setup_table


@pytest.fixture
def room(storage: Storage) -> Room:
    r = Room(storage, SeededRandom(13))
    r.start()
    return r


JSONISH = re.compile(r'\{"detail"|"loc"|\[\{"type"|cents|_id\b')


def fund(room: Room, who: Account, cents: int = 50_000) -> None:
    with room.storage.unit() as conn:
        ledger.post(conn, f"seed-{who.username}", "buy-chips",
                    [(ledger.HOUSE_CAGE, -cents), (ledger.wallet(who.id), cents)], actor="t")


def plain(page: str) -> None:
    """A page a person reads: no raw JSON, no field names (in what it shows), no inline
    script or style."""
    text = re.sub(r"<[^>]*>", " ", page)
    assert not JSONISH.search(text), JSONISH.search(text)
    assert "<script>" not in page and "style=" not in page


@pytest.mark.parametrize("path", ["/nowhere", "/tables/abc", "/hands/0", "/hands/x1",
                                  "/tables/99999", "/static/nothing.css"])
def test_a_path_that_names_nothing_is_a_page_with_a_way_back(room: Room, path: str) -> None:
    setup_table(room)
    c = FormClient(create_app(room))
    log_in(c, "alice")
    r = c.get(path)
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert 'href="/lobby"' in r.text and 'id="problem"' in r.text
    plain(r.text)


def test_a_refused_role_reads_a_sentence_with_its_article(room: Room) -> None:
    """Never "a auditor may not cashier"."""
    setup_table(room)
    c = FormClient(create_app(room))
    log_in(c, "audrey")
    r = c.get("/cashier")
    assert r.status_code == 403
    assert "an auditor" in r.text and "a auditor" not in r.text
    plain(r.text)


def play_a_coup(room: Room, t: int, alice: Account) -> int:
    room.act(alice, t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(alice, t, {"type": "bet", "bets": {"banker": 1_000}, "key": "b"})
    room.act(alice, t, {"type": "deal"})
    last = room.table(t).last
    assert last is not None
    return last.hand


def test_history_names_tables_and_times_to_the_second_in_the_room_zone(
        room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TIMEZONE_ENV, "America/Los_Angeles")
    ctx = setup_table(room)
    alice = ctx["people"]["alice"]
    fund(room, alice)
    play_a_coup(room, ctx["table"], alice)
    c = FormClient(create_app(room))
    log_in(c, "alice")
    page = c.get("/history").text
    assert "Mini 1" in page and "Mini-Baccarat" in page
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d P[SD]T", page)
    plain(page)


def test_recall_draws_the_cards_and_every_step(room: Room) -> None:
    ctx = setup_table(room)
    alice = ctx["people"]["alice"]
    fund(room, alice)
    hand = play_a_coup(room, ctx["table"], alice)
    c = FormClient(create_app(room))
    log_in(c, "alice")
    page = c.get(f"/hands/{hand}").text
    assert "the result matches" in page
    assert page.count('src="/cards/') >= 4            # player's and banker's hands
    assert 'id="step-1"' in page and 'id="step-2"' in page  # the bet, the deal
    assert "alice: bet (Banker $10.00)" in page
    assert 'href="/hands/' in page and "history.json" in page
    assert "Seat" in page and "<td>1</td><td>alice</td>" in page
    plain(re.sub(r'<script type="application/json".*?</script>', "", page, flags=re.S))


def pan_nine_with_a_wager(room: Room) -> tuple[dict[str, Any], Account, int]:
    """`setup_table`'s people and baccarat table, and a Super Pan 9 table ("Pan Nine") where
    alice, funded, sits and wagers $10: the context, alice, the Super Pan 9 table's id."""
    ctx = setup_table(room)
    alice = ctx["people"]["alice"]
    fund(room, alice)
    sp9 = playing_table(room, ctx["people"]["olivia"], "Pan Nine", "super-pan-9").table_id
    room.act(alice, sp9, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(alice, sp9, {"type": "bet", "bets": {"wager": 1_000}, "key": "b"})
    return ctx, alice, sp9


def test_floor_rows_are_live_and_record_an_irregularity(room: Room) -> None:
    """The floor's irregularity buttons send the table protocol's `irregularity` (Super Pan 9:
    a misdeal voids every hand, wagers back)."""
    _, alice, sp9 = pan_nine_with_a_wager(room)
    floor = FormClient(create_app(room))
    log_in(floor, "fiona")
    rows = {r["name"]: r for r in floor.get("/floor/tables.json").json()}
    assert rows["Pan Nine"]["game"] == "Super Pan 9" and rows["Pan Nine"]["players"] == 1
    page = floor.get("/floor").text
    assert "Misdeal" in page and "Exposed card" in page and "Wrong card count" in page
    assert 'id="jackpot-page"' in page
    room.act(alice, sp9, {"type": "deal"})
    assert floor.get("/floor/tables.json").json()[1]["hand"] is not None
    r = floor.post("/floor/irregularity", data={"table_id": sp9, "kind": "misdeal",
                                                "seat": "", "reason": "two cards stuck"})
    assert r.status_code == 200 and "recorded" in r.text
    assert room.table(sp9).hand_id is None
    bad = floor.post("/floor/irregularity", data={"table_id": sp9, "kind": "misdeal",
                                                  "seat": "", "reason": "again"})
    assert "No hand is in progress" in bad.text
    plain(bad.text)


def test_the_audit_shows_readable_fields(room: Room) -> None:
    ctx = setup_table(room)
    alice = ctx["people"]["alice"]
    fund(room, alice)
    play_a_coup(room, ctx["table"], alice)
    c = FormClient(create_app(room))
    log_in(c, "audrey")
    page = c.get("/audit").text
    assert "<dt>buy-in</dt><dd>$200.00</dd>" in page
    assert "<dt>table</dt><dd>Mini 1</dd>" in page
    assert '"table":' not in page


def test_one_number_per_hand_shown_the_same_everywhere(room: Room) -> None:
    """Issue 20: a hand has one number everywhere (the table's result and void message, the
    floor's row, the history and its link, the recall's title); the table's own count is
    shown beside it, labelled. Two tables interleave so the two counts differ."""
    ctx, alice, sp9 = pan_nine_with_a_wager(room)
    room.act(alice, sp9, {"type": "deal"})
    room.act(alice, sp9, {"type": "stand"})  # room hand 1, Pan Nine's hand 1
    hand = play_a_coup(room, ctx["table"], alice)  # room hand 2, Mini 1's hand 1
    title = f"Hand {hand} (table's hand 1)"
    assert hand == 2
    c = FormClient(create_app(room))
    log_in(c, "alice")
    history = c.get("/history").text
    assert f'<a href="/hands/{hand}" aria-label="{title} at Mini 1">{title}</a>' in \
        history.replace("&#39;", "'")
    recall = c.get(f"/hands/{hand}").text.replace("&#39;", "'")
    assert f"<title>{title}" in recall and f"<h1>{title} <small>" in recall
    floor = FormClient(create_app(room))
    log_in(floor, "fiona")
    rows = {r["name"]: r for r in floor.get("/floor/tables.json").json()}
    assert rows["Mini 1"]["last"].startswith(f"{title}:")
    room.act(alice, ctx["table"], {"type": "bet", "bets": {"banker": 1_000}, "key": "b2"})
    assert floor.get("/floor/tables.json").json()[0]["hand_title"] == \
        "Hand 3 (table's hand 2)"
    room.act(ctx["people"]["fiona"], ctx["table"], {"type": "void", "reason": "spilled drink"})
    last = room.table(ctx["table"]).snapshot(alice)["last"]
    assert (last["hand"], last["number"]) == (3, 2)
    rows = {r["name"]: r for r in floor.get("/floor/tables.json").json()}
    assert rows["Mini 1"]["last"] == "Hand 3 (table's hand 2) voided by fiona: spilled drink"


INTERNAL = re.compile(r"player_9|banker_9|progressive \$|_cents|"
                      r"\b(?:stack|wallet|tray|wagers):\d|\d{4}-\d\d-\d\dT\d\d:|\bUTC\b")
"""Names and forms a page for people never shows (issue 20): wager ids, cents fields, ledger
account ids, raw ISO times, UTC where the room keeps its own clock. (The audit log's "What"
column is the entry's action, the vocabulary its filter takes: "hand." or "hand.void".)"""


def test_pages_speak_the_layout_s_words_and_the_room_s_clock(room: Room) -> None:
    """Issue 20: the recall names the wagers as the layout does (Player 9, Jackpot) and their
    results in words; the audit writes money in dollars, people and ledger accounts by name;
    the jackpot's posting report shows room time and what happened in words."""
    ctx = setup_table(room)
    alice = ctx["people"]["alice"]
    fund(room, alice)
    t = ctx["table"]
    room.act(alice, t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(alice, t, {"type": "bet", "bets": {"banker": 1_000, "player_9": 500,
                                                "progressive": 100}, "key": "b"})
    room.act(alice, t, {"type": "deal"})
    hand = room.table(t).last.hand  # type: ignore[union-attr]
    c = FormClient(create_app(room))
    log_in(c, "olivia")
    recall = text_only(c.get(f"/hands/{hand}").text)
    assert "alice: bet (Banker $10.00, Player 9 $5.00, Jackpot $1.00)" in recall
    assert "(Jackpot loses)" in recall
    audit_page = text_only(c.get("/audit").text)
    assert "alice's stack at Mini 1" in audit_page and "bonus max $100.00" in audit_page
    jackpot = text_only(c.get("/floor/jackpot").text)
    assert "Seeded by the house" in jackpot and "jackpot.seed" not in jackpot
    for page in (recall, audit_page, jackpot):
        assert not INTERNAL.search(page), INTERNAL.search(page)


def text_only(page: str) -> str:
    """What a person reads: no script, no tags, entities as characters."""
    page = re.sub(r"<script.*?</script>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).replace("&#39;", "'")
