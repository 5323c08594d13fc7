"""Group commit (issue 25: "actions arriving together share one transaction and one flush,
each still its own audit entry"), `Storage.unit`: units of one chain that wait while another
runs join its transaction when its block ends, each in its own savepoint, and all commit at
once. A member that fails leaves no trace and the others commit; a failed commit fails every
member and writes nothing; a unit of another chain, and a unit inside a unit, never join.
SQLite and PostgreSQL (`storage` fixture)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from cardroom.errors import CardroomError
from cardroom.room.money import ledger
from cardroom.room.play import resume
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage, after_commit, make_engine, unit_memo
from cardroom.room.storage.errors import BUSY, UNCONFIRMED, DatabaseUnavailable, WriteConflict
from cardroom.room.storage.pipeline import ahead, deferred
from cardroom.room.storage.round_trips import traced
from cardroom.room.storage.schema import audit_log, ledger_accounts

from .linked_tables import linked_room, play, sit
from .lost_answers import lose_the_answer
from .rooms import books
from .storage_fixture import POSTGRESQL_ONLY

ACCOUNT = deferred(text("INSERT INTO ledger_accounts (name, balance, allow_negative) "
                        "VALUES (:name, 0, :neg)").bindparams(neg=False))
"""A write nothing waits for (queued in the pipeline on PostgreSQL)."""
Body = Callable[[Connection], object]


def act(name: str) -> Body:
    """One action's writes: an account row and its own audit entry."""
    def body(conn: Connection) -> None:
        conn.execute(ACCOUNT, {"name": f"test:{name}"})
        audit.append(conn, name, "test.action", {"by": name})
    return body


@contextmanager
def commits(storage: Storage) -> Iterator[list[int]]:
    """The commits of the engine's transactions while the block runs (one item each)."""
    seen: list[int] = []

    def count(_conn: Connection) -> None:
        seen.append(1)

    event.listen(storage.engine, "commit", count)
    try:
        yield seen
    finally:
        event.remove(storage.engine, "commit", count)


def together(storage: Storage, leader: Body, members: list[tuple[Body, int | None]]
             ) -> tuple[object, list[object]]:
    """`leader` runs in a unit whose block ends only once every one of `members` (a body and
    its chain, None: the storage's) waits for its own unit in a thread of its own. What each
    unit gave: its connection, or the exception it raised."""
    outcome: list[object] = [None] * (len(members) + 1)
    started = threading.Event()

    def run(i: int, body: Body, chain: int | None) -> None:
        try:
            with storage.unit(chain) as conn:
                if i == 0:
                    started.set()
                    deadline = time.monotonic() + 20
                    while storage.waiting() < len(members):
                        assert time.monotonic() < deadline, "the members never waited"
                        time.sleep(0.005)
                body(conn)
            outcome[i] = conn
        except BaseException as exc:  # (the test reads it)
            outcome[i] = exc

    threads = [threading.Thread(target=run, args=(0, leader, None))]
    threads[0].start()
    assert started.wait(20)
    for i, (body, chain) in enumerate(members, 1):
        threads.append(threading.Thread(target=run, args=(i, body, chain)))
        threads[-1].start()
    for thread in threads:
        thread.join(30)
        assert not thread.is_alive()
    return outcome[0], outcome[1:]


def accounts(storage: Storage) -> set[str]:
    with storage.read() as conn:
        return set(conn.execute(select(ledger_accounts.c.name).where(
            ledger_accounts.c.name.startswith("test:"))).scalars())


def actors(storage: Storage) -> list[str]:
    with storage.read() as conn:
        return list(conn.execute(select(audit_log.c.actor).where(
            audit_log.c.action == "test.action").order_by(audit_log.c.seq)).scalars())


def verified(storage: Storage) -> bool:
    with storage.snapshot() as conn:
        return audit.verify(conn).ok


def test_units_that_wait_together_commit_once_each_with_its_own_entry(
        storage: Storage) -> None:
    """Five actions: one transaction, one commit; each its own account row and audit entry,
    the chain sound; every member returns only after that commit, and its work for after
    the commit runs then, in its own thread."""
    ran: list[tuple[str, int, int]] = []

    def member(name: str) -> Body:
        def body(conn: Connection) -> None:
            act(name)(conn)
            after_commit(conn, lambda _s: ran.append((name, threading.get_ident(), len(seen))))
        return body

    with commits(storage) as seen:
        first, rest = together(storage, act("lead"), [(member(f"m{i}"), None)
                                                       for i in range(4)])
    assert len(seen) == 1
    assert all(conn is first for conn in rest)
    assert accounts(storage) == {"test:lead", "test:m0", "test:m1", "test:m2", "test:m3"}
    assert actors(storage)[0] == "lead" and sorted(actors(storage)) == [
        "lead", "m0", "m1", "m2", "m3"]
    assert sorted(r[0] for r in ran) == ["m0", "m1", "m2", "m3"]
    assert len({r[1] for r in ran}) == 4 and all(r[2] == 1 for r in ran)
    assert verified(storage)


def test_a_member_that_fails_leaves_no_trace_and_the_others_commit(storage: Storage) -> None:
    """A refusal after its writes, its entry, its after-commit work and a memo, and a member
    whose own queued write breaks a constraint (on PostgreSQL it fails at its savepoint's
    release, not at the group's commit): each raises in its own thread only; the leader and
    the two others commit, the chain sound; the next member starts with an empty memo."""
    ran: list[str] = []
    memos: list[dict[str, Any] | None] = []

    def refused(conn: Connection) -> None:
        act("refused")(conn)
        after_commit(conn, lambda _s: ran.append("refused"))
        memo = unit_memo(conn)
        assert memo is not None
        memo["cached"] = "by the refused member"
        raise CardroomError("refused")

    def duplicate(conn: Connection) -> None:
        conn.execute(ACCOUNT, {"name": "test:dup"})
        audit.append(conn, "dup", "test.action", {"by": "dup"})
        conn.execute(ACCOUNT, {"name": "test:dup"})

    def sound(name: str) -> Body:
        def body(conn: Connection) -> None:
            memo = unit_memo(conn)
            memos.append(None if memo is None else dict(memo))
            act(name)(conn)
            after_commit(conn, lambda _s: ran.append(name))
        return body

    with commits(storage) as seen:
        _, rest = together(storage, act("lead"), [
            (refused, None), (sound("a"), None), (duplicate, None), (sound("b"), None)])
    by_name = dict(zip(("refused", "a", "dup", "b"), rest, strict=True))
    assert isinstance(by_name["refused"], CardroomError)
    assert isinstance(by_name["dup"], IntegrityError)
    assert isinstance(by_name["a"], Connection) and isinstance(by_name["b"], Connection)
    assert len(seen) == 1
    assert accounts(storage) == {"test:lead", "test:a", "test:b"}
    assert sorted(actors(storage)) == ["a", "b", "lead"]
    assert sorted(ran) == ["a", "b"]
    assert memos == [{}, {}]
    assert verified(storage)


def test_a_leader_whose_queued_write_fails_fails_alone(storage: Storage) -> None:
    """The leader's own queued statements are answered before anyone joins: its error is
    its own (nothing of it written), and the units that waited commit in a group of
    theirs."""
    def leader(conn: Connection) -> None:
        act("lead")(conn)
        conn.execute(ACCOUNT, {"name": "test:lead"})

    with commits(storage) as seen:
        first, rest = together(storage, leader, [(act(f"m{i}"), None) for i in range(3)])
    assert isinstance(first, IntegrityError)
    assert all(isinstance(conn, Connection) for conn in rest)
    assert rest[0] is rest[1] is rest[2]
    assert len(seen) == 1
    assert accounts(storage) == {"test:m0", "test:m1", "test:m2"}
    assert sorted(actors(storage)) == ["m0", "m1", "m2"]
    assert verified(storage)


def test_a_commit_that_fails_fails_every_member_and_writes_nothing(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database gone at the group's commit: every member raises the failed commit's
    "try again" (written or not, no one can say: `unknown`, so the room takes each table
    back from its books), and nothing of any member is in the books."""
    with storage.unit() as conn:
        audit.append(conn, "house", "test.start", {})

    def leader(conn: Connection) -> None:
        act("lead")(conn)
        lose_the_answer(storage, monkeypatch, committed=False)

    first, rest = together(storage, leader, [(act(f"m{i}"), None) for i in range(3)])
    for failed in (first, *rest):
        assert isinstance(failed, DatabaseUnavailable) and failed.unknown
        assert str(failed) == UNCONFIRMED
    assert len({id(e) for e in (first, *rest)}) == 4  # each its own exception
    assert accounts(storage) == set() and actors(storage) == []
    assert verified(storage)
    with storage.unit() as conn:  # and the next unit writes as usual
        act("after")(conn)
    assert accounts(storage) == {"test:after"} and verified(storage)


def test_the_audit_head_moved_under_a_group_fails_it_whole(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """The head found elsewhere at the group's write of the entries (`HEAD_MOVED`): every
    member is refused as a unit is today (`ChainBroken`), nothing written."""
    with storage.unit() as conn:
        audit.append(conn, "house", "test.start", {})
    flush = audit.flush

    def moved(conn: Connection) -> None:
        conn.execute(text("UPDATE audit_head SET hash = 'moved' WHERE id = 1"))
        flush(conn)

    def leader(conn: Connection) -> None:
        act("lead")(conn)
        monkeypatch.setattr(audit, "flush", moved)

    first, rest = together(storage, leader, [(act(f"m{i}"), None) for i in range(2)])
    monkeypatch.setattr(audit, "flush", flush)
    for failed in (first, *rest):
        assert isinstance(failed, audit.ChainBroken) and audit.HEAD_MOVED in str(failed)
    assert accounts(storage) == set() and actors(storage) == []
    assert verified(storage)


def test_a_unit_of_another_chain_never_joins(storage: Storage) -> None:
    """A writer chain's unit waiting beside the room chain's: the room chain's units share
    the leader's transaction, the other leads its own."""
    writer = storage.write_as("127.0.0.1:9001")
    storage.chain = audit.ROOM_CHAIN
    first, rest = together(storage, act("lead"), [
        (act("room1"), None), (act("writer"), writer), (act("room2"), None)])
    assert rest[0] is first and rest[2] is first
    assert isinstance(rest[1], Connection) and rest[1] is not first
    with storage.read() as conn:
        on = dict(conn.execute(select(audit_log.c.actor, audit_log.c.chain).where(
            audit_log.c.action == "test.action")).all())
    assert on == {"lead": 0, "room1": 0, "room2": 0, "writer": writer}
    assert verified(storage)


def test_a_burst_of_units_of_two_chains_each_gets_its_turn(storage: Storage) -> None:
    """Each waiting unit is woken alone when its turn comes (its chain's condition, its
    group's: `Storage._entry`, `_Group.changed`), and none is forgotten: a room-chain unit
    holds the turn while 39 wait, about half of them on a writer chain. The room chain's
    join its group; the writer chain's, woken only as that group ends, then lead and join
    their own. Every entry once on its chain, both chains sound."""
    writer = storage.write_as("127.0.0.1:9002")
    storage.chain = audit.ROOM_CHAIN
    first, rest = together(storage, act("lead"), [
        (act(f"u{i}"), writer if i % 2 else None) for i in range(1, 40)])
    assert all(isinstance(r, Connection) for r in rest), rest
    assert all((r is first) == (i % 2 == 0) for i, r in enumerate(rest, 1))
    with storage.read() as conn:
        on = dict(conn.execute(select(audit_log.c.actor, audit_log.c.chain).where(
            audit_log.c.action == "test.action")).all())
    assert on == {"lead": 0} | {f"u{i}": writer if i % 2 else 0 for i in range(1, 40)}
    assert len(accounts(storage)) == 40 and verified(storage)


def test_a_unit_alone_is_as_before(storage: Storage) -> None:
    """Nobody waiting: one transaction, one commit, and on PostgreSQL the round trips of a
    unit before group commit (`test_pipeline`: two, with an entry)."""
    with storage.unit() as conn:
        audit.append(conn, "house", "test.start", {})
    with commits(storage) as seen, traced(storage) as trips, storage.unit() as conn:
        act("alone")(conn)
    assert len(seen) == 1 and trips == ([2] if storage.is_postgres else [])
    assert accounts(storage) == {"test:alone"} and verified(storage)


def test_a_unit_inside_a_unit_never_joins_its_own_group(storage: Storage) -> None:
    """A unit opened inside a unit's block (here the room chain's, inside a writer chain's
    unit) runs its own transaction and commits at once, as always, even while units wait to
    join the outer one (it would otherwise wait for its own block to end)."""
    storage.write_as("127.0.0.1:9002")
    inner: list[Connection] = []

    def leader(conn: Connection) -> None:
        with storage.unit(audit.ROOM_CHAIN) as nested:
            act("nested")(nested)
            inner.append(nested)
        assert "nested" in actors(storage)  # committed already
        act("lead")(conn)

    first, rest = together(storage, leader, [(act("m0"), None), (act("m1"), None)])
    assert inner[0] is not first and all(conn is first for conn in rest)
    assert sorted(actors(storage)) == ["lead", "m0", "m1", "nested"]
    assert verified(storage)


def sent_by_sqlalchemy(conn: Connection) -> None:
    conn.execute(text("SELECT 1"))


def read_ahead(conn: Connection) -> None:
    """A read sent on the driver's cursor (`pipeline.ahead`), not by SQLAlchemy."""
    ahead(conn, select(ledger_accounts.c.name).where(ledger_accounts.c.balance > 0), {})()


@POSTGRESQL_ONLY
@pytest.mark.parametrize("next_statement", [sent_by_sqlalchemy, read_ahead])
def test_the_connection_lost_in_a_member_fails_the_group_whole(
        storage: Storage, next_statement: Body) -> None:
    """PostgreSQL: the group's session ended while a member runs (as a restart of the
    database does): the leader, that member and every one that joined before it raise
    "try again" (nothing committed, so not `unknown`), nothing of theirs is written; those
    that had not joined yet commit in a transaction of their own. The same whether the
    member's next statement is sent by SQLAlchemy or on the driver's cursor (a driver's
    error is never raised as it is)."""
    def cut(conn: Connection) -> None:
        act("cut")(conn)
        pid = conn.connection.driver_connection.info.backend_pid  # type: ignore[union-attr]
        with storage.engine.connect() as other:
            other.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        time.sleep(0.3)
        next_statement(conn)

    first, rest = together(storage, act("lead"), [(act("m0"), None), (cut, None),
                                                   (act("m1"), None)])
    assert isinstance(rest[1], DatabaseUnavailable)
    committed = {f"test:{name}" for name, got in (("m0", rest[0]), ("m1", rest[2]))
                 if isinstance(got, Connection)}
    for failed in (first, *rest):
        assert (isinstance(failed, Connection) and failed is not first) or (
            isinstance(failed, DatabaseUnavailable) and not failed.unknown)
    assert accounts(storage) == committed
    with storage.unit() as conn:
        act("after")(conn)
    assert accounts(storage) == {*committed, "test:after"} and verified(storage)


def test_a_group_whose_commit_fails_puts_every_member_s_table_back(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the room: bets at two tables arrive together and share one transaction (the second
    joins while the first's unit runs); the database goes away at the group's commit. Each
    player is told to try again, each table's stacks are the books' (nothing of either bet
    held), and both bets made again are taken once."""
    room, people, (t1, t2) = linked_room(storage)
    sit(room, people, t1, "alice")
    sit(room, people, t2, "bob")
    before = books(storage)
    original = ledger.post
    waited = threading.Event()
    joined: list[int] = []

    def post_when_joined(*args: Any, **kwargs: Any) -> Any:
        """The first bet's posting waits (inside its unit) until the second waits to join."""
        if not waited.is_set():
            waited.set()
            deadline = time.monotonic() + 10
            while not storage.waiting() and time.monotonic() < deadline:
                time.sleep(0.005)
            joined.append(storage.waiting())
        return original(*args, **kwargs)

    monkeypatch.setattr(ledger, "post", post_when_joined)
    lose_the_answer(storage, monkeypatch, committed=False)
    failed: dict[str, BaseException] = {}

    def bet(who: str, table: int) -> None:
        try:
            play(room, people[who], table, f"g{who}", jackpot=False)
        except BaseException as exc:  # (read by the test's thread)
            failed[who] = exc

    first = threading.Thread(target=bet, args=("alice", t1))
    first.start()
    assert waited.wait(10)
    second = threading.Thread(target=bet, args=("bob", t2))
    second.start()
    first.join(20)
    second.join(20)
    assert joined == [1], "the second bet did not wait to join the first's transaction"
    assert sorted(failed) == ["alice", "bob"], failed
    assert all(isinstance(exc, DatabaseUnavailable) for exc in failed.values())
    monkeypatch.setattr(ledger, "post", original)
    held = books(storage)
    assert held == before
    for who, table in (("alice", t1), ("bob", t2)):
        assert room.table(table).stacks[people[who].id] == held[ledger.stack(table, people[who].id)]
        play(room, people[who], table, f"g{who}", jackpot=False)
    after = books(storage)
    assert all(after[ledger.stack(t, people[w].id)] == held[ledger.stack(t, people[w].id)] - 500
               for w, t in (("alice", t1), ("bob", t2)))


# deadlocks -------------------------------------------------------------------------------------
@POSTGRESQL_ONLY
def test_the_unit_the_database_ends_a_deadlock_with_is_told_to_try_again(
        storage: Storage, db_url: str) -> None:
    """Two processes' units (each on its writer chain: they never wait for each other's
    writer lock) lock two shared rows in opposite orders, as two groups whose members came
    in other orders may. PostgreSQL ends the deadlock by failing one: that unit raises
    `WriteConflict` ("try again"), nothing of it written (its audit entry neither), and
    the other commits."""
    for name in ("x", "y"):
        with storage.unit() as conn:
            act(name)(conn)
    units = {who: Storage(make_engine(db_url)) for who in ("a", "b")}
    for who, unit in units.items():
        unit.write_as(f"10.0.0.{1 if who == 'a' else 2}:8001")
    both = threading.Barrier(2, timeout=20)
    outcome: dict[str, str] = {}

    def lock(conn: Connection, name: str) -> None:
        conn.execute(select(ledger_accounts.c.id).where(ledger_accounts.c.name == f"test:{name}")
                     .with_for_update()).all()

    def run(who: str, first: str, second: str) -> None:
        try:
            with units[who].unit() as conn:
                lock(conn, first)
                audit.append(conn, who, "test.action", {"by": who})
                both.wait()
                lock(conn, second)
            outcome[who] = "committed"
        except WriteConflict as exc:
            outcome[who] = str(exc)

    threads = [threading.Thread(target=run, args=("a", "x", "y")),
               threading.Thread(target=run, args=("b", "y", "x"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcome.values()) == sorted(["committed", BUSY]), outcome
    assert actors(storage) == ["x", "y"] + [w for w, o in outcome.items() if o == "committed"]
    for unit in units.values():
        unit.engine.dispose()


def test_an_action_the_database_ended_a_deadlock_with_is_made_again(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the room: the first try of a bet is the one the database fails to end a deadlock
    (`WriteConflict`: rolled back whole). The table is put back and the bet made again at
    once: the player is not told to try again, and the bet is taken once."""
    room, people, (t1, _t2) = linked_room(storage)
    sit(room, people, t1, "alice")
    before = books(storage)[ledger.stack(t1, people["alice"].id)]
    sealing = resume.seal
    tries: list[int] = []

    def conflict_at_first(conn: Connection, live: Any, key: Any) -> None:
        tries.append(1)
        sealing(conn, live, key)
        if len(tries) == 1:
            raise WriteConflict()

    monkeypatch.setattr(resume, "seal", conflict_at_first)
    play(room, people["alice"], t1, "once", jackpot=False)
    assert len(tries) == 2
    assert room.table(t1).stacks[people["alice"].id] == before - 500
    assert books(storage)[ledger.stack(t1, people["alice"].id)] == before - 500
