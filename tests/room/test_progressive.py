"""The progressive controller (Super-9 "PROGRESSIVE JACKPOT", /work/shared/rules/
super-9-baccarat.wsgc.txt; GLI-12 as adopted by state rules, digest in
reference/wac-operations.md): settings by two people, meters per table and award level, the
hidden reserve, a top award held pending until verified (and checked on camera over $3,000),
linked tables, and the reconciliation with the ledger. On SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from sqlalchemy import update

from cardroom.errors import CardroomError
from cardroom.progressive_pool import JackpotPool
from cardroom.room.books.cashier import buy_chips
from cardroom.room.money import ledger
from cardroom.room.money.jackpot import adjust, post_daily
from cardroom.room.people.accounts import Account
from cardroom.room.play import progressive
from cardroom.room.play.progressive import Settings
from cardroom.room.room import Room
from cardroom.room.storage.audit import entries
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import PermissionDenied
from cardroom.room.storage.schema import jackpot_pools, room_tables
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.shoe import SeededRandom

from .jackpot_winners import identify_winner
from .linked_tables import POOL, linked_room, play, sit
from .people import identify
from .rooms import BUY_IN, rig_top_award, state_profile_with


def grown(room: Room, storage: Storage, p: dict[str, Account], amount: int) -> JackpotPool:
    """The pool after a two-person adjustment of `amount` and the daily posting."""
    pool = room.pools[POOL]
    with storage.unit() as conn:
        adjust(conn, p["fiona"], p["olivia"], POOL, pool, amount, "grown", "grow")
        post_daily(conn, p["fiona"], POOL, pool, date(2026, 1, 2))
    return pool


def test_linked_tables_share_one_pool_each_contribution_attributed(storage: Storage) -> None:
    """Super-9: "For every 1$ dropped the house will add a minimum of .20 cents to the
    progressive jackpot"; linked tables (a house rule) feed one meter, each table's coin-in and
    contributions counted apart."""
    room, p, (t1, t2) = linked_room(storage)
    sit(room, p, t1, "alice")
    sit(room, p, t2, "bob", "carol")
    play(room, p["alice"], t1, "a1")
    room.act(p["alice"], t1, {"type": "deal"})
    play(room, p["bob"], t2, "b1")
    play(room, p["carol"], t2, "c1")
    room.act(p["bob"], t2, {"type": "deal"})
    assert room.pools.keys() == {POOL}
    with storage.read() as conn:
        rep = progressive.report(conn)
        held = ledger.balance(conn, ledger.jackpot(POOL))
    [pool] = rep["pools"]
    by_table = {t["table"]: t for t in pool["tables"]}
    assert by_table["Mini 1"]["coin_in"] == 100 and by_table["Mini 1"]["contributed"] == 20
    assert by_table["Mini 2"]["wagers"] == 2 and by_table["Mini 2"]["contributed"] == 40
    assert pool["meter"] == held == 250_000 + 60
    assert pool["problems"] == []


def test_settings_change_needs_two_people_a_reason_and_is_logged(storage: Storage) -> None:
    """GLI-12 (digest): settings (reset, increment rate, limit) and every change to them logged
    with reasons; two-person approval as the jackpot adjustment."""
    room, p, _ = linked_room(storage, tables=1)
    new = Settings(seed=300_000, contribution=25, reserve_rate=2, reserve_limit=500)
    with pytest.raises(PermissionDenied):
        room.change_jackpot_settings(p["fiona"], p["fiona"], POOL, new, "one person")
    with pytest.raises(PermissionDenied):
        room.change_jackpot_settings(p["fiona"], p["alice"], POOL, new, "a player")
    with pytest.raises(CardroomError, match="needs a reason"):
        room.change_jackpot_settings(p["fiona"], p["olivia"], POOL, new, " ")
    with pytest.raises(CardroomError, match="at least \\$2,500"):
        room.change_jackpot_settings(p["fiona"], p["olivia"], POOL,
                                     Settings(200_000, 25), "lower the reset")
    with pytest.raises(CardroomError, match="at least 20 cents"):
        room.change_jackpot_settings(p["fiona"], p["olivia"], POOL,
                                     Settings(250_000, 19), "cheaper")
    assert room.pools[POOL].contribution_per_wager == 20  # nothing changed
    room.change_jackpot_settings(p["fiona"], p["olivia"], POOL, new, "new sign on the table")
    with storage.read() as conn:
        [change] = progressive.report(conn)["pools"][0]["changes"]
        [logged] = [e for e in entries(conn) if e.action == "jackpot.settings"]
    assert change["by"] == ["fiona", "olivia"] and change["reason"] == "new sign on the table"
    assert change["before"] == {"seed": 250_000, "contribution": 20, "reserve_rate": 0,
                                "reserve_limit": 0, "maximum": 0}
    assert change["after"] == {"seed": 300_000, "contribution": 25, "reserve_rate": 2,
                               "reserve_limit": 500, "maximum": 0}
    assert logged.data["approvers"] == ["fiona", "olivia"]
    again = Room(storage, SeededRandom(1))  # the settings are the stored ones after a restart
    again.start()
    assert again.pools[POOL].contribution_per_wager == 25 and again.pools[POOL].seed == 300_000


def test_hidden_reserve_fills_to_its_limit_then_seeds_the_next_jackpot(storage: Storage
                                                                       ) -> None:
    """The hidden rate goes to a reserve up to its limit (the rest to the meter); the reset
    after a top award is taken from the reserve first (Super-9: the seed is not recovered)."""
    room, p, (t1, _) = linked_room(storage)
    room.change_jackpot_settings(p["fiona"], p["olivia"], POOL,
                                 Settings(250_000, 20, reserve_rate=3, reserve_limit=5),
                                 "reserve for the next reset")
    sit(room, p, t1, "alice")
    for i in range(2):
        play(room, p["alice"], t1, f"a{i}")
        room.act(p["alice"], t1, {"type": "deal"})
    pool = room.pools[POOL]
    assert pool.reserve == 5 and pool.meter == 250_000 + 20 + 20 + (6 - 5)
    rig_top_award(room, t1)
    play(room, p["alice"], t1, "top")
    room.act(p["alice"], t1, {"type": "deal"})
    # the coup's 3 cents go to the meter (the reserve is full), then the reset takes the 5
    assert pool.reserve == 0 and pool.meter == 250_041 + 23 - 250_000 + 250_000
    with storage.read() as conn:
        [hit] = progressive.list_hits(conn, POOL)
        assert ledger.balance(conn, ledger.jackpot_reserve(POOL)) == pool.reserve
        assert progressive.reconcile(conn, POOL) == []
    assert hit.reseed_reserve == 5 and hit.reseed_house == 250_000 - 5


def test_top_award_locks_the_pool_until_verified_and_paid(storage: Storage) -> None:
    """A top-award hit: the share is held (not in the stack), the tables of the pool show the
    jackpot pending and take no progressive wager, a floor supervisor and a second person
    verify the hand by its recall, and only then is it paid (to the wallet)."""
    room, p, (t1, t2) = linked_room(storage)
    sit(room, p, t1, "alice")
    sit(room, p, t2, "bob")
    play(room, p["bob"], t2, "b0")  # wagers down at the linked table before the hit
    rig_top_award(room, t1)
    play(room, p["alice"], t1, "top")
    room.act(p["alice"], t1, {"type": "deal"})
    posted = 250_000
    snap = room.table(t1).snapshot(p["alice"])
    # 9 against 9: the main wager pushes; the $1 progressive is taken ("for-1") and its share
    # waits for the verification
    assert snap["jackpot"]["pending"] and snap["seats"][0]["stack"] == 50_000 - 100
    assert room.table(t2).snapshot(p["bob"])["jackpot"]["pending"]
    with pytest.raises(CardroomError, match="jackpot pending"):
        room.act(p["bob"], t2, {"type": "deal"})  # no further award from a locked pool
    with pytest.raises(CardroomError, match="jackpot pending"):
        play(room, p["alice"], t1, "again")
    play(room, p["alice"], t1, "main only", jackpot=False)  # other wagers play on
    room.act(p["alice"], t1, {"type": "deal"})
    with storage.read() as conn:
        [hit] = progressive.pending_hits(conn, POOL)
        assert ledger.balance(conn, ledger.jackpot_pending(POOL)) == posted
        assert progressive.reconcile(conn, POOL) == []
    assert hit.shares == {p["alice"].id: posted} and not hit.needs_surveillance
    with pytest.raises(CardroomError, match="must be verified"):
        room.pay_jackpot(p["fiona"], hit.id)
    with pytest.raises(PermissionDenied):
        room.verify_jackpot(p["dan"], p["fiona"], hit.id, "a dealer is no supervisor")
    with pytest.raises(PermissionDenied):
        room.verify_jackpot(p["fiona"], p["fiona"], hit.id, "alone")
    with pytest.raises(PermissionDenied):
        room.verify_jackpot(p["fiona"], p["bob"], hit.id, "a player as the second")
    room.verify_jackpot(p["fiona"], p["dan"], hit.id, "recall: As 8s against As 8s")
    identify_winner(storage, p, "alice")  # a $2,500 share needs a W-2G (tests/room/test_w2g)
    wallet = room.wallet(p["alice"])
    paid = room.pay_jackpot(p["olivia"], hit.id)
    assert paid.status == "paid" and room.wallet(p["alice"]) == wallet + posted
    assert not room.pools[POOL].locked
    room.act(p["bob"], t2, {"type": "deal"})  # the linked table deals again
    with storage.read() as conn:
        assert progressive.reconcile(conn, POOL) == []
        assert ledger.balance(conn, ledger.jackpot_pending(POOL)) == 0
        assert ledger.trial_balance(conn).ok
        [top] = [lv for lv in progressive.report(conn)["pools"][0]["levels"]
                 if lv["level"] == "jackpot"]
    assert top == {"level": "jackpot", "hits": 1, "won": posted}


def test_a_restart_keeps_the_pool_locked(storage: Storage) -> None:
    room, p, [t1] = linked_room(storage, tables=1)
    sit(room, p, t1, "alice")
    rig_top_award(room, t1)
    play(room, p["alice"], t1, "top")
    room.act(p["alice"], t1, {"type": "deal"})
    again = Room(storage, SeededRandom(2))
    again.start()
    assert again.pools[POOL].locked
    with pytest.raises(CardroomError, match="jackpot pending"):
        play(again, p["alice"], t1, "after restart")


def test_a_room_holding_none_of_the_pools_tables_still_knows_its_meter(storage: Storage
                                                                       ) -> None:
    """Issue 25 (jackpot meters update from any process): a room that holds none of a pool's
    tables (every one closed here; held by another process of the room there) still reads
    the pool as the books hold it when it starts, so its lobby, floor and jackpot pages show
    the meter and the day's amount can be posted there."""
    room, p, [t1] = linked_room(storage, tables=1)
    sit(room, p, t1, "alice")
    play(room, p["alice"], t1, "a1")
    room.act(p["alice"], t1, {"type": "deal"})
    grown_meter = room.pools[POOL].meter
    assert grown_meter > room.pools[POOL].seed
    with storage.unit() as conn:
        conn.execute(update(room_tables).where(room_tables.c.id == t1).values(status="closed"))
    again = Room(storage, SeededRandom(2))
    again.start()
    assert t1 not in again.tables
    assert again.pools[POOL].meter == grown_meter


def three_share_the_top(room: Room, storage: Storage, p: dict[str, Account], t1: int
                        ) -> progressive.Hit:
    """Alice, Bob and Carol sit at `t1` and each bets the progressive; the top award is
    dealt: the pending hit they share."""
    sit(room, p, t1, "alice", "bob", "carol")
    for n in ("alice", "bob", "carol"):
        play(room, p[n], t1, f"top-{n}")
    rig_top_award(room, t1)
    room.act(p["alice"], t1, {"type": "deal"})
    with storage.read() as conn:
        [hit] = progressive.pending_hits(conn, POOL)
    return hit


def test_super9_jackpot_shared_equally_by_simultaneous_winners(storage: Storage) -> None:
    """Super-9: "If the top jackpot hits all players who have a progressive bet will share
    equally in the progressive jackpot ... A $90,000 jackpot hit with 9 players playing the
    jackpot will pay each player $10,000." Over $3,000 a share needs the surveillance check
    first (WAC 230-15-280/-320 digest)."""
    room, p, [t1] = linked_room(storage, tables=1)
    pool = grown(room, storage, p, 650_001)
    assert pool.posted == 900_001
    hit = three_share_the_top(room, storage, p, t1)
    assert sorted(hit.shares.values()) == [300_000] * 3 and hit.amount == 900_000
    assert pool.meter == 250_000 + 60 + 1  # the odd cent stays in the meter
    assert not hit.needs_surveillance  # $3,000 each: not over $3,000


def test_wac_230_15_320_the_surveillance_figure_is_the_room_profiles(
        storage: Storage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The law is data: under a profile whose surveillance figure is $2,500, three $3,000
    shares of a top award wait for the camera check (under the state's $3,000 they do not:
    the test above), and the refusal names the profile's figure."""
    lower = state_profile_with(tmp_path, "[[surveillance.periods]]\ncents = 300000",
                               "[[surveillance.periods]]\ncents = 250000")
    monkeypatch.setenv("CARDROOM_PROFILE", str(lower))
    room, p, [t1] = linked_room(storage, tables=1)
    grown(room, storage, p, 650_001)
    hit = three_share_the_top(room, storage, p, t1)
    assert sorted(hit.shares.values()) == [300_000] * 3 and hit.needs_surveillance
    room.verify_jackpot(p["fiona"], p["audrey"], hit.id, "recall agrees")
    with pytest.raises(CardroomError, match=r"a win over \$2,500\.00 needs the surveillance"):
        room.pay_jackpot(p["fiona"], hit.id)


def test_a_win_over_3000_needs_the_surveillance_check(storage: Storage) -> None:
    """WAC 230-15-280/-320 (digest): a win over $3,000 is checked on camera before it is
    paid."""
    room, p, [t1] = linked_room(storage, tables=1)
    grown(room, storage, p, 50_001)
    sit(room, p, t1, "alice")
    play(room, p["alice"], t1, "top")
    rig_top_award(room, t1)
    room.act(p["alice"], t1, {"type": "deal"})
    with storage.read() as conn:
        [hit] = progressive.pending_hits(conn, POOL)
    assert hit.needs_surveillance and hit.amount == 300_001
    room.verify_jackpot(p["fiona"], p["audrey"], hit.id, "recall agrees")
    with pytest.raises(CardroomError, match="surveillance check"):
        room.pay_jackpot(p["fiona"], hit.id)
    room.jackpot_surveillance(p["audrey"], hit.id, "camera 4, 21:02, reviewed by audrey")
    identify_winner(storage, p, "alice")  # the W-2G's identity (tests/room/test_w2g)
    assert room.pay_jackpot(p["fiona"], hit.id).surveillance_by == "audrey"


def test_a_tampered_meter_fails_the_reconciliation(storage: Storage) -> None:
    room, p, [t1] = linked_room(storage, tables=1)
    sit(room, p, t1, "alice")
    play(room, p["alice"], t1, "a")
    room.act(p["alice"], t1, {"type": "deal"})
    with storage.unit() as conn:
        conn.execute(update(jackpot_pools).where(jackpot_pools.c.name == POOL)
                     .values(meter=jackpot_pools.c.meter + 100))
    with storage.read() as conn:
        problems = progressive.reconcile(conn, POOL)
    assert problems[0] == f"{POOL}: meter: the controller shows $2,501.20 but the ledger " \
                          "$2,500.20"


def test_a_winner_may_not_verify_or_pay_their_own_hit(storage: Storage) -> None:
    room, p, [t1] = linked_room(storage, tables=1)
    with storage.unit() as conn:
        buy_chips(conn, SELF_SERVICE, p["olivia"], BUY_IN, "owner plays")
    with storage.unit() as conn:
        identify(conn, p["olivia"])  # the owner plays too: the cage has seen her identity
    sit(room, p, t1, "olivia")
    rig_top_award(room, t1)
    play(room, p["olivia"], t1, "top")
    room.act(p["olivia"], t1, {"type": "deal"})
    with storage.read() as conn:
        [hit] = progressive.pending_hits(conn, POOL)
    with pytest.raises(PermissionDenied, match="winner"):
        room.verify_jackpot(p["olivia"], p["fiona"], hit.id, "my own")
    with pytest.raises(PermissionDenied, match="winner"):
        room.verify_jackpot(p["fiona"], p["olivia"], hit.id, "the winner as second")
    room.verify_jackpot(p["fiona"], p["audrey"], hit.id, "recall agrees")
    with pytest.raises(PermissionDenied, match="winner"):
        room.pay_jackpot(p["olivia"], hit.id)
