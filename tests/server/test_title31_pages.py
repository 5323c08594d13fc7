"""The Title 31 pages (issue 22; 31 CFR 1021.311, 1010.312): the cashier sees how close a
patron is to the report's threshold; the dealer's refusal of a buy-in over it gives the reason
to the dealer and a neutral sentence for the player; the compliance officer and the owner read
the multiple transaction log and the reports and record a filing; and no page or table message
a player sees says a threshold, a figure of it or a compliance word."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime

import pytest

from cardroom.room.people import patrons
from cardroom.room.people.accounts import Account, Role, create_account, find_account
from cardroom.room.people.patrons import NewPatron
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.identity_key import IdentityKey
from cardroom.room.storage.settings import GamblingClock
from cardroom.shoe import SeededRandom

from .forms import PW, cosigned, logged_in, said

CAST = (("olga", Role.OWNER), ("fred", Role.FLOOR), ("dan", Role.DEALER),
        ("cathy", Role.CASHIER), ("connie", Role.COMPLIANCE), ("alice", Role.PLAYER))
KEY = IdentityKey(bytes(range(32)))
COMPLIANCE_WORDS = re.compile(
    r"10,000|threshold|currency transaction|\bCTR\b|31 CFR|\b1021\b|\b1010\b|compliance|Title 31|"
    r"identity|report|\$1,000\.00|multiple transaction", re.IGNORECASE)
"""What a player must never read (a card club was fined for telling patrons how close they
were to $10,000: ../shared/reference/compliance.md)."""


@pytest.fixture
def room(storage: Storage) -> Room:
    """A card room (the cage sells chips) on SQLite and PostgreSQL: its people, alice linked
    to a patron whose identity is not complete (no taxpayer id, no document), Mini 1."""
    r = Room(storage, SeededRandom(3))
    r.start()
    with r.storage.unit() as conn:
        people = {n: create_account(conn, n, PW, role) for n, role in CAST}
        today = datetime.now(GamblingClock.from_env().zone).date()
        grace = patrons.create(conn, people["cathy"], NewPatron(
            "Alice Liddell", "2 Rabbit Hole, Tacoma WA", date(1980, 5, 4)), KEY, today)
        patrons.link_account(conn, people["cathy"], people["alice"].id, grace.id)
    r.create_table(people["olga"], "Mini 1", "baccarat")
    return r


def account(room: Room, name: str) -> Account:
    with room.storage.read() as conn:
        found = find_account(conn, name)
    assert found is not None
    return found


def open_table(room: Room) -> None:
    fred = logged_in(room, "fred")
    r = cosigned(room, fred.post("/floor/inventory/open", data={
        "table_id": "1", "counted": "0", "dealer": "dan"}, follow_redirects=False), "dan")
    assert "opener number 1" in said(r)["message"]


def test_a_refused_buy_in_tells_the_dealer_why_and_the_player_nothing(room: Room) -> None:
    """31 CFR 1010.312: $9,000 cash at the cage, then $9,000 at a table would take the cash
    in to $18,000 with no identity on file: the dealer reads the reason and the sentence to
    say; the cashier's look-up shows $9,000 in and $1,000.00 left; the player's lobby, table,
    cashier and history pages and their table view hold no threshold or compliance word."""
    open_table(room)
    cathy, dan, alice = (logged_in(room, n) for n in ("cathy", "dan", "alice"))
    r = cathy.post("/cage/sell", data={"player": "alice", "amount": "9,000", "key": "s1"},
                   follow_redirects=False)
    assert said(r) == {"message": "sold $9,000.00 of chips to alice (cash)"}
    r = dan.post("/floor/inventory/drop", data={"table_id": "1", "player": "alice",
                                                "amount": "9000", "key": "d1"},
                 follow_redirects=False)
    error = said(r)["error"]
    assert "31 CFR 1010.312" in error and "$18,000.00" in error
    assert 'Tell the player only: "The cashier needs to see you before this buy-in."' in error
    look = cathy.get("/cage/cash-today", params={"player_name": "alice"})
    assert look.status_code == 200
    standing = re.sub(r"\s+", " ", look.text)
    assert '<td class="nowrap">cash in</td><td>$9,000.00</td><td>$1,000.00</td>' in standing
    assert "identity not complete" in standing
    assert "How close to the report?" in cathy.get("/cage?do=cash-today").text
    everyone = re.sub(r"\s+", " ", cathy.get("/cage/cash-today").text)
    assert ('<td data-label="Patron">Alice Liddell</td><td data-label="Player">alice</td> '
            '<td data-label="Cash in">$9,000.00 <strong>near</strong></td>') in everyone
    pages = [alice.get(p).text for p in ("/", "/lobby", "/tables/1", "/cashier", "/history")]
    view = room.table(1).snapshot(account(room, "alice"))
    for text in [*pages, json.dumps(view)]:
        shown = re.sub(r"<footer.*?</footer>", "", text, flags=re.S)
        assert not COMPLIANCE_WORDS.search(shown)
    assert alice.get("/cage/cash-today", params={"player_name": "alice"}).status_code == 403
    assert alice.get("/compliance/mtl").status_code == 403


def test_the_officer_reads_the_log_and_the_reports_and_records_a_filing(room: Room) -> None:
    """31 CFR 1021.311 and 1021.410: with the identity on file the $12,000 sale completes and
    opens a report; the compliance officer (and the owner) read it, the log lists it with its
    running total; a filing before the day has ended is refused in one sentence; the cashier
    may not read these pages."""
    with room.storage.unit() as conn:
        grace = patrons.patron_of(conn, account(room, "alice").id)
        assert grace is not None
        cathy = account(room, "cathy")
        patrons.set_taxpayer_id(conn, cathy, grace.id, "123-45-6789", KEY)
        patrons.add_document(conn, cathy, grace.id, "passport", "P-1", "United States",
                             date(2033, 1, 1), KEY)
    cage, connie, olga = (logged_in(room, n) for n in ("cathy", "connie", "olga"))
    r = cage.post("/cage/sell", data={"player": "alice", "amount": "12000", "key": "s1"},
                  follow_redirects=False)
    assert "sold $12,000.00" in said(r)["message"]
    day = GamblingClock.from_env().day_of(datetime.now(UTC)).isoformat()
    log = connie.get("/compliance/mtl", params={"date": day})
    assert log.status_code == 200 and "Alice Liddell" in log.text and "$12,000.00" in log.text
    assert connie.get("/compliance/mtl.csv", params={"date": day}).text.count("\n") == 2
    listing = olga.get("/compliance/ctr").text
    assert "Alice Liddell" in listing and "pending" in listing
    form = connie.get("/compliance/ctr/1").text
    assert "123456789" not in form and "P1" not in form and "1980-05-04" in form
    r = connie.post("/compliance/ctr/1/file", data={"reference": "BSA-1"},
                    follow_redirects=False)
    assert said(r)["error"].startswith("This gaming day has not ended")
    assert cage.get("/compliance/ctr").status_code == 403
    assert 'id="menu-title31"' in olga.get("/lobby").text
    assert 'id="menu-title31"' not in cage.get("/lobby").text
