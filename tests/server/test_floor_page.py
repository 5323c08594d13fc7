"""Issue 23: the floor page is a pit screen, a card per table (`room.floor_view`), with the
floor's actions beside each table: open and close it on inventory slips (the dealer signs on
their own screen), a fill or a credit where the viewer runs the cage, act for an absent player,
and the page's cards again for its script (`/floor/pit`)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from room.people import IDENTITY_KEY, person, player
from room.rooms import start_round

from cardroom.room.books.cashier import buy_chips
from cardroom.room.people.accounts import Role
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage, make_engine, migrate
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.shoe import SeededRandom

from .forms import PW, cosigned, logged_in, said

CAST = (("olga", Role.OWNER), ("fred", Role.FLOOR), ("dan", Role.DEALER),
        ("cathy", Role.CASHIER))


@pytest.fixture
def room(tmp_path: Path) -> Room:
    engine = make_engine(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    migrate(engine)
    r = Room(Storage(engine), SeededRandom(11), identity=IDENTITY_KEY)
    r.start()
    with r.storage.unit() as conn:
        people = {n: person(conn, n, PW, role) for n, role in CAST}
        for name in ("alice", "bob"):
            buy_chips(conn, SELF_SERVICE, player(conn, name, PW), 100_000, f"b-{name}")
    r.create_table(people["olga"], "Nine 1", "super-pan-9")
    return r


def card(page: str, table: int) -> str:
    """One table's card of the pit screen."""
    found = re.search(rf'<article class="pit-card[^"]*" data-table="{table}".*?</article>',
                      page, re.S)
    assert found, f"no card for table {table}"
    return found.group(0)


def test_the_floor_opens_a_table_from_its_card_and_it_plays(room: Room) -> None:
    """WAC 230-15-495: a new house-banked table awaits its opener; the floor signs it from the
    table's card, the dealer accepts on their own screen, and the card says open."""
    fred = logged_in(room, "fred")
    mine = card(fred.get("/floor").text, 1)
    assert "Awaiting its opener" in mine and "never opened" in mine
    assert 'action="/floor/inventory/open"' in mine and "Void the hand" not in mine
    r = fred.post("/floor/inventory/open", data={"table_id": "1", "counted": "0",
                                                 "dealer": "dan", "back": "/floor"},
                  follow_redirects=False)
    assert r.headers["location"] == "/floor"
    assert "waiting for the signature of dan" in said(r)["message"]
    waiting = card(fred.get("/floor").text, 1)
    assert "the opener waits for dan&#39;s signature" in waiting
    assert "opener of Nine 1: counted $0.00 (asked by fred; waiting for dan)" in waiting
    cosigned(room, r, "dan")
    opened = card(fred.get("/floor").text, 1)
    assert ">Open<" in opened and 'action="/floor/inventory/close"' in opened
    assert "Dealer</dt><dd class=\"dealer\">dan<" in opened
    # a fill is the cage's: the floor has no fill form; the owner, who runs the cage, has
    assert 'action="/cage/fill"' not in opened
    assert 'action="/cage/fill"' in card(logged_in(room, "olga").get("/floor").text, 1)
    # any other page to go back to is the form's own
    r = fred.post("/floor/inventory/close", data={"table_id": "1", "counted": "0",
                                                  "dealer": "dan", "back": "https://x.test/"},
                  follow_redirects=False)
    assert r.headers["location"] == "/floor/inventory"


def test_the_floor_acts_for_a_player_whose_turn_it_is(room: Room) -> None:
    """Issue 23: the card names who is to act and the seconds left, and the floor's button
    takes the house default for them (Super Pan 9 rule 6: stand)."""
    people = {n: room.account(i) for i, n in enumerate(
        ("olga", "fred", "dan", "cathy", "alice", "bob"), start=1)}
    fred = logged_in(room, "fred")
    r = fred.post("/floor/inventory/open", data={"table_id": "1", "counted": "0",
                                                 "dealer": "dan"}, follow_redirects=False)
    cosigned(room, r, "dan")
    stopped = datetime.now(UTC)
    room.table(1).clock = lambda: stopped  # the turn's seconds stay put between two pages
    start_round(room, people, 1)  # type: ignore[arg-type]
    mine = card(fred.get("/floor").text, 1)
    assert "<strong>alice</strong> to act: <span class=\"left\">1:00</span> left" in mine
    assert "Act for alice" in mine and "Misdeal" in mine and "Void the hand" in mine
    assert "<span class=\"seat-name\">alice</span>" in mine
    assert "Free seats: 3 to 9" in mine  # Super Pan 9 seats nine
    r = fred.post("/floor/act-for", data={"table_id": "1"}, follow_redirects=False)
    assert said(r) == {"message": "the default action was taken for the absent player"}
    assert "<strong>bob</strong> to act" in card(fred.get("/floor/pit").text, 1)
    rows = fred.get("/floor/tables.json").json()
    assert (rows[0]["to_act"], rows[0]["state"], rows[0]["players"]) == ("bob", "open", 2)
    cashier = logged_in(room, "cathy")
    assert cashier.get("/floor/pit").status_code == 403
    r = cashier.post("/floor/act-for", data={"table_id": "1"})
    assert r.status_code == 403 and "may not act for a player" in r.text
