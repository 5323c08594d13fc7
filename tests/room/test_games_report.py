"""The games report per shift and the room-wide reconciliation of a gambling day (issue 23,
"Books that must not lie"; WAC 230-15-495 to -535 and -610, the win identity of the daily
games report, docs/operations.md). Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from cardroom.room.books import operations_report, reconcile, table_books
from cardroom.room.books.cashier import sell_chips
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.settings import SHIFTS, GamblingClock

from .cage_books import opened


def _play(room: Room, p: dict[str, Account], t: int, hands: int, tag: str) -> None:
    """alice (seated) wagers $10 on the banker and the dealer deals, `hands` times."""
    for i in range(hands):
        room.act(p["alice"], t, {"type": "bet", "bets": {"banker": 1_000}, "key": f"{tag}{i}"})
        room.act(p["dan"], t, {"type": "deal"})


def _close(room: Room, p: dict[str, Account], t: int) -> None:
    with room.storage.read() as conn:
        held = ledger.balance(conn, ledger.tray(t))
    room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
        c, t, p["dan"], p["fiona"], held))


def two_shifts(storage: Storage) -> tuple[Room, dict[str, Account], int, GamblingClock]:
    """Mini 1 opened and filled; alice buys $100 at the table (the drop) and $500 at the cage;
    two hands, the table closed; then (the swing shift over) opened again, three hands,
    closed; the drop box counted. The clock returned puts the end of the swing shift between
    the two inventories (the day starting 16 hours before it)."""
    room, p, t = opened(storage)
    with storage.unit() as conn:
        sell_chips(conn, p["cathy"], p["alice"], 50_000, "sale")
    room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["alice"], 10_000, "d1"))
    room.act(p["alice"], t, {"type": "sit", "buy_in": 40_000, "key": "s"})
    _play(room, p, t, 2, "a")
    _close(room, p, t)
    time.sleep(0.01)
    boundary = datetime.now(UTC)
    time.sleep(0.01)
    with storage.read() as conn:
        closer = table_books.last_closer(conn, t)
    assert closer is not None
    room.operate(p["fiona"], "table.open", lambda c: table_books.open_table(
        c, t, p["dan"], p["fiona"], closer.amount))
    _play(room, p, t, 3, "b")
    _close(room, p, t)
    clock = GamblingClock(ZoneInfo("UTC"), (boundary - timedelta(hours=16)).time())
    day = clock.day_of(boundary)
    room.operate(p["cathy"], "drop.count", lambda c: table_books.count_drop(
        c, clock, t, day, table_books.Dropped(cash=10_000), p["cathy"], p["colin"]))
    return room, p, t, clock


def test_every_figure_is_given_per_shift(storage: Storage) -> None:
    """Issue 23: a graveyard shift's line showed commission $0, jackpot $0, hands 0 and the
    drop "not counted" though it was. Each shift's line carries every figure of the day's
    (docs/operations.md, "Win, the gambling day and the shifts": the win by the shift its
    inventory closed in; fees, commission, jackpot and hands by the moment they happened);
    the shifts add up to the day."""
    clock = two_shifts(storage)[3]
    day = clock.day_of(datetime.now(UTC))
    with storage.read() as conn:
        report = operations_report.games_report(conn, clock, day)
        commission = {}
        for shift in SHIFTS:
            start, end = clock.shift_bounds(day, shift)
            commission[shift] = operations_report._account_moves(
                conn, [ledger.HOUSE_COMMISSION], start, end).get(ledger.HOUSE_COMMISSION, 0)
    (line,) = report.lines
    assert set(report.shifts) == {"swing", "graveyard"}
    (swing,), (graveyard,) = report.shifts["swing"], report.shifts["graveyard"]
    assert (swing.hands, graveyard.hands, line.hands) == (2, 3, 5)
    assert (swing.sessions, graveyard.sessions) == (1, 1)
    assert (swing.commission, graveyard.commission) == (commission["swing"],
                                                        commission["graveyard"])
    assert swing.commission + graveyard.commission == line.commission
    assert swing.win + graveyard.win == line.win and line.reconciled
    assert swing.drop == 10_000 and graveyard.drop == 0 and line.drop == 10_000
    assert swing.counted and graveyard.counted and line.counted
    assert swing.reconciled and graveyard.reconciled
    rows = operations_report.games_rows(report)
    assert [r["shift"] for r in rows] == ["all", "swing", "graveyard", "all"]
    assert rows[2]["hands"] == 3 and rows[2]["drop_counted"] is True


def test_a_normal_day_is_explained_to_the_cent(storage: Storage) -> None:
    """Issue 23, "Reconciled must mean every cent": the day's reports together explain every
    ledger movement of the gambling day (the cage's sales, the fill, the drop, the wagers and
    settlements, the closers' days), and each report reconciles."""
    clock = two_shifts(storage)[3]
    with storage.read() as conn:
        found = reconcile.reconcile(conn, clock, clock.day_of(datetime.now(UTC)))
    assert found.ok and found.unexplained == [] and found.not_reconciled == []
    assert found.explained[reconcile.CAGE] == {"cage-sale": 1, "fill": 1}
    assert found.explained[reconcile.GAMES]["settle"] == 5
    assert found.explained[reconcile.GAMES]["drop-cash"] == 1
    assert found.explained[reconcile.JACKPOT] == {"jackpot-seed": 1}  # the pool's seed
    # the seed, the sale, the fill, the drop, the seat, five wagers and five settlements
    assert found.transactions == 1 + 1 + 1 + 1 + 1 + 5 + 5


def test_a_posting_no_report_explains_is_listed(storage: Storage) -> None:
    """A ledger transaction of a kind no report knows (chips moved behind the reports' back)
    is listed with its accounts and amounts, and the day does not reconcile."""
    _, _, t, clock = two_shifts(storage)
    with storage.unit() as conn:
        ledger.post(conn, "quiet", "mystery", [(ledger.tray(t), -2_500),
                                                (ledger.HOUSE_BANK, 2_500)], actor="nobody")
    with storage.read() as conn:
        found = reconcile.reconcile(conn, clock, clock.day_of(datetime.now(UTC)))
    (m,) = found.unexplained
    assert (m.kind, m.actor, dict(m.entries)) == (
        "mystery", "nobody", {ledger.tray(t): -2_500, ledger.HOUSE_BANK: 2_500})
    assert not found.ok and found.as_json()["reconciled"] is False
