"""Progressive funds (issue 21; WAC 230-15-455(2)(a), 230-15-685(4), 230-15-695(3), digest in
reference/compliance.md): the accrued contributions are deposited to the progressive's own
bank account at least weekly, each deposit recorded and audited; a pool's optional maximum
prize, imposed at or above the jackpot, set by two people in the settings history, stops the
meter (the rest goes to the hidden reserve) and is posted. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest

from cardroom.errors import CardroomError
from cardroom.games.baccarat.rules import DEFAULT_POOL
from cardroom.room.money import ledger
from cardroom.room.money.jackpot import adjust
from cardroom.room.money.progressive_funds import funds, record_deposit
from cardroom.room.people.accounts import Account, Role
from cardroom.room.play import progressive
from cardroom.room.play.posted_rules import posted_rules
from cardroom.room.play.progressive import Settings, gambling_day
from cardroom.room.play.tables import list_tables
from cardroom.room.room import Room
from cardroom.room.storage.audit import entries
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import PermissionDenied

from .rooms import CAST, make_room

POOL = DEFAULT_POOL
SLIP = {"deposited_by": "cathy", "reference": "slip 1041"}


def funded_room(storage: Storage, coups: int = 2) -> tuple[Room, dict[str, Account], int]:
    """A baccarat table of the default pool where alice and bob each put a $1 progressive
    wager on `coups` coups: 20 cents of each goes to the meter."""
    room, people, table = make_room(storage, "baccarat", seed=7, table="Mini 1",
                                    cast=(*CAST, ("cathy", Role.CASHIER)))
    assert table is not None
    for name in ("alice", "bob"):
        room.act(people[name], table, {"type": "sit", "buy_in": 50_000, "key": f"s{name}"})
    for i in range(coups):
        for name in ("alice", "bob"):
            room.act(people[name], table, {"type": "bet", "key": f"{name}{i}",
                                           "bets": {"player": 500, "progressive": 100}})
        room.act(people["alice"], table, {"type": "deal"})
    return room, people, table


def today() -> date:
    return gambling_day(datetime.now(UTC))


def test_wac_230_15_455_a_deposit_is_recorded_audited_and_reduces_what_is_due(
        storage: Storage) -> None:
    """WAC 230-15-455(2)(a): the accrued contributions (from the ledger) are what is due; the
    cage records a deposit with its date, amount, who took it and the slip; the floor may
    not, nor may a deposit pass what is due; each refusal changes nothing."""
    _, p, _ = funded_room(storage)
    with storage.read() as conn:
        owed = funds(conn, POOL)
        contributed = ledger.balance(conn, ledger.jackpot(POOL)) - 250_000
    assert owed.accrued == owed.due == contributed == 80  # 4 wagers x 20 cents
    assert owed.oldest == today() and owed.due_by == today() + timedelta(days=7)
    with storage.unit() as conn, pytest.raises(PermissionDenied):
        record_deposit(conn, p["fiona"], POOL, 80, today(), **SLIP)
    with storage.unit() as conn, pytest.raises(CardroomError, match="more than the "
                                               "contributions not yet deposited"):
        record_deposit(conn, p["cathy"], POOL, 81, today(), **SLIP)
    with storage.unit() as conn, pytest.raises(CardroomError, match="slip's reference"):
        record_deposit(conn, p["cathy"], POOL, 50, today(), "cathy", " ")
    with storage.unit() as conn:
        made = record_deposit(conn, p["cathy"], POOL, 50, today(), **SLIP)
    with storage.read() as conn:
        after = funds(conn, POOL)
        [logged] = [e for e in entries(conn) if e.action == "jackpot.deposit"]
        [pool] = progressive.report(conn)["pools"]
    assert (made.amount, made.recorded_by, made.deposited_by, made.reference) == (
        50, "cathy", "cathy", "slip 1041")
    assert logged.actor == "cathy" and logged.data["amount"] == 50
    assert logged.data["reference"] == "slip 1041"
    assert (after.deposited, after.due) == (50, 30)
    assert pool["deposits"][0]["amount"] == 50 and pool["funds"]["due"] == 30
    assert not pool["problems"]  # a deposit moves no chips: the books still reconcile


def test_wac_230_15_455_eight_days_without_a_deposit_after_contributions_is_overdue(
        storage: Storage) -> None:
    """WAC 230-15-455(2)(a)(ii): "Deposit all funds accrued ... at least weekly": what was
    accrued on a day is due seven days later and overdue on the eighth; a deposit of it all
    clears the flag, and a part of it leaves the oldest contributions still due."""
    _, p, _ = funded_room(storage)
    day = today()
    with storage.read() as conn:
        assert not funds(conn, POOL, day + timedelta(days=7)).overdue
        late = funds(conn, POOL, day + timedelta(days=8))
    assert late.overdue and "overdue" in late.sentence() and "$0.80" in late.sentence()
    with storage.unit() as conn:
        record_deposit(conn, p["cathy"], POOL, 40, day, **SLIP)
    with storage.read() as conn:
        assert funds(conn, POOL, day + timedelta(days=8)).overdue  # $0.40 still waits
    with storage.unit() as conn:
        record_deposit(conn, p["cathy"], POOL, 40, day, "cathy", "slip 1042")
    with storage.read() as conn:
        cleared = funds(conn, POOL, day + timedelta(days=30))
    assert not cleared.overdue and cleared.due == 0 and cleared.due_by is None


def test_wac_230_15_685_at_the_posted_maximum_the_meter_stops_and_the_rest_goes_to_reserve(
        storage: Storage) -> None:
    """WAC 230-15-685(4): a maximum prize at least the jackpot when imposed, by two people in
    the settings history; Super-9: at least 20 cents of every $1 is set aside, so above the
    maximum it goes to the hidden reserve, which seeds the next jackpot (Decision in
    docs/compliance.md); WAC 230-15-695(3): no adjustment lifts the meter above it."""
    room, p, table = funded_room(storage, coups=1)  # meter $2,500.40
    with pytest.raises(CardroomError, match=r"at least the jackpot now, \$2,500\.40"):
        room.change_jackpot_settings(p["fiona"], p["olivia"], POOL,
                                     Settings(250_000, 20, maximum=250_030), "too low")
    room.change_jackpot_settings(p["fiona"], p["olivia"], POOL,
                                 Settings(250_000, 20, maximum=250_050), "cap the prize")
    for i in range(2):
        for name in ("alice", "bob"):
            room.act(p[name], table, {"type": "bet", "key": f"{name}-more{i}",
                                      "bets": {"player": 500, "progressive": 100}})
        room.act(p["alice"], table, {"type": "deal"})
    pool = room.pools[POOL]
    assert (pool.meter, pool.reserve) == (250_050, 70)  # 10 cents to the meter, 70 over it
    with storage.read() as conn:
        [rep] = progressive.report(conn)["pools"]
        owed = funds(conn, POOL)
    assert rep["settings"]["maximum"] == 250_050 and not rep["problems"]
    assert rep["changes"][0]["after"]["maximum"] == 250_050
    assert rep["changes"][0]["before"]["maximum"] == 0
    assert owed.accrued == 120  # all of it accrued, meter and reserve alike
    with storage.unit() as conn, pytest.raises(CardroomError, match="above the posted "
                                               "maximum prize"):
        adjust(conn, p["fiona"], p["olivia"], POOL, pool, 1, "round up", "k1")
    assert room.table(table).state(None).jackpot.maximum == 250_050  # type: ignore[union-attr]


def test_wac_230_15_685_the_posted_rules_show_the_maximum_prize(storage: Storage) -> None:
    """WAC 230-15-685(4): "prominently post a notice of the limit at or near the game"."""
    room, p, table = funded_room(storage, coups=0)
    with storage.read() as conn:
        [row] = [t for t in list_tables(conn) if t.id == table]
    before = " ".join(line for s in posted_rules(row, 250_000).sections for line in s.lines)
    assert "maximum prize" not in before
    room.change_jackpot_settings(p["fiona"], p["olivia"], POOL,
                                 Settings(250_000, 20, maximum=1_000_000), "cap the prize")
    posted = posted_rules(row, 250_000, room.pools[POOL].maximum)
    text = " ".join(line for s in posted.sections for line in s.lines)
    assert "a maximum prize of $10,000.00 (WAC 230-15-685)" in text
