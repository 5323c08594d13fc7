"""`cardroom report jackpot [--date DAY] [--json|--csv]` on both databases: the controller's
meters and history as the room recorded them, and exit 1 when they do not reconcile with the
ledger (a check that fails)."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

from room.people import player
from room.rooms import playing_table
from sqlalchemy import update
from typer.testing import CliRunner

import cardroom.cli  # noqa: F401  (registers every command)
from cardroom.cli import app
from cardroom.errors import CardroomError
from cardroom.room.books.cashier import buy_chips
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage.schema import jackpot_pools
from cardroom.room.storage.settings import SELF_SERVICE, GamblingClock

from .forms import PW

runner = CliRunner()


def played(db_url: str) -> Room:
    """A room where alice played two coups with the $1 progressive wager at one table."""
    room = Room.open(db_url)
    with room.storage.unit() as conn:
        owner = create_account(conn, "olivia", PW, Role.OWNER)
        alice = player(conn, "alice", PW)
        buy_chips(conn, SELF_SERVICE, alice, 50_000, "k")
    t = playing_table(room, owner, "Mini 1", "baccarat").table_id
    room.act(alice, t, {"type": "sit", "buy_in": 10_000, "key": "s"})
    for i in range(2):
        room.act(alice, t, {"type": "bet", "bets": {"banker": 500, "progressive": 100},
                            "key": f"b{i}"})
        room.act(alice, t, {"type": "deal"})
    return room


def test_report_jackpot_json_csv_and_a_failed_reconciliation(db_url: str) -> None:
    played(db_url)
    r = runner.invoke(app, ["report", "jackpot", "--database", db_url, "--json"])
    assert r.exit_code == 0, r.output
    [pool] = json.loads(r.output)["pools"]
    # Super-9: 20 cents of each $1 progressive wager to the meter, seeded with $2,500
    assert pool["meter"] == 250_000 + 2 * 20 and pool["problems"] == []
    assert pool["tables"] == [{"table_id": 1, "table": "Mini 1", "wagers": 2, "coin_in": 200,
                               "contributed": 40, "reserved": 0}]
    today = GamblingClock.from_env().day_of(datetime.now(UTC)).isoformat()  # the room's day
    r = runner.invoke(app, ["report", "jackpot", "--database", db_url, "--csv", "--date",
                            today])
    rows = list(csv.DictReader(io.StringIO(r.output)))
    assert {"record": "coin_in", "table": "Mini 1", "cents": "200"}.items() <= \
        next(row for row in rows if row["record"] == "coin_in").items()
    r = runner.invoke(app, ["report", "jackpot", "--database", db_url, "--json", "--date",
                            "2001-01-01"])  # a day with no play
    assert json.loads(r.output)["pools"][0]["tables"] == []
    r = runner.invoke(app, ["report", "jackpot", "--database", db_url])
    assert r.exit_code == 0 and "reconciled with the ledger" in r.output
    from cardroom.room.storage.db import make_engine
    engine = make_engine(db_url)
    with engine.begin() as conn:
        conn.execute(update(jackpot_pools).values(meter=jackpot_pools.c.meter + 1))
    engine.dispose()
    r = runner.invoke(app, ["report", "jackpot", "--database", db_url])
    assert r.exit_code == 1
    assert "problem: super9: meter: the controller shows $2,500.41 but the ledger" in r.output


def test_report_jackpot_refuses_a_bad_date(db_url: str) -> None:
    r = runner.invoke(app, ["report", "jackpot", "--database", db_url, "--date", "23/11/2026"])
    assert isinstance(r.exception, CardroomError)
    assert str(r.exception) == "'23/11/2026' is not a date: write it as YYYY-MM-DD"
