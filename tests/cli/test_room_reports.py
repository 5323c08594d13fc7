"""`cardroom report games|cage|slips|reconcile` on a room's books: JSON, CSV and the terminal
table, the gambling day of the room's clock (`CARDROOM_TIMEZONE`, `CARDROOM_DAY_STARTS`), exit
1 when a series of slips has a gap or a ledger movement is unexplained, a plain error for a bad
date."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from rich.console import Console
from room.people import person
from sqlalchemy import delete, update
from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.cli.room_reports import games_tables
from cardroom.errors import CardroomError
from cardroom.money import format_money
from cardroom.room.books import table_books
from cardroom.room.books.cashier import sell_chips
from cardroom.room.books.operations_report import GamesReport, Line
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Role
from cardroom.room.room import Room
from cardroom.room.storage.db import open_database
from cardroom.room.storage.schema import table_slips
from cardroom.room.storage.settings import GamblingClock
from cardroom.shoe import SeededRandom

from .console import cardroom

PW = "correct horse"
CARDROOM = Path(sys.executable).parent / "cardroom"


@pytest.fixture
def books(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """A room whose day began six hours ago (UTC): one baccarat table opened, filled, a
    drop, a few coups, credited, closed and counted; a player bought chips at the cage."""
    starts = (datetime.now(UTC) - timedelta(hours=6)).time().replace(microsecond=0)
    monkeypatch.setenv("CARDROOM_TIMEZONE", "UTC")
    monkeypatch.setenv("CARDROOM_DAY_STARTS", starts.isoformat())
    clock = GamblingClock.from_env()
    db = str(tmp_path / "room.sqlite3")
    room = Room(open_database(db), SeededRandom(3))
    room.start()
    with room.storage.unit() as conn:
        p = {n: person(conn, n, PW, r) for n, r in (
            ("olivia", Role.OWNER), ("fiona", Role.FLOOR), ("dan", Role.DEALER),
            ("cathy", Role.CASHIER), ("colin", Role.CASHIER), ("alice", Role.PLAYER))}
    t = room.create_table(p["olivia"], "Mini 1", "baccarat").table_id
    sign = (p["cathy"], p["dan"], p["fiona"])
    room.operate(p["fiona"], "table.open",
                 lambda c: table_books.open_table(c, t, p["dan"], p["fiona"], 0))
    with room.storage.unit() as conn:
        table_books.fill(conn, t, *sign, 100_000)
        sell_chips(conn, p["cathy"], p["alice"], 20_000, "s1")
        sell_chips(conn, p["cathy"], p["alice"], 1_000, "s2", "debit")
        table_books.drop_buy_in(conn, p["dan"], t, p["alice"], 25_000, "d1")
        table_books.drop_buy_in(conn, p["dan"], t, p["alice"], 5_000, "d2", "debit")
    room.act(p["alice"], t, {"type": "sit", "buy_in": 50_000, "key": "sit"})
    for i in range(5):
        room.act(p["alice"], t, {"type": "bet", "bets": {"banker": 1_000}, "key": f"b{i}"})
        room.act(p["dan"], t, {"type": "deal"})
    room.act(p["alice"], t, {"type": "leave", "key": "up"})
    with room.storage.unit() as conn:
        table_books.credit(conn, t, *sign, 10_000)
        held = ledger.balance(conn, ledger.tray(t))
        table_books.close_table(conn, t, p["dan"], p["fiona"], held)
        table_books.count_drop(conn, clock, t, clock.day_of(datetime.now(UTC)),
                               table_books.Dropped(25_000, 5_000), p["cathy"], p["colin"])
    return db, clock.day_of(datetime.now(UTC)).isoformat()


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, list(args))
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout


def test_report_games_json_csv_and_table(books: tuple[str, str]) -> None:
    db, day = books
    code, out = run("report", "games", "--date", day, "--database", db, "--json")
    assert code == 0
    data = json.loads(out)
    (mini,) = data["tables"]
    assert (mini["table"], mini["drop"], mini["fills"], mini["credits"], mini["opener"]) == \
        ("Mini 1", 30_000, 100_000, 10_000, 0)
    assert mini["win"] == mini["closer"] - 0 + 10_000 - 100_000 + 30_000
    assert mini["hands"] == 5 and mini["reconciled"] and data["reconciled"]
    assert (mini["drop_cash"], mini["drop_debit"], mini["drop_markers"]) == (25_000, 5_000, 0)
    assert data["total"]["win"] == mini["win"]
    code, out = run("report", "games", "--date", day, "--database", db, "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and [r["table"] for r in rows] == ["Mini 1", "Mini 1", "room"]
    shift = GamblingClock.from_env().shift_of(datetime.now(UTC))
    assert rows[0]["win_cents"] == str(mini["win"])  # a CSV column names its unit
    money = {"drop", "fills", "credits", "opener", "closer", "win", "fees", "commission",
             "jackpot_contributions", "jackpot_awards", "drop_cash", "drop_debit",
             "drop_markers", "ledger_win", "drop_in_books"}
    assert {f"{m}_cents" for m in money} <= set(rows[0]) and not money & set(rows[0])
    assert (rows[0]["shift"], rows[1]["shift"]) == ("all", shift)
    code, out = run("report", "games", "--date", day, "--database", db)
    assert code == 0 and "Mini" in out and "Games report" in out
    assert "Drop by tender" in out and "debit card" in out and "markers" not in out


def test_report_games_fits_an_80_column_terminal(books: tuple[str, str]) -> None:
    """Issue 23: in 80 columns `cardroom report games` (the console script) truncated every
    money column; turned on its side it shows each figure whole, no line over 80."""
    db, day = books
    r = subprocess.run([str(CARDROOM), "report", "games", "--date", day, "--database", db],
                       capture_output=True, text=True, timeout=120, check=False,
                       env={**os.environ, "COLUMNS": "80"})
    assert r.returncode == 0, r.stderr
    assert max(len(line) for line in r.stdout.splitlines()) <= 80 and "\u2026" not in r.stdout
    data = json.loads(run("report", "games", "--date", day, "--database", db, "--json")[1])
    mini = data["tables"][0]
    for figure in ("drop", "fills", "credits", "closer", "win"):
        assert re.search(rf"{figure} .*{re.escape(format_money(mini[figure]))}", r.stdout)


def test_many_tables_are_shown_a_few_at_a_time_within_the_width() -> None:
    """Issue 23: more tables than a terminal holds side by side come in parts, each within
    the width, every table's figures whole."""
    lines = [Line(i, f"Table {i}", "baccarat", drop=123_456_789, fills=987_654_321)
             for i in range(1, 8)]
    report = GamesReport(date(2026, 1, 2), lines)
    out = Console(width=80, record=True, file=io.StringIO())
    tables = games_tables(report, 80)
    for table in tables:
        out.print(table)
    text = out.export_text()
    assert len(tables) > 1 and max(len(line) for line in text.splitlines()) <= 80
    assert text.count("$1,234,567.89") == 7 and text.count("$9,876,543.21") == 7
    assert text.count("$8,641,975.23") == 1 and "\u2026" not in text  # the room's drop


def test_report_cage_reconciles(books: tuple[str, str]) -> None:
    db, day = books
    code, out = run("report", "cage", "--date", day, "--database", db, "--json")
    data = json.loads(out)
    assert code == 0 and data["reconciled"]
    assert (data["cash_in"], data["cash_out"], data["drop_cash_counted"],
            data["drop_debit_counted"]) == (20_000, 0, 25_000, 5_000)
    assert data["moves"]["cage-sale-debit"] == {"what": "chips sold for debit card",
                                                "count": 1, "amount": 1_000}
    assert data["moves"]["fill"]["amount"] == 100_000
    assert data["by_cashier"] == {"cathy": {"cage-sale": 20_000, "cage-sale-debit": 1_000,
                                            "fill": 100_000, "credit": 10_000}}
    code, out = run("report", "cage", "--date", day, "--database", db, "--csv")
    assert code == 0 and out.startswith("gambling_day,line,what,count,amount_cents\n")


def test_report_slips_exits_1_on_a_gap(books: tuple[str, str]) -> None:
    db, _ = books
    code, out = run("report", "slips", "--database", db, "--json")
    data = json.loads(out)
    assert code == 0 and data["complete"] and data["gaps"] == {}
    assert [(s["series"], s["number"], s["kind"]) for s in data["slips"]] == [
        ("credit", 1, "credit"), ("fill", 1, "fill"), ("inventory", 1, "opener"),
        ("inventory", 2, "closer")]
    code, out = run("report", "slips", "--database", db, "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["amount_cents"] for r in rows] == ["10000", "100000", "0", str(
        data["slips"][3]["amount"])] and "amount" not in rows[0]  # issue 23: the unit named
    storage = open_database(db)
    with storage.unit() as conn:
        # someone takes the opener out of the books, behind the room's back
        conn.execute(update(table_slips).values(opener_id=None))
        conn.execute(delete(table_slips).where(table_slips.c.series == "inventory",
                                               table_slips.c.number == 1))
    code, out = run("report", "slips", "--database", db)
    assert code == 1 and "gap: inventory slips missing numbers 1" in out


def test_a_bad_date_is_one_plain_error(books: tuple[str, str]) -> None:
    db, _ = books
    with pytest.raises(CardroomError, match="'23/11/2026' is not a date: give the gambling "
                       "day as YYYY-MM-DD"):
        run("report", "games", "--date", "23/11/2026", "--database", db)
    with pytest.raises(CardroomError, match="choose --json or --csv, not both"):
        run("report", "cage", "--database", db, "--json", "--csv")


def test_report_reconcile_lists_an_unexplained_posting_and_exits_1(
        books: tuple[str, str]) -> None:
    """Issue 23, "Reconciled must mean every cent", through the installed console script:
    the fixture's day is explained movement by movement (exit 0); a ledger transaction of a
    kind no report explains is then listed with its accounts and amounts, and the command
    exits 1 (a check that fails)."""
    db, day = books
    good = cardroom("report", "reconcile", "--date", day, "--database", db, "--json")
    assert good.returncode == 0, good.stderr
    data = json.loads(good.stdout)
    assert data["reconciled"] and data["unexplained"] == [] and data["transactions"] > 10
    assert data["explained"]["cage report"]["credit"] == 1
    with open_database(db).unit() as conn:
        ledger.post(conn, "behind-the-back", "mystery", [(ledger.tray(1), -2_500),
                                                        (ledger.HOUSE_BANK, 2_500)],
                    actor="nobody", memo="chips moved off the reports")
    bad = cardroom("report", "reconcile", "--date", day, "--database", db)
    assert bad.returncode == 1, bad.stderr
    assert "unexplained:" in bad.stdout and "mystery" in bad.stdout
    assert "tray:1 -$25.00" in bad.stdout and "house:bank $25.00" in bad.stdout
    found = json.loads(cardroom("report", "reconcile", "--date", day, "--database", db,
                                "--json").stdout)
    assert [m["kind"] for m in found["unexplained"]] == ["mystery"]
