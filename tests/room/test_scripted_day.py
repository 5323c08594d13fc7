"""The figure of issue 12: a scripted gambling day (10 tables of all four games, 200 players;
open, fills, credits, drop, count, close; thousands of hands played through the room layer).
Every report reconciles with the ledger to the cent, and the win identity
(win = closer - opener + credits - fills + drop, WAC digest "Win") holds for every table.

The expected figures are the script's own tallies (what it sold, filled, credited, dropped,
what each player sat down with and stood up with), never read back from the reports."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

from cardroom.room.books import table_books
from cardroom.room.books.operations_report import cage_report, games_report, slips_report
from cardroom.room.books.reconcile import reconcile
from cardroom.room.books.regulator import month, period_report, quarter
from cardroom.room.money import ledger
from cardroom.room.storage.db import Storage

from .scripted_days import play_day


def test_a_scripted_day_reconciles_to_the_cent(storage: Storage) -> None:
    full = storage.engine.dialect.name == "sqlite"
    day(storage, 1 if full else 16, 1_282 if full else 74)


def day(storage: Storage, share: int, hands: int) -> None:
    d, closers = play_day(storage, share)

    with storage.snapshot() as conn:
        report = games_report(conn, d.clock, d.day)
        cage = cage_report(conn, d.clock, d.day)
        slips = slips_report(conn)
        commission = ledger.balance(conn, ledger.HOUSE_COMMISSION)
        assert ledger.trial_balance(conn).ok
    lines = {x.table_id: x for x in report.lines}
    assert set(lines) == set(d.tables)
    for t, game in d.tables.items():
        x = lines[t]
        assert (x.opener, x.closer, x.fills, x.credits, x.drop) == (
            0, closers[t], d.fills[t], d.credits[t], d.drop[t])
        assert x.win == closers[t] - 0 + d.credits[t] - d.fills[t] + d.drop[t]
        assert x.win == x.ledger_win and x.reconciled
        assert x.hands == d.hands[t]
        # what the players lost at the table is the house's: the tray's win and the
        # commission at the banked games, the fees at Pan
        players_lost = d.sat[t] - d.stood[t]
        if game == "pan":  # the guest played the house's bots: only the fee is the table's
            assert x.win == 0 and x.fees == d.fees[t] > 0
        else:
            assert players_lost == x.win + x.commission + x.fees
    assert sum(d.hands.values()) == hands
    assert report.total.hands == sum(d.hands.values())
    assert report.total.win == sum(x.win for x in report.lines)
    assert report.total.commission == commission > 0
    assert report.reconciled
    assert {s: len(v) for s, v in report.shifts.items()} == {d.clock.shift_of(
        datetime.now(UTC)): len(d.tables)}
    # the cage: cash in and out, fills and credits, all against the cage's account
    assert (cage.cash_in, cage.cash_out) == (d.sold["cash"], d.redeemed)
    assert {k: v[1] for k, v in cage.moves.items() if k.startswith("cage-sale")} == {
        "cage-sale": d.sold["cash"], "cage-sale-debit": d.sold["debit"],
        "cage-sale-check": d.sold["check"]}
    assert cage.moves["fill"][1] == sum(d.fills.values())
    assert cage.moves["credit"][1] == sum(d.credits.values())
    # the drop counted tender by tender (WAC 230-15-500(2): cash or a debit card, no marker)
    assert cage.drop == table_books.Dropped(sum(d.drop.values()) - sum(d.drop_debit.values()),
                                            sum(d.drop_debit.values()), 0)
    assert report.total.drop_debit == sum(d.drop_debit.values()) > 0
    assert cage.reconciled
    # issue 23, "Reconciled must mean every cent": every ledger movement of the day is
    # explained by a report (house players' buy-ins and cash-outs at Pan included)
    with storage.snapshot() as conn:
        check = reconcile(conn, d.clock, d.day)
    assert check.ok, (check.unexplained, check.not_reconciled)
    # every slip numbered without a gap: an opener, a closer per table, the fills, credits
    assert slips.gaps == {}
    assert Counter(s.kind for s in slips.slips) == Counter(
        {"opener": 10, "closer": 10, **d.slips})
    # the month's records and the quarter's license report of the day (WAC 230-06-070,
    # 230-05-124): the gross gambling receipts (WAC 230-05-112) are what the players lost at
    # the banked tables and the fees they paid at Pan, and the ledger agrees to the cent
    receipts = sum(d.fees[t] if game == "pan" else d.sat[t] - d.stood[t]
                   for t, game in d.tables.items())
    with storage.snapshot() as conn:
        periods = [period_report(conn, d.clock, month(d.day.year, d.day.month)),
                   period_report(conn, d.clock, quarter(d.day.year, (d.day.month - 1) // 3 + 1))]
    for period in periods:
        assert period.reconciled, period.differences
        assert period.total.ggr == period.ledger.ggr == receipts
