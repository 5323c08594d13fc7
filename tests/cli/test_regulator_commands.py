"""`cardroom report month|quarter` and `cardroom cage count-cash` through the installed console
script (issue 21, reports to the regulator): WAC 230-06-070 monthly records and the WAC
230-05-124 quarterly license report as text (80 columns), JSON (cents) and CSV (headers that
name their unit); exit 1 when the ledger was tampered with; the cage's cash count at opening
(WAC 230-15-050) and `report cage` exiting 1 when no count was made."""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
from room.past_days import PastDays
from room.people import PW

from cardroom.room.people.accounts import Role, create_account
from cardroom.room.storage.db import open_database
from cardroom.room.trust.keying import open_keyed

CARDROOM = Path(sys.executable).parent / "cardroom"
JANUARY = date(2025, 1, 31)


def cardroom(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(CARDROOM), *args], capture_output=True, text=True, timeout=120,
                          check=False, env={**os.environ, "COLUMNS": "80", **env})


@pytest.fixture
def played(tmp_path: Path) -> tuple[str, dict[str, str], int]:
    """A room file with one gambling day played on 31 January 2025; the room's clock for the
    command, and the day's gross gambling receipts by the script's tally."""
    db = str(tmp_path / "room.sqlite3")
    room = PastDays(open_database(db))
    expected = room.play(JANUARY, 4)
    env = {"CARDROOM_TIMEZONE": "UTC", "CARDROOM_DAY_STARTS": room.clock.day_starts.isoformat()}
    return db, env, expected.ggr


def test_report_month_and_quarter_text_json_csv(played: tuple[str, dict[str, str], int]
                                                ) -> None:
    db, env, ggr = played
    text = cardroom(env, "report", "month", "--month", "2025-01", "--database", db)
    assert text.returncode == 0, text.stderr + text.stdout
    assert "due 2025-03-02 (WAC 230-06-070)" in text.stdout and "Reconciled" in text.stdout
    assert max(len(line) for line in text.stdout.splitlines()) <= 80
    data = json.loads(cardroom(env, "report", "quarter", "--year", "2025", "--quarter", "1",
                               "--database", db, "--json").stdout)
    assert data["due"] == "2025-04-30" and data["due_rule"] == "WAC 230-05-124"
    assert data["total"]["ggr_cents"] == ggr and data["ledger"]["ggr_cents"] == ggr
    assert [m["month"] for m in data["months"]] == ["2025-01", "2025-02", "2025-03"]
    rows = list(csv.DictReader(io.StringIO(cardroom(
        env, "report", "month", "--month", "2025-01", "--database", db, "--csv").stdout)))
    assert {"ggr_cents", "pan_fees_cents", "prizes_cents", "accrual_adjustment_cents"} <= set(
        rows[0])
    assert int(rows[-1]["ggr_cents"]) == ggr
    empty = cardroom(env, "report", "quarter", "--year", "2023", "--quarter", "2",
                     "--database", db)
    assert empty.returncode == 0 and "filed all the same" in empty.stdout
    bad = cardroom(env, "report", "month", "--month", "2025-13", "--database", db)
    assert bad.returncode == 2 and "is not a month" in bad.stderr + bad.stdout


def test_a_tampered_ledger_row_makes_the_month_exit_1(played: tuple[str, dict[str, str], int]
                                                      ) -> None:
    """A settlement's tray entry raised by $5 in the file: the month and the quarter exit 1,
    naming the difference."""
    db, env, _ = played
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE ledger_entries SET amount = amount + 500 WHERE id = (SELECT e.id FROM "
            "ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id JOIN "
            "ledger_transactions t ON t.id = e.tx_id WHERE a.name LIKE 'tray:%' AND "
            "t.kind = 'settle' LIMIT 1)")
    r = cardroom(env, "report", "month", "--month", "2025-01", "--database", db)
    said = " ".join(r.stdout.split())  # the terminal wraps at 80 columns
    assert r.returncode == 1
    assert "not reconciled: the win" in said and "(a difference of -$5.00)" in said
    q = cardroom(env, "report", "quarter", "--year", "2025", "--quarter", "1", "--database",
                 db, "--json")
    assert q.returncode == 1 and json.loads(q.stdout)["reconciled"] is False


def test_report_cage_exits_1_without_a_cash_count(played: tuple[str, dict[str, str], int]
                                                  ) -> None:
    """WAC 230-15-050: Mini 1 opened on 31 January 2025 and the cage never counted its cash."""
    db, env, _ = played
    r = cardroom(env, "report", "cage", "--date", JANUARY.isoformat(), "--database", db)
    assert r.returncode == 1
    assert "no cash count was recorded within 3 hours" in " ".join(r.stdout.split())
    data = json.loads(cardroom(env, "report", "cage", "--date", JANUARY.isoformat(),
                               "--database", db, "--json").stdout)
    assert data["cash_on_hand"]["house_banked_tables"] == 1
    assert data["cash_on_hand"]["required_cents"] == 200_000 + 3_000_000  # a new room


def test_cage_count_cash_records_once_a_day(tmp_path: Path) -> None:
    db, key = str(tmp_path / "room.sqlite3"), str(tmp_path / "audit.key")
    storage = open_keyed(db, Path(key))
    with storage.unit() as conn:
        create_account(conn, "cathy", PW, Role.CASHIER)
        create_account(conn, "dan", PW, Role.DEALER)
    args = ("--database", db, "--audit-key-file", key)
    refused = cardroom({}, "cage", "count-cash", "42,000", "--by", "dan", *args)
    assert refused.returncode == 2 and "may not run the cage" in refused.stderr + refused.stdout
    done = cardroom({}, "cage", "count-cash", "42,000", "--by", "cathy", *args, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["counted_cents"] == 4_200_000 and data["counted_by"] == "cathy"
    again = cardroom({}, "cage", "count-cash", "42,000", "--by", "cathy", *args)
    assert again.returncode == 2 and "already counted" in again.stderr + again.stdout
