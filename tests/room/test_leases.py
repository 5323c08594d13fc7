"""Issue 25, tables that outlive their process: several processes share one room, each table
held by one of them under a lease (holder, fencing number, heartbeat, expiry). A process that
stops beating (killed: nothing closed) loses its tables once the lease expires; another takes
each one over and resumes its hand in play from the committed actions, exactly where it was.
A process that lost a lease can no longer write: its action is refused with a plain "try
again" and nothing of the table is written. Each "process" here is a `Room` of its own on an
engine of its own (no object shared), on SQLite and on PostgreSQL (`storage_fixture`)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import event, select, update
from sqlalchemy.engine import Connection

from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account
from cardroom.room.play import leases
from cardroom.room.play.baccarat_live import BaccaratLive
from cardroom.room.play.super_pan_9_live import SuperPan9Live
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage, make_engine
from cardroom.room.storage.schema import (
    audit_log,
    hands,
    jackpot_pools,
    sealed_tables,
    table_leases,
)
from cardroom.shoe import SeededRandom

from .linked_tables import POOL, linked_room, play, sit
from .people import IDENTITY_KEY
from .rooms import baccarat_room, books, start_round, super_pan_9_room, view
from .storage_fixture import POSTGRESQL_ONLY


def process(db_url: str, holder: str, seed: int) -> Room:
    """A `cardroom serve` process of the room: its own engine, random source and holder id,
    started (it takes the tables nobody holds)."""
    room = Room(Storage(make_engine(db_url)), SeededRandom(seed), identity=IDENTITY_KEY,
                holder=holder)
    room.start()
    return room


def expire(storage: Storage, holder: str, *only: int) -> None:
    """`holder` was killed more than `LEASE_SECONDS` ago: its leases (`only` these tables'
    where given) ran out."""
    past = datetime.now(UTC) - timedelta(seconds=leases.LEASE_SECONDS + 1)
    which = table_leases.c.table_id.in_(only) if only else table_leases.c.holder == holder
    with storage.unit() as conn:
        conn.execute(update(table_leases).where(table_leases.c.holder == holder, which)
                     .values(heartbeat_at=past, expires_at=past))


def lease(storage: Storage, t: int) -> tuple[str, int]:
    with storage.read() as conn:
        row = conn.execute(select(table_leases).where(table_leases.c.table_id == t)).one()
    return row.holder, int(row.fence)


def beats_while_locked(room: Room, storage: Storage, lock: Callable[[Connection], object]
                       ) -> bool:
    """Whether `room`'s heartbeat ends within 10 s while a unit of `storage` holds its writer
    lock and what `lock` takes in it (sent with the unit's first read); the unit then ends."""
    beat = threading.Thread(target=room.keep_leases)
    with storage.unit() as conn:
        lock(conn)
        audit.last_seq(conn)
        beat.start()
        beat.join(timeout=10)
        waiting = beat.is_alive()
    beat.join()
    return not waiting


def written(storage: Storage) -> tuple[int, dict[str, int], str | None, int]:
    """What a write of play would change: the audit log's length, every balance, the sealed
    record and the number of hands."""
    with storage.read() as conn:
        seq = len(list(conn.execute(select(audit_log.c.seq).where(
            audit_log.c.action != "refused"))))
        sealed = conn.execute(select(sealed_tables.c.hand)).scalar()
        count = len(list(conn.execute(select(hands.c.id))))
        return seq, ledger.balances(conn), sealed, count


def test_the_first_process_holds_the_table_and_a_second_is_told_to_try_again(
        storage: Storage, db_url: str) -> None:
    """One holder at a time: the first process takes the lease (fence 1); the second takes
    none while it beats, and an action there is refused with the plain sentence."""
    _setup, p, t = baccarat_room(storage)
    assert t is not None
    a = process(db_url, "a", 1)
    b = process(db_url, "b", 2)
    assert lease(storage, t) == ("a", 1)
    assert t in a.tables and t not in b.tables
    with pytest.raises(leases.LeaseLost, match="try again"):
        b.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "sa"})
    a.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "sa"})
    b.keep_leases()
    assert lease(storage, t) == ("a", 1) and t not in b.tables


def test_a_killed_holder_s_coup_goes_on_at_the_process_that_takes_it_over(
        storage: Storage, db_url: str) -> None:
    """Baccarat: the holder is killed with wagers down; once its lease expires the other
    process takes the table (fence 2) and the coup is dealt from the same shoe at the same
    place (player, banker, player, banker: the cards the killed process would have dealt),
    the wagers as they were, the books balanced."""
    setup, p, t = baccarat_room(storage)
    assert t is not None
    del setup
    a = process(db_url, "a", 1)
    b = process(db_url, "b", 2)
    for who in ("alice", "bob"):
        a.act(p[who], t, {"type": "sit", "buy_in": 20_000, "key": f"s{who}"})
    a.act(p["alice"], t, {"type": "bet", "bets": {"player": 500}, "key": "b1"})
    a.act(p["alice"], t, {"type": "deal"})
    a.act(p["alice"], t, {"type": "bet", "bets": {"banker": 1_000}, "key": "b2"})
    a.act(p["bob"], t, {"type": "bet", "bets": {"player": 2_000}, "key": "b3"})
    old = a.table(t)
    assert isinstance(old, BaccaratLive) and old.engine.shoe is not None
    shoe = old.engine.shoe
    coming = shoe.order[shoe.position:shoe.position + 4]
    hand_id, bets = old.hand_id, dict(old.engine.bets)

    b.keep_leases()  # a still beats: nothing taken
    assert t not in b.tables
    expire(storage, "a")  # a killed: its lease runs out
    assert b.keep_leases() == []
    assert lease(storage, t) == ("b", 2)
    live = b.table(t)
    assert isinstance(live, BaccaratLive) and live.engine.shoe is not None
    assert live.hand_id == hand_id and live.engine.bets == bets
    assert live.engine.shoe.position == shoe.position
    b.act(p["bob"], t, {"type": "deal"})
    last = view(b, t, p["alice"])["last"]
    assert [c["text"] for c in last["player"][:2]] == [str(coming[0]), str(coming[2])]
    assert [c["text"] for c in last["banker"][:2]] == [str(coming[1]), str(coming[3])]
    assert books(storage).get(ledger.wagers(t), 0) == 0


def test_a_stalled_holder_that_lost_its_lease_writes_nothing(
        storage: Storage, db_url: str) -> None:
    """A holder that stalled past its expiry (not dead) comes back after the takeover: its
    action is refused with "try again", nothing of the table is written (no audit entry but
    the refusal, no balance, no sealed record), and it lets go of the table."""
    _setup, p, t = baccarat_room(storage)
    assert t is not None
    a = process(db_url, "a", 1)
    b = process(db_url, "b", 2)
    a.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "sa"})
    a.act(p["alice"], t, {"type": "bet", "bets": {"player": 500}, "key": "b1"})
    expire(storage, "a")
    b.keep_leases()
    before = written(storage)
    with pytest.raises(leases.LeaseLost, match="try again"):
        a.act(p["alice"], t, {"type": "deal"})
    assert written(storage) == before
    assert t not in a.tables
    assert a.keep_leases() == [] and t not in a.tables  # b beats: a takes nothing back
    b.act(p["alice"], t, {"type": "deal"})
    assert books(storage).get(ledger.wagers(t), 0) == 0


def test_a_taken_over_round_keeps_its_cards_turn_and_deadline(
        storage: Storage, db_url: str) -> None:
    """Super Pan 9: a dealt round at a killed holder is resumed by the other process with
    the same cards in every hand and the same seat to act under the same deadline; the next
    card drawn is the one the shoe held next."""
    _setup, p, t = super_pan_9_room(storage)
    assert t is not None
    a = process(db_url, "a", 1)
    b = process(db_url, "b", 2)
    start_round(a, p, t)
    old = a.table(t)
    assert isinstance(old, SuperPan9Live) and old.engine.shoe is not None and old.turn
    seen = {who: view(a, t, p[who])["round"] for who in ("alice", "bob")}
    coming = old.engine.shoe.order[old.engine.shoe.position]
    turn = old.turn
    expire(storage, "a")
    b.keep_leases()
    live = b.table(t)
    assert isinstance(live, SuperPan9Live) and live.turn is not None
    assert (live.turn.account, live.turn.deadline) == (turn.account, turn.deadline)
    assert {who: view(b, t, p[who])["round"] for who in ("alice", "bob")} == seen
    b.act(p["alice"], t, {"type": "draw"})
    assert live.engine.seats[1].cards[-1] == coming
    b.act(p["bob"], t, {"type": "stand"})
    assert [s["name"] for s in view(b, t, p["bob"])["last"]["settlements"]] == \
        ["alice", "bob"]
    assert books(storage).get(ledger.wagers(t), 0) == 0


def linked_processes(storage: Storage, db_url: str
                     ) -> tuple[dict[str, Account], int, int, Room, Room]:
    """Two linked tables, the first held by process a with alice seated, the second by b
    (a stalled on it: b took it) with bob seated."""
    _setup, p, (t1, t2) = linked_room(storage)
    a = process(db_url, "a", 1)
    expire(storage, "a", t2)
    b = process(db_url, "b", 2)
    a.keep_leases()
    assert set(a.tables) == {t1} and set(b.tables) == {t2}
    sit(a, p, t1, "alice")
    sit(b, p, t2, "bob")
    return p, t1, t2, a, b


def pool_books(storage: Storage) -> tuple[int, int]:
    """The linked pool's meter and its ledger account's balance."""
    with storage.read() as conn:
        meter = conn.execute(select(jackpot_pools.c.meter)
                             .where(jackpot_pools.c.name == POOL)).scalar_one()
        return int(meter), ledger.balance(conn, ledger.jackpot(POOL))


def test_linked_tables_held_by_two_processes_share_one_pool(
        storage: Storage, db_url: str) -> None:
    """Two baccarat tables linked to one progressive pool (one location, WAC 230-15-685(5))
    held by two processes: each coup adds its contribution to the pool as the books hold it
    (the other process's contributions included), so the meter counts all three coups and
    the ledger agrees with it after each."""
    p, t1, t2, a, b = linked_processes(storage, db_url)
    seed, _ = pool_books(storage)  # (a seat moves nothing of the pool)
    for room, who, t, key in ((a, "alice", t1, "k1"), (b, "bob", t2, "k2"),
                              (a, "alice", t1, "k3")):
        play(room, p[who], t, key)
        room.act(p[who], t, {"type": "deal"})
    meter, contributed = pool_books(storage)
    assert meter == contributed > seed
    assert a.pools[POOL].meter == meter  # the last coup's process is up to the books
    assert books(storage)


@POSTGRESQL_ONLY
def test_a_linked_pool_is_read_again_only_once_another_process_changed_it(
        storage: Storage, db_url: str) -> None:
    """PostgreSQL (`leases.guard`): an action compares the linked pool this process holds
    with the books in its queued lease check instead of reading the pool at every action.
    b's bet reads nothing of the pool; after a's coup changed it, b's deal finds it changed,
    reads it once and deals again on the pool as the books hold it (the first try wrote
    nothing: the meter counts each coup once and the ledger agrees); b's next bet reads
    nothing again."""
    p, t1, t2, a, b = linked_processes(storage, db_url)
    reads: list[str] = []

    def note(_c: Any, _cur: Any, statement: str, *_: Any) -> None:
        if "jackpot_pools" in statement and "renewed" not in statement:  # not the guard
            reads.append(statement)

    event.listen(b.storage.engine, "before_cursor_execute", note)
    play(b, p["bob"], t2, "k1")
    assert reads == []
    play(a, p["alice"], t1, "k2")
    a.act(p["alice"], t1, {"type": "deal"})
    b.act(p["bob"], t2, {"type": "deal"})
    assert len([r for r in reads if r.lstrip().startswith("SELECT")]) == 1, reads
    reads.clear()
    play(b, p["bob"], t2, "k3")
    assert reads == []
    meter, contributed = pool_books(storage)
    with storage.read() as conn:
        settled = len(list(conn.execute(select(audit_log.c.seq).where(
            audit_log.c.action == "hand.settled"))))
    assert meter == contributed == b.pools[POOL].meter
    assert settled == 2 and books(storage)


def ends_while_the_pool_is_locked(db_url: str, action: Callable[[], object]) -> bool:
    """Whether `action` ends within 3 s while another process's unit holds the linked
    pool's row locked (as its coup does to its commit); the lock is then let go and the
    action waited for."""
    other = make_engine(db_url)
    done = threading.Thread(target=action)
    with other.begin() as conn:
        conn.execute(select(jackpot_pools.c.name).where(jackpot_pools.c.name == POOL)
                     .with_for_update(key_share=True))  # FOR NO KEY UPDATE, as a coup
        done.start()
        done.join(timeout=3)
        waiting = done.is_alive()
    done.join()
    other.dispose()
    return not waiting


@POSTGRESQL_ONLY
def test_a_bet_does_not_wait_for_a_coup_at_another_process_s_linked_table(
        storage: Storage, db_url: str) -> None:
    """Issue 25 (two processes write in parallel): a bet only reads the linked pool (a
    progressive wager is refused while a hit awaits payment), so it compares the pool with
    the books without locking its row and is served while a coup at another process's
    linked table holds that row; a coup changes the pool, so it locks the row and waits
    for the other to commit, then deals on the pool as the books hold it."""
    p, t1, _t2, a, _b = linked_processes(storage, db_url)
    assert ends_while_the_pool_is_locked(db_url, lambda: play(a, p["alice"], t1, "k1")), \
        "the bet waited for the pool's row"
    assert not ends_while_the_pool_is_locked(
        db_url, lambda: a.act(p["alice"], t1, {"type": "deal"})), \
        "the coup did not lock the pool's row"
    meter, contributed = pool_books(storage)
    assert meter == contributed == a.pools[POOL].meter and books(storage)


def test_the_heartbeat_lets_go_of_a_table_taken_over(storage: Storage, db_url: str) -> None:
    """A stalled holder's next heartbeat finds its lease under another holder and a higher
    fencing number: it forgets the table (fence 2 is b's), and renews nothing of it."""
    _setup, _p, t = baccarat_room(storage)
    assert t is not None
    a = process(db_url, "a", 1)
    b = process(db_url, "b", 2)
    expire(storage, "a")
    b.keep_leases()
    assert lease(storage, t) == ("b", 2) and b.fences == {t: 2}
    a.keep_leases()
    assert t not in a.tables and t not in a.fences
    assert lease(storage, t) == ("b", 2)


@POSTGRESQL_ONLY
def test_the_heartbeat_skips_a_lease_its_own_unit_holds_locked(
        storage: Storage, db_url: str) -> None:
    """Issue 25: an action's unit locks its table's lease row (`leases.guard`) to its
    commit, and a group commit locks several, in its members' order. The heartbeat renews
    every other lease without waiting for that row (waiting could close a deadlock with the
    group) and does not take the locked table for lost: the unit's guard renews it."""
    _setup, _p, t = baccarat_room(storage)
    a = process(db_url, "a", 1)
    assert beats_while_locked(a, a.storage, lambda conn: leases.guard(conn, t, "a", a.fences[t])
                              ), "the heartbeat waited for a lease its own unit holds"
    assert lease(storage, t) == ("a", 1) and t in a.tables


@POSTGRESQL_ONLY
def test_the_heartbeat_does_not_wait_for_the_room_s_writers(
        storage: Storage, db_url: str) -> None:
    """Issue 25: a beat writes no audit entry and no ledger row, only its own leases, so it
    runs outside the room's writer lock: it renews while another process's unit holds that
    lock (PostgreSQL's advisory lock; on SQLite the database's one write lock is the writer
    lock)."""
    _setup, _p, t = baccarat_room(storage)
    a = process(db_url, "a", 1)
    expire(storage, "a")  # (the beat must renew it)
    assert beats_while_locked(a, Storage(make_engine(db_url)), lambda conn: None), \
        "the heartbeat waited for the writer lock"
    assert lease(storage, t) == ("a", 1) and t in a.tables
    with storage.read() as conn:
        expires = conn.execute(select(table_leases.c.expires_at)).scalar_one()
    assert expires > datetime.now(UTC)
