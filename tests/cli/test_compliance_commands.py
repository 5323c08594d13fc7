"""`cardroom report mtl|ctr` and `cardroom compliance ctr-form|file-ctr|export` on a room's
books, through the installed console script (31 CFR 1021.311, 1021.410): the multiple
transaction log with running totals, the reports with their due dates (exit 1 when one is
overdue), the FinCEN form with the taxpayer id in clear only with the identity key, and the
examiner's export. SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from sqlalchemy import update

from cardroom.room.books import table_books
from cardroom.room.books.cashier import redeem_chips, sell_chips
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Role, create_account, find_account
from cardroom.room.people.patrons import NewDocument, NewPatron
from cardroom.room.room import Room
from cardroom.room.storage.identity_key import load_or_create_identity_key
from cardroom.room.storage.schema import compliance_cases, currency_reports
from cardroom.room.storage.settings import GamblingClock
from cardroom.room.trust.keying import open_keyed
from cardroom.shoe import SeededRandom

CARDROOM = Path(sys.executable).parent / "cardroom"
PW = "correct horse"


def cardroom(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CARDROOM), *args], capture_output=True, text=True, timeout=120,
                          check=False, env={**os.environ, "COLUMNS": "200"})


def books(db_url: str, tmp_path: Path) -> tuple[list[str], str]:
    """A day: Alice (identity on file) buys $6,000 at the cage and $5,000 at a table (a report
    opens: $11,000 cash in) and redeems $4,000; Bob buys $2,000 at the table (under the log's
    floor)."""
    audit_key, identity_key = tmp_path / "audit.key", tmp_path / "identity.key"
    key, _ = load_or_create_identity_key(identity_key)
    storage = open_keyed(db_url, audit_key)
    room = Room(storage, SeededRandom(1))
    room.start()
    with storage.unit() as conn:
        p = {n: create_account(conn, n, PW, r) for n, r in (
            ("olivia", Role.OWNER), ("fiona", Role.FLOOR), ("dan", Role.DEALER),
            ("cathy", Role.CASHIER), ("alice", Role.PLAYER), ("bob", Role.PLAYER))}
    t = room.create_table(p["olivia"], "Mini 1", "baccarat").table_id
    today = datetime.now(GamblingClock.from_env().zone).date()
    with storage.unit() as conn:
        grace = patrons.create(conn, p["cathy"], NewPatron(
            "Alice Liddell", "2 Rabbit Hole, Tacoma WA", date(1980, 5, 4), "123-45-6789",
            (NewDocument("passport", "P-55501", "United States", date(2032, 1, 1)),)),
            key, today)
        patrons.link_account(conn, p["cathy"], p["alice"].id, grace.id)
        table_books.open_table(conn, t, p["dan"], p["fiona"], 0)
        sell_chips(conn, p["cathy"], p["alice"], 600_000, "s1")
        table_books.drop_buy_in(conn, p["dan"], t, p["alice"], 500_000, "d1")
        redeem_chips(conn, p["cathy"], p["alice"], 400_000, "r1")
        table_books.drop_buy_in(conn, p["dan"], t, p["bob"], 200_000, "d2")
    storage.engine.dispose()
    day = GamblingClock.from_env().day_of(datetime.now(UTC)).isoformat()
    return ["--database", db_url, "--audit-key-file", str(audit_key)], day


def test_report_mtl_and_ctr_and_overdue_exit_1(db_url: str, tmp_path: Path) -> None:
    """31 CFR 1021.311 and 1010.306(a)(1): the log lists the $6,000, $5,000 and $4,000 with
    running totals ($6,000 and $11,000 in, $4,000 out), not Bob's $2,000; the report is
    pending, due 15 days after the day, exit 0; once past its due date, exit 1."""
    where, day = books(db_url, tmp_path)
    db = where[:2]
    r = cardroom("report", "mtl", "--date", day, *db, "--json")
    assert r.returncode == 0, r.stderr
    lines = json.loads(r.stdout)["lines"]
    assert [(x["direction"], x["amount"], x["running_total"], x["patron_name"])
            for x in lines] == [("in", 600_000, 600_000, "Alice Liddell"),
                                ("in", 500_000, 1_100_000, "Alice Liddell"),
                                ("out", 400_000, 400_000, "Alice Liddell")]
    r = cardroom("report", "mtl", "--date", day, *db, "--csv")
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert [row["running_total"] for row in rows] == ["600000", "1100000", "400000"]
    r = cardroom("report", "ctr", "--pending", *db, "--json")
    assert r.returncode == 0, r.stderr
    [item] = json.loads(r.stdout)["reports"]
    assert (item["cash_in"], item["cash_out"], item["status"], item["overdue"]) == (
        1_100_000, 400_000, "pending", False)
    assert item["due"] == (date.fromisoformat(day) + timedelta(days=15)).isoformat()
    text = cardroom("report", "ctr", *db)
    assert text.returncode == 0 and "Alice Liddell" in text.stdout
    storage = open_keyed(db_url, Path(where[3]), create=False)
    with storage.unit() as conn:
        conn.execute(update(currency_reports).values(due=date.fromisoformat(day)
                                                     - timedelta(days=1)))
    storage.engine.dispose()
    late = cardroom("report", "ctr", "--pending", *db)
    assert late.returncode == 1 and "overdue:" in late.stdout
    bad = cardroom("report", "mtl", "--date", "yesterday", *db)
    assert bad.returncode == 2 and bad.stderr.startswith("error:")
    shown = cardroom("profile", "show").stdout
    for line in ("31 CFR 1021.311 and 1021.313", "$10,000.00", "$3,000.00", "15 days",
                 "31 CFR 1010.430(d)"):
        assert line in shown


def test_form_and_export_show_the_taxpayer_id_only_with_the_identity_key(
        db_url: str, tmp_path: Path) -> None:
    """31 CFR 1021.410 and FinCEN Form 112: the form names the person, the identity document,
    the amounts by kind and the filer; the taxpayer id is in clear only with the identity key.
    The export holds every record as CSV and JSON; a report is filed with its reference."""
    where, day = books(db_url, tmp_path)
    r = cardroom("compliance", "ctr-form", "1", *where)
    assert r.returncode == 0, r.stderr
    hidden = json.loads(r.stdout)
    assert hidden["person"]["name"] == "Alice Liddell" and "123456789" not in r.stdout
    assert hidden["cash_in"]["chip-purchase"] == 1_100_000
    assert hidden["date_of_transaction"] == day
    clear = cardroom("compliance", "ctr-form", "1", *where, "--identity-key-file",
                     str(tmp_path / "identity.key"))
    assert json.loads(clear.stdout)["person"]["taxpayer_id"] == "123456789"
    out = tmp_path / "examiner"
    r = cardroom("compliance", "export", "--out", str(out), *where)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in out.iterdir()) == [
        "alerts.csv", "alerts.json", "cases.csv", "cases.json",
        "ctr.csv", "ctr.json", "ctr_forms.json", "currency_transactions.csv",
        "currency_transactions.json", "mtl.csv", "mtl.json"]
    assert len(json.loads((out / "currency_transactions.json").read_text())) == 4
    assert "123456789" not in "".join(p.read_text() for p in out.iterdir())
    again = cardroom("compliance", "export", "--out", str(out), *where)
    assert again.returncode == 2 and "not an empty folder" in again.stderr
    early = cardroom("compliance", "file-ctr", "1", "--reference", "BSA-9", *where)
    assert early.returncode == 2 and "has not ended" in early.stderr
    verify = cardroom("audit", "verify", *where)
    assert verify.returncode == 0, verify.stdout


def test_alerts_cases_and_the_overdue_exit_1(db_url: str, tmp_path: Path) -> None:
    """31 CFR 1021.320: after the day, Bob (no patron on file) buys $2,900 twice at the table,
    just under the log floor: `compliance alerts --date D` lists the structuring alert; a case
    opened from it is due 30 days from detection, its narrative grows, `cases` exits 0 and
    `audit verify` passes; a case open past its due date makes `cases` exit 1; a decision needs
    exactly one of --filed and --not-filed; the export holds the alerts and the cases."""
    where, day = books(db_url, tmp_path)
    storage = open_keyed(db_url, Path(where[3]), create=False)
    with storage.unit() as conn:
        dan, bob = (find_account(conn, n) for n in ("dan", "bob"))
        assert dan is not None and bob is not None
        table_books.drop_buy_in(conn, dan, 1, bob, 290_000, "d3")
        table_books.drop_buy_in(conn, dan, 1, bob, 290_000, "d4")
    storage.engine.dispose()
    r = cardroom("compliance", "alerts", "--date", day, *where, "--json")
    assert r.returncode == 0, r.stderr
    [alert] = json.loads(r.stdout)["alerts"]
    assert alert["kind"] == "structuring" and len(alert["transactions"]) == 2
    text = cardroom("compliance", "alerts", "--date", day, *where)
    assert text.returncode == 0 and "2 cash buys just under the log floor" in text.stdout
    r = cardroom("compliance", "case-open", "--alert", str(alert["id"]), "--narrative",
                 "Two buys of $2,900 ten minutes apart.", *where)
    assert r.returncode == 0 and "case 1 is open (bob (no patron on file))" in r.stdout, r.stderr
    r = cardroom("compliance", "case-note", "1", "The cage knows him as a regular.", *where)
    assert r.returncode == 0, r.stderr
    r = cardroom("compliance", "cases", *where[:2], "--json")
    assert r.returncode == 0, r.stderr
    [case] = json.loads(r.stdout)["cases"]
    detected = date.fromisoformat(case["detected_on"])
    assert case["due"] == (detected + timedelta(days=30)).isoformat()
    assert len(case["narrative"]) == 2 and case["transactions"] == alert["transactions"]
    both = cardroom("compliance", "case-decide", "1", "--filed", "BSA-1", "--not-filed", "x",
                    *where)
    assert both.returncode == 2 and both.stderr.startswith("error:")
    verify = cardroom("audit", "verify", *where)
    assert verify.returncode == 0, verify.stdout
    out = tmp_path / "examiner"
    assert cardroom("compliance", "export", "--out", str(out), *where).returncode == 0
    assert [c["id"] for c in json.loads((out / "cases.json").read_text())] == [1]
    assert len(json.loads((out / "alerts.json").read_text())) == 1
    storage = open_keyed(db_url, Path(where[3]), create=False)
    with storage.unit() as conn:
        conn.execute(update(compliance_cases).values(due=detected - timedelta(days=1)))
    storage.engine.dispose()
    late = cardroom("compliance", "cases", "--overdue", *where[:2])
    assert late.returncode == 1 and "overdue:" in late.stdout
