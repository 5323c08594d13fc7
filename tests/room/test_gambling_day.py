"""One gambling day everywhere: the jackpot meters, the audit filter and the times the pages
show follow the room's clock (`CARDROOM_TIMEZONE`, `CARDROOM_DAY_STARTS`; wac-operations.md,
"Win": the daily report is per gambling day), not the UTC date."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest
from sqlalchemy import update

from cardroom.room.play import progressive
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import audit_log
from cardroom.room.storage.timezone import room_time

EARLY_MORNING = datetime(2026, 3, 2, 13, 30, tzinfo=UTC)
"""05:30 Pacific on 2 March: before the 06:00 start, so still the gambling day of 1 March."""


@pytest.fixture(autouse=True)
def pacific_room(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDROOM_TIMEZONE", "America/Los_Angeles")
    monkeypatch.setenv("CARDROOM_DAY_STARTS", "06:00")


def test_a_jackpot_meter_counts_in_the_rooms_gambling_day_not_the_utc_date() -> None:
    assert progressive.gambling_day(EARLY_MORNING) == date(2026, 3, 1)
    assert progressive.gambling_day(EARLY_MORNING.replace(hour=14, minute=1)) == date(2026, 3, 2)


def test_pages_show_times_in_the_clocks_zone() -> None:
    assert room_time(EARLY_MORNING) == "2026-03-02 05:30:00 PST"


def test_the_audit_date_filter_takes_whole_gambling_days(storage: Storage) -> None:
    with storage.engine.begin() as conn:
        entry = audit.append_entry(conn, "floor", "floor.note", {"table": 1})
        conn.execute(update(audit_log).where(audit_log.c.seq == entry.seq)
                     .values(at=EARLY_MORNING.isoformat(timespec="microseconds")))
        first, second = date(2026, 3, 1), date(2026, 3, 2)
        assert [e.seq for e in audit.find(conn, audit.Filter(since=first, until=first)
                                          ).entries] == [entry.seq]
        assert audit.find(conn, audit.Filter(since=second, until=second)).entries == []
