"""Issue 25, tables balanced between the processes of one room (`serve --workers N`): each
live process aims at its fair share, the open tables over the live processes rounded up; one
over it hands tables over between two hands (never a hand in play: at its end instead), the
lease renamed to the process holding the fewest, which loads the table from the books; one
under it takes free tables. A second process joining ten tables gets five within a few
heartbeats, no hand voided and the books and audit chain whole; a process killed, the others
take its tables; started again, the split is fair again. Each "process" is a `Room` with a
holder id and a `Hub` of its own on one room (SQLite and PostgreSQL, `storage_fixture`); the
last test serves two of them with uvicorn and follows a browser's socket to the new holder."""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from room.linked_tables import linked_room
from room.people import IDENTITY_KEY
from sqlalchemy import select, update
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account
from cardroom.room.play import leases
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage, make_engine
from cardroom.room.storage.schema import audit_log, room_processes, table_leases
from cardroom.server.app import COOKIE
from cardroom.server.hub import Hub
from cardroom.server.relay import TRY_AGAIN_LATER
from cardroom.shoe import SeededRandom
from server.forms import logged_in
from server.room_processes import coup, message, mine, process, two_tables

Process = tuple[Room, Hub]


def started(db_url: str, name: str, seed: int) -> Process:
    """A process of the room: its own engine, random source, holder id and hub; started
    (it takes its share of the tables nobody holds; the others count it from its first
    heartbeat)."""
    room = Room(Storage(make_engine(db_url)), SeededRandom(seed), identity=IDENTITY_KEY,
                holder=name)
    room.start()
    return room, Hub()


def heartbeat(*processes: Process) -> None:
    """One heartbeat of each process, as `Hub.keep_leases` runs it: leases renewed, tables
    handed to it and its share of the free ones taken, its surplus handed over."""
    for room, hub in processes:
        room.keep_leases()
        asyncio.run(hub.balance(room))


def split(storage: Storage) -> dict[str, int]:
    """How many tables each holder holds, from the books (the leases alive now)."""
    with storage.read() as conn:
        return dict(Counter(leases.holders(conn).values()))


def fences(storage: Storage) -> dict[int, int]:
    with storage.read() as conn:
        return {int(r.table_id): int(r.fence) for r in conn.execute(
            select(table_leases.c.table_id, table_leases.c.fence))}


def killed(storage: Storage, holder: str) -> None:
    """`holder` was killed (kill -9) more than `LEASE_SECONDS` ago: neither its leases nor
    its beat were renewed since."""
    past = datetime.now(UTC) - timedelta(seconds=leases.LEASE_SECONDS + 1)
    with storage.unit() as conn:
        conn.execute(update(table_leases).where(table_leases.c.holder == holder)
                     .values(heartbeat_at=past, expires_at=past))
        conn.execute(update(room_processes).where(room_processes.c.holder == holder)
                     .values(heartbeat_at=past, expires_at=past))


def whole(storage: Storage) -> None:
    """No hand voided or left unresumed, the ledger balanced, the audit chain verified."""
    with storage.read() as conn:
        assert ledger.trial_balance(conn).ok and audit.verify(conn).ok
        actions = set(conn.execute(select(audit_log.c.action)).scalars())
    assert not actions & {"hand.void", "hand.not-resumed"}, actions


def test_a_second_process_gets_half_of_ten_tables_within_a_few_heartbeats(
        storage: Storage, db_url: str) -> None:
    """Ten tables at one process; a second joins: 5/5 after at most three heartbeats, no
    table handed twice (no oscillation: the split stays 5/5 at the next beats), each moved
    table played at its new holder from the books; the second killed, the first takes all
    ten; started again, 5/5 again; nothing voided, books and audit whole."""
    _setup, p, _ids = linked_room(storage, tables=10)
    a = started(db_url, "a", 1)
    b = started(db_url, "b", 2)
    assert split(storage) == {"a": 10}  # b started after a had taken them all
    for _ in range(3):
        heartbeat(a, b)
    assert split(storage) == {"a": 5, "b": 5}
    assert len(a[0].tables) == len(b[0].tables) == 5
    before = fences(storage)
    heartbeat(a, b)
    heartbeat(a, b)
    assert fences(storage) == before  # nothing moved again
    assert sorted(before.values()) == [1] * 5 + [2] * 5  # each moved table once
    moved = next(iter(b[0].tables))
    play_a_coup(b[0], p["alice"], moved)
    killed(storage, "b")
    heartbeat(a)
    assert split(storage) == {"a": 10}  # the other takes all
    b2 = started(db_url, "b2", 3)  # the supervisor starts it again: a new holder
    for _ in range(3):
        heartbeat(a, b2)
    assert split(storage) == {"a": 5, "b2": 5}
    whole(storage)


def test_a_process_without_a_hub_balances_by_the_room_alone(
        storage: Storage, db_url: str) -> None:
    """Issue 25: the per-beat decision is the room's (`Room.balance`), so a room process with
    no hub (`bench/bench_chaos.py`'s, its own thread locks) balances as a served one: 10/0
    to 5/5, each table handed over while the caller's lock holds it; the table first in line
    (no viewers, the highest id) but with its hand in play is never handed over, and with
    the split fair it is not chosen to leave at the end of its hand either."""
    _setup, p, ids = linked_room(storage, tables=10)
    (a, _), (b, _) = started(db_url, "a", 1), started(db_url, "b", 2)
    playing = ids[-1]
    a.act(p["alice"], playing, {"type": "sit", "buy_in": 20_000, "key": "s"})
    a.act(p["alice"], playing, {"type": "bet", "bets": {"player": 500}, "key": "b"})
    held: list[int] = []

    def hold(t: int) -> threading.Lock:
        held.append(t)
        return threading.Lock()

    handed = []
    for _ in range(3):
        for room in (a, b):
            room.keep_leases()
            handed += room.balance(lambda _t: 0, hold)
    assert split(storage) == {"a": 5, "b": 5} and playing in a.tables
    assert sorted(handed) == sorted(held) and len(handed) == 5
    assert not a.leave_between_hands(playing)  # a fair split: it is not chosen to leave
    whole(storage)


def play_a_coup(room: Room, alice: Account, t: int) -> None:
    room.act(alice, t, {"type": "sit", "buy_in": 20_000, "key": f"s{t}"})
    room.act(alice, t, {"type": "bet", "bets": {"player": 500}, "key": f"b{t}"})
    room.act(alice, t, {"type": "deal"})


def test_three_processes_a_kill_and_a_restart_come_back_to_a_fair_split(
        storage: Storage, db_url: str) -> None:
    """Ten tables, three processes: 4/3/3. One killed: the two others take its tables
    (5/5) once its lease and beat expire. Started again (a new holder): 4/3/3 again."""
    _setup, _p, _ids = linked_room(storage, tables=10)
    a, b, c = (started(db_url, name, seed) for name, seed in (("a", 1), ("b", 2), ("c", 3)))
    for _ in range(3):
        heartbeat(a, b, c)
    assert sorted(split(storage).values()) == [3, 3, 4]
    killed(storage, "c")
    heartbeat(a, b)
    assert split(storage) == {"a": 5, "b": 5}
    c2 = started(db_url, "c2", 4)
    for _ in range(3):
        heartbeat(a, b, c2)
    assert sorted(split(storage).values()) == [3, 3, 4] and len(c2[0].tables) >= 3
    whole(storage)


def test_a_table_in_play_is_handed_over_at_the_end_of_its_hand_not_before(
        storage: Storage, db_url: str) -> None:
    """Two tables at one process, a coup in play at each; a second process joins: nothing
    moves while the hands are open, however many heartbeats; the coup dealt at one of
    them, that table goes to the second process at once (its hand closed), which takes
    it at its next heartbeat and plays the next coup there."""
    _setup, p, (t1, t2) = linked_room(storage, tables=2)
    a = started(db_url, "a", 1)
    for t in (t1, t2):
        a[0].act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": f"s{t}"})
        a[0].act(p["alice"], t, {"type": "bet", "bets": {"player": 500}, "key": f"b{t}"})
    b = started(db_url, "b", 2)
    for _ in range(3):
        heartbeat(a, b)
    assert split(storage) == {"a": 2} and a[0].leaving  # both hands in play: none moves
    (leaving,) = a[0].leaving
    asyncio.run(a[1].act(a[0], p["alice"], leaving, {"type": "deal"}))
    assert leaving not in a[0].tables and split(storage) == {"a": 1, "b": 1}
    heartbeat(b)
    assert set(b[0].tables) == {leaving}
    b[0].act(p["alice"], leaving, {"type": "bet", "bets": {"player": 500}, "key": "again"})
    b[0].act(p["alice"], leaving, {"type": "deal"})
    other = t2 if leaving == t1 else t1
    a[0].act(p["alice"], other, {"type": "deal"})
    whole(storage)


def test_a_browser_at_the_old_holder_plays_on_at_the_new_one(pg_url: str) -> None:
    """Two tables served by one process, alice's sockets open at both; a second process
    starts: within a few heartbeats one table is handed over between coups, its socket
    closed with "try again later"; the page reconnects to the same process, is relayed to
    the new holder and shows alice seated with her stack; her next coup is played there."""
    t1, t2 = two_tables(pg_url)
    with process(pg_url, 1) as (a, a_port, _):
        browser = logged_in(a, "alice")
        cookie = {"Cookie": f"{COOKIE}={browser.cookies[COOKIE]}"}
        origin = Origin(f"http://127.0.0.1:{a_port}")

        def url(t: int) -> str:
            return f"ws://127.0.0.1:{a_port}/ws/tables/{t}"

        async def across() -> dict[str, Any]:
            async with connect(url(t1), additional_headers=cookie, origin=origin) as w1, \
                    connect(url(t2), additional_headers=cookie, origin=origin) as w2:
                stacks = {}
                for t, ws in ((t1, w1), (t2, w2)):
                    assert (await message(ws))["type"] == "state"
                    await ws.send(json.dumps({"type": "sit", "buy_in": 20_000,
                                              "key": f"s{t}"}))
                    assert (await message(ws))["you"]["seated"]
                    stacks[t] = mine(await coup(ws, f"k{t}"))["stack"]
                with process(pg_url, 2) as (b, _, _):
                    moved, closed = await first_closed({t1: w1, t2: w2})
                    assert closed == TRY_AGAIN_LATER
                    async with connect(url(moved), additional_headers=cookie,
                                       origin=origin) as again:
                        back = await message(again)
                        assert moved in b.tables and moved not in a.tables
                        assert back["you"]["seated"] and mine(back)["stack"] == stacks[moved]
                        return await coup(again, "after")

        done = asyncio.run(across())
        assert done["last"]["hand"]
        whole(a.storage)


async def first_closed(sockets: dict[int, Any]) -> tuple[int, int | None]:
    """The table whose socket the process closes first (its table handed over), and the
    close code; within 15 seconds."""
    async def until_closed(t: int) -> int:
        try:
            while True:
                await sockets[t].recv()
        except ConnectionClosed:
            return t
    tasks = [asyncio.create_task(until_closed(t)) for t in sockets]
    done, pending = await asyncio.wait(tasks, timeout=15, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    assert done, "no table was handed over"
    t = next(iter(done)).result()
    return t, sockets[t].close_code


def test_the_fair_share_and_who_hands_over_to_whom() -> None:
    """The rule alone: a share rounded up for taking free tables; a table goes from a
    process to the one holding the fewest only while it holds two fewer, so 10/0 gives 5,
    4/4/2 gives one (to 4/3/3) and a balanced 4/3/3 or 5/5 gives none."""
    assert (leases.share(10, 3), leases.share(10, 2), leases.share(0, 1)) == (4, 5, 0)
    assert leases.surplus({"a": 10, "b": 0}, "a") == 5
    assert leases.receiver({"a": 4, "b": 4, "c": 2}, "b") == "c"
    assert leases.surplus({"a": 4, "b": 4, "c": 2}, "a") == 1
    assert leases.surplus({"a": 4, "b": 3, "c": 3}, "a") == 0
    assert leases.surplus({"a": 5, "b": 5}, "a") == 0
    assert leases.receiver({"a": 3, "c": 1, "b": 1}, "a") == "b"  # ties: the first id
    assert leases.receiver({"a": 7}, "a") is None  # nobody to take it
