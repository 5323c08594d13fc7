"""The cage as a cashier's window (issue 23, "The cage"): find the person, their day, one
transaction at a time, the receipt with its number after a sale or a redemption, the cashier's
drawer and the cage's latest movements; and the cage opening a player's account with their
identity (issue 23: "the cashier or the host can open player accounts")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from room.people import IDENTITY_KEY, person
from room.storage_fixture import migrated_engine

from cardroom.room.money import ledger
from cardroom.room.people.accounts import Role
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.shoe import SeededRandom

from .forms import PW, logged_in, said

COMPLIANCE_WORDS = ("identity", "report", "threshold", "ctr", "alert", "case", "title 31")


@pytest.fixture
def room(tmp_path: Path) -> Room:
    engine = migrated_engine(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    r = Room(Storage(engine), SeededRandom(3), identity=IDENTITY_KEY)
    r.start()
    with r.storage.unit() as conn:
        for name, role in (("olga", Role.OWNER), ("cathy", Role.CASHIER),
                           ("alice", Role.PLAYER)):
            person(conn, name, PW, role)
    return r


def receipt_of(page: str) -> str:
    """The receipt's own text (what is printed for the player), tags dropped."""
    article = page.split('<article class="panel receipt"')[1].split("</article>")[0]
    return " ".join(re.sub(r"<[^>]+>", " ", article).split())


def test_a_sale_and_a_redemption_each_give_a_numbered_receipt(room: Room) -> None:
    cathy = logged_in(room, "cathy")
    r = cathy.post("/cage/sell", data={"player": "alice", "amount": "250", "key": "s1"},
                   follow_redirects=False)
    assert said(r) == {"message": "sold $250.00 of chips to alice (cash)"}
    where = r.headers["location"]
    number = int(where.rsplit("/", 1)[1])
    with room.storage.read() as conn:  # the receipt's number is the sale's transaction
        assert ledger.balance(conn, ledger.wallet(3)) == 25_000
        sale = [e for e in audit.entries(conn) if e.action == "cage.sell"][-1]
    assert sale.data["tx"] == number
    text = receipt_of(cathy.get(where).text)
    assert f"receipt number {number}" in text
    for words in ("chips sold for cash", "Alice (alice)", "Cashier cathy", "Chips given $250.00"):
        assert words in text, words
    assert not [w for w in COMPLIANCE_WORDS if w in text.lower()]
    r = cathy.post("/cage/redeem", data={"player": "alice", "amount": "100", "key": "r1"},
                   follow_redirects=False)
    assert said(r) == {"message": "redeemed $100.00 of chips for alice"}
    page = cathy.get(r.headers["location"]).text
    assert "Cash paid $100.00" in receipt_of(page)
    # the drawer: $250 taken, $100 paid out; the latest movements link both receipts
    assert re.search(r'id="drawer-cash">\$150\.00<', page)
    assert f'href="/cage/receipts/{number}"' in page
    missing = cathy.get("/cage/receipts/999999")
    assert missing.status_code == 404 and "There is no receipt number 999999." in missing.text
    assert logged_in(room, "alice").get(where).status_code == 403


def test_the_person_found_and_their_day(room: Room) -> None:
    """Found by their account's name, the person's day shows their chips, what they bought
    and redeemed with each receipt, and, for the cage only, their cash against the report's
    threshold."""
    cathy = logged_in(room, "cathy")
    cathy.post("/cage/sell", data={"player": "alice", "amount": "300", "key": "s1"})
    cathy.post("/cage/redeem", data={"player": "alice", "amount": "120", "key": "r1"})
    page = cathy.post("/cage/find", data={"q": "ALICE"}).text
    day = page.split('id="person"')[1].split("</section>")[0]
    assert re.search(r'id="person-holds">\$180\.00<', day)
    assert re.search(r'id="person-bought">\$300\.00<', day)
    assert re.search(r'id="person-redeemed">\$120\.00<', day)
    assert day.count('href="/cage/receipts/') == 2
    assert "never tell the player a figure" in day and "$9,700.00 left" in day
    assert 'value="alice"' in page.split('id="sell"')[1]  # the sale is for them


@pytest.mark.parametrize("do", ["sell", "redeem", "fill", "credit", "count", "cash-count",
                                "checks", "patron", "cash-today", "flag"])
def test_one_transaction_at_a_time(room: Room, do: str) -> None:
    page = logged_in(room, "cathy").get(f"/cage?player=alice&do={do}").text
    assert f'id="do-{do}" href="/cage?player=alice&amp;do={do}" aria-current="page"' in page
    forms = set(re.findall(r'<form method="post" action="/cage/(sell|redeem|fill|credit|'
                           r'count|cash-count|patrons)"', page))
    expected = {"sell": {"sell"}, "redeem": {"redeem"}, "fill": {"fill"}, "credit": {"credit"},
                "count": {"count"}, "cash-count": {"cash-count"}, "patron": {"patrons"}}
    assert forms == expected.get(do, set())


def test_the_cage_opens_a_players_account_with_their_identity(room: Room) -> None:
    """Issue 23: the front desk opens accounts: the patron recorded from the document the
    cashier holds, and an account they log in with, linked to it at once (no back-off: staff
    are not the self-registration flood); a weak password or a name taken changes nothing."""
    cathy = logged_in(room, "cathy")
    patron = {"legal_name": "Grace Hopper", "address": "1 Main St, Tacoma WA",
              "born": "1980-12-09", "document_kind": "passport",
              "document_number": "P 5550 1234", "document_issuer": "United States",
              "document_expires": "2031-01-01", "username": "grace"}
    r = cathy.post("/cage/patrons", data={**patron, "password": "password123"},
                   follow_redirects=False)
    assert said(r)["error"].startswith("this password is too easy to guess")
    r = cathy.post("/cage/patrons", data={**patron, "password": PW, "player": "alice"},
                   follow_redirects=False)
    assert said(r)["error"] == ("name either the online player to link or a new username, "
                                "not both")
    with room.storage.read() as conn:
        assert not [e for e in audit.entries(conn)
                    if e.action == "patron.create" and e.actor == "cathy"]
    for n in range(4):  # more than self-registration's free count, from one address
        r = cathy.post("/cage/patrons", data={**patron, "username": f"grace{n}",
                                              "password": PW}, follow_redirects=False)
        assert said(r) == {"message": f"recorded the patron; they log in as grace{n}"}
    assert r.headers["location"] == "/cage?player=grace3"
    grace = logged_in(room, "grace0")
    assert grace.get("/lobby").status_code == 200
    r = cathy.post("/cage/sell", data={"player": "grace0", "amount": "50", "key": "g1"},
                   follow_redirects=False)
    assert said(r) == {"message": "sold $50.00 of chips to grace0 (cash)"}
    with room.storage.read() as conn:
        made = [e for e in audit.entries(conn) if e.action == "account.create"
                and e.data["username"] == "grace0"]
    assert made[0].actor == "cathy" and made[0].data["role"] == "player"
