"""What the cashier's window reads (issue 23, "The cage"; room/views/cage_desk.py): the receipt of a
sale or a redemption, numbered by its ledger transaction; a person's day at the cage; the
cashier's drawer; the cage's latest movements, fills and credits included."""

from __future__ import annotations

from datetime import UTC, datetime

from cardroom.room.books import table_books
from cardroom.room.books.cashier import redeem_chips, sell_chips
from cardroom.room.books.operations_report import cage_report
from cardroom.room.storage.db import Storage
from cardroom.room.views import cage_desk

from .rooms import cage_room, open_for_play


def test_the_drawer_counts_cash_apart_from_slips_checks_and_chips() -> None:
    """A debit card's slip and a check are not cash (WAC 230-06-035 tenders); the drawer's
    cash is what was taken in cash less what was paid out."""
    drawer = cage_desk.drawer({"cage-sale": 50_000, "cage-sale-debit": 20_000,
                               "cage-sale-check": 30_000, "cage-redeem": 12_500,
                               "fill": 100_000, "credit": 40_000})
    assert (drawer.cash_in, drawer.debit, drawer.checks, drawer.cash_out) == (
        50_000, 20_000, 30_000, 12_500)
    assert (drawer.fills, drawer.credits, drawer.cash) == (100_000, 40_000, 37_500)
    assert cage_desk.drawer({}).cash == 0


def test_receipts_a_persons_day_and_the_latest_movements(storage: Storage) -> None:
    room, p, t = cage_room(storage)
    assert t is not None
    open_for_play(room, t)
    clock = room.settings.clock
    today = clock.day_of(datetime.now(UTC))
    with storage.unit() as conn:
        sale = sell_chips(conn, p["cathy"], p["alice"], 30_000, "s1", "debit")
        paid = redeem_chips(conn, p["colin"], p["alice"], 5_000, "r1")
        sell_chips(conn, p["cathy"], p["bob"], 7_500, "s2")
        table_books.fill(conn, t, p["cathy"], p["dan"], p["fiona"], 100_000)
    with storage.read() as conn:
        receipt = cage_desk.receipt(conn, sale.tx_id)
        redeemed = cage_desk.receipt(conn, paid.tx_id)
        day = cage_desk.person_day(conn, clock, p["alice"], today)
        latest = cage_desk.recent(conn)
        drawer = cage_desk.drawer(cage_report(conn, clock, today).by_cashier["cathy"])
    assert receipt is not None and redeemed is not None
    assert (receipt.move.number, receipt.move.player, receipt.move.amount) == (
        sale.tx_id, "alice", 30_000)
    assert (receipt.move.tender, receipt.move.cashier, receipt.patron_name) == (
        "debit card", "cathy", "Alice")
    assert (redeemed.move.words, redeemed.move.tender, redeemed.move.cashier) == (
        "chips redeemed", None, "colin")
    assert [m.number for m in day.moves] == [sale.tx_id, paid.tx_id]
    assert (day.bought, day.redeemed, day.holds) == (30_000, 5_000, 25_000)
    assert [(m.kind, m.with_whom, m.amount) for m in latest] == [
        ("fill", "Mini 1", 100_000), ("cage-sale", "bob", 7_500),
        ("cage-redeem", "alice", 5_000), ("cage-sale-debit", "alice", 30_000)]
    assert (drawer.cash_in, drawer.debit, drawer.fills, drawer.cash) == (
        7_500, 30_000, 100_000, 7_500)
    with storage.read() as conn:  # a fill has its numbered slip, not a player's receipt
        assert cage_desk.receipt(conn, latest[0].number) is None
        assert cage_desk.receipt(conn, 10**6) is None
