"""The reports to the regulator (issue 21): the monthly records (WAC 230-06-070) and the
quarterly license report (WAC 230-05-124) of gross gambling receipts as WAC 230-05-112 defines
them, summed from the daily games reports and reconciled with the ledger; and the minimum cash
on hand (WAC 230-15-050) under each period of the profile's figure. The expected figures are
the script's own tally (`past_days`), never read back from the reports."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select, update

from cardroom.errors import CardroomError
from cardroom.profile import load_profile
from cardroom.room.books.operations_report import games_report
from cardroom.room.books.regulator import (
    cash_on_hand,
    month,
    parse_month,
    period_report,
    quarter,
    record_cash_count,
)
from cardroom.room.money import ledger
from cardroom.room.play import progressive
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import ledger_accounts, ledger_entries, ledger_transactions

from .past_days import Expected, PastDays

DECEMBER, JANUARY, FEBRUARY = date(2024, 12, 16), date(2025, 1, 31), date(2025, 2, 3)


def played(storage: Storage) -> tuple[PastDays, dict[date, Expected]]:
    room = PastDays(storage)
    days = {DECEMBER: room.play(DECEMBER, 6, cash_counted=150_000),
            JANUARY: room.play(JANUARY, 5),
            FEBRUARY: room.play(FEBRUARY, 4, cash_counted=2_500_000)}
    return room, days


def test_wac_230_06_070_and_230_05_124_months_and_quarter_equal_the_daily_reports_and_the_ledger(
        storage: Storage) -> None:
    """Gross gambling receipts (WAC 230-05-112): the house-banked net win and the Pan fees,
    per game and per month, each to the cent: the script's tally, the sum of the daily games
    reports, and what the ledger moved; the progressive accrual adjustment is the change of
    the meter (the house's seed, then 20 cents a progressive wager)."""
    room, days = played(storage)
    with storage.snapshot() as conn:
        q1 = period_report(conn, room.clock, quarter(2025, 1))
        jan = period_report(conn, room.clock, month(2025, 1))
        dec = period_report(conn, room.clock, month(2024, 12))
        daily = {d: games_report(conn, room.clock, d) for d in days}
        meter = ledger.balance(conn, ledger.jackpot(str(room.room.table(room.mini).pool_name)))
    for report in (q1, jan, dec):
        assert report.reconciled, report.differences
    assert [m.period.label for m in q1.months] == ["2025-01", "2025-02", "2025-03"]
    by_month = {m.period.label: m for m in q1.months}
    for d, want in days.items():
        m = by_month.get(f"{d:%Y-%m}") or dec.months[0]
        assert [x.day for x in m.days] == [d]
        assert m.days[0].ggr == want.ggr
        assert m.games["pan"].fees == want.pan_fees == 100
        assert m.games["pan"].ggr == want.pan_fees
        assert m.games["baccarat"].ggr == want.lost_at_mini  # the contributions beside it
        assert m.games["baccarat"].progressive_contributions == want.contributions
        assert m.total.ggr == want.ggr
        # the month is the sum of its daily report's lines
        lines = daily[d].lines
        assert m.total.win == sum(x.win for x in lines)
        assert m.total.commission == sum(x.commission for x in lines)
        assert m.total.fees == sum(x.fees for x in lines)
    assert by_month["2025-03"].days == [] and by_month["2025-03"].total.ggr == 0
    assert q1.total.ggr == days[JANUARY].ggr + days[FEBRUARY].ggr
    assert q1.ledger.ggr == q1.total.ggr
    assert jan.total.ggr == days[JANUARY].ggr and jan.ledger.ggr == days[JANUARY].ggr
    # the progressive: seeded on the first day, 20 cents a progressive wager since
    assert dec.months[0].liability_start == 0
    assert dec.accrual == room.seed + days[DECEMBER].contributions
    assert by_month["2025-01"].accrual == days[JANUARY].contributions
    assert q1.accrual == days[JANUARY].contributions + days[FEBRUARY].contributions
    assert by_month["2025-02"].liability_end == meter
    assert q1.total.prizes == 0
    # due dates: the quarter's license report (WAC 230-05-124), each month's records
    # ready 30 days after it ends (WAC 230-06-070)
    assert (q1.due, q1.due_section) == (date(2025, 4, 30), "WAC 230-05-124")
    assert [m.due for m in q1.months] == [date(2025, 3, 2), date(2025, 3, 30),
                                          date(2025, 4, 30)]
    assert quarter(2025, 4).due(load_profile("washington"))[0] == date(2026, 1, 31)
    assert quarter(2024, 3).due(load_profile("washington"))[0] == date(2024, 10, 31)
    assert quarter(2024, 2).due(load_profile("washington"))[0] == date(2024, 7, 31)
    data = q1.as_json()
    assert data["total"]["ggr_cents"] == q1.total.ggr and data["reconciled"] is True


def test_wac_230_05_124_a_quarter_with_no_activity_is_still_reported(storage: Storage) -> None:
    """The quarterly license report is filed even with no activity: every figure zero,
    reconciled, with its due date."""
    room = PastDays(storage)
    with storage.snapshot() as conn:
        report = period_report(conn, room.clock, quarter(2023, 2))
    assert not report.activity and report.reconciled
    assert report.total.ggr == 0 and report.accrual == 0 and len(report.months) == 3
    assert report.due == date(2023, 7, 31)
    assert report.as_json()["months"][1]["total"]["ggr_cents"] == 0


def test_a_tampered_ledger_row_is_named_as_a_difference(storage: Storage) -> None:
    """A settlement's tray entry changed in the database: the month no longer reconciles, and
    the difference is named (the daily report of that day too)."""
    room = PastDays(storage)
    room.play(JANUARY, 3)
    with storage.unit() as conn:
        entry = conn.execute(
            select(ledger_entries.c.id).join(ledger_accounts,
                                             ledger_accounts.c.id == ledger_entries.c.account_id)
            .join(ledger_transactions, ledger_transactions.c.id == ledger_entries.c.tx_id)
            .where(ledger_accounts.c.name == ledger.tray(room.mini),
                   ledger_transactions.c.kind == "settle").limit(1)).scalar_one()
        conn.execute(update(ledger_entries).where(ledger_entries.c.id == entry)
                     .values(amount=ledger_entries.c.amount + 500))
    with storage.snapshot() as conn:
        report = period_report(conn, room.clock, month(2025, 1))
    assert not report.reconciled
    assert any("the win" in d and "$5.00" in d for d in report.differences)
    assert any("2025-01-31" in d and "Mini 1" in d for d in report.differences)


def test_a_table_closed_short_of_its_books_is_in_the_month_and_the_month_reconciles(
        storage: Storage) -> None:
    """Issue 23 ("a real shortage must be recorded on the closer as a variance"): Mini 1
    closed $5 short of its books. The closer is the count, so the daily games report's win is
    $5 under the tray's play, the shortage on its notification of error; the month, the sum of
    the daily reports, reconciles with the ledger, whose win is the trays' play and their
    closing variances (before, the month said "the win: the daily reports say ..., the ledger
    ... (a difference of -$5.00)" and was not reconciled)."""
    room = PastDays(storage)
    want = room.play(JANUARY, 3, short=500)
    with storage.snapshot() as conn:
        report = period_report(conn, room.clock, month(2025, 1))
        daily = games_report(conn, room.clock, JANUARY)
    assert report.reconciled, report.differences
    mini = next(line for line in daily.lines if line.table == "Mini 1")
    assert mini.variance == -500 and mini.reconciled
    assert report.games["baccarat"].ggr == want.lost_at_mini - 500  # the contributions beside it
    assert report.ledger.win == report.total.win == sum(x.win for x in daily.lines)


def test_wac_230_06_070_a_top_award_is_a_prize_and_the_house_reseeds_the_meter(
        storage: Storage) -> None:
    """The progressive's top award hit on 3 February 2025 is the month's prize (paid from the
    progressive, not from the win); the meter is reseeded by the house; the award waits to be
    paid, so what the room owes grows by the reseed and the contributions."""
    room = PastDays(storage)
    january = room.play(JANUARY, 3)
    february = room.play(FEBRUARY, 3, top_award=True)
    with storage.snapshot() as conn:
        [hit] = progressive.list_hits(conn)
        feb = period_report(conn, room.clock, month(2025, 2))
    assert feb.reconciled, feb.differences
    # the top award pays the posted amount: the seed, as nobody posted the meter since
    # (Super-9: the daily posting makes the meter the posted amount)
    won = room.seed
    assert hit.amount == won and hit.status == "pending" and january.progressive_wagers
    assert february.progressive_wagers == 1
    assert feb.total.prizes == feb.games["baccarat"].prizes == won
    assert feb.total.ggr == february.ggr
    assert feb.accrual == room.seed + february.contributions


def test_a_month_is_written_yyyy_mm() -> None:
    assert parse_month("2025-02") == month(2025, 2)
    assert month(2024, 2).last == date(2024, 2, 29)
    for bad in ("2025-13", "Feb 2025", "2025"):
        with pytest.raises(CardroomError, match="is not a month"):
            parse_month(bad)


def test_wac_230_15_050_cash_on_hand_under_each_period_of_the_profile(storage: Storage) -> None:
    """The 2022 text: $1,000 per house-banked table open that day plus the largest single
    prize (the progressive's top award); from 2025: $2,000 per table plus 1% of the previous
    year's gross gambling receipts. A count short of it is flagged; a past day is judged by the
    figure of its own date."""
    room, days = played(storage)
    with storage.snapshot() as conn:
        dec = cash_on_hand(conn, room.clock, DECEMBER)
        feb = cash_on_hand(conn, room.clock, FEBRUARY)
        jan = cash_on_hand(conn, room.clock, JANUARY)
    # December 2024, the 2022 text: Mini 1 (Pan is not house-banked) and the meter at the
    # count: the seed, before that day's wagers
    assert dec.tables == 1 and dec.plus == room.seed
    assert dec.required == 100_000 + room.seed
    assert dec.short and dec.count is not None and dec.count.amount == 150_000
    assert any("$2,000.00 short of the $3,500.00 required (WAC 230-15-050)" in x
               for x in dec.problems)
    # February 2025, the 2025 text: 1% of 2024's receipts (December's day), rounded up
    share = -(-days[DECEMBER].ggr // 100)
    assert feb.required == 200_000 + max(0, share)
    assert not feb.short and feb.problems == []
    # January: tables were open and no count was ever recorded
    assert jan.count is None and jan.problems == [
        "no cash count was recorded within 3 hours of opening (WAC 230-15-050)"]


def test_wac_230_15_050_a_new_room_and_a_day_without_tables(storage: Storage) -> None:
    """A room with no receipts in the previous year holds $30,000 in place of the 1% share;
    a day no house-banked table opened asks for nothing; the cage counts once a day, on the
    day, with the cage's duty."""
    room = PastDays(storage)
    room.play(date(2025, 3, 3), 2)
    with storage.snapshot() as conn:
        new = cash_on_hand(conn, room.clock, date(2025, 3, 3))
        quiet = cash_on_hand(conn, room.clock, date(2025, 3, 4))
    assert new.required == 200_000 + 3_000_000 and "new room" in new.plus_what
    assert quiet.required == 0 and quiet.problems == [] and quiet.tables == 0
    with storage.unit() as conn:
        with pytest.raises(CardroomError, match="own gambling day"):
            record_cash_count(conn, room.clock, room.p["cathy"], 100, date(2025, 3, 3))
        with pytest.raises(CardroomError, match="a dealer may not run the cage"):
            record_cash_count(conn, room.clock, room.p["dan"], 100)
