"""Second signatures on the signer's own session (issue 23, "Co-signers type their passwords on
the initiator's screen"; docs/security.md, "Second signatures"). WAC 230-15-495 and -535: the
floor and the dealer both sign the opener and the closer; -510 to -530: a fill or credit slip is
signed by the cashier, the dealer and the floor; -615: the count is recorded by two counters.
Each signer reads what they sign and accepts it logged in as themselves; nothing moves until
the last one does, then all of it in one transaction, audited with every name. On SQLite and
PostgreSQL."""

from __future__ import annotations

import re

from sqlalchemy import update

from cardroom.room.books import table_books
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import approvals
from cardroom.shoe import SeededRandom

from .forms import PW, FormClient, cosigned, logged_in, said

CAST = (("olga", Role.OWNER), ("fred", Role.FLOOR), ("dan", Role.DEALER),
        ("dora", Role.DEALER), ("cathy", Role.CASHIER), ("alice", Role.PLAYER))


def staffed(storage: Storage) -> Room:
    room = Room(storage, SeededRandom(3))
    room.start()
    with storage.unit() as conn:
        people = {n: create_account(conn, n, PW, role) for n, role in CAST}
    room.create_table(people["olga"], "Mini 1", "baccarat")
    return room


def opened(room: Room, fred: FormClient) -> None:
    r = cosigned(room, fred.post("/floor/inventory/open", data={
        "table_id": "1", "counted": "0", "dealer": "dan"}, follow_redirects=False), "dan")
    assert said(r)["message"] == "signed and done: opener number 1: $0.00"


def tray(room: Room) -> int:
    with room.storage.read() as conn:
        return ledger.balance(conn, ledger.tray(1))


def words(page: str) -> str:
    """A page's text without its tags."""
    return re.sub(r"<[^>]+>", "", page)


def menu_count(client: FormClient) -> str:
    found = re.search(r'id="menu-signatures"[^>]*>Signatures(?: <span class="count"[^>]*>'
                      r'(\d+)</span>)?', client.get("/signatures").text)
    assert found, "no Signatures item in the menu"
    return found.group(1) or "0"


def test_wac_230_15_510_a_fill_waits_for_the_dealer_and_the_floor_on_their_own_screens(
        storage: Storage) -> None:
    """Cathy asks for a $500 fill naming Dan and Fred: both see it waiting (the menu counts
    it), with the table, the amount and who asked; Cathy sees it pending. Dan's acceptance
    alone moves nothing; Fred's writes the slip and moves the chips, audited with the three
    names."""
    room = staffed(storage)
    cathy, fred, dan = (logged_in(room, n) for n in ("cathy", "fred", "dan"))
    opened(room, fred)
    r = cathy.post("/cage/fill", data={"table_id": "1", "amount": "500", "dealer": "dan",
                                       "floor": "fred"}, follow_redirects=False)
    assert said(r) == {"message": "fill slip: $500.00 to Mini 1: waiting for the signature of "
                                  "dan and fred on their own screen"}
    assert (menu_count(dan), menu_count(fred), menu_count(cathy)) == ("1", "1", "0")
    page = dan.get("/signatures").text
    assert "fill slip: $500.00 to Mini 1" in page and "Asked by cathy" in page
    assert "you sign as the dealer, with fred (floor supervisor: not yet)" in page
    mine = cathy.get("/signatures").text
    assert "pending" in mine and "waiting for dan and fred" in mine and "withdraw-" in mine
    [number] = re.findall(r'id="accept-(\d+)"', page)
    r = dan.post(f"/signatures/{number}/accept", follow_redirects=False)
    assert said(r) == {"message": "signed: fill slip: $500.00 to Mini 1; waiting for fred"}
    assert tray(room) == 0 and menu_count(dan) == "0"
    r = fred.post(f"/signatures/{number}/accept", follow_redirects=False)
    assert said(r) == {"message": "signed and done: fill slip number 1: $500.00"}
    assert tray(room) == 50_000
    assert "done" in cathy.get("/signatures").text
    with room.storage.read() as conn:
        entries = list(audit.entries(conn))
    [done] = [e for e in entries if e.action == "approval.done" and e.data["kind"] == "fill"]
    assert done.actor == "fred" and done.data["asked_by"] == "cathy"
    assert done.data["signers"] == {"dealer": "dan", "floor": "fred"}
    [slip] = [e for e in entries if e.action == "slip.fill"]
    assert (slip.data["cashier"], slip.data["dealer"], slip.data["floor"]) == \
        ("cathy", "dan", "fred")


def test_wac_230_15_495_a_declined_opener_is_never_signed(storage: Storage) -> None:
    """The dealer declines the floor's opener: it is closed, the table stays closed, and no
    one can sign it afterwards; only a named signer may accept."""
    room = staffed(storage)
    fred, dan, dora = (logged_in(room, n) for n in ("fred", "dan", "dora"))
    fred.post("/floor/inventory/open", data={"table_id": "1", "counted": "0", "dealer": "dan"},
              follow_redirects=False)
    [number] = re.findall(r'id="accept-(\d+)"', dan.get("/signatures").text)
    r = dora.post(f"/signatures/{number}/accept", follow_redirects=False)
    assert said(r) == {"error": "refused: this request does not ask for your signature"}
    r = dan.post(f"/signatures/{number}/decline", data={"reason": "the tray holds $5"},
                 follow_redirects=False)
    assert said(r) == {"message": f"request {number} declined: nothing was signed"}
    r = dan.post(f"/signatures/{number}/accept", follow_redirects=False)
    assert said(r) == {"error": "this request is declined: nothing was signed"}
    assert "declined by dan: the tray holds $5" in words(fred.get("/signatures").text)
    with room.storage.read() as conn:
        assert table_books.current_opener(conn, 1) is None


def test_wac_230_15_615_a_count_withdrawn_or_expired_is_not_signed(storage: Storage) -> None:
    """The second counter's signature lapses after the set time; the first counter may
    withdraw a request (no one else may); either way nothing is counted."""
    room = staffed(storage)
    cathy, olga, fred = (logged_in(room, n) for n in ("cathy", "olga", "fred"))
    opened(room, fred)
    count = {"table_id": "1", "day": "2026-11-23", "cash": "0", "second": "olga"}
    cathy.post("/cage/count", data=count, follow_redirects=False)
    [first] = re.findall(r'id="accept-(\d+)"', olga.get("/signatures").text)
    r = olga.post(f"/signatures/{first}/withdraw", follow_redirects=False)
    assert said(r) == {"error": "refused: only the person who asked may withdraw a request"}
    r = cathy.post(f"/signatures/{first}/withdraw", follow_redirects=False)
    assert said(r) == {"message": f"request {first} withdrawn: nothing was signed"}
    cathy.post("/cage/count", data=count, follow_redirects=False)
    [second] = re.findall(r'id="accept-(\d+)"', olga.get("/signatures").text)
    with room.storage.unit() as conn:
        conn.execute(update(approvals).where(approvals.c.id == int(second))
                     .values(expires_at=approvals.c.created_at))
    assert "Nothing waits for your signature" in olga.get("/signatures").text
    r = olga.post(f"/signatures/{second}/accept", follow_redirects=False)
    assert said(r) == {"error": "this request is expired: nothing was signed"}
    with room.storage.read() as conn:
        assert not [e for e in audit.entries(conn) if e.action == "drop.count"]


def test_no_form_asks_for_another_persons_password_and_players_sign_nothing(
        storage: Storage) -> None:
    room = staffed(storage)
    olga = logged_in(room, "olga")
    for page in ("/cage", "/floor/inventory", "/floor/jackpot"):
        text = olga.get(page).text
        assert 'type="password"' not in text, page
    r = logged_in(room, "alice").get("/signatures")
    assert r.status_code == 403 and "signatures are given by members of staff" in r.text
