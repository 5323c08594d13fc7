"""Issue 25 ("PostgreSQL, the production database, is the slow path"): every SQL statement of
a player's action is a round trip to PostgreSQL, all of them inside the room's writer lock.
These bounds hold the number of statements an action costs (a bet, and the deal that settles
the hand) so that a change which adds round trips back fails here: before issue 25 a bet cost
16 statements on PostgreSQL and a deal 19 (docs/benchmarks.md).

On PostgreSQL the round trips themselves are counted too (`round_trips.traced`: libpq's trace
of the protocol, each time the client sent and then read an answer, psycopg's own BEGIN and
the COMMIT included): a unit runs in pipeline mode and its writes wait for nothing, so a bet
costs the writer lock with the idempotency key's look-up (the same statement locks and reads
the accounts and reserves the transaction's id), and the writes with the COMMIT; a deal the
same two, the open hand's wagers and the exclusion check read ahead with the settlement's
look-up. Before the pipeline a bet was 11 round trips and this deal 16; before the look-up
took the accounts along, 3 and 8.

Under a lease (one process of several, `Room.holder`) a bet and a deal cost the plain room's
round trips: the lease check and the linked pool's comparison with the books are one
statement queued with the action's first read (`leases.guard`); before, they were three more
round trips (the lease's UPDATE, the pool's and the pending hits' SELECTs)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage, make_engine
from cardroom.room.storage.errors import LedgerError
from cardroom.room.storage.round_trips import traced
from cardroom.shoe import SeededRandom

from .pan_play import CHIP, alice_and_bob_dealt, alone_after_a_foul, pan, play_out, say
from .people import IDENTITY_KEY
from .rooms import CAST, make_room, pan_room, playing_table, view
from .statements import counted
from .storage_fixture import POSTGRESQL_ONLY

MOST = {"postgresql": {"bet": 6, "deal": 8}, "sqlite": {"bet": 12, "deal": 13}}
"""At most this many statements (the commit not counted) per action, per database (a deal with
two players), as the room sends them, through SQLAlchemy or on the driver's cursor
(`pipeline.on_driver`, `pipeline.ahead`): on PostgreSQL the writer lock and the audit head's
read are not among them (`Storage._lock_writer`). PostgreSQL writes a ledger
transaction in one statement and the unit's audit entries in one; SQLite (whose round trips
are calls inside the process) reads the head apart and writes each of those in three and
two. A PostgreSQL deal's exclusion check comes with two settings of its plan (`pipeline.ahead`,
`planned_once`: queued with it, no round trip), cheaper than the plan they spare it: counted
apart, exactly two (`PLAN_SETTINGS`)."""
PLAN_SETTINGS = "SET LOCAL plan_cache_mode"
ROUND_TRIPS = {"bet": 2, "deal": 2}
"""At most this many round trips per action on PostgreSQL, the BEGIN and the COMMIT included:
the writer lock, the head and every read (the deal's: the ledger's key and accounts, the
hand's wagers, the players' patron records for the exclusion check) in the first, the writes
with the COMMIT in the second."""


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
    settings = [statement for statement in seen if statement.startswith(PLAN_SETTINGS)]
    assert len(settings) == (2 if storage.is_postgres else 0), seen
    assert 0 < len(seen) - len(settings) <= most["deal"], seen
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


def counted_trips(room: Room, table: int, who: Account, msg: dict[str, Any]) -> int:
    """The round trips of `who`'s action `msg` at `table` (PostgreSQL)."""
    with traced(room.storage) as trip:
        room.act(who, table, msg)
    return trip[0]


SETTLING = 2
"""The action that settles a Pai Gow or Super Pan 9 hand (the last setting, the last stand):
its own audit entry comes before the settlement's ledger look-up, and is linked to the chain
only once the head's answer came with that look-up (`audit._Unit.unlinked`); it was 3 while
each entry was linked as it was appended."""


@pytest.mark.parametrize("game", ["pai-gow", "super-pan-9"])
@POSTGRESQL_ONLY
def test_the_other_banked_games_bet_and_deal_in_two_round_trips(
        storage: Storage, game: str) -> None:
    """Issue 25: a wager (the first, which opens the hand, too: its id and number are read
    with the key's look-up) and a deal at a Pai Gow and a Super Pan 9 table cost 2 round
    trips on PostgreSQL (the arming of the turn timer writes the hand's record without
    reading it), and so does every step after, the action that settles the hand included
    (`SETTLING`). The books balance after."""
    room, people, table = make_room(storage, game, seed=25, table="Round trips")
    assert table is not None
    alice, bob = people["alice"], people["bob"]
    for who in (alice, bob):
        room.act(who, table, {"type": "sit", "buy_in": 20_000, "key": f"sit-{who.id}"})

    def steps() -> list[tuple[Account, dict[str, Any]]]:
        """What each player does after the deal, in turn, until the hand settles."""
        if game == "super-pan-9":
            return [(alice, {"type": "stand"}), (bob, {"type": "stand"})]
        return [(who, {"type": "house_way", "spot": spot}) for who in (alice, bob)
                for spot in view(room, table, who)["you"]["to_set"]]

    for hand in ("warm", "counted"):  # the first hand creates the table's accounts
        trips = [counted_trips(room, table, who, msg) for who, msg in (
            (alice, {"type": "bet", "bets": {"wager": 500}, "key": f"a-{hand}"}),
            (bob, {"type": "bet", "bets": {"wager": 700}, "key": f"b-{hand}"}),
            (alice, {"type": "deal"}))]
        trips += [counted_trips(room, table, who, msg) for who, msg in steps()]
    assert all(0 < n <= ROUND_TRIPS["bet"] for n in trips[:-1]), trips
    assert 0 < trips[-1] <= SETTLING, trips
    assert view(room, table, alice)["last"] is not None  # the counted hand settled
    with storage.snapshot() as conn:
        assert audit.verify(conn).ok and ledger.trial_balance(conn).ok


def test_a_unit_s_second_transaction_reads_the_balances_its_first_left(storage: Storage) -> None:
    """Issue 25: the accounts a unit has locked are read once in it (`ledger._LOCKED`); a
    later transaction of the same unit checks the balance the earlier one left, not the one
    read before it: a stack emptied by the first transfer cannot pay a second, and nothing of
    the unit is written."""
    _, people, _ = make_room(storage, seed=25)
    source, target = ledger.wallet(people["alice"].id), ledger.wallet(people["bob"].id)
    with storage.snapshot() as conn:
        held = ledger.balance(conn, source)
    assert held > 0
    with pytest.raises(LedgerError, match="not enough"), storage.unit() as conn:
        ledger.post(conn, "all-of-it", "transfer", ledger.move(source, target, held),
                    actor="test")
        ledger.post(conn, "once-more", "transfer", ledger.move(source, target, 1),
                    actor="test")
    with storage.unit() as conn:
        first = ledger.post(conn, "half", "transfer", ledger.move(source, target, held // 2),
                            actor="test")
        again = ledger.post(conn, "half", "transfer", ledger.move(source, target, held // 2),
                            actor="test")  # a retry in the same unit: applied once
        rest = ledger.post(conn, "rest", "transfer",
                           ledger.move(source, target, held - held // 2), actor="test")
    assert again == ledger.Posted(first.tx_id, replayed=True) and not rest.replayed
    with storage.snapshot() as conn:
        assert ledger.balance(conn, source) == 0 and ledger.trial_balance(conn).ok
        assert audit.verify(conn).ok


@POSTGRESQL_ONLY
def test_a_pan_deal_costs_two_round_trips_after_a_hand_closed_here(storage: Storage) -> None:
    """Issue 25: the close of a hand reads the id and number of the table's next hand ahead
    (`PanLive.next_hand`), so the next deal opens its record without a wait, posts the antes
    (the ledger's look-up) and writes the rest with the COMMIT: 2 round trips on PostgreSQL
    (13 before issue 25). The table's first deal, and the first in a process that took the
    table (a restart), read them: 3. The hands are numbered one after another."""
    room, people, table = pan_room(storage)
    assert table is not None
    players = [people["alice"], people["bob"]]
    alice_and_bob_dealt(room, people, table)
    first = pan(room, table).hand_number
    play_out(room, players, table)
    assert pan(room, table).next_hand is not None
    assert counted_trips(room, table, people["alice"], {"type": "deal"}) == 2
    assert pan(room, table).hand_number == first + 1
    play_out(room, players, table)
    again = Room(storage, SeededRandom(7), identity=IDENTITY_KEY)
    again.start()
    assert pan(again, table).next_hand is None
    assert counted_trips(again, table, people["alice"], {"type": "deal"}) == 3
    assert pan(again, table).hand_number == first + 2
    play_out(again, players, table)
    with storage.snapshot() as conn:
        assert audit.verify(conn).ok and ledger.trial_balance(conn).ok


@POSTGRESQL_ONLY
def test_a_pan_action_that_ends_the_hand_costs_two_round_trips(storage: Storage) -> None:
    """Issue 25: Bob's acceptance of Alice's settlement ends the hand (she takes the tops):
    its posting's look-up carries the exclusion check of the close, sent ahead
    (`LiveTable.exclusion_check_ahead`), and the close's writes go with the COMMIT: 2 round
    trips on PostgreSQL (was 3: the check read after the posting, a round trip of its own;
    7 before issue 25)."""
    room, p, t, _me, him = alone_after_a_foul(storage)
    say(room, p["alice"], t, f"settle {him} 3")
    seq = pan(room, t).snapshot(p["bob"])["seq"]
    assert counted_trips(room, t, p["bob"], {"type": "pan", "command": "accept settlement",
                                            "seq": seq}) == 2
    assert pan(room, t).hand_id is None
    with storage.snapshot() as conn:
        assert audit.verify(conn).ok and ledger.trial_balance(conn).ok


@POSTGRESQL_ONLY
@pytest.mark.parametrize("fee", [{"kind": "hand", "cents": 100},
                                 {"kind": "time", "cents": 500, "every_minutes": 30}])
def test_a_pan_deal_with_fees_looks_every_fee_up_in_one_round_trip(
        storage: Storage, fee: dict[str, Any]) -> None:
    """Issue 25: the fees of a deal (WAC 230-15-080, one posting a player) have their ledger
    look-ups sent together (`ledger.look_ahead`), and a time fee's paid periods are written
    without a wait: one round trip more than the same deal without a fee, however many
    players pay (it was one a player, three a player for a time fee). Each table's second
    deal, after a void (its accounts made by the first), in a new period of the time fee."""
    room, p, _ = make_room(storage, seed=3, cast=(*CAST, ("carol", Role.PLAYER)),
                           buyers=("alice", "bob", "carol"))
    trips: list[int] = []
    for rules, players in ((None, ("alice", "bob")), ({"fee": fee}, ("alice", "bob")),
                           ({"fee": fee}, ("alice", "bob", "carol"))):
        live = room.create_table(p["olivia"], f"Pan {len(trips)}", "pan", rules)
        now = [datetime(2026, 11, 27, 18, 0, tzinfo=UTC)]
        live.clock = lambda now=now: now[0]
        for who in players:
            room.act(p[who], live.table_id, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
        room.act(p["alice"], live.table_id, {"type": "deal"})
        room.act(p["fiona"], live.table_id, {"type": "void", "reason": "a second deal"})
        now[0] += timedelta(minutes=30)
        trips.append(counted_trips(room, live.table_id, p["alice"], {"type": "deal"}))
        with storage.snapshot() as conn:
            assert ledger.balance(conn, ledger.fees("pan", live.table_id)) == (
                0 if rules is None else 2 * len(players) * fee["cents"])
            assert audit.verify(conn).ok and ledger.trial_balance(conn).ok
    assert trips == [3, 4, 4]
