"""`cardroom report games|cage|slips|reconcile` on a room's books: JSON, CSV and the terminal
table, the gambling day of the room's clock (`CARDROOM_TIMEZONE`, `CARDROOM_DAY_STARTS`), exit
1 when a series of slips has a gap or a ledger movement is unexplained, a plain error for a bad
date."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import delete, update
from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.errors import CardroomError
from cardroom.room import ledger, table_books
from cardroom.room.accounts import Role, create_account
from cardroom.room.cashier import sell_chips
from cardroom.room.db import open_database
from cardroom.room.room import Room
from cardroom.room.schema import table_slips
from cardroom.room.settings import GamblingClock
from cardroom.shoe import SeededRandom

from .console import cardroom

PW = "correct horse"


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
        p = {n: create_account(conn, n, PW, r) for n, r in (
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
    assert rows[0]["win"] == str(mini["win"])
    assert (rows[0]["shift"], rows[1]["shift"]) == ("all", shift)
    code, out = run("report", "games", "--date", day, "--database", db)
    assert code == 0 and "Mini" in out and "Games report" in out
    assert "Drop by tender" in out and "debit card" in out and "markers" not in out


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
    assert code == 0 and out.startswith("gambling_day,line,what,count,amount")


def test_report_slips_exits_1_on_a_gap(books: tuple[str, str]) -> None:
    db, _ = books
    code, out = run("report", "slips", "--database", db, "--json")
    data = json.loads(out)
    assert code == 0 and data["complete"] and data["gaps"] == {}
    assert [(s["series"], s["number"], s["kind"]) for s in data["slips"]] == [
        ("credit", 1, "credit"), ("fill", 1, "fill"), ("inventory", 1, "opener"),
        ("inventory", 2, "closer")]
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
