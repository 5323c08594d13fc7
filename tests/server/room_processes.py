"""Processes of one PostgreSQL room for the tests of issue 25 ("tables that outlive their
process"; the fixture `pg_url` in conftest.py gives a fresh migrated schema): a `cardroom
serve` process of the room as a `Room` with a holder id of its own, served by a real uvicorn
server on a port of 127.0.0.1 (`process`), alice at a baccarat table (`the_room`) or two
(`two_tables`), and the table socket's moves the tests make."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import uvicorn
from fastapi import FastAPI
from room.people import IDENTITY_KEY, player
from room.rooms import playing_table
from sqlalchemy import select, update
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from cardroom.room.books.cashier import buy_chips
from cardroom.room.people.accounts import Role, create_account, get_account
from cardroom.room.play import leases
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage, make_engine
from cardroom.room.storage.schema import accounts, table_leases
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.server.app import COOKIE, create_app
from cardroom.server.changes import PgLink
from cardroom.shoe import SeededRandom
from server.forms import PW
from server.serve_process import free_port

TOKEN = re.compile(r'name="csrf" value="([0-9a-f]+)"')
APPS: dict[int, FastAPI] = {}
"""The app each running `process` serves, by its port (its hub, its change link)."""


@contextmanager
def process(db_url: str, seed: int) -> Iterator[tuple[Room, int, Callable[[], None]]]:
    """One `cardroom serve` process of the room on a free port (its address in its holder
    id), started (it takes the tables nobody holds) and serving. Its room, its port and how
    to stop it in good order (its leases let go; done at the end if not before)."""
    port = free_port()
    room = Room(Storage(make_engine(db_url)), SeededRandom(seed), settings=SELF_SERVICE,
                identity=IDENTITY_KEY, holder=leases.new_holder(f"127.0.0.1:{port}"))
    room.start()
    app = APPS[port] = create_app(room)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)

    def stop() -> None:
        server.should_exit = True
        thread.join(20)
        assert not thread.is_alive()

    try:
        yield room, port, stop
    finally:
        stop()
        room.storage.engine.dispose()
        APPS.pop(port, None)


def the_room(db_url: str) -> int:
    """The books: an owner, alice (a player with $1,000 of chips) and a baccarat table open
    for play. Returns the table's id."""
    room = Room(Storage(make_engine(db_url)), SeededRandom(3), settings=SELF_SERVICE,
                identity=IDENTITY_KEY)
    room.start()
    return alice_at_a_table(room)


def holder(room: Room, t: int) -> str:
    with room.storage.read() as conn:
        return str(conn.execute(select(table_leases.c.holder)
                                .where(table_leases.c.table_id == t)).scalar_one())


async def message(ws: ClientConnection) -> dict[str, Any]:
    found = json.loads(await asyncio.wait_for(ws.recv(), 20))
    assert isinstance(found, dict)
    return found


def mine(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The viewer's own seat of a baccarat snapshot."""
    seat = next(s for s in snapshot["seats"] if s["you"])
    assert isinstance(seat, dict)
    return seat


async def coup(ws: ClientConnection, key: str, progressive: int = 0) -> dict[str, Any]:
    """Alice bets $5 on Player (and `progressive` cents on the jackpot) and deals: the coup's
    result."""
    bets = {"player": 500} | ({"progressive": progressive} if progressive else {})
    await ws.send(json.dumps({"type": "bet", "bets": bets, "key": key}))
    assert (await message(ws))["hand"]["open"]
    await ws.send(json.dumps({"type": "deal"}))
    done = await message(ws)
    assert done["last"]["hand"], done
    return done


def alice_at_a_table(room: Room) -> int:
    """An owner, alice (a player with $1,000 of chips) and a baccarat table open for play in
    `room`'s books, its connections closed after. Returns the table's id."""
    with room.storage.unit() as conn:
        owner = create_account(conn, "olivia", PW, Role.OWNER)
        alice = player(conn, "alice", PW)
        buy_chips(conn, SELF_SERVICE, alice, 100_000, "chips")
    t = playing_table(room, owner, "Mini 1", "baccarat").table_id
    room.storage.engine.dispose()
    return t


def csrf_of(browser: httpx.Client) -> str:
    return token(browser, "/login")


def two_tables(db_url: str) -> tuple[int, int]:
    """alice's books (`alice_at_a_table`: Mini 1) and a second baccarat table, Mini 2, both
    open for play and on the room's one jackpot pool."""
    room = Room(Storage(make_engine(db_url)), SeededRandom(3), settings=SELF_SERVICE)
    room.start()
    t1 = alice_at_a_table(room)
    with room.storage.read() as conn:
        olivia = get_account(conn, conn.execute(select(accounts.c.id).where(
            accounts.c.username == "olivia")).scalar_one())
    assert olivia is not None
    t2 = playing_table(room, olivia, "Mini 2", "baccarat").table_id
    room.storage.engine.dispose()
    return t1, t2


def hand_over(room: Room, table_id: int) -> None:
    """The table's lease taken by `room`'s process (as after its holder stopped beating)."""
    with room.storage.unit() as conn:
        conn.execute(update(table_leases).where(table_leases.c.table_id == table_id)
                     .values(expires_at=datetime.now(UTC) - timedelta(seconds=1)))
        assert leases.take(conn, table_id, str(room.holder)) is not None
    room.table(table_id)


def link(port: int) -> PgLink:
    found = APPS[port].state.link
    assert isinstance(found, PgLink)
    return found


def wait_linked(*ports: int) -> None:
    deadline = time.monotonic() + 20
    while not all(link(p).up.is_set() for p in ports):
        assert time.monotonic() < deadline, "the change links did not connect"
        time.sleep(0.05)


BROWSER_TIMEOUT_S = 30.0
"""How long a test's browser waits for a page: a process's first floor page counts the exact
break-even of the progressive once (about a second, several on a loaded machine)."""


def browser(port: int, name: str) -> httpx.Client:
    """A browser logged in as `name` at the process on `port`."""
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=BROWSER_TIMEOUT_S)
    client.post("/login", data={"username": name, "password": PW,
                                "csrf": token(client, "/login")})
    assert client.cookies.get(COOKIE)
    return client


def token(client: httpx.Client, page: str) -> str:
    found = TOKEN.search(client.get(page).text)
    assert found, page
    return found.group(1)


def socket(port: int, path: str, client: httpx.Client) -> Any:
    return connect(f"ws://127.0.0.1:{port}{path}", origin=Origin(f"http://127.0.0.1:{port}"),
                   additional_headers={"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"})


async def heard(ws: ClientConnection, topic: str) -> float:
    """Seconds until the change socket names `topic`."""
    start = time.monotonic()
    while topic not in (await message(ws))["what"]:
        pass
    return time.monotonic() - start
