"""Progressive funds on the jackpot page (issue 21; WAC 230-15-455(2)(a), 230-15-685(4)): the
cage records a deposit of the accrued contributions with a form, the page flags what is due
and an overdue deposit for staff; the maximum prize is set with the controller's settings by
two people and shown on the posted rules and in the table's snapshot. On SQLite and
PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from room.rooms import CAST, make_room, progressive_coup
from sqlalchemy import update

from cardroom.room.people.accounts import Role
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import ledger_transactions
from cardroom.server.app import create_app

from .forms import cosigned, logged_in


def played_room(storage: Storage) -> tuple[Room, int]:
    """One coup at a jackpot table with two $1 progressive wagers (40 cents accrued)."""
    room, p, table = make_room(storage, "baccarat", seed=9, table="Mini 1",
                               cast=(*CAST, ("cathy", Role.CASHIER), ("audrey", Role.AUDITOR)))
    assert table is not None
    progressive_coup(room, p, table)
    return room, table


def deposit_form(**changes: str) -> dict[str, str]:
    return {"pool": "super9", "amount": "0.40", "deposited_on": "2026-11-20",
            "deposited_by": "cathy", "reference": "slip 88", **changes}


def test_wac_230_15_455_the_cage_records_a_deposit_and_the_page_flags_overdue(
        storage: Storage) -> None:
    room, _ = played_room(storage)
    with storage.unit() as conn:
        conn.execute(update(ledger_transactions)
                     .where(ledger_transactions.c.kind == "jackpot-contribution")
                     .values(created_at=datetime.now(UTC) - timedelta(days=8)))
    cathy, audrey = logged_in(room, "cathy"), logged_in(room, "audrey")
    page = audrey.get("/floor/jackpot").text
    assert 'class="warning" id="funds-status" role="alert"' in page
    assert "is overdue" in page and 'id="deposit-form"' not in page  # the auditor only reads
    r = audrey.post("/floor/jackpot/deposit", data=deposit_form())
    assert r.status_code == 403
    r = cathy.post("/floor/jackpot/deposit", data=deposit_form(amount="1.00"))
    assert r.status_code == 400
    assert "The deposit is more than the contributions not yet deposited, $0.40." in r.text
    r = cathy.post("/floor/jackpot/deposit", data=deposit_form(deposited_on="last week"))
    assert r.status_code == 400 and "Write the deposit&#39;s date as on the slip" in r.text
    r = cathy.post("/floor/jackpot/deposit", data=deposit_form(), follow_redirects=False)
    assert r.status_code == 303
    page = cathy.get("/floor/jackpot").text
    assert "Every contribution accrued is deposited in the progressive account." in page
    assert "slip 88" in page and "2026-11-20" in page and "is overdue" not in page


def settings_form(**changes: str) -> dict[str, Any]:
    return {"pool": "super9", "seed": "2500", "contribution": "20", "reserve_rate": "0",
            "reserve_limit": "0", "maximum": "10000", "reason": "cap the prize",
            "second": "olivia", **changes}


def test_wac_230_15_685_the_maximum_prize_is_set_logged_and_posted(storage: Storage) -> None:
    room, table = played_room(storage)
    fiona = logged_in(room, "fiona")
    r = fiona.post("/floor/jackpot/settings", data=settings_form(maximum="2500.10"))
    assert r.status_code == 400 and "The maximum prize must be at least the jackpot now" in r.text
    r = fiona.post("/floor/jackpot/settings", data=settings_form(), follow_redirects=False)
    assert cosigned(room, r, "olivia").status_code == 303
    page = fiona.get("/floor/jackpot").text
    assert "Maximum prize <strong>$10,000.00</strong>" in page
    assert "no maximum prize" in page and "maximum prize $10,000.00" in page  # the history
    rules = TestClient(create_app(room)).get(f"/tables/{table}/rules").text
    assert "a maximum prize of $10,000.00 (WAC 230-15-685)" in rules
    assert room.table(table).state(None).jackpot.maximum == 1_000_000  # type: ignore[union-attr]
