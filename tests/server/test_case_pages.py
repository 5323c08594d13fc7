"""The suspicious-activity pages (issue 22, "Suspicious activity"; 31 CFR 1021.320): the
compliance officer reads the alerts, opens a case from them, adds to its narrative, links a
hand and records the decision; the owner, the cashier and the player are refused every page
and see no menu entry; and a player's whole day with a structuring pattern (the lobby, the
table page and every WebSocket message, the table view, the posted rules, the cashier,
the history and each hand's page, registration, and every refusal they meet) names no
threshold figure, alert, case or compliance word (31 CFR 1021.320(e): the patron is never
told). SQLite and PostgreSQL."""

from __future__ import annotations

import json
import re

import pytest
from room.cage_books import opened
from room.cash_days import NINE, identify, patron_for, sell, today

from cardroom.room.books import table_books
from cardroom.room.compliance import currency, suspicious
from cardroom.room.people.accounts import Account, Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.server.app import create_app

from .forms import PW, FormClient, cookie_of, logged_in, said

PLAYER_MUST_NOT_READ = re.compile(
    r"10,000|\$3,000\.00|\$5,000\.00|\$2,700|\$9,000\.00 left|threshold|currency transaction|"
    r"\bCTR\b|\bSAR\b|31 CFR|\b1021\b|\b1010\b|compliance|Title 31|suspicious|structur|\balerts?\b|"
    r"\bcases?\b|identity|report|multiple transaction|exclusion|flagged", re.IGNORECASE)
"""What a player must never read: a figure of the log floor, the report threshold or the
SAR's amount, or a word of the compliance program (a card club was fined for telling patrons
how close they were to $10,000: ../shared/reference/compliance.md)."""


SHOWN_ATTRIBUTES = re.compile(r'\b(?:title|aria-label|placeholder|alt|value|content)="([^"]*)"')


def visible(text: str) -> str:
    """What a person reads of a page: its text and the attributes a browser shows or speaks
    (not its markup: `role="alert"` is an instruction to a screen reader, not a word on the
    page, nor a hidden field's value); a table message (JSON) as it is."""
    text = re.sub(r"<footer.*?</footer>", "", text, flags=re.S)
    text = re.sub(r'<input type="hidden"[^>]*>', "", text)
    shown = " ".join(SHOWN_ATTRIBUTES.findall(text))
    return re.sub(r"<[^>]*>", " ", text) + " " + shown


def staffed(storage: Storage) -> tuple[Room, dict[str, Account], int]:
    """The card room with Mini 1 open (tests/room/cage_books.py), and the compliance
    officer (connie) and the owner's log-in (olivia, as cast)."""
    room, p, t = opened(storage)
    with storage.unit() as conn:
        p["connie"] = create_account(conn, "connie", PW, Role.COMPLIANCE)
    return room, p, t


def test_the_officer_opens_a_case_from_an_alert_and_decides_it(storage: Storage) -> None:
    """31 CFR 1021.320(b)(3): two $2,900 buys raise a structuring alert; from its box the
    officer opens a case (due 30 days later), adds a note, links a transaction and records it
    not filed with the reasons; the owner and the cashier get a refusal on every page and no
    "Cases" menu entry; the cashier flags a player by hand from the cage page (a player may
    not) and the officer reads it among the alerts."""
    room, p, _ = staffed(storage)
    patron_for(room, p, identity=True)
    sell(room, p, 290_000, "s1")
    sell(room, p, 290_000, "s2")
    connie, olivia, cathy = (logged_in(room, n) for n in ("connie", "olivia", "cathy"))
    listing = connie.get("/compliance/alerts")
    assert listing.status_code == 200 and "2 cash buys just under the log floor" in listing.text
    assert 'id="menu-cases"' in listing.text
    r = connie.post("/compliance/cases/open", data={"alert": "1", "narrative": "Two buys."},
                    follow_redirects=False)
    assert said(r)["message"].startswith("case 1 is open, due ")
    r = connie.post("/compliance/cases/open", data={"narrative": " "}, follow_redirects=False)
    assert said(r)["error"] == "Write the narrative."
    cases = connie.get("/compliance/cases").text
    assert "<td>Alice</td>" in cases and "1 alerts, 2 transactions" in cases
    r = connie.post("/compliance/cases/1/note", data={"text": "No ID was asked."},
                    follow_redirects=False)
    assert said(r)["message"] == "the narrative is added"
    r = connie.post("/compliance/cases/1/evidence", data={"kind": "hand", "ref": "77"},
                    follow_redirects=False)
    assert said(r)["error"] == "There is no hand number 77."
    r = connie.post("/compliance/cases/1/decide", data={
        "decision": "not-filed", "text": "A regular; the buys were one evening of play."},
        follow_redirects=False)
    assert said(r)["message"] == "the case is decided: not filed"
    page = re.sub(r"\s+", " ", connie.get("/compliance/cases/1").text)
    assert "No ID was asked." in page and "$2,900.00" in page
    assert "A regular; the buys were one evening of play." in page
    assert 'id="case-decide"' not in page
    for who in (olivia, cathy):
        for path in ("/compliance/alerts", "/compliance/cases", "/compliance/cases/1"):
            assert who.get(path).status_code == 403, path
        assert who.post("/compliance/cases/1/note", data={"text": "x"}).status_code == 403
        assert 'id="menu-cases"' not in who.get("/lobby").text
    with storage.read() as conn:
        [case] = suspicious.cases(conn, p["connie"])
    assert [e.text for e in case.narrative] == ["Two buys.", "No ID was asked."]
    assert 'id="flag"' in cathy.get("/cage?do=flag").text
    r = cathy.post("/cage/flag", data={"player_name": "alice", "note": "Paid for bob too."},
                   follow_redirects=False)
    assert said(r)["message"] == "your note is with the compliance officer"
    assert logged_in(room, "alice").post("/cage/flag", data={
        "player_name": "bob", "note": "x"}).status_code == 403
    flagged = connie.get("/compliance/alerts").text
    assert "flagged by staff" in flagged and "flagged by cathy: Paid for bob too." in flagged


def test_a_players_day_of_structuring_shows_them_nothing_of_it(storage: Storage) -> None:
    """31 CFR 1021.320(e) and the fined card club of the digest: alice (patron, identity not
    on file) buys $9,000 at the cage, plays at Mini 1 over the WebSocket, is held at the table
    when the dealer takes $9,000 more, is identified, buys it, keeps playing, meets a refused
    bet, cashes out: a structuring alert and a case are open. Nothing she can open or receive
    all day names a threshold figure, an alert, a case or a compliance word: the pages (lobby,
    table, posted rules, cashier, history, each hand), every table message, her table view,
    the registration page and its refusal, and the refusals of the staff pages she tries."""
    room, p, t = staffed(storage)
    pid = patron_for(room, p)
    alice = logged_in(room, "alice")
    seen: list[str] = []
    refused: list[str] = []

    def look(*paths: str) -> None:
        for path in paths:
            r = alice.get(path)
            seen.append(r.text)
            if r.status_code == 403:
                refused.append(path)

    sell(room, p, NINE, "s1")
    look("/", "/lobby", f"/tables/{t}", f"/tables/{t}/rules", "/cashier", "/history")
    with FormClient(create_app(room)) as sockets, sockets.websocket_connect(
            f"/ws/tables/{t}", headers=cookie_of(alice)) as ws:
        def act(message: dict[str, object]) -> None:
            ws.send_json(message)
            seen.append(json.dumps(ws.receive_json()))

        seen.append(json.dumps(ws.receive_json()))
        act({"type": "sit", "buy_in": 50_000, "key": "sit"})
        for i in range(2):
            act({"type": "bet", "bets": {"banker": 2_500}, "key": f"b{i}"})
            act({"type": "deal"})
        with pytest.raises(currency.IdentityRequired) as held:
            room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
                c, p["dan"], t, p["alice"], NINE, "d1"))
        seen.append(held.value.player_sentence)
        identify(room, p, pid)
        room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
            c, p["dan"], t, p["alice"], NINE, "d1"))
        act({"type": "bet", "bets": {"banker": 999_999}, "key": "too-much"})
        act({"type": "bet", "bets": {"player": 2_500}, "key": "b9"})
        act({"type": "deal"})
        act({"type": "leave", "key": "out"})
    seen.append(json.dumps(room.table(t).snapshot(p["alice"])))
    with storage.unit() as conn:
        [alert] = suspicious.alerts(conn, p["connie"], day=today())
        suspicious.open_case(conn, p["connie"], "Two $9,000 buys.", alert_ids=[alert.id])
    assert alert.kind == "structuring"
    hand_ids = [h["id"] for h in room.history(p["alice"]).rows]
    assert len(hand_ids) == 3
    look("/", "/lobby", f"/tables/{t}", "/cashier", "/history",
         *(f"/hands/{h}" for h in hand_ids), "/compliance/alerts", "/compliance/cases",
         "/compliance/cases/1", "/compliance/ctr", "/cage/cash-today", "/no-such-page")
    stranger = FormClient(create_app(room))
    seen.append(stranger.get("/register").text)
    seen.append(stranger.post("/register", data={"username": "x", "password": "short"}).text)
    assert any('"error"' in s for s in seen), "the refused bet's message was read"
    assert refused == ["/compliance/alerts", "/compliance/cases", "/compliance/cases/1",
                       "/compliance/ctr", "/cage/cash-today"]
    for text in seen:
        text = visible(text)
        found = PLAYER_MUST_NOT_READ.search(text)
        assert found is None, " ".join(text[max(0, found.start() - 160):found.end() + 40].split())
