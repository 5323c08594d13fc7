"""The cage, table inventory, report and staff pages (docs/operations.md): forms posted as a
browser does, co-signers accepting on their own sessions (issue 23), refusals as one sentence
(audited, nothing changed), the reports as page, CSV and JSON, the hold chart as SVG."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from room.people import IDENTITY_KEY, person
from room.storage_fixture import migrated_engine
from sqlalchemy.engine import Connection

from cardroom.room.money import ledger
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.server import flash
from cardroom.shoe import SeededRandom

from .forms import PW, cosigned, logged_in, said

CAST = (("olga", Role.OWNER), ("fred", Role.FLOOR), ("dan", Role.DEALER),
        ("cathy", Role.CASHIER), ("alice", Role.PLAYER), ("audrey", Role.AUDITOR),
        ("connie", Role.COMPLIANCE))


@pytest.fixture
def room(tmp_path: Path) -> Room:
    """SQLite: the pages' storage is the room layer's, tested on both databases."""
    engine = migrated_engine(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    r = Room(Storage(engine), SeededRandom(3), identity=IDENTITY_KEY)
    r.start()
    with r.storage.unit() as conn:
        people = {n: person(conn, n, PW, role) for n, role in CAST}
    r.create_table(people["olga"], "Mini 1", "baccarat")
    return r


def refusals(room: Room) -> list[str]:
    with room.storage.read() as conn:
        return [e.data["reason"] for e in audit.entries(conn) if e.action == "refused"]


def test_the_cashier_sells_and_the_floor_opens_fills_and_closes(room: Room) -> None:
    cathy, fred = logged_in(room, "cathy"), logged_in(room, "fred")
    assert "Sell chips" in cathy.get("/cage").text
    r = cathy.post("/cage/sell", data={"player": "alice", "amount": "250", "key": "s1"},
                   follow_redirects=False)
    assert said(r) == {"message": "sold $250.00 of chips to alice (cash)"}
    r = fred.post("/floor/inventory/open", data={"table_id": "1", "counted": "0",
                                                 "dealer": "dan"}, follow_redirects=False)
    assert said(r)["message"] == ("opener of Mini 1: counted $0.00: waiting for the signature "
                                  "of dan on their own screen")
    assert said(cosigned(room, r, "dan"))["message"] == ("signed and done: opener number 1: "
                                                         "$0.00")
    fill = {"table_id": "1", "amount": "1,000", "dealer": "dan", "floor": "fred",
            "number": "1"}
    r = cosigned(room, cathy.post("/cage/fill", data=fill, follow_redirects=False), "dan", fred)
    assert said(r) == {"message": "signed and done: fill slip number 1: $1,000.00"}
    with room.storage.read() as conn:
        assert ledger.balance(conn, ledger.tray(1)) == 100_000
    assert "No notification of error" in fred.get("/floor").text
    # issue 23: a closing count short of the books is recorded on the closer, not refused
    r = cosigned(room, fred.post("/floor/inventory/close", data={
        "table_id": "1", "counted": "995", "dealer": "dan"}, follow_redirects=False), "dan")
    assert said(r)["message"] == (
        "signed and done: closer number 2: $995.00; notification of error number 1: Mini 1: "
        "the closing count $995.00 is $5.00 short of the books ($1,000.00); recorded on the "
        "closer signed by dan and fred, reported to the shift manager")
    page = fred.get("/floor/inventory").text
    assert "closed" in page and "$5.00 short of the books" in fred.get("/floor").text


def test_a_cosigner_who_may_not_sign_or_signs_twice_is_refused(room: Room) -> None:
    """WAC 230-15-510 to -530: the slip is signed by the cashier, a dealer and a floor
    supervisor, three people; a request naming the wrong people is refused when asked."""
    cathy, fred = logged_in(room, "cathy"), logged_in(room, "fred")
    cosigned(room, fred.post("/floor/inventory/open", data={
        "table_id": "1", "counted": "0", "dealer": "dan"}, follow_redirects=False), "dan")
    base = {"table_id": "1", "amount": "10", "dealer": "dan", "floor": "fred"}
    r = cathy.post("/cage/fill", data={**base, "dealer": "alice"}, follow_redirects=False)
    assert said(r)["error"] == "there is no member of staff named 'alice' to sign as the dealer"
    r = cathy.post("/cage/fill", data={**base, "dealer": "fred"}, follow_redirects=False)
    assert said(r)["error"] == ("the dealer and the floor supervisor must be two different "
                                "people: fred cannot sign twice")
    r = cathy.post("/cage/fill", data={**base, "dealer": "cathy"}, follow_redirects=False)
    assert said(r)["error"] == ("you cannot sign as the dealer as well: name another person, "
                                "who accepts it on their own screen")
    r = cathy.post("/cage/fill", data={**base, "amount": "-5"}, follow_redirects=False)
    assert "bad amount" in said(r)["error"]
    with room.storage.read() as conn:
        assert ledger.balance(conn, ledger.tray(1)) == 0
    assert refusals(room)[-4:] == [
        "there is no member of staff named 'alice' to sign as the dealer",
        "the dealer and the floor supervisor must be two different people: fred cannot sign "
        "twice",
        "you cannot sign as the dealer as well: name another person, who accepts it on their "
        "own screen",
        "bad amount '-5': use dollars and cents, e.g. 25 or 12.50"]


def test_a_player_may_not_use_the_cage_and_buys_no_chips_alone(room: Room) -> None:
    alice = logged_in(room, "alice")
    r = alice.get("/cage")
    assert r.status_code == 403 and "may not run the cage" in r.text
    assert "Buy chips and cash them in at the cage" in alice.get("/cashier").text
    r = alice.post("/cashier/buy", data={"amount": "5", "key": "k"})
    assert r.status_code == 403 and "at the cage (the cashier)" in r.text
    with room.storage.read() as conn:
        assert ledger.balances(conn, "wallet:") == {}


def test_reports_as_page_csv_json_and_chart(room: Room) -> None:
    fred, audrey = logged_in(room, "fred"), logged_in(room, "audrey")
    cosigned(room, fred.post("/floor/inventory/open", data={
        "table_id": "1", "counted": "0", "dealer": "dan"}, follow_redirects=False), "dan")
    cosigned(room, fred.post("/floor/inventory/close", data={
        "table_id": "1", "counted": "0", "dealer": "dan"}, follow_redirects=False), "dan")
    page = audrey.get("/reports/games")
    assert page.status_code == 200 and "Mini 1" in page.text and "hold.svg" in page.text
    day = page.text.split('id="report-date" value="')[1][:10]
    rows = list(csv.DictReader(io.StringIO(audrey.get(f"/reports/games.csv?date={day}").text)))
    assert [r["table"] for r in rows] == ["Mini 1", "Mini 1", "room"]
    assert rows[-1]["win_cents"] == "0" and "drop_cents" in rows[0]  # issue 23: units named
    data = audrey.get(f"/reports/games.json?date={day}").json()
    assert data["tables"][0]["win"] == 0 and data["reconciled"]
    chart = audrey.get(f"/reports/hold.svg?date={day}")
    assert chart.headers["content-type"] == "image/svg+xml" and "<svg" in chart.text[:200]
    bad = audrey.get("/reports/games?date=yesterday")
    assert bad.status_code == 400
    assert "&#39;yesterday&#39; is not a gambling day: write it as YYYY-MM-DD" in bad.text
    slips = audrey.get("/reports/slips.json").json()
    assert [s["kind"] for s in slips["slips"]] == ["opener", "closer"] and slips["complete"]
    assert audrey.get("/reports/cage.json").json()["reconciled"]
    assert logged_in(room, "alice").get("/reports/games").status_code == 403


def test_the_room_wide_check_on_the_reports_pages(room: Room) -> None:
    """Issue 23, "Reconciled must mean every cent": the games report says whether every ledger
    movement of the day is explained, and `/reports/reconcile` (page, JSON, CSV) lists each
    one no report explains."""
    audrey = logged_in(room, "audrey")
    page = audrey.get("/reports/games").text
    assert "every ledger movement of the day is explained by a report" in page
    day = page.split('id="report-date" value="')[1][:10]
    assert audrey.get(f"/reports/reconcile.json?date={day}").json()["reconciled"]
    with room.storage.unit() as conn:
        ledger.post(conn, "quiet", "mystery", [(ledger.tray(1), -2_500),
                                                (ledger.HOUSE_BANK, 2_500)], actor="nobody")
    assert "<strong>NO</strong>: 1 ledger movement no report explains" in audrey.get(
        f"/reports/games?date={day}").text
    check = audrey.get(f"/reports/reconcile?date={day}").text
    assert "1 ledger movement that no report explains" in check
    assert "mystery by nobody: house:bank $25.00, tray:1 -$25.00" in check
    rows = list(csv.DictReader(io.StringIO(audrey.get(f"/reports/reconcile.csv?date={day}").text)))
    assert sorted((r["kind"], r["account"], r["amount_cents"]) for r in rows) == [
        ("mystery", "house:bank", "2500"), ("mystery", "tray:1", "-2500")]
    assert logged_in(room, "alice").get("/reports/reconcile").status_code == 403


def test_the_staff_page_changes_roles_and_locks_out(room: Room) -> None:
    olga = logged_in(room, "olga")
    assert "dan" in olga.get("/staff").text
    r = olga.post("/staff/role", data={"username": "dan", "role": "floor"},
                  follow_redirects=False)
    assert said(r) == {"message": "dan is now a floor"}
    r = olga.post("/staff/lock", data={"username": "dan", "reason": "left"},
                  follow_redirects=False)
    assert said(r) == {"message": "dan is locked out"}
    assert "locked out" in olga.get("/staff").text
    r = olga.post("/staff/lock", data={"username": "olga", "reason": "x"},
                  follow_redirects=False)
    assert said(r) == {"error": "you cannot lock yourself out"}
    assert logged_in(room, "fred").get("/staff").status_code == 403


@pytest.mark.parametrize("flag", [[], ["--self-service-chips"]])
def test_serve_self_service_chips_is_off_unless_asked_for(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, flag: list[str]) -> None:
    """`cardroom serve --self-service-chips` (demonstration rooms) keeps the players' own
    cashier; without it the room sells chips only at the cage."""
    import uvicorn
    from typer.testing import CliRunner

    from cardroom.cli import app as cli

    served: dict[str, object] = {}
    monkeypatch.setattr(uvicorn.Server, "run",
                        lambda server, sockets=None: served.update(app=server.config.app))
    monkeypatch.setattr("cardroom.cli.room.listen", lambda host, port: None)
    result = CliRunner().invoke(cli, ["serve", *flag, "--database",
                                      str(tmp_path / "room.sqlite3")])
    assert result.exit_code == 0, result.output
    room = served["app"].state.room  # type: ignore[attr-defined]
    assert room.settings.self_service_chips is bool(flag)


def test_inventories_and_slips_show_room_time_and_the_game_s_name(
        room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 20: every page speaks the room's clock (room/storage/timezone.py) and the table
    layout's
    words: an open inventory's time, the slips report, no "UTC" and no "baccarat" id."""
    monkeypatch.setenv("CARDROOM_TIMEZONE", "America/Los_Angeles")
    fred = logged_in(room, "fred")
    cosigned(room, fred.post("/floor/inventory/open", data={
        "table_id": "1", "counted": "0", "dealer": "dan"}, follow_redirects=False), "dan")
    for page in (fred.get("/floor/inventory").text, logged_in(room, "olga").get(
            "/reports/slips").text):
        assert "UTC" not in page
        assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d P[SD]T", page), page
    assert '<td data-label="Game">Mini-Baccarat</td>' in fred.get("/floor/inventory").text


def test_tenders_on_the_pages_a_check_its_return_and_no_marker(room: Room) -> None:
    """WAC 230-06-035: the table's buy-in form refuses a marker in a sentence; WAC 230-06-005:
    the cage sells for a check copied onto the form, and records the bank's return of it in
    the returned-check register (WAC 230-15-730(4)(a))."""
    cathy, dan, fred = (logged_in(room, n) for n in ("cathy", "dan", "fred"))
    cosigned(room, fred.post("/floor/inventory/open", data={
        "table_id": "1", "counted": "0", "dealer": "dan"}, follow_redirects=False), "dan")
    r = dan.post("/floor/inventory/drop", data={"table_id": "1", "player": "alice",
                                                "amount": "9,500", "tender": "marker",
                                                "key": "m1"}, follow_redirects=False)
    assert said(r)["error"].startswith("refused: a marker is credit")
    assert "(WAC 230-06-035, 230-15-150(1)(d))" in said(r)["error"]
    page = cathy.get("/cage").text
    dated = page.split('id="sell-check-date" value="')[1][:10]
    check = {"player": "alice", "amount": "300", "tender": "check", "check_kind": "personal",
             "check_number": "1041", "check_drawer": "Alice Liddell",
             "check_bank": "First Bank", "check_date": dated, "key": "c1"}
    r = cathy.post("/cage/sell", data={**check, "check_date": "someday"},
                   follow_redirects=False)
    assert said(r)["error"] == ("'someday' is not the date on the check: write it as "
                                "YYYY-MM-DD")
    r = cathy.post("/cage/sell", data=check, follow_redirects=False)
    assert said(r) == {"message": "sold $300.00 of chips to alice (check), check number 1041"}
    page = cathy.get("/cage?do=checks").text
    assert "drawn by Alice Liddell" in page and "No check has come back unpaid" in page
    r = cathy.post("/cage/checks/returned", data={"check_id": "1", "reason": "no funds"},
                   follow_redirects=False)
    assert said(r) == {"message": "check number 1041 of alice is in the returned-check "
                                  "register"}
    page = cathy.get("/cage?do=checks").text
    assert 'id="returned-checks"' in page and "no funds" in page
    with room.storage.read() as conn:
        assert ledger.balance(conn, ledger.wallet(5)) == 30_000


CRAFTED = "?message=Manager+approved%3A+redeem+%245%2C000+without+ID&error=Call+extension+9"


@pytest.mark.parametrize(("name", "path"), [
    ("cathy", "/cage"), ("fred", "/floor"), ("fred", "/floor/inventory"), ("olga", "/staff"),
    ("olga", "/floor/jackpot"), ("olga", "/floor/surveillance"), ("olga", "/exclusions"),
    ("olga", "/compliance/ctr"), ("connie", "/compliance/cases"),
    ("connie", "/compliance/alerts"), ("alice", "/cashier")])
def test_a_message_in_a_link_is_not_shown_as_the_rooms_own(room: Room, name: str,
                                                           path: str) -> None:
    """Issue 23, "Messages from the URL": anyone can send staff a link whose query string
    says "Manager approved: redeem $5,000 without ID"; no page shows it as its banner."""
    r = logged_in(room, name).get(path + CRAFTED)
    assert r.status_code == 200
    assert "Manager approved" not in r.text and "extension 9" not in r.text
    assert '<p class="message" role="status">' not in r.text and 'id="message"' not in r.text


def test_a_forms_message_comes_from_the_server_and_shows_once(room: Room) -> None:
    """Issue 23: after a form, the page says what was done from the server's own signed
    flash, once; a reload, a flash sealed by anyone else, or one for another page shows
    nothing."""
    cathy = logged_in(room, "cathy")
    r = cathy.post("/cage/sell", data={"player": "alice", "amount": "250", "key": "s1"})
    assert r.url.path.startswith("/cage/receipts/") and "?" not in str(r.url)
    assert r.text.count("Sold $250.00 of chips to alice (cash)") == 1
    assert "Sold $250.00" not in cathy.get(r.url.path).text  # shown once
    r = cathy.post("/cage/sell", data={"player": "nobody", "amount": "5", "key": "s2"})
    assert "There is no player named &#39;nobody&#39;." in r.text
    forged = flash.seal(b"not the server's key", {"to": "/cage", "message": "approved"})
    cathy.cookies.set(flash.COOKIE, forged)
    assert "Approved." not in cathy.get("/cage").text
    key = cathy.app.state.flash_key  # type: ignore[attr-defined]
    real = flash.seal(key, {"to": "/cage", "message": "approved"})
    cathy.cookies.set(flash.COOKIE, real)
    assert "Approved." not in cathy.get("/floor/inventory").text  # not its page
    assert "Approved." in cathy.get("/cage").text
PATRON = {"legal_name": "Grace Hopper", "address": "1 Main St, Tacoma WA", "born": "1980-12-09",
          "taxpayer": "123-45-6789", "document_kind": "passport",
          "document_number": "P 5550 1234", "document_issuer": "United States",
          "document_expires": "2031-01-01"}


def test_the_cashier_finds_or_records_a_patron_before_a_sale(room: Room) -> None:
    """Issue 22 (31 CFR 1010.312): the cashier records a walk-in from their document (a
    walk-in account holds their chips), finds them by document number, name or date of
    birth, sells and redeems for them; a player who registered online is refused until linked
    to their patron. No number reaches the audit log or an address."""
    cathy = logged_in(room, "cathy")
    r = cathy.post("/cage/patrons", data=PATRON, follow_redirects=False)
    assert said(r)["message"] == "recorded the patron; their chips are held as walkin_2"
    assert 'value="walkin_2"' in cathy.get(r.headers["location"]).text
    for search in ({"q": "p5550-1234"}, {"q": "hopper"}, {"born": "1980-12-09"},
                   {"q": "walkin_2"}):
        page = cathy.post("/cage/find", data=search).text
        assert "Grace Hopper" in page and "identity on file" in page, search
        assert "5550" not in page and "6789" not in page
    assert 'id="no-patron"' in cathy.post("/cage/find", data={"q": "P 5550 1235"}).text
    r = cathy.post("/cage/sell", data={"player": "walkin_2", "amount": "100", "key": "w1"},
                   follow_redirects=False)
    assert said(r) == {"message": "sold $100.00 of chips to walkin_2 (cash)"}
    r = cathy.post("/cage/redeem", data={"player": "walkin_2", "amount": "40", "key": "w2"},
                   follow_redirects=False)
    assert said(r) == {"message": "redeemed $40.00 of chips for walkin_2"}
    with room.storage.unit() as conn:
        nora = player_without_patron(conn)
    r = cathy.post("/cage/sell", data={"player": nora, "amount": "100", "key": "n1"},
                   follow_redirects=False)
    assert said(r)["error"].startswith("Refused: the cage has not yet seen this player's")
    r = cathy.post("/cage/patrons/link", data={"patron_id": "2", "player": nora},
                   follow_redirects=False)
    assert said(r)["message"] == "nora is linked to the patron"
    r = cathy.post("/cage/sell", data={"player": nora, "amount": "100", "key": "n1"},
                   follow_redirects=False)
    assert said(r) == {"message": "sold $100.00 of chips to nora (cash)"}
    with room.storage.read() as conn:
        entries = list(audit.entries(conn))
    logged = " ".join(json.dumps(e.data) for e in entries)
    assert "patron.create" in [e.action for e in entries]
    assert "55501234" not in logged and "123456789" not in logged


def player_without_patron(conn: Connection) -> str:
    return create_account(conn, "nora", PW, Role.PLAYER).username


def test_an_under_age_patron_is_shown_and_refused(room: Room) -> None:
    """WAC 230-06-010: the search shows a patron under 18 as such, and the cage sells them
    nothing, in one sentence."""
    cathy = logged_in(room, "cathy")
    cathy.post("/cage/patrons", data={**PATRON, "born": "2015-01-01"})
    page = cathy.post("/cage/find", data={"q": "grace"}).text
    assert "under 18: no chips, no seat, no payment" in page
    r = cathy.post("/cage/sell", data={"player": "walkin_2", "amount": "100", "key": "k1"},
                   follow_redirects=False)
    assert said(r) == {"error": "Refused: nobody under 18 may be sold chips in this room."}
