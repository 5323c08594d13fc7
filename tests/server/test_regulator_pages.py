"""The reports to the regulator as pages (issue 21): the monthly records (WAC 230-06-070) and the
quarterly license report (WAC 230-05-124) for the owner and the auditor, as page, CSV and JSON;
the cage's cash count at opening and its shortfall on the cage page (WAC 230-15-050)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage, make_engine, migrate
from cardroom.shoe import SeededRandom

from .forms import PW, cosigned, logged_in, said

CAST = (("olga", Role.OWNER), ("fred", Role.FLOOR), ("dan", Role.DEALER),
        ("cathy", Role.CASHIER), ("audrey", Role.AUDITOR))


@pytest.fixture
def room(tmp_path: Path) -> Room:
    engine = make_engine(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    migrate(engine)
    r = Room(Storage(engine), SeededRandom(3))
    r.start()
    with r.storage.unit() as conn:
        people = {n: create_account(conn, n, PW, role) for n, role in CAST}
    r.create_table(people["olga"], "Mini 1", "baccarat")
    return r


def test_wac_230_05_124_the_owner_reads_the_quarter_as_page_csv_and_json(room: Room) -> None:
    olga, cathy = logged_in(room, "olga"), logged_in(room, "cathy")
    assert 'id="regulator-link"' in olga.get("/reports/games").text
    assert 'id="regulator-link"' not in cathy.get("/reports/games").text
    page = olga.get("/reports/regulator/quarter?year=2023&quarter=2")
    assert page.status_code == 200
    assert "Quarterly license report" in page.text and "2023-07-31" in page.text
    assert "filed all the same" in page.text
    data = olga.get("/reports/regulator/quarter.json?year=2023&quarter=2").json()
    assert data["due"] == "2023-07-31" and data["total"]["ggr_cents"] == 0
    rows = list(csv.DictReader(io.StringIO(
        logged_in(room, "audrey").get("/reports/regulator/month.csv?month=2023-05").text)))
    assert rows[-1]["ggr_cents"] == "0" and rows[-1]["period"] == "2023-05"
    assert olga.get("/reports/regulator/month?month=2023-13").status_code == 400
    assert olga.get("/reports/regulator/week").status_code == 404
    assert cathy.get("/reports/regulator/month").status_code == 403


def test_wac_230_15_050_the_cage_counts_its_cash_and_sees_the_shortfall(room: Room) -> None:
    """Mini 1 open today under the 2025 figure: $2,000 a table, and $30,000 for a room with no
    receipts last year; a $100 count is flagged on the cage page and in the cage report."""
    cathy, fred = logged_in(room, "cathy"), logged_in(room, "fred")
    r = cosigned(room, fred.post("/floor/inventory/open", data={
        "table_id": "1", "counted": "0", "dealer": "dan"}, follow_redirects=False), "dan")
    assert said(r)["message"] == "signed and done: opener number 1: $0.00"
    page = cathy.get("/cage?do=cash-count").text
    assert "Required today: <strong>$32,000.00</strong>" in page and 'id="cash-count"' in page
    r = cathy.post("/cage/cash-count", data={"amount": "100"}, follow_redirects=False)
    assert said(r) == {"message": "the cash on hand at opening is recorded: $100.00"}
    page = cathy.get("/cage?do=cash-count").text
    assert "is $31,900.00 short of the $32,000.00 required (WAC 230-15-050)" in page
    assert 'id="cash-count"' not in page
    r = cathy.post("/cage/cash-count", data={"amount": "100"}, follow_redirects=False)
    assert "already counted" in said(r)["error"]
    report = cathy.get("/reports/cage")
    assert "$31,900.00 short" in report.text
    assert cathy.get("/reports/cage.json").json()["cash_on_hand"]["shortfall_cents"] == 3_190_000
