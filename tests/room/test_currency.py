"""Currency transactions, the multiple transaction log and currency transaction reports (issue
22, "Currency transactions"; 31 CFR 1021.311, 1021.313, 1010.312, 1021.410): every cash
movement is a currency transaction of the player's patron, derived from the ledger; cash in and
cash out are summed apart per gaming day, never netted; the transaction that takes a side over
$10,000 is refused until the patron's identity is on file, then completes and opens a report
due 15 days later. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import date, timedelta

import pytest
from sqlalchemy import delete, select, update
from sqlalchemy.engine import Connection

from cardroom.profile import profile_in_force
from cardroom.room.books import table_books
from cardroom.room.books.cashier import redeem_chips, sell_chips
from cardroom.room.compliance import currency
from cardroom.room.compliance.currency import IdentityRequired
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Account, Role, create_account
from cardroom.room.people.patrons import NewDocument, NewPatron
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage, make_engine
from cardroom.room.storage.errors import PermissionDenied
from cardroom.room.storage.schema import currency_reports, currency_transactions
from cardroom.room.trust import integrity

from .cage_books import opened, refused
from .cash_days import KEY, NINE, drop, identify, patron_for, redeem, sell, today
from .people import OF_AGE

NEUTRAL = "The cashier needs to see you before this buy-in."


def second_table(room: Room, p: dict[str, Account]) -> int:
    t2 = room.create_table(p["olivia"], "Mini 2", "baccarat").table_id
    room.operate(p["fiona"], "table.open",
                 lambda c: table_books.open_table(c, t2, p["dan"], p["fiona"], 0))
    return t2


def test_the_figures_are_profile_data_with_their_sections() -> None:
    """31 CFR 1021.311 ($10,000), 1010.306(a)(1) (15 days), 1010.430(d) (5 years) and the
    multiple transaction log's floor ($3,000) are figures of the profile, with sections."""
    p = profile_in_force()
    day = date(2026, 3, 2)
    assert p.ctr_threshold.on(day).cents == 1_000_000
    assert "31 CFR 1021.311" in p.ctr_threshold.section
    assert p.mtl_floor.on(day).cents == 300_000 and "1021.210" in p.mtl_floor.section
    assert p.ctr_due_days.on(day).days == 15 and "1010.306" in p.ctr_due_days.section
    assert p.records_years.on(day).years == 5 and "1010.430" in p.records_years.section
    assert currency.due_on(day) == date(2026, 3, 17)


def test_cash_over_10000_is_refused_until_identity_then_opens_a_report(
        storage: Storage) -> None:
    """31 CFR 1021.311 and 1010.312: three $9,000 cash buys by one patron in one gaming day
    (the cage, a table, the cage). The buy that takes the day's cash in over $10,000 (the
    second: $18,000) is refused, changing nothing, while the patron's identity is not on file;
    the cashier sees why, the player's sentence says nothing of it. With the taxpayer id and
    a licence on file it completes, and so does the third, and one report item is open for
    the day, due 15 days later, with the three transactions ($27,000 cash in)."""
    room, p, t = opened(storage)
    pid = patron_for(room, p)
    sell(room, p, NINE, "s1")
    with pytest.raises(IdentityRequired) as refusal:
        drop(room, p, t, NINE, "d1")
    assert "31 CFR 1021.311" in str(refusal.value) and "1010.312" in str(refusal.value)
    assert "$18,000.00" in str(refusal.value) and "Alice's cash in" in str(refusal.value)
    assert refusal.value.player_sentence == NEUTRAL
    refused(room, p["cathy"], lambda c: sell_chips(c, p["cathy"], p["alice"], NINE, "s2"),
            r"over the \$10,000.00 that needs a currency transaction report", IdentityRequired)
    with storage.read() as conn:
        assert [x.amount for x in currency.patron_day(conn, pid, today())] == [NINE]
        assert currency.reports(conn) == []
    identify(room, p, pid)
    drop(room, p, t, NINE, "d1")
    sell(room, p, NINE, "s2")
    with storage.read() as conn:
        [report] = currency.reports(conn, pending=True)
        assert (report.patron_id, report.gaming_day, report.due) == (
            pid, today(), today() + timedelta(days=15))
        assert report.cash_in_over and not report.cash_out_over
        assert [(x.amount, x.where) for x in report.contributing] == [
            (NINE, "cage"), (NINE, f"table {t} (Mini 1)"), (NINE, "cage")]
        assert report.totals == currency.Totals(3 * NINE, 0)
        assert integrity.check(conn).problems == ()


def test_cash_in_and_cash_out_are_summed_apart_never_netted(storage: Storage) -> None:
    """31 CFR 1021.313: cash in and cash out are aggregated separately. $9,000 bought and
    $9,000 redeemed nets to nothing, yet $2,000 more cash in takes the cash in to $11,000 and
    is refused; a debit card is not currency, but the $12,000 of chips it bought, redeemed for
    cash, takes the cash out over $10,000 and is refused too."""
    room, p, t = opened(storage)
    patron_for(room, p)
    sell(room, p, NINE, "s1")
    redeem(room, p, NINE, "r1")
    refused(room, p["dan"], lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["alice"], 200_000, "d1"), r"cash in .* to \$11,000.00",
        IdentityRequired)
    sell(room, p, 1_200_000, "s2", tender="debit")
    refused(room, p["cathy"], lambda c: redeem_chips(c, p["cathy"], p["alice"], 1_200_000,
                                                     "r2"),
            r"cash out .* to \$21,000.00", IdentityRequired)
    with storage.read() as conn:
        held = currency.totals(conn, today(), account_id=p["alice"].id,
                               patron_id=patrons.patron_of(conn, p["alice"].id).id)  # type: ignore[union-attr]
    assert held == currency.Totals(NINE, NINE)


def test_a_player_without_a_patron_is_held_at_the_threshold_too(storage: Storage) -> None:
    """31 CFR 1010.312: cash an account the cage never identified hands a dealer counts by the
    account; over $10,000 it is refused (there is no identity on file), and once the account
    is linked to a patron, its earlier cash counts with the patron's."""
    room, p, t = opened(storage)
    with storage.unit() as conn:
        p["carol"] = create_account(conn, "carol", "correct horse", Role.PLAYER)
    drop(room, p, t, NINE, "d1", who="carol")
    refused(room, p["dan"], lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["carol"], NINE, "d2"), "has not yet recorded who this player is",
        IdentityRequired)
    with storage.unit() as conn:
        carol = patrons.create(conn, p["cathy"], NewPatron(
            "Carol Ann", "3 Main St, Tacoma WA", date(1975, 1, 2), "987-65-4321",
            (NewDocument("passport", "C-1", "United States", date(2040, 1, 1)),)), KEY)
        patrons.link_account(conn, p["cathy"], p["carol"].id, carol.id)
        assert currency.totals(conn, today(), patron_id=carol.id).cash_in == NINE
    drop(room, p, t, NINE, "d2", who="carol")
    with storage.read() as conn:
        assert [r.patron_id for r in currency.reports(conn)] == [carol.id]
        assert [x.amount for x in currency.reports(conn)[0].contributing] == [NINE, NINE]


def test_the_multiple_transaction_log_keeps_running_totals_per_direction(
        storage: Storage) -> None:
    """31 CFR 1021.210(b) (the multiple transaction log): every cash transaction of $3,000 or
    more, with the patron's running total for the gaming day in its direction (the cash under
    the floor counted in the total), cash in and cash out apart; debit is not currency."""
    room, p, t = opened(storage)
    pid = patron_for(room, p, identity=True)
    sell(room, p, 200_000, "s1")
    drop(room, p, t, 300_000, "d1")
    sell(room, p, 500_000, "s2", tender="debit")
    redeem(room, p, 400_000, "r1")
    sell(room, p, 350_000, "s3")
    redeem(room, p, 299_999, "r2")
    with storage.read() as conn:
        lines = currency.log(conn, today())
        every = currency.patron_day(conn, pid, today())
    assert [(x.transaction.direction, x.transaction.amount, x.running) for x in lines] == [
        ("in", 300_000, 500_000), ("out", 400_000, 400_000), ("in", 350_000, 850_000)]
    assert [x.transaction.kind for x in lines] == [
        "chip-purchase", "chip-redemption", "chip-purchase"]
    assert {x.transaction.employee for x in lines} == {"dan", "cathy"}
    assert len(every) == 5 and all(x.gaming_day == today() for x in every)


def test_concurrent_cash_at_the_cage_and_two_tables_cannot_slip_past(storage: Storage) -> None:
    """31 CFR 1021.311 and 1010.312, checked inside the writing transaction: $5,000 of cash
    bought for one patron at the cage and at two tables at once (threads). Two complete
    ($10,000 is not over), the third is refused: however they interleave, the day's cash in
    never goes over $10,000 while the identity is not on file."""
    room, p, t = opened(storage)
    t2 = second_table(room, p)
    pid = patron_for(room, p)
    start = threading.Barrier(3)
    outcome: list[str] = []

    def buy(work: object) -> None:
        start.wait()
        try:
            assert callable(work)
            work()
            outcome.append("done")
        except IdentityRequired:
            outcome.append("refused")

    works = [lambda: sell(room, p, 500_000, "c1"), lambda: drop(room, p, t, 500_000, "t1"),
             lambda: drop(room, p, t2, 500_000, "t2")]
    threads = [threading.Thread(target=buy, args=(w,)) for w in works]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    assert sorted(outcome) == ["done", "done", "refused"]
    with storage.read() as conn:
        assert currency.totals(conn, today(), patron_id=pid).cash_in == 1_000_000
        assert currency.reports(conn) == []
        assert integrity.check(conn).problems == ()


def test_three_servers_on_one_database_cannot_slip_past_either(db_url: str,
                                                              storage: Storage) -> None:
    """31 CFR 1021.311 and 1010.312, across processes: the cage on one server and the two
    tables on two others (three engines on one database, so no process lock is shared: on
    PostgreSQL the advisory lock orders them, on SQLite the database's write lock, taken by
    the ledger post before the day's total is read). Two of three $5,000 buys complete."""
    room, p, t = opened(storage)
    t2 = second_table(room, p)
    pid = patron_for(room, p)
    sell(room, p, 100, "debit", tender="debit")  # every ledger account exists beforehand
    room.operate(p["cathy"], "table.fill", lambda c: table_books.fill(
        c, t2, p["cathy"], p["dan"], p["fiona"], 100_000))
    others = [Room(Storage(make_engine(db_url))) for _ in range(2)]
    start = threading.Barrier(3)
    outcome: list[str] = []

    def buy(where: Room, work: Callable[[Connection], object]) -> None:
        start.wait()
        try:
            where.operate(p["dan"], "test.buy", work)
            outcome.append("done")
        except IdentityRequired:
            outcome.append("refused")

    works: list[tuple[Room, Callable[[Connection], object]]] = [
        (room, lambda c: sell_chips(c, p["cathy"], p["alice"], 500_000, "c1")),
        (others[0], lambda c: table_books.drop_buy_in(c, p["dan"], t, p["alice"], 500_000,
                                                      "t1")),
        (others[1], lambda c: table_books.drop_buy_in(c, p["dan"], t2, p["alice"], 500_000,
                                                      "t2"))]
    threads = [threading.Thread(target=buy, args=w) for w in works]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    for other in others:
        other.storage.engine.dispose()
    assert sorted(outcome) == ["done", "done", "refused"]
    with storage.read() as conn:
        assert currency.totals(conn, today(), patron_id=pid).cash_in == 1_000_000
        assert integrity.check(conn).problems == ()


def test_a_retry_records_nothing_twice_and_the_rows_are_held_to_the_ledger(
        storage: Storage) -> None:
    """31 CFR 1021.410(b)(11): the records of currency transactions agree with the ledger; a
    retried request adds no row; a row deleted, edited or a report item removed is found by
    `audit verify` (records are never deleted)."""
    room, p, t = opened(storage)
    pid = patron_for(room, p, identity=True)
    sell(room, p, 600_000, "s1")
    sell(room, p, 600_000, "s1")
    drop(room, p, t, 600_000, "d1")
    with storage.read() as conn:
        assert len(currency.patron_day(conn, pid, today())) == 2
        assert currency.problems(conn) == []
    with storage.unit() as conn:
        conn.execute(update(currency_transactions).where(
            currency_transactions.c.place == "cage").values(kind="payout"))
        conn.execute(delete(currency_reports))
    with storage.read() as conn:
        found = currency.problems(conn)
    assert any("edited in the database" in x for x in found)
    assert any("no currency transaction report item" in x for x in found)
    with storage.unit() as conn:
        conn.execute(delete(currency_transactions))
    with storage.read() as conn:
        assert any("has no currency transaction" in x for x in currency.problems(conn))


def test_a_report_is_filed_after_its_day_and_overdue_after_15_days(storage: Storage) -> None:
    """31 CFR 1010.306(a)(1): a report is due 15 days after the gaming day; it is overdue
    while pending after that; the compliance officer files it (with FinCEN's reference) once
    the gaming day has ended; a cashier may not."""
    room, p, _t = opened(storage)
    pid = patron_for(room, p, identity=True)
    sell(room, p, 1_000_001, "s1")
    with storage.unit() as conn:
        connie = create_account(conn, "connie", "correct horse", Role.COMPLIANCE)
    with storage.read() as conn:
        [r] = currency.reports(conn)
    assert r.patron_id == pid and r.status == "pending"
    assert not r.overdue(r.due) and r.overdue(r.due + timedelta(days=1))
    with storage.unit() as conn, pytest.raises(currency.ReportError, match="has not ended"):
        currency.file_report(conn, connie, r.id, "BSA-1", today())
    with storage.unit() as conn, pytest.raises(PermissionDenied):
        currency.file_report(conn, p["cathy"], r.id, "BSA-1", today() + timedelta(days=1))
    with storage.unit() as conn:
        filed = currency.file_report(conn, connie, r.id, "BSA 31000123",
                                     today() + timedelta(days=1))
    assert (filed.status, filed.reference, filed.filed_by) == ("filed", "BSA 31000123",
                                                                "connie")
    with storage.read() as conn:
        assert currency.reports(conn, pending=True) == []
        assert not filed.overdue(filed.due + timedelta(days=9))


def test_the_form_shows_the_taxpayer_id_only_to_compliance_with_the_key(
        storage: Storage) -> None:
    """FinCEN Form 112 (31 CFR 1021.311): the person, identity, amounts by kind, the day and
    the room as filer; the taxpayer id and document number in clear only for the compliance
    officer with the identity key (the owner sees that they are on file)."""
    room, p, t = opened(storage)
    patron_for(room, p, identity=True)
    sell(room, p, 700_000, "s1")
    drop(room, p, t, 400_000, "d1")
    with storage.unit() as conn:
        connie = create_account(conn, "connie", "correct horse", Role.COMPLIANCE)
        rid = currency.reports(conn)[0].id
        owners = currency.form(conn, p["olivia"], rid, KEY)
        officers = currency.form(conn, connie, rid, KEY)
        with pytest.raises(PermissionDenied):
            currency.form(conn, p["cathy"], rid, KEY)
    licence = f"T{p['alice'].id:06d}ALICE"
    assert "123456789" not in str(owners) and licence not in str(owners)
    assert officers["person"]["taxpayer_id"] == "123456789"
    assert officers["person"]["identity_documents"][0]["number"] == licence
    assert officers["cash_in"] == {"chip-purchase": 1_100_000, "bet-of-currency": 0,
                                   "total": 1_100_000}
    assert officers["cash_out"] == {"total": 0}
    assert officers["person"]["date_of_birth"] == OF_AGE.isoformat()
    assert set(officers["filer"]) == {"name", "address", "ein"}
    assert len(officers["transactions"]) == 2


def test_the_rows_are_never_updated_by_the_room(storage: Storage) -> None:
    """31 CFR 1021.410: the room only adds currency rows; a report item changes only when it is
    filed (the row count and the amounts before stay as they were after more play)."""
    room, p, t = opened(storage)
    patron_for(room, p, identity=True)
    sell(room, p, 400_000, "s1")
    with storage.read() as conn:
        before = conn.execute(select(currency_transactions)).all()
    drop(room, p, t, 400_000, "d1")
    with storage.read() as conn:
        after = conn.execute(select(currency_transactions)).all()
    assert after[:1] == before and len(after) == 2
