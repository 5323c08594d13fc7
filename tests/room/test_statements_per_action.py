"""Issue 25 ("PostgreSQL, the production database, is the slow path"): every SQL statement of
a player's action is a round trip to PostgreSQL, all of them inside the room's writer lock.
These bounds hold the number of statements an action costs (a bet, and the deal that settles
the hand) so that a change which adds round trips back fails here: before issue 25 a bet cost
16 statements on PostgreSQL and a deal 19 (docs/benchmarks.md).

On PostgreSQL the round trips themselves are counted too (`round_trips.traced`: libpq's trace
of the protocol, each time the client sent and then read an answer, psycopg's own BEGIN and
the COMMIT included): a unit runs in pipeline mode and its writes wait for nothing, so a bet
costs the writer lock with the idempotency key's look-up, the accounts, and the writes with
the COMMIT. Before the pipeline a bet was 11 round trips and this deal 16.

Under a lease (one process of several, `Room.holder`) a bet and a deal cost the plain room's
round trips: the lease check and the linked pool's comparison with the books are one
statement queued with the action's first read (`leases.guard`); before, they were three more
round trips (the lease's UPDATE, the pool's and the pending hits' SELECTs)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event

from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage, make_engine
from cardroom.room.storage.round_trips import traced
from cardroom.shoe import SeededRandom

from .people import IDENTITY_KEY
from .rooms import make_room, playing_table
from .storage_fixture import POSTGRESQL_ONLY

MOST = {"postgresql": {"bet": 9, "deal": 13}, "sqlite": {"bet": 12, "deal": 16}}
ROUND_TRIPS = {"bet": 3, "deal": 8}
"""At most this many round trips per action on PostgreSQL, the BEGIN and the COMMIT included
(the deal reads the hand, the ledger's key and accounts, and the players' patron records for
the exclusion check)."""
"""At most this many statements (the commit not counted) per action, per database (a deal with
two players). PostgreSQL takes the writer lock and reads the audit head in one of them, writes
a ledger transaction in one and the unit's audit entries in one; SQLite (whose round trips are
calls inside the process) reads the head apart and writes each of those in three and two."""


@contextmanager
def counted(storage: Storage) -> Iterator[list[str]]:
    seen: list[str] = []

    def note(_c: Any, _cur: Any, statement: str, *_: Any) -> None:
        if statement not in ("BEGIN", "COMMIT"):  # the pipeline's own (the driver's before)
            seen.append(statement)

    event.listen(storage.engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(storage.engine, "before_cursor_execute", note)


def test_a_bet_and_a_deal_stay_within_their_statements(storage: Storage) -> None:
    room, people, table = make_room(storage, "baccarat", seed=25, table="Round trips")
    assert table is not None
    for name in ("alice", "bob"):
        room.act(people[name], table, {"type": "sit", "buy_in": 20_000, "key": f"sit-{name}"})
    room.act(people["alice"], table, {"type": "bet", "bets": {"player": 500}, "key": "a1"})
    most = MOST[storage.engine.dialect.name]
    with counted(storage) as seen, traced(storage) as trips:
        room.act(people["bob"], table, {"type": "bet", "bets": {"banker": 700}, "key": "b1"})
    assert 0 < len(seen) <= most["bet"], seen
    with counted(storage) as seen, traced(storage) as deal_trips:
        room.act(people["alice"], table, {"type": "deal"})
    assert 0 < len(seen) <= most["deal"], seen
    if storage.is_postgres:
        assert 0 < trips[0] <= ROUND_TRIPS["bet"], trips
        assert 0 < deal_trips[0] <= ROUND_TRIPS["deal"], deal_trips
    with storage.snapshot() as conn:  # the batched writes are all there, the chain sound
        assert audit.verify(conn).ok
        assert ledger.trial_balance(conn).ok
        kinds = [e.action for e in audit.entries(conn)]
    assert kinds.count("hand.settled") == 1 and kinds.count("ledger.tx") >= 5


def bet_and_deal(room: Room, people: dict[str, Account], table: int, key: str
                 ) -> tuple[list[int], list[int]]:
    """The statements and the round trips of bob's bet and then alice's deal at `table`
    (alice has bet first), as [bet, deal] each."""
    room.act(people["alice"], table, {"type": "bet", "bets": {"player": 500}, "key": f"a{key}"})
    statements, trips = [], []
    for who, msg in (("bob", {"type": "bet", "bets": {"banker": 700}, "key": f"b{key}"}),
                     ("alice", {"type": "deal"})):
        with counted(room.storage) as seen, traced(room.storage) as trip:
            room.act(people[who], table, msg)
        statements.append(len(seen))
        trips += trip
    return statements, trips


@POSTGRESQL_ONLY
def test_under_a_lease_a_bet_and_a_deal_cost_the_plain_room_s_round_trips(
        storage: Storage, db_url: str) -> None:
    """Issue 25: one process of several holds its table under a lease (`holder`), a table
    with a progressive pool. The same bet and deal as at a plain room's table cost the same
    round trips, and one statement more (the lease and pool check, queued)."""
    plain, people, first = make_room(storage, "baccarat", seed=25, table="Plain")
    assert first is not None
    second = playing_table(plain, people["olivia"], "Leased", "baccarat").table_id
    leased = Room(Storage(make_engine(db_url)), SeededRandom(25), identity=IDENTITY_KEY,
                  holder="one of several")
    leased.start()
    assert leased.fences == {first: 1, second: 1}
    figures = []
    for room, table in ((plain, first), (leased, second)):
        for name in ("alice", "bob"):
            room.act(people[name], table, {"type": "sit", "buy_in": 20_000,
                                           "key": f"sit-{name}-{table}"})
        bet_and_deal(room, people, table, f"warm-{table}")  # first uses of the accounts
        figures.append(bet_and_deal(room, people, table, f"counted-{table}"))
        for name in ("alice", "bob"):
            room.act(people[name], table, {"type": "leave", "key": f"leave-{name}-{table}"})
    (plain_statements, plain_trips), (leased_statements, leased_trips) = figures
    assert 0 < plain_trips[0] <= ROUND_TRIPS["bet"] and 0 < plain_trips[1] <= ROUND_TRIPS["deal"]
    assert leased_trips == plain_trips, (leased_trips, plain_trips)
    assert leased_statements == [n + 1 for n in plain_statements]
    with storage.snapshot() as conn:
        assert audit.verify(conn).ok and ledger.trial_balance(conn).ok
