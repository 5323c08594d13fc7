"""Tables as a Washington card room runs them (WAC 230-15-495 to -535, -090, -610): openers
and closers signed by dealer and floor, fills and credits signed by cashier, dealer and floor,
the drop and its count by two counters, numbered slips voided but never deleted, and every
refusal audited and changing nothing. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import delete

from cardroom.errors import CardroomError
from cardroom.room.books import operations_report, reconcile, table_books
from cardroom.room.books.cashier import buy_chips, redeem_chips, sell_chips
from cardroom.room.money import ledger
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import PermissionDenied
from cardroom.room.storage.schema import table_slips
from cardroom.room.storage.settings import GamblingClock, RoomSettings

from .cage_books import opened, refused
from .rooms import cage_room

CLOCK = GamblingClock()


def test_players_do_not_sell_themselves_chips_unless_the_house_says_so(
        storage: Storage) -> None:
    """The cage sells and redeems chips; self-service only in a demonstration room."""
    room, p, _ = cage_room(storage)
    refused(room, p["alice"], lambda c: buy_chips(c, RoomSettings(), p["alice"], 100, "k"),
            "at the cage", PermissionDenied)
    room.operate(p["cathy"], "cage.sell",
                 lambda c: sell_chips(c, p["cathy"], p["alice"], 30_000, "s1"))
    room.operate(p["cathy"], "cage.redeem",
                 lambda c: redeem_chips(c, p["cathy"], p["alice"], 10_000, "r1"))
    assert room.wallet(p["alice"]) == 20_000
    refused(room, p["dan"], lambda c: sell_chips(c, p["dan"], p["alice"], 100, "s2"),
            "may not run the cage", PermissionDenied)
    refused(room, p["cathy"], lambda c: redeem_chips(c, p["cathy"], p["alice"], 20_001, "r2"),
            "not enough")
    refused(room, p["cathy"], lambda c: sell_chips(c, p["cathy"], p["fiona"], 100, "s3"),
            "not a player")
    with storage.read() as conn:
        assert [e.action for e in audit.entries(conn)
                if e.action.startswith("cage.")] == ["cage.sell", "cage.redeem"]
        assert ledger.trial_balance(conn).ok


def test_opening_closing_and_a_fill_move_the_books_on_numbered_slips(
        storage: Storage) -> None:
    """WAC 230-15-495, -510 to -535: opener, fill, closer, each numbered in its series."""
    room, p, t = opened(storage)
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.tray(t)) == 500_000
        assert ledger.balance(conn, ledger.HOUSE_CAGE) == -500_000
        slips = table_books.slips(conn)
    assert [(s.series, s.number, s.kind) for s in slips] == [("fill", 1, "fill"),
                                                              ("inventory", 1, "opener")]
    fill = slips[0]
    assert (fill.cashier, fill.dealer, fill.floor) == ("cathy", "dan", "fiona")
    closer = room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
        c, t, p["dan"], p["fiona"], 500_000))
    assert (closer.series, closer.number, closer.kind) == ("inventory", 2, "closer")
    again = room.operate(p["gus"], "table.open", lambda c: table_books.open_table(
        c, t, p["dan"], p["gus"], 500_000))
    assert again.error is None and again.expected == 500_000


def test_an_opening_count_short_of_the_closer_is_a_notification_of_error(
        storage: Storage) -> None:
    """WAC 230-15-495: a discrepancy is reported on a signed notification of error; the books
    take the counted tray, the difference kept apart from the win."""
    room, p, t = opened(storage)
    room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
        c, t, p["dan"], p["fiona"], 500_000))
    opening = room.operate(p["fiona"], "table.open", lambda c: table_books.open_table(
        c, t, p["dan"], p["fiona"], 499_000))
    assert opening.error is not None
    assert (opening.error.series, opening.error.number, opening.error.amount) == \
        ("error", 1, -1_000)
    assert "$10.00 short of the last closer ($5,000.00)" in opening.error.note
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.tray(t)) == 499_000
        assert ledger.balance(conn, ledger.HOUSE_VARIANCE) == 1_000
        assert [e.action for e in audit.entries(conn)][-2:] == ["ledger.tx", "slip.error"]


def test_wac_230_15_535_a_short_closing_count_is_a_variance_on_the_closer(
        storage: Storage) -> None:
    """WAC 230-15-535 (the closer is the tray as counted) and -495 (an error is reported on a
    notification of error): a closing count short of the books is recorded, not refused
    into a recount (issue 23): the closer holds the count, a notification of error names the
    shortage and the closers, the books' tray is set to the count (the difference kept apart,
    `house:tray-variance`), and the games report's win (by the identity, on the count) still
    reconciles with the ledger's play plus the recorded variance. Voiding the closer reverses
    the variance with it."""
    room, p, t = opened(storage)
    closer = room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
        c, t, p["dan"], p["fiona"], 499_000))
    assert closer.amount == 499_000 and t in room.closed
    with storage.read() as conn:
        (error,) = table_books.slips(conn, series="error")
        assert ledger.balance(conn, ledger.tray(t)) == 499_000
        assert ledger.balance(conn, ledger.HOUSE_VARIANCE) == 1_000
        assert table_books.closing_variance(conn, closer) == -1_000
        report = operations_report.games_report(conn, CLOCK, CLOCK.day_of(datetime.now(UTC)))
    assert error.amount == -1_000 and error.opener_id == closer.id
    assert error.note == ("Mini 1: the closing count $4,990.00 is $10.00 short of the books "
                          "($5,000.00); recorded on the closer signed by dan and fiona, "
                          "reported to the shift manager")
    (line,) = report.lines
    assert (line.closer, line.fills, line.variance, line.ledger_win) == (
        499_000, 500_000, -1_000, 0)
    assert line.win == -1_000 and line.reconciled and report.reconciled
    with storage.read() as conn:
        assert reconcile.reconcile(conn, CLOCK, CLOCK.day_of(datetime.now(UTC))).ok
    opening = room.operate(p["fiona"], "table.open", lambda c: table_books.open_table(
        c, t, p["dan"], p["fiona"], 499_000))
    assert opening.error is None  # the next opener is counted against the count
    room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
        c, t, p["dan"], p["fiona"], 499_000))
    room.operate(p["fiona"], "slip.void", lambda c: table_books.void_slip(
        c, p["fiona"], "inventory", 4, "counted the wrong rack"))
    room.operate(p["fiona"], "slip.void", lambda c: table_books.void_slip(
        c, p["fiona"], "inventory", 3, "reopen"))
    room.operate(p["fiona"], "slip.void", lambda c: table_books.void_slip(
        c, p["fiona"], "inventory", closer.number, "the rack was miscounted"))
    with storage.read() as conn:
        assert table_books.find_slip(conn, "error", error.number).status == "void"
        assert ledger.balance(conn, ledger.tray(t)) == 500_000
        assert ledger.balance(conn, ledger.HOUSE_VARIANCE) == 0


def test_signatures_are_two_or_three_different_people_who_may_sign(storage: Storage) -> None:
    room, p, t = cage_room(storage)
    assert t is not None
    refused(room, p["fiona"], lambda c: table_books.open_table(c, t, p["fiona"], p["fiona"], 0),
            "the dealer and the floor must be different people: fiona cannot sign one slip "
            "twice")
    refused(room, p["alice"], lambda c: table_books.open_table(c, t, p["dan"], p["alice"], 0),
            "alice is a player and may not sign as a floor supervisor", PermissionDenied)
    refused(room, p["dan"], lambda c: table_books.open_table(c, t, p["cathy"], p["fiona"], 0),
            "cathy is a cashier and may not sign as a dealer", PermissionDenied)
    room.operate(p["fiona"], "table.open",
                 lambda c: table_books.open_table(c, t, p["dan"], p["fiona"], 0))
    refused(room, p["dan"], lambda c: table_books.fill(c, t, p["dan"], p["gus"], p["fiona"],
                                                         100), "dan is a dealer and may not "
            "sign as a cashier", PermissionDenied)
    refused(room, p["cathy"], lambda c: table_books.fill(c, t, p["cathy"], p["fiona"],
                                                           p["fiona"], 100),
            "the dealer and the floor must be different people")


def test_bad_fills_and_slip_numbers_are_plain_sentences(storage: Storage) -> None:
    room, p, t = opened(storage)
    sign = (p["cathy"], p["dan"], p["fiona"])
    refused(room, p["cathy"], lambda c: table_books.fill(c, t, *sign, -500),
            "a fill must be more than nothing")
    refused(room, p["cathy"], lambda c: table_books.credit(c, t, *sign, 600_000),
            r"the tray of Mini 1 holds \$5,000.00: it cannot credit \$6,000.00 to the cage")
    refused(room, p["cathy"], lambda c: table_books.fill(c, t, *sign, 100, number=1),
            "fill slip number 1 is already used: the next one is number 2")
    refused(room, p["cathy"], lambda c: table_books.fill(c, t, *sign, 100, number=5),
            "fill slip number 5 would leave a gap: the next one is number 2")
    slip = room.operate(p["cathy"], "table.fill",
                        lambda c: table_books.fill(c, t, *sign, 100, number=2))
    assert slip.number == 2


def test_a_voided_fill_is_reversed_and_kept(storage: Storage) -> None:
    """WAC 230-15-535: an error is voided (who, why) and sent to accounting, never
    destroyed; the void reverses the fill in the ledger."""
    room, p, t = opened(storage)
    refused(room, p["dan"], lambda c: table_books.void_slip(c, p["dan"], "fill", 1, "typo"),
            "may not void", PermissionDenied)
    refused(room, p["fiona"], lambda c: table_books.void_slip(c, p["fiona"], "fill", 1, " "),
            "say why the slip is voided")
    void = room.operate(p["fiona"], "slip.void", lambda c: table_books.void_slip(
        c, p["fiona"], "fill", 1, "wrong table"))
    assert (void.status, void.voided_by, void.void_reason) == ("void", "fiona", "wrong table")
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.tray(t)) == 0
        assert ledger.balance(conn, ledger.HOUSE_CAGE) == 0
        assert len(table_books.slips(conn, series="fill")) == 1
    refused(room, p["fiona"], lambda c: table_books.void_slip(c, p["fiona"], "fill", 1, "x"),
            "fill slip number 1 is already void")


def test_a_fill_of_a_closed_inventory_cannot_be_voided(storage: Storage) -> None:
    room, p, t = opened(storage)
    room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
        c, t, p["dan"], p["fiona"], 500_000))
    refused(room, p["fiona"], lambda c: table_books.void_slip(c, p["fiona"], "fill", 1, "x"),
            "Mini 1 has closed since fill slip number 1: correct it with a new slip")
    closer = room.operate(p["fiona"], "slip.void", lambda c: table_books.void_slip(
        c, p["fiona"], "inventory", 2, "miscounted"))
    assert closer.status == "void" and t not in room.closed  # open again: count anew


def test_a_closed_table_refuses_play_and_chips(storage: Storage) -> None:
    room, p, t = opened(storage)
    room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
        c, t, p["dan"], p["fiona"], 500_000))
    assert t in room.closed
    with pytest.raises(CardroomError, match="Mini 1 is closed: the floor opens it"):
        room.act(p["alice"], t, {"type": "sit", "buy_in": 100, "key": "k"})
    refused(room, p["cathy"], lambda c: table_books.fill(
        c, t, p["cathy"], p["dan"], p["fiona"], 100), "Mini 1 is closed")


def test_wac_230_15_495_no_house_banked_table_plays_before_its_opener(storage: Storage) -> None:
    """WAC 230-15-495/-500: the tray is counted and the opener signed before a house-banked
    table takes a seat, a wager or deals; a new table is closed until then, after a restart
    too. Pan, which the house does not bank, keeps no tray and plays without one (issue 23)."""
    room, p, t = cage_room(storage)
    assert t is not None and t in room.closed
    with room.storage.unit() as conn:
        sell_chips(conn, p["cathy"], p["alice"], 50_000, "sale", tender="cash")
    for msg in ({"type": "sit", "buy_in": 10_000, "key": "s"}, {"type": "deal"},
                {"type": "bet", "bets": {"banker": 1_000}, "key": "b"}):
        with pytest.raises(CardroomError, match="Mini 1 is closed: the floor opens it"):
            room.act(p["alice"], t, msg)
    again = Room(storage)
    again.start()
    assert t in again.closed
    pan = room.create_table(p["olivia"], "Pan 1", "pan").table_id
    assert pan not in room.closed
    room.operate(p["fiona"], "table.open",
                 lambda c: table_books.open_table(c, t, p["dan"], p["fiona"], 0))
    assert t not in room.closed
    room.act(p["alice"], t, {"type": "sit", "buy_in": 10_000, "key": "s"})


def test_the_drop_and_its_count_by_two_counters(storage: Storage) -> None:
    """WAC 230-15-090, -610: cash (or a debit card, -500(2)) for chips at the table goes to
    the drop box; the box is counted by two people, tender by tender, and set against the
    ledger."""
    room, p, t = opened(storage)
    room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["alice"], 20_000, "d1"))
    room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["bob"], 5_000, "d2", tender="debit"))
    assert room.wallet(p["alice"]) == 20_000
    refused(room, p["alice"], lambda c: table_books.drop_buy_in(
        c, p["alice"], t, p["alice"], 100, "d3"), "may not deal", PermissionDenied)
    day = CLOCK.day_of(datetime.now(UTC))
    counted = table_books.Dropped(cash=19_900, debit=5_000)
    refused(room, p["cathy"], lambda c: table_books.count_drop(
        c, CLOCK, t, day, counted, p["cathy"], p["cathy"]),
        "a drop box is counted by two different people: cathy cannot count it twice")
    refused(room, p["dan"], lambda c: table_books.count_drop(
        c, CLOCK, t, day, counted, p["dan"], p["cathy"]),
        "dan is a dealer and may not count a drop box", PermissionDenied)
    count = room.operate(p["cathy"], "drop.count", lambda c: table_books.count_drop(
        c, CLOCK, t, day, counted, p["cathy"], p["colin"]))
    assert (count.expected, count.variance) == (25_000, -100)
    refused(room, p["cathy"], lambda c: table_books.count_drop(
        c, CLOCK, t, day, counted, p["cathy"], p["colin"]), "already counted")


def test_the_numbers_of_every_series_have_no_gap(storage: Storage) -> None:
    """WAC 230-15-510 to -530: slips used in order and all accounted for; a slip taken out
    of the books behind the room's back shows as a gap."""
    room, p, t = opened(storage)
    room.operate(p["cathy"], "table.fill", lambda c: table_books.fill(
        c, t, p["cathy"], p["dan"], p["fiona"], 100))
    with storage.read() as conn:
        assert table_books.gaps(conn) == {}
    with storage.unit() as conn:
        conn.execute(delete(table_slips).where(table_slips.c.series == "fill",
                                               table_slips.c.number == 1))
    with storage.read() as conn:
        assert table_books.gaps(conn) == {"fill": [1]}
