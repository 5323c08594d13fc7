"""`cardroom jackpot deposit` and `cardroom report jackpot` through the installed console script
(issue 21, WAC 230-15-455(2)(a): the progressive's accrued funds deposited at least weekly):
eight days after a contribution with no deposit the report flags it overdue and exits 1; the
cage's deposit clears it; a deposit over what is due is one `error:` line and exit 2. On
SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from room.rooms import make_room, progressive_coup
from sqlalchemy import update

from cardroom.room.storage.schema import ledger_transactions
from cardroom.room.trust.keying import open_keyed

from .console import cardroom


def test_wac_230_15_455_report_jackpot_exits_1_when_a_deposit_is_overdue(
        db_url: str, tmp_path: Path) -> None:
    key = tmp_path / "audit.key"
    storage = open_keyed(db_url, key)
    room, p, table = make_room(storage, "baccarat", seed=2, table="Mini 1")
    assert table is not None
    progressive_coup(room, p, table)
    db = ("--database", db_url)
    assert cardroom("report", "jackpot", *db).returncode == 0  # due in seven days
    with storage.unit() as conn:  # the coup was played eight days ago
        conn.execute(update(ledger_transactions)
                     .where(ledger_transactions.c.kind == "jackpot-contribution")
                     .values(created_at=datetime.now(UTC) - timedelta(days=8)))
    storage.engine.dispose()

    late = cardroom("report", "jackpot", *db)
    assert late.returncode == 1, late.stderr
    text = " ".join(late.stdout.split())
    assert "overdue: $0.40 accrued since" in text and "WAC 230-15-455" in text
    data = json.loads(cardroom("report", "jackpot", "--json", *db).stdout)
    assert data["pools"][0]["funds"]["overdue"] is True

    args = ("jackpot", "deposit", "--by", "cathy", "--reference", "slip 7", *db,
            "--audit-key-file", str(key))
    over = cardroom(*args, "--amount", "5")
    assert over.returncode == 2 and over.stdout == ""
    assert over.stderr.startswith("error: the deposit is more than the contributions not yet "
                                  "deposited, $0.40")
    done = cardroom(*args, "--amount", "0.40")
    assert done.returncode == 0, done.stderr
    assert "deposit 1 recorded: $0.40 to the super9 progressive account" in done.stdout
    cleared = cardroom("report", "jackpot", *db)
    assert cleared.returncode == 0, cleared.stdout
    assert "deposit " in cleared.stdout and "slip 7" in cleared.stdout
    assert "Every contribution accrued is deposited" in cleared.stdout
    assert cardroom("audit", "verify", *db, "--audit-key-file", str(key)).returncode == 0
