"""Issue 23, "Pages for a shift, not forms": the lobby shows each table's state (open, closed,
not opened yet), limits, seats free of seats and least buy-in; each member of staff lands on
their own page, a player in the lobby; a player's hand history shows the time, game, table,
amount wagered and net result of each hand, filtered and paged in the database."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from room.people import make_people
from room.rooms import playing_table, rig_coup
from sqlalchemy import event

from cardroom.cards import parse_cards
from cardroom.room.books import table_books
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role
from cardroom.room.room import Room
from cardroom.server.app import create_app

from .forms import FormClient, log_in, setup_table

PLAYER_NINE = parse_cards("9h Ts Kd Qc")
"""Dealt player, banker, player, banker: Player's natural 9 beats Banker's 0."""
BANKER_NINE = parse_cards("Ts 9h Qc Kd")
"""Banker's natural 9 beats Player's 0."""


def text_only(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).replace("&#39;", "'").strip()


def rows(page: str, table_id: str) -> list[str]:
    """The text of each row of the table `table_id` on the page."""
    body = page.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    return [text_only(r) for r in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
            if "<td" in r]


def fund(room: Room, who: Account, cents: int = 100_000) -> None:
    with room.storage.unit() as conn:
        ledger.post(conn, f"seed-{who.username}", "buy-chips",
                    [(ledger.HOUSE_CAGE, -cents), (ledger.wallet(who.id), cents)], actor="t")


def coup(room: Room, t: int, who: Account, bets: dict[str, int], cards: Any, key: str) -> None:
    rig_coup(room, t, list(cards))
    room.act(who, t, {"type": "bet", "bets": bets, "key": key})
    room.act(who, t, {"type": "deal"})


# the lobby ------------------------------------------------------------------------------------
def test_wac_230_15_495_the_lobby_shows_each_table_s_state_limits_seats_and_buy_in(
        room: Room) -> None:
    """A house-banked table plays only once its opener is signed (WAC 230-15-495): one never
    opened reads "Not opened yet", one closed since reads "Closed", and neither offers Join.
    The limits are the posted rules' ("Player and Banker: $5.00 to $300.00", the baccarat
    defaults; Pai Gow's own $10.00 minimum), the least buy-in the table minimum or Pan's
    buy-in ("The buy-in for each game is 20chips", a $1.00 chip: $20.00)."""
    ctx = setup_table(room)  # Mini 1, open
    p = ctx["people"]
    owner = p["olivia"]
    room.create_table(owner, "Mini 2", "baccarat")  # never opened
    mini3 = playing_table(room, owner, "Mini 3", "baccarat")
    room.operate(None, "table.close", lambda conn: table_books.close_table(
        conn, mini3.table_id, owner, p["fiona"], 0))  # the owner deals it, fiona the floor
    playing_table(room, owner, "Gow 1", "pai-gow", {"min_wager_cents": 1_000})
    room.create_table(owner, "Pan 1", "pan")
    fund(room, p["alice"])
    room.act(p["alice"], ctx["table"], {"type": "sit", "buy_in": 20_000, "key": "s"})

    client = FormClient(create_app(room))
    log_in(client, "bob")
    page = client.get("/lobby").text
    shown = {r.split(" ")[0] + " " + r.split(" ")[1]: r for r in rows(page, "lobby-tables")}
    assert shown["Mini 1"] == ("Mini 1 Mini-Baccarat Open for play Player and Banker: $5.00 "
                               "to $300.00. 6 of 7 seats free $5.00 Join Rules")
    assert shown["Mini 2"].startswith("Mini 2 Mini-Baccarat Not opened yet")
    assert shown["Mini 3"].startswith("Mini 3 Mini-Baccarat Closed")
    assert "$10.00 to $300.00" in shown["Gow 1"] and "$10.00 Join" in shown["Gow 1"]
    assert shown["Gow 1"].startswith("Gow 1 Pai Gow Poker Open for play")
    assert "the buy-in is 20 chips ($20.00)" in shown["Pan 1"]
    assert "15 of 15 seats free $20.00 Join" in shown["Pan 1"]
    for closed in ("Mini 2", "Mini 3"):
        assert "Join" not in shown[closed] and "seats free" not in shown[closed]
        t = next(t for t, live in room.tables.items() if live.name == closed)
        assert f'href="/tables/{t}"' not in page  # nothing to join
        assert f'href="/tables/{t}/rules"' in page  # the rules are posted all the same


# where each role lands ------------------------------------------------------------------------
LANDS = {"alice": "/lobby", "carl": "/cage", "fiona": "/floor", "dora": "/floor/inventory",
         "cora": "/compliance/cases", "olivia": "/home", "audrey": "/home"}
"""Issue 23: "staff land on their own page, not the player lobby"."""


def test_each_member_of_staff_lands_on_their_own_page_a_player_in_the_lobby(room: Room
                                                                            ) -> None:
    with room.storage.unit() as conn:
        make_people(conn, [("alice", Role.PLAYER), ("carl", Role.CASHIER), ("fiona", Role.FLOOR),
                           ("dora", Role.DEALER), ("cora", Role.COMPLIANCE),
                           ("olivia", Role.OWNER), ("audrey", Role.AUDITOR)])
    for name, page in LANDS.items():
        client = FormClient(create_app(room))
        r = client.post("/login", data={"username": name, "password": "correct horse"},
                        follow_redirects=False)
        assert (r.status_code, r.headers["location"]) == (303, page), name
        assert client.get("/", follow_redirects=False).headers["location"] == page, name
        assert client.get(page).status_code == 200, name  # their own page opens for them
    owner = FormClient(create_app(room))
    log_in(owner, "olivia")
    home = owner.get("/home").text
    listed = re.findall(r'id="home-(\w+)" href="([^"]+)"', home)
    assert ("staff", "/staff") in listed and ("audit", "/audit") in listed
    assert ("cases", "/compliance/cases") not in listed  # the compliance officer's only


# the hand history -----------------------------------------------------------------------------
@pytest.fixture
def played(room: Room) -> dict[str, Any]:
    """alice at Mini 1 and Mini 2 (baccarat, $5.00 to $300.00): 26 coups at Mini 1, the
    first of them a $10 Banker wager that Player's natural 9 beats (lost $10.00), the
    others $10 on Player, won by a natural 9 (won $10.00: 1 to 1), then at Mini 2 one $20
    Banker wager that Banker's natural 9 wins ($19.00: 1 to 1 less 5% commission)."""
    ctx = setup_table(room)
    p = ctx["people"]
    alice = p["alice"]
    fund(room, alice)
    t1 = ctx["table"]
    t2 = playing_table(room, p["olivia"], "Mini 2", "baccarat").table_id
    room.act(alice, t1, {"type": "sit", "buy_in": 50_000, "key": "s1"})
    room.act(alice, t2, {"type": "sit", "buy_in": 20_000, "key": "s2"})
    coup(room, t1, alice, {"banker": 1_000}, PLAYER_NINE, "b0")
    for i in range(1, 26):
        coup(room, t1, alice, {"player": 1_000}, PLAYER_NINE, f"b{i}")
    coup(room, t2, alice, {"banker": 2_000}, BANKER_NINE, "c0")
    return {**ctx, "t2": t2}


def test_a_player_s_history_shows_time_game_table_wagered_and_net_25_a_page(
        room: Room, played: dict[str, Any]) -> None:
    client = FormClient(create_app(room))
    log_in(client, "alice")
    page = client.get("/history").text
    shown = rows(page, "hands")
    assert len(shown) == 25 and "27 hands, page 1 of 2" in text_only(page)
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \w+ Mini-Baccarat Mini 2 Hand \d+ "
                        r"\(table's hand 1\) \$20\.00 won \$19\.00 Settled", shown[0]), shown[0]
    assert "Mini 1" in shown[1] and "$10.00 won $10.00" in shown[1]
    older = client.get("/history?page=2").text
    last = rows(older, "hands")
    assert len(last) == 2 and "$10.00 lost $10.00" in last[-1]
    assert 'id="newer"' in older and 'id="older"' not in older


def test_the_history_filters_by_game_table_dates_and_won_or_lost(
        room: Room, played: dict[str, Any]) -> None:
    client = FormClient(create_app(room))
    log_in(client, "alice")
    t2 = played["t2"]

    def shown(query: str) -> list[str]:
        page = client.get(f"/history?{query}")
        assert page.status_code == 200, page.text
        return rows(page.text, "hands") if 'id="hands"' in page.text else []

    assert [r.split(" Hand ")[0][-6:] for r in shown(f"table={t2}")] == ["Mini 2"]
    lost = shown("outcome=lost")
    assert len(lost) == 1 and "lost $10.00" in lost[0]
    assert len(shown("outcome=won&page=2")) == 1  # 26 won: the filter is kept across pages
    assert shown("game=pai-gow") == []
    today = room.settings.clock.day_of(datetime.now(UTC))
    assert len(shown(f"since={today}&until={today}&table={t2}")) == 1
    assert shown(f"since={today + timedelta(days=1)}") == []
    assert shown(f"until={today - timedelta(days=1)}") == []
    page = client.get("/history?outcome=won").text
    assert "page=2" in page and "outcome=won" in page  # the pager keeps the filter


def test_the_history_pages_and_counts_in_the_database(room: Room, played: dict[str, Any]
                                                      ) -> None:
    """The page's query asks the database for 25 rows and a count, never every hand."""
    statements: list[str] = []
    engine = room.storage.engine

    def seen(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(statement)

    client = FormClient(create_app(room))
    log_in(client, "alice")
    event.listen(engine, "before_cursor_execute", seen)
    try:
        client.get("/history?page=2&outcome=won")
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    hands_queries = [s for s in statements if "FROM hands" in s and "hand_players" in s]
    assert any("LIMIT" in s and "OFFSET" in s for s in hands_queries), hands_queries
    assert any("count(" in s.lower() for s in hands_queries)


@pytest.mark.parametrize(("query", "sentence"), [
    ("since=yesterday", "The from date must be written as year-month-day, for example "
                        "2026-03-01."),
    ("until=2026-13-01", "The to date must be written as year-month-day"),
    ("table=999", "Choose a table from the list."),
    ("table=abc", "The table must be a whole number."),
    ("game=poker", "Choose a game from the list."),
    ("outcome=maybe", "Choose won or lost, or every hand."),
    ("page=x", "The page number must be a whole number."),
    ("page=0", "The page number must be 1 or more."),
    (f"since={date(2026, 3, 2)}&until={date(2026, 3, 1)}",
     "The to date comes before the from date."),
])
def test_a_filter_the_page_cannot_read_is_one_sentence_and_changes_nothing(
        room: Room, played: dict[str, Any], query: str, sentence: str) -> None:
    client = FormClient(create_app(room))
    log_in(client, "alice")
    r = client.get(f"/history?{query}")
    assert r.status_code == 400
    errors = re.findall(r'<p class="error" role="alert">(.*?)</p>', r.text)
    assert len(errors) == 1 and errors[0].startswith(sentence), errors
    assert len(rows(r.text, "hands")) == 25  # every hand, as with no filter
    assert "{" not in text_only(r.text) and "_cents" not in r.text


def test_a_hand_in_play_shows_nothing_the_player_cannot_see_yet(room: Room) -> None:
    """Hidden information stays hidden: while a hand is in play the history shows it in play,
    no amount or result; another player does not see it at all."""
    ctx = setup_table(room)
    alice = ctx["people"]["alice"]
    fund(room, alice)
    room.act(alice, ctx["table"], {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(alice, ctx["table"], {"type": "bet", "bets": {"banker": 1_000}, "key": "b"})
    client = FormClient(create_app(room))
    log_in(client, "alice")
    [row] = rows(client.get("/history").text, "hands")
    assert row.endswith("\N{EN DASH} in play Still in play") and "$" not in row
    other = FormClient(create_app(room))
    log_in(other, "bob")
    assert "No hands match." in text_only(other.get("/history").text)


def test_a_voided_hand_shows_its_wagers_returned(room: Room) -> None:
    ctx = setup_table(room)
    alice, fiona = ctx["people"]["alice"], ctx["people"]["fiona"]
    fund(room, alice)
    room.act(alice, ctx["table"], {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(alice, ctx["table"], {"type": "bet", "bets": {"banker": 1_500}, "key": "b"})
    room.act(fiona, ctx["table"], {"type": "void", "reason": "misdeal"})
    client = FormClient(create_app(room))
    log_in(client, "alice")
    [row] = rows(client.get("/history").text, "hands")
    assert row.endswith("$15.00 returned Voided")
    for outcome in ("won", "lost"):  # a void is neither
        assert 'id="hands"' not in client.get(f"/history?outcome={outcome}").text
