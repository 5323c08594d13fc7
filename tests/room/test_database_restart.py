"""Issue 25, "the database itself": the room keeps working through a PostgreSQL restart and a
switch to a promoted standby. An action in flight fails with one plain "try again" sentence
and nothing half-written (the transaction rolls back, the table in memory is as it was; a
commit whose answer was lost takes the table back from the committed books), the process
reconnects by itself, and no action is applied twice or lost.

The PostgreSQL clusters here are the tests' own (`pg_cluster`: initdb in a temporary folder,
a free port), never the shared server on 127.0.0.1:5432. The fault at the commit is injected
on the `storage` fixture (SQLite and the shared PostgreSQL), since no restart can be timed to
fall between a commit and its answer."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from sqlalchemy import event, func, select, text
from sqlalchemy.exc import OperationalError

from cardroom.room.money import ledger
from cardroom.room.people.accounts import Role
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage, make_engine, migrate
from cardroom.room.storage.errors import TRY_AGAIN, UNCONFIRMED, DatabaseUnavailable
from cardroom.room.storage.schema import hands
from cardroom.shoe import SeededRandom

from .lost_answers import lose_the_answer
from .people import IDENTITY_KEY
from .pg_cluster import Cluster, Clusters
from .rooms import baccarat_room, books, make_room, playing_table, view
from .scripted_play import Player, journal_matches


@pytest.fixture(scope="module")
def clusters() -> Iterator[Clusters]:
    made = Clusters()
    try:
        yield made
    finally:
        made.close()


def storage_on(url: str) -> Storage:
    engine = make_engine(url)
    migrate(engine)
    return Storage(engine)


GAMES = ("baccarat", "super-pan-9", "pai-gow", "pan", "baccarat", "super-pan-9", "pai-gow",
         "pan", "baccarat", "super-pan-9")
"""Ten tables, every game at two or three of them."""


def room_with_tables(storage: Storage, games: tuple[str, ...], seed: int
                     ) -> tuple[Room, list[Player]]:
    """A room, its tables of `games` opened, and the players of each (two at a banked
    game; one and two house bots at Pan)."""
    count = sum(1 if g == "pan" else 2 for g in games)
    cast = (("olivia", Role.OWNER), *((f"player{i}", Role.PLAYER) for i in range(count)))
    room, people, _ = make_room(storage, seed=seed, cast=cast,
                                buyers=[f"player{i}" for i in range(count)])
    free = [people[f"player{i}"] for i in range(count)]
    players = []
    for n, game in enumerate(games):
        live = playing_table(room, people["olivia"], f"{game} {n + 1}", game)
        seated = [free.pop(0) for _ in range(1 if game == "pan" else 2)]
        players.append(Player(live.table_id, game, seated))
    return room, players


def visible(room: Room, player: Player) -> list[dict[str, Any]]:
    """What each of the table's players sees of it in a hand, less what a server started
    afresh does not show again (the last hand's result, the baccarat road of the shoe so
    far, Pan's running log) and the turn's clock."""
    out = []
    for who in player.people:
        snap = view(room, player.table, who)
        for shown in ("last", "road", "log"):
            snap.pop(shown, None)
        snap.get("hand", {}).pop("turn", None)
        out.append(snap)
    return out


def seats_and_stacks(room: Room, player: Player) -> tuple[Any, ...]:
    """Between hands, what the books decide of a table: who sits where with what stack, and
    how many hands it has dealt."""
    live = room.table(player.table)
    return live.seated, live.seat_of, live.stacks, live.hand_id, live.hand_number


def check_books(room: Room, players: list[Player]) -> None:
    """The ledger balanced, the audit chain whole (`audit verify`), every move acknowledged
    in the audit log once and none twice, and no hand voided."""
    bal = books(room.storage)
    for p in players:
        assert bal.get(ledger.wagers(p.table), 0) == 0 or p.in_hand(room)
        assert journal_matches(p.journal, p.audited(room)), (p.game, p.journal,
                                                              p.audited(room))
    with room.storage.read() as conn:
        assert conn.execute(select(func.count()).where(hands.c.status == "void")
                            ).scalar_one() == 0


# (a) a restart during play at ten tables ------------------------------------------------------
def play(room: Room, player: Player, stop: threading.Event, failed: list[str]) -> None:
    """One table's players until `stop`, then to the end of the hand in play; at once if a
    table failed (no thread of a failed test plays on into the next)."""
    try:
        for _ in range(2_000):
            if failed or (stop.is_set() and not player.in_hand(room)):
                return
            player.step(room)
        failed.append(f"{player.game}: no end in sight")
    except Exception as exc:  # reported by the test, not lost in the thread
        failed.append(f"{player.game}: {type(exc).__name__}: {exc}")


def wait_for(done: Callable[[], bool], failed: list[str], players: list[Player],
             limit: float = 30) -> None:
    end = time.monotonic() + limit
    while not done():
        assert not failed, failed
        assert time.monotonic() < end, [(p.game, p.hands, p.unavailable, p.refusals[-3:],
                                         p.journal[-3:]) for p in players]
        time.sleep(0.05)


def test_a_restart_during_play_at_ten_tables_loses_and_repeats_nothing(
        clusters: Clusters) -> None:
    """Ten tables (baccarat, Super Pan 9, Pai Gow and Pan, each at two or three) play at
    once, a thread each, while the database is restarted twice (`pg_ctl restart -m fast`:
    every session ended). Actions in flight fail with "try again" and the players go on
    from what the books hold; afterwards every acknowledged move is in the audit log once,
    the ledger balances, the audit chain verifies, no hand was voided, and each table in
    memory is what a server started afresh on the books shows."""
    cluster = clusters.primary()
    room, players = room_with_tables(storage_on(cluster.url), GAMES, seed=5)
    stop, failed = threading.Event(), []
    threads = [threading.Thread(target=play, args=(room, p, stop, failed), daemon=True)
               for p in players]
    for t in threads:
        t.start()
    try:
        for target in (8, 16):  # restarted twice, the tables some moves into their play
            wait_for(lambda n=target: all(len(p.journal) >= n for p in players), failed,
                     players)
            cluster.restart()
        wait_for(lambda: all(len(p.journal) >= 24 for p in players), failed, players)
    finally:
        stop.set()
        for t in threads:
            t.join(30)
    assert not failed, failed
    assert not [r for p in players for r in p.refusals]
    assert sum(p.unavailable for p in players) > 0  # the restarts were felt
    check_books(room, players)
    again = Room(room.storage, SeededRandom(6), identity=IDENTITY_KEY)
    assert again.start() == []
    for p in players:
        assert seats_and_stacks(again, p) == seats_and_stacks(room, p)


def test_the_first_action_after_a_restart_is_served_on_a_fresh_connection(
        clusters: Clusters) -> None:
    """The restart is over before the next action: its pooled connections, idle through it,
    were told by the server that it was going, so none of them is lent again: the action
    is served at once, not refused with "try again" (no round trip is spent to find this
    out: a connection whose socket has nothing to read is lent as it is)."""
    cluster = clusters.primary()
    storage = storage_on(cluster.url)
    for _ in range(2):  # the pool keeps the connection it made
        with storage.unit() as conn:
            before = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
    with storage.unit() as conn:
        assert conn.execute(text("SELECT pg_backend_pid()")).scalar_one() == before
    cluster.restart()
    with storage.unit() as conn:
        after = conn.execute(text("SELECT pg_backend_pid()")).scalar_one()
    assert after != before
    with storage.read() as conn:
        assert conn.execute(text("SELECT 1")).scalar_one() == 1
    storage.engine.dispose()


# (b) a second server against a promoted standby ----------------------------------------------
def synchronous(primary: Cluster) -> None:
    """Every commit waits for the standby to have it on disk (`synchronous_standby_names`;
    the room's sessions run `synchronous_commit = on`): a promoted standby loses no
    acknowledged commit."""
    engine = make_engine(primary.url)
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("ALTER SYSTEM SET synchronous_standby_names = '*'"))
        conn.execute(text("SELECT pg_reload_conf()"))
        for _ in range(100):
            if conn.execute(text("SELECT count(*) FROM pg_stat_replication "
                                 "WHERE sync_state = 'sync'")).scalar_one():
                break
            time.sleep(0.05)
        else:
            raise AssertionError("the standby never became synchronous")
    engine.dispose()


def steps(room: Room, players: list[Player], count: int) -> None:
    for _ in range(count):
        for p in players:
            p.step(room)


def test_a_room_goes_on_through_a_switch_to_its_standby_and_a_second_server_on_it(
        clusters: Clusters) -> None:
    """A room whose URL names the primary and its synchronous standby (libpq's multi-host
    URL, `target_session_attrs=read-write`) plays four tables, hands in play; the primary
    is lost (stopped at once, as a crash) and the standby promoted. The room's next action
    is a "try again", the one after it is served by the promoted standby, with nothing lost.
    Then that room's process is lost too, and a second server started on the promoted copy
    resumes every hand in play exactly as the first showed it, and plays on with the books
    balanced and the audit chain whole."""
    primary = clusters.primary()
    standby = clusters.standby(primary)
    synchronous(primary)
    both = (f"postgresql+psycopg://postgres@/postgres?host=127.0.0.1:{primary.port}"
            f"&host=127.0.0.1:{standby.port}&target_session_attrs=read-write")
    room, players = room_with_tables(storage_on(both), GAMES[:4], seed=8)
    steps(room, players, 6)
    assert all(p.unavailable == 0 for p in players)
    primary.stop("immediate")
    steps(room, players, 1)  # no server takes writes yet: "try again" at every table
    assert all(p.unavailable == 1 for p in players)
    standby.promote()
    steps(room, players, 4)
    assert all(p.unavailable == 1 for p in players)  # reconnected by itself
    with room.storage.read() as conn:
        assert conn.execute(text("SELECT inet_server_port()")).scalar_one() == standby.port
    assert any(p.in_hand(room) for p in players)
    seen = {p.table: visible(room, p) for p in players}
    room.storage.engine.dispose()  # the first server is lost

    second = Room(storage_on(standby.url), SeededRandom(9), identity=IDENTITY_KEY)
    assert second.start() == []  # every hand in play resumed, none voided
    assert {p.table: visible(second, p) for p in players} == seen
    for p in players:
        while p.in_hand(second):
            p.step(second)
    assert not [r for p in players for r in p.refusals]
    check_books(second, players)


# the commit whose answer is lost -----------------------------------------------------------
@pytest.mark.parametrize("committed", [True, False], ids=["written", "not-written"])
def test_a_deal_whose_commit_answer_is_lost_is_taken_from_the_books(
        storage: Storage, monkeypatch: pytest.MonkeyPatch, committed: bool) -> None:
    """Baccarat, the deal: the database goes away at its commit. The player is asked to try
    again; the table is taken back from what the books hold, so it shows the coup settled
    exactly when it was written, and a second deal neither deals the settled coup again nor
    loses it."""
    room, p, t = baccarat_room(storage)
    assert t is not None
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20_000, "key": f"s{who}"})
        room.act(p[who], t, {"type": "bet", "bets": {"player": 500}, "key": f"b{who}"})
    hand = room.table(t).hand_id
    lose_the_answer(storage, monkeypatch, committed)
    with pytest.raises(DatabaseUnavailable) as caught:
        room.act(p["alice"], t, {"type": "deal"})
    assert str(caught.value) == UNCONFIRMED and caught.value.unknown
    live = room.table(t)
    assert (live.hand_id is None) is committed
    with storage.read() as conn:
        status = conn.execute(select(hands.c.status).where(hands.c.id == hand)).scalar_one()
    assert status == ("settled" if committed else "open")
    held = books(storage)
    assert all(live.stacks[p[who].id] == held[ledger.stack(t, p[who].id)]
               for who in ("alice", "bob"))
    if not committed:  # the player deals again: the coup is dealt once
        room.act(p["alice"], t, {"type": "deal"})
    books(storage)
    with storage.read() as conn:
        settled = conn.execute(select(func.count()).where(hands.c.table_id == t,
                                                          hands.c.status == "settled"))
        assert settled.scalar_one() == 1


def test_a_bet_in_flight_when_the_database_goes_is_refused_whole(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database gone before the commit: "try again", nothing of the bet in the books or
    at the table; the same request again is applied once."""
    room, p, t = baccarat_room(storage)
    assert t is not None
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    calls = {"n": 0}

    def lost(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        """The database gone at the bet's third statement (whichever way it is sent)."""
        calls["n"] += statement not in ("BEGIN", "COMMIT")
        if calls["n"] == 3:
            raise OperationalError("INSERT", {}, ConnectionError("terminating connection"),
                                   connection_invalidated=True)

    event.listen(storage.engine, "before_cursor_execute", lost)
    bet = {"type": "bet", "bets": {"player": 500}, "key": "b1"}
    with pytest.raises(DatabaseUnavailable) as caught:
        room.act(p["alice"], t, bet)
    event.remove(storage.engine, "before_cursor_execute", lost)
    assert str(caught.value) == TRY_AGAIN and not caught.value.unknown
    live = room.table(t)
    assert live.hand_id is None and live.stacks[p["alice"].id] == 20_000
    room.act(p["alice"], t, bet)
    room.act(p["alice"], t, bet)  # a retry of an applied request: once
    assert room.table(t).stacks[p["alice"].id] == 19_500
    assert books(storage)[ledger.wagers(t)] == 500
