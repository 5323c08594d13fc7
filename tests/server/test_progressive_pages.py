"""The progressive controller on the jackpot page (docs/operations.md): the two-person settings
change, the pending top award verified by two people, the surveillance check of a win over
$3,000 and the payment, the chart of the meter (SVG rendered on the server) and the report as
JSON and CSV; every refusal one sentence, changing nothing. On SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
from datetime import date
from typing import Any

from room.jackpot_winners import identify_winner
from room.people import person
from room.rooms import playing_table, rig_top_award

from cardroom.room.books.cashier import buy_chips
from cardroom.room.money.jackpot import adjust, post_daily
from cardroom.room.people.accounts import Role
from cardroom.room.play import progressive
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.shoe import SeededRandom

from .forms import PW, cosigned, logged_in, said


def controller_room(storage: Storage) -> tuple[Room, dict[str, Any], int]:
    room = Room(storage, SeededRandom(3))
    room.start()
    with storage.unit() as conn:
        people = {n: person(conn, n, PW, r) for n, r in (
            ("olivia", Role.OWNER), ("fiona", Role.FLOOR), ("alice", Role.PLAYER),
            ("dan", Role.DEALER), ("audrey", Role.AUDITOR))}
        buy_chips(conn, SELF_SERVICE, people["alice"], 100_000, "k")
    t = playing_table(room, people["olivia"], "Mini 1", "baccarat").table_id
    return room, people, t


def settings_form(**changes: str) -> dict[str, str]:
    return {"pool": "super9", "seed": "2500", "contribution": "22", "reserve_rate": "2",
            "reserve_limit": "500", "reason": "new layout", "second": "olivia", **changes}


def test_settings_change_by_two_people_from_the_page(storage: Storage) -> None:
    room, _, _ = controller_room(storage)
    fiona = logged_in(room, "fiona")
    r = fiona.post("/floor/jackpot/settings", data=settings_form(second="fiona"))
    assert r.status_code == 400 and "You cannot sign as the second approver as well" in r.text
    r = fiona.post("/floor/jackpot/settings", data=settings_form(contribution="15"))
    assert r.status_code == 400 and "at least 20 cents" in r.text
    r = fiona.post("/floor/jackpot/settings", data=settings_form(second="dan"))
    assert r.status_code == 403 and "dan is a dealer and may not sign as the second" in r.text
    r = fiona.post("/floor/jackpot/settings", data=settings_form(), follow_redirects=False)
    assert said(r)["message"].endswith("waiting for the signature of olivia on their own screen")
    assert room.pools["super9"].contribution_per_wager == 20  # nothing changed until she signs
    cosigned(room, r, "olivia")
    assert room.pools["super9"].contribution_per_wager == 22
    page = fiona.get("/floor/jackpot").text
    assert "fiona + olivia" in page and "new layout" in page
    assert "contribution 20 cents of each $1" in page  # before, in words
    assert "hidden limit $500.00" in page  # after
    player = logged_in(room, "alice")
    assert player.post("/floor/jackpot/settings", data=settings_form()).status_code == 403


def test_pending_top_award_verified_surveilled_and_paid_from_the_page(storage: Storage
                                                                      ) -> None:
    room, p, t = controller_room(storage)
    pool = room.pools["super9"]
    with storage.unit() as conn:  # a posted jackpot over $3,000
        adjust(conn, p["fiona"], p["olivia"], "super9", pool, 100_000, "grown", "g")
        post_daily(conn, p["fiona"], "super9", pool, date(2026, 11, 23))
    room.act(p["alice"], t, {"type": "sit", "buy_in": 10_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"banker": 500, "progressive": 100},
                             "key": "b"})
    rig_top_award(room, t)
    room.act(p["alice"], t, {"type": "deal"})
    with storage.read() as conn:
        [hit] = progressive.pending_hits(conn, "super9")
    fiona = logged_in(room, "fiona")
    page = fiona.get("/floor/jackpot").text
    assert "jackpot pending" in page and f"recall hand {hit.hand_id}" in page
    assert "surveillance check needed before payment" in page
    verify = f"/floor/jackpot/hits/{hit.id}/verify"
    r = fiona.post(verify, data={"note": "As 8s both", "second": "alice"})
    assert r.status_code == 400 and "no member of staff named" in r.text
    r = cosigned(room, fiona.post(verify, data={"note": "As 8s both", "second": "dan"},
                                  follow_redirects=False), "dan")
    assert said(r)["message"] == (f"signed and done: the top award of hand {hit.hand_id} is "
                                  "verified")
    r = fiona.post(f"/floor/jackpot/hits/{hit.id}/pay")
    assert r.status_code == 400 and "needs the surveillance check recorded" in r.text
    audrey = logged_in(room, "audrey")
    r = audrey.post(f"/floor/jackpot/hits/{hit.id}/surveillance",
                    data={"note": "camera 3 confirms the cards"}, follow_redirects=False)
    assert r.status_code == 303
    assert audrey.post(f"/floor/jackpot/hits/{hit.id}/pay").status_code == 403
    # a $3,500 share on a $1 wager needs a Form W-2G (compliance.md, "Taxes on jackpots"):
    # the page says what the cage must record and where, and the payment waits for it
    page = fiona.get("/floor/jackpot").text
    assert "before this award is paid the cage must record the taxpayer id of " \
        "Alice" in page and 'href="/cage#patrons"' in page
    assert f'action="/floor/jackpot/hits/{hit.id}/pay"' not in page
    r = fiona.post(f"/floor/jackpot/hits/{hit.id}/pay")
    assert r.status_code == 400 and "award needs a W-2G: before it is paid the cage" in r.text
    identify_winner(storage, p, "alice")
    assert f'action="/floor/jackpot/hits/{hit.id}/pay"' in fiona.get("/floor/jackpot").text
    wallet = room.wallet(p["alice"])
    r = fiona.post(f"/floor/jackpot/hits/{hit.id}/pay", follow_redirects=False)
    assert r.status_code == 303 and room.wallet(p["alice"]) == wallet + 350_000
    again = fiona.post(f"/floor/jackpot/hits/{hit.id}/pay")
    assert again.status_code == 400 and "already paid" in again.text
    assert room.wallet(p["alice"]) == wallet + 350_000
    page = fiona.get("/floor/jackpot").text
    assert "paid by fiona" in page and "Reconciled with the ledger" in page


def test_meter_chart_and_report_files(storage: Storage) -> None:
    room, p, t = controller_room(storage)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 10_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"banker": 500, "progressive": 100},
                             "key": "b"})
    room.act(p["alice"], t, {"type": "deal"})
    audrey = logged_in(room, "audrey")
    assert 'src="/floor/jackpot/meter.svg?pool=super9"' in audrey.get("/floor/jackpot").text
    svg = audrey.get("/floor/jackpot/meter.svg?pool=super9")
    assert svg.headers["content-type"] == "image/svg+xml" and "<svg" in svg.text
    assert "Jackpot meter, pool super9" in svg.text
    data = audrey.get("/floor/jackpot/report.json?pool=super9").json()
    assert data["pools"][0]["tables"][0]["contributed"] == 20
    rows = list(csv.DictReader(io.StringIO(audrey.get("/floor/jackpot/report.csv").text)))
    assert {"record": "coin_in", "table": "Mini 1", "cents": "100"}.items() <= \
        next(r for r in rows if r["record"] == "coin_in").items()
    r = audrey.get("/floor/jackpot?pool=nosuch")
    assert r.status_code == 404 and "There is no jackpot pool named nosuch in this room." in r.text
    assert logged_in(room, "alice").get("/floor/jackpot/report.json").status_code == 403


def test_linked_pool_is_posted_daily_and_on_its_tables_rules(storage: Storage) -> None:
    """Super-9: the jackpot "must be updated daily before opening the table for play" and
    conspicuously posted: every pool is posted, and a linked table posts its own pool."""
    room, p, _ = controller_room(storage)
    linked = playing_table(room, p["olivia"], "Mini A", "baccarat",
                               {"jackpot_pool": "floor-a"}).table_id
    with storage.unit() as conn:
        adjust(conn, p["fiona"], p["olivia"], "floor-a", room.pools["floor-a"], 12_345,
               "linked floor", "a")
    fiona = logged_in(room, "fiona")
    r = fiona.post("/floor/jackpot/post", follow_redirects=False)
    assert "$2,623.45 (floor-a), $2,500.00" in said(r)["message"]
    assert room.pools["floor-a"].posted == 262_345 and room.pools["super9"].posted == 250_000
    assert "$2,623.45" in fiona.get(f"/tables/{linked}/rules").text
    assert "floor-a" in fiona.get("/floor/jackpot?pool=floor-a").text
