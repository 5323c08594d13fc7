"""No credit, and every chip sale's tender (WAC 230-06-035, 230-15-150(1)(d), 230-15-500(2),
230-06-005, 230-15-730(4)(a)): a marker is refused at the table and at the cage; a table takes
cash or a debit card; the cage takes cash, a debit card, or a check it records, and keeps the
register of checks returned. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest

from cardroom.room.books import checks, table_books
from cardroom.room.books.cashier import sell_chips
from cardroom.room.books.checks import Check
from cardroom.room.books.operations_report import cage_report, games_report, hold_chart, hold_span
from cardroom.room.storage.db import Storage
from cardroom.room.storage.settings import GamblingClock

from .cage_books import opened, refused

CLOCK = GamblingClock()
TODAY = date(2026, 3, 2)


def check(kind: str = "personal", dated: date = TODAY, number: str = "1041") -> Check:
    return Check(kind, number, "Alice Liddell", "First Bank of Tacoma", dated)


@pytest.mark.parametrize("tender", ["marker", "Marker", "credit"])
def test_a_marker_is_credit_and_refused_at_the_table_and_the_cage(storage: Storage,
                                                                 tender: str) -> None:
    """WAC 230-06-035 (no credit to a player; payment in full before play) and
    230-15-150(1)(d) (no credit to a person buying chips): a dealer may not sell chips
    against a signed marker, nor the cage; nothing moves and the refusal is audited."""
    room, p, t = opened(storage)
    sections = r"\(WAC 230-06-035, 230-15-150\(1\)\(d\)\)"
    refused(room, p["dan"], lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["alice"], 950_000, "m1", tender),
        "a marker is credit, and a Washington card room gives no credit to a player buying "
        "chips " + sections)
    refused(room, p["cathy"], lambda c: sell_chips(
        c, p["cathy"], p["alice"], 950_000, "m2", tender), sections)


def test_a_table_takes_cash_or_a_debit_card_and_no_check(storage: Storage) -> None:
    """WAC 230-15-500(2): chips leave a tray for a player's cash or debit card; a check is
    taken at the cage only."""
    room, p, t = opened(storage)
    refused(room, p["dan"], lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["alice"], 10_000, "c1", "check"),
        r"chips at a table are paid in cash or debit card \(WAC 230-15-500\(2\)\); a check is "
        "taken at the cage")
    room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["alice"], 10_000, "d1", "debit"))
    room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["bob"], 3_000, "d2", "cash"))
    with storage.read() as conn:
        start, end = CLOCK.bounds(CLOCK.day_of(datetime.now(UTC)))
        assert table_books.dropped(conn, t, start, end) == table_books.Dropped(3_000, 10_000)


def test_markers_are_counted_only_in_a_box_that_holds_some(storage: Storage) -> None:
    """WAC 230-06-035: a count of markers in a box the books say took none is refused (the
    room took no credit that day)."""
    room, p, t = opened(storage)
    day = CLOCK.day_of(datetime.now(UTC))
    refused(room, p["cathy"], lambda c: table_books.count_drop(
        c, CLOCK, t, day, table_books.Dropped(0, 0, 5_000), p["cathy"], p["colin"]),
        r"no marker went into the drop box of Mini 1 .*\(WAC 230-06-035\)")


def test_the_cage_takes_a_check_only_as_wac_230_06_005_allows(storage: Storage) -> None:
    """WAC 230-06-005(1)(a): a personal check dated the day it is taken; (2)(a) no counter
    check and no third-party personal check; (3) a check taken otherwise is credit. The check's
    kind, number, drawer, bank and date are recorded with the sale."""
    room, p, _ = opened(storage)

    def sell(key: str, paid: Check | None, amount: int = 40_000) -> object:
        return lambda c: sell_chips(c, p["cathy"], p["alice"], amount, key, "check", paid,
                                    TODAY)

    refused(room, p["cathy"], sell("k1", check(dated=TODAY + timedelta(days=1))),
            r"a personal check must be dated the day it is taken \(2026-03-02\), not "
            r"2026-03-03 \(WAC 230-06-005\(1\)\(a\)\)")
    refused(room, p["cathy"], sell("k2", check("counter")),
            r"takes no counter check \(WAC 230-06-005\(2\)\(a\)\)")
    refused(room, p["cathy"], sell("k3", check("third-party")),
            r"takes no third-party personal check \(WAC 230-06-005\(2\)\(a\)\)")
    refused(room, p["cathy"], sell("k4", check(number="  ")),
            "write the check's number as it is on the check")
    refused(room, p["cathy"], sell("k5", None),
            "write the check's kind, number, drawer, bank and date")
    room.operate(p["cathy"], "cage.sell", sell("k6", check()))
    # a payroll check need not be dated today (230-06-005(1)(b))
    room.operate(p["cathy"], "cage.sell", sell("k7", check("payroll", TODAY - timedelta(2),
                                                           "88"), 25_000))
    with storage.read() as conn:
        [payroll, personal] = checks.register(conn)
        report = cage_report(conn, CLOCK, CLOCK.day_of(datetime.now(UTC)))
    assert personal.as_json() | {"accepted_at": None} == {
        "id": personal.id, "player": "alice", "kind": "personal", "number": "1041",
        "drawer": "Alice Liddell", "bank": "First Bank of Tacoma", "dated": "2026-03-02",
        "amount": 40_000, "accepted_by": "cathy", "accepted_at": None, "status": "accepted",
        "returned_by": None, "returned_at": None, "return_reason": None}
    assert payroll.check.kind == "payroll" and payroll.amount == 25_000
    assert room.wallet(p["alice"]) == 65_000
    # a check is not cash: the cage report counts it apart, and still reconciles
    assert report.moves["cage-sale-check"] == (2, 65_000)
    assert report.cash_in == 0 and report.reconciled


def test_a_returned_check_enters_the_register_and_stops_checks_until_repaid(
        storage: Storage) -> None:
    """WAC 230-15-730(4)(a): records of checks returned and written off; WAC 230-06-005(2)(b):
    no check from a player who owes the room for a returned personal check (cash and debit
    are still taken: they are not credit)."""
    room, p, _ = opened(storage)
    room.operate(p["cathy"], "cage.sell", lambda c: sell_chips(
        c, p["cathy"], p["alice"], 40_000, "s1", "check", check(), TODAY))
    with storage.read() as conn:
        [taken] = checks.register(conn)
    refused(room, p["cathy"], lambda c: checks.returned(c, p["cathy"], taken.id, " "),
            "say why the bank returned the check")
    room.operate(p["cathy"], "check.returned", lambda c: checks.returned(
        c, p["cathy"], taken.id, "insufficient funds"))
    refused(room, p["cathy"], lambda c: sell_chips(
        c, p["cathy"], p["alice"], 10_000, "s2", "check", check(number="1042"), TODAY),
        r"alice owes the room for returned check number 1041 \(\$400.00\), so the cage takes "
        r"no check from them until it is repaid \(WAC 230-06-005\(2\)\(b\)\)")
    room.operate(p["cathy"], "cage.sell", lambda c: sell_chips(
        c, p["cathy"], p["alice"], 10_000, "s3", "debit"))
    with storage.read() as conn:
        [back] = checks.register(conn, status="returned")
    assert (back.returned_by, back.return_reason) == ("cathy", "insufficient funds")
    refused(room, p["cathy"], lambda c: checks.settle(c, p["cathy"], taken.id, "forgiven"),
            "a returned check is settled as repaid or written off")
    room.operate(p["cathy"], "check.repaid", lambda c: checks.settle(
        c, p["cathy"], taken.id, "repaid"))
    room.operate(p["cathy"], "cage.sell", lambda c: sell_chips(
        c, p["cathy"], p["alice"], 10_000, "s4", "check", check(number="1042"), TODAY))
    with storage.read() as conn:
        assert [c.status for c in checks.register(conn)] == ["accepted", "repaid"]
        report = cage_report(conn, CLOCK, CLOCK.day_of(datetime.now(UTC)))
    assert report.moves["cage-sale-check"] == (2, 50_000)
    assert report.moves["cage-sale-debit"] == (1, 10_000)
    assert report.reconciled


def test_the_count_and_the_games_report_keep_the_tenders_apart(storage: Storage) -> None:
    """WAC 230-15-610: the drop box counted tender by tender (cash, debit card slips); the
    games report shows the drop of each tender and still reconciles with the ledger."""
    room, p, t = opened(storage)
    for key, who, amount, tender in (("d1", "alice", 20_000, "cash"),
                                     ("d2", "bob", 7_500, "debit"),
                                     ("d3", "alice", 2_500, "debit")):
        room.operate(p["dan"], "table.drop", lambda c, k=key, w=who, a=amount, x=tender:
                     table_books.drop_buy_in(c, p["dan"], t, p[w], a, k, x))
    room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
        c, t, p["dan"], p["fiona"], 470_000))
    day = CLOCK.day_of(datetime.now(UTC))
    room.operate(p["cathy"], "drop.count", lambda c: table_books.count_drop(
        c, CLOCK, t, day, table_books.Dropped(20_000, 10_000), p["cathy"], p["colin"]))
    with storage.read() as conn:
        [line] = games_report(conn, CLOCK, day).lines
        cage = cage_report(conn, CLOCK, day)
    assert (line.drop, line.drop_cash, line.drop_debit, line.drop_markers) == (
        30_000, 20_000, 10_000, 0)
    assert line.win == 470_000 - 0 + 0 - 500_000 + 30_000 and line.reconciled
    assert cage.drop == table_books.Dropped(20_000, 10_000, 0)


def test_the_hold_chart_of_one_day_spans_thirty_days_and_whole_percents(
        storage: Storage) -> None:
    """Issue 23: the 30-day hold chart of a room with one day of drop (hold 0%) had an x axis
    from -0.04 to 0.04 and a y axis as narrow; it spans the 30 gambling days, and at least
    5 points of hold either side of zero."""
    room, p, t = opened(storage)
    room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["alice"], 10_000, "d1", "cash"))
    room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
        c, t, p["dan"], p["fiona"], 490_000))
    day = CLOCK.day_of(datetime.now(UTC))
    with storage.read() as conn:
        assert games_report(conn, CLOCK, day).lines[0].hold == 0
        svg = hold_chart(conn, CLOCK, day)
    ticks = re.findall(r">([\u2212\d.]+)</text>", svg)
    assert "\u22120.04" not in ticks and "0.04" not in ticks
    assert {"\u221225", "\u22125", "0"} <= set(ticks) and "4" in ticks
    assert hold_span([]) == (-5.0, 5.0) and hold_span([20.0, 40.0]) == (-5.0, 45.0)
