"""A room whose dealers sold chips against markers, before the room refused credit (the
schema revision before `*_tenders.py`), upgraded by the tenders migration: its markers stay
in the books and in the daily reports, labelled as markers (historical), and the books, the
reports and the audit chain still reconcile. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import text
from typer.testing import CliRunner

import cardroom.cli  # noqa: F401  (registers every command)
from cardroom.cli import app
from cardroom.room.books import table_books
from cardroom.room.money import ledger
from cardroom.room.storage.audit_key import load_or_create_key
from cardroom.room.storage.db import MIGRATIONS, open_database
from cardroom.room.storage.settings import GamblingClock

from .cage_books import opened

runner = CliRunner()


def marker_room(db_url: str, key_file: Path) -> str:
    """Mini 1 opened, filled with $5,000; bob buys $200 in cash and alice $9,500 against a
    marker, as the room before the tenders migration recorded them (`drop-marker`); filled
    with $5,000 more; closed on the $300 left; the box counted ($200 cash, $9,500 in
    markers); then the books taken back to the revision before the tenders migration.
    Returns the gambling day."""
    key, _ = load_or_create_key(key_file)
    storage = open_database(db_url, key)
    room, p, t = opened(storage)
    room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["bob"], 20_000, "d1"))
    room.operate(p["dan"], "table.drop", lambda c: ledger.post(
        c, f"drop:{t}:d2", "drop-marker", [(ledger.tray(t), -950_000),
                                           (ledger.wallet(p["alice"].id), 950_000)],
        actor="dan", memo="Mini 1: alice bought $9,500.00 of chips (marker)"))
    room.operate(p["cathy"], "table.fill", lambda c: table_books.fill(
        c, t, p["cathy"], p["dan"], p["fiona"], 500_000))
    room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
        c, t, p["dan"], p["fiona"], 30_000))
    clock = GamblingClock()
    day = clock.day_of(datetime.now(UTC))
    room.operate(p["cathy"], "drop.count", lambda c: table_books.count_drop(
        c, clock, t, day, table_books.Dropped(20_000, 0, 950_000), p["cathy"], p["colin"]))
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    [tenders] = [r for r in ScriptDirectory.from_config(cfg).walk_revisions()
                 if r.path.endswith("_tenders.py")]
    before = str(tenders.down_revision)
    with storage.engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, before)
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == before
    storage.engine.dispose()
    return day.isoformat()


def cli(*args: str) -> tuple[int, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.output


def test_markers_stay_in_the_books_and_reports_labelled_after_the_upgrade(
        db_url: str, tmp_path: Path) -> None:
    """WAC 230-06-035: no new marker; WAC 230-15-730(4)(f): the master game report of a past
    day still shows its drop, the markers apart and labelled as history."""
    key = tmp_path / "audit.key"
    day = marker_room(db_url, key)
    where = ["--date", day, "--database", db_url]
    code, out = cli("report", "cage", *where, "--json")
    cage = json.loads(out)
    assert code == 0 and cage["reconciled"]
    assert (cage["drop_cash_counted"], cage["drop_debit_counted"],
            cage["drop_markers_counted"]) == (20_000, 0, 950_000)
    code, out = cli("report", "cage", *where)
    assert code == 0 and "drop counted: markers (historical)" in out
    code, out = cli("report", "games", *where, "--json")
    [line] = json.loads(out)["tables"]
    assert code == 0 and line["reconciled"]
    assert (line["drop"], line["drop_cash"], line["drop_markers"]) == (970_000, 20_000, 950_000)
    code, out = cli("audit", "verify", "--database", db_url, "--audit-key-file", str(key),
                    "--json")
    assert code == 0 and json.loads(out)["ok"], out
