"""Issue 25, "the database itself", at the server: while the database does not answer (a
restart, a switch to its standby), a table socket stays open and answers an action with one
plain "try again" sentence, a socket opened meanwhile is closed with 1013 ("try again later",
which the page's client reconnects after, unlike 4401), and a page is a 503 that says to try
again. Once the database answers, the same socket goes on and the same request (its key) is
applied once: the page is never reloaded."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from room.lost_answers import lose_the_answer
from room.people import player
from room.rooms import playing_table
from sqlalchemy.exc import OperationalError

from cardroom.room.books.cashier import buy_chips
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage, make_engine, migrate
from cardroom.room.storage.errors import TRY_AGAIN, UNCONFIRMED
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.server.app import COOKIE, create_app
from cardroom.server.relay import TRY_AGAIN_LATER
from cardroom.shoe import SeededRandom
from server.asgi_socket import AsgiSocket
from server.forms import PW, FormClient


def alice_seated(tmp_path: Path) -> tuple[Room, Account, int, FormClient]:
    """A self-service room on SQLite, a baccarat table with alice seated ($200), and a
    client logged in as her (its app serves the table's socket too)."""
    engine = make_engine(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    migrate(engine)
    room = Room(Storage(engine), SeededRandom(4), settings=SELF_SERVICE)
    room.start()
    with room.storage.unit() as conn:
        owner = create_account(conn, "olivia", PW, Role.OWNER)
        alice = player(conn, "alice", PW)
        buy_chips(conn, SELF_SERVICE, alice, 100_000, "chips")
    t = playing_table(room, owner, "Mini 1", "baccarat").table_id
    room.act(alice, t, {"type": "sit", "buy_in": 20_000, "key": "sit"})
    client = FormClient(create_app(room))
    client.post("/login", data={"username": "alice", "password": PW})
    return room, alice, t, client


def test_sockets_and_pages_ride_out_a_database_that_goes_away(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    room, alice, t, client = alice_seated(tmp_path)
    engine = room.storage.engine
    cookie = f"{COOKIE}={client.cookies[COOKIE]}"
    app, path = client.app, f"/ws/tables/{t}"
    connect = engine.connect

    def away() -> None:
        def refused(*_: Any, **__: Any) -> Any:
            raise OperationalError("connect", {}, ConnectionError("the database system is "
                                                                  "shutting down"),
                                   connection_invalidated=True)
        monkeypatch.setattr(engine, "connect", refused)

    bet = '{"type": "bet", "bets": {"player": 500}, "key": "b1"}'

    async def session() -> None:
        async with AsgiSocket(app, path, cookie) as ws:
            assert (await ws.receive_json())["type"] == "state"
            away()
            await ws.send(bet)
            reply = await ws.receive_json()
            assert reply == {"type": "error", "message": TRY_AGAIN, "key": "b1"}
            async with AsgiSocket(app, path, cookie) as late:  # opened while it is away
                assert (await late.receive_json())["message"] == TRY_AGAIN
                closed = await asyncio.wait_for(late.outbox.get(), 30)
                assert closed == {"type": "websocket.close", "code": TRY_AGAIN_LATER,
                                  "reason": ""}
            page = client.get("/lobby")
            assert page.status_code == 503 and page.headers["Retry-After"] == "5"
            assert "Try again" in page.text or "try again" in page.text
            monkeypatch.setattr(engine, "connect", connect)  # it answers again
            for _ in range(2):  # the same request: applied once
                await ws.send(bet)
                state = await ws.receive_json()
                assert state["type"] == "state"
            assert room.table(t).stacks[alice.id] == 19_500

    asyncio.run(session())
    with room.storage.read() as conn:
        assert ledger.balance(conn, ledger.wagers(t)) == 500


def test_a_leave_whose_answer_was_lost_shows_every_viewer_the_books(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice leaves and the database goes away at that commit, after writing it: she reads
    "could not confirm"; her page still shows her seated. She leaves again: the table, taken
    back from the books, refuses (she is not seated), and every viewer (her second page
    here) gets the table as the books hold it, without her."""
    room, alice, t, client = alice_seated(tmp_path)
    storage = room.storage
    cookie = f"{COOKIE}={client.cookies[COOKIE]}"
    app, path = client.app, f"/ws/tables/{t}"
    leave = '{"type": "leave", "key": "out"}'

    async def session() -> None:
        async with AsgiSocket(app, path, cookie) as ws, AsgiSocket(app, path, cookie) as other:
            for socket in (ws, other):
                assert (await socket.receive_json())["you"]["seated"]
            lose_the_answer(storage, monkeypatch, committed=True)
            await ws.send(leave)
            assert (await ws.receive_json())["message"] == UNCONFIRMED
            await ws.send(leave)
            for socket in (ws, other):
                state = await socket.receive_json()
                assert state["type"] == "state" and not state["you"]["seated"]
            assert (await ws.receive_json())["message"] == "you are not seated at this table"

    asyncio.run(session())
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.stack(t, alice.id)) == 0
        assert ledger.balance(conn, ledger.wallet(alice.id)) == 100_000
