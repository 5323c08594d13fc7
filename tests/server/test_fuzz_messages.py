"""The fuzz figure of issue 9: 10,000 hostile WebSocket messages per game (baccarat, Super Pan 9,
Pai Gow, Pan) from a seated player, half while the table waits for wagers and half with a hand
in play (baccarat: after a coup). For every message: exactly one reply to the sender, and a
refusal changes nothing (the books and the table as the player sees it). At the end the server
still serves, the ledger balances, the audit chain verifies, and the audit log holds the
refusals as a handful of entries plus counts that add up to every refusal."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from room.people import player
from room.rooms import playing_table

from cardroom.room.books.cashier import buy_chips
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role, create_account
from cardroom.room.play.refusals import SUMMARY_ACTION
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage, make_engine, migrate
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.server.app import COOKIE, create_app
from cardroom.shoe import SeededRandom
from server.asgi_socket import AsgiSocket
from server.forms import PW, FormClient
from server.hostile import Hostile

MESSAGES = 10_000

Step = Callable[[Room, int, Account], None]


def bet(bets: dict[str, int]) -> Step:
    return lambda room, t, bob: room.act(bob, t, {"type": "bet", "bets": bets, "key": "bob"})


def deal(room: Room, t: int, bob: Account) -> None:
    room.act(bob, t, {"type": "deal"})


SCENES: dict[str, tuple[int, Step, Step]] = {
    # game: (buy-in, before the first half, between the halves)
    "baccarat": (20_000, bet({"banker": 1_000}), deal),
    "super-pan-9": (20_000, bet({"wager": 1_000}), deal),
    "pai-gow": (20_000, bet({"wager": 1_000}), deal),
    "pan": (2_000, deal, lambda room, t, bob: None),  # idle, alice could deal: in play
}


FIELDS = ("type|key|bets|buy_in|seq|spot|seat|kind|reason|front|card|command|doubles|amount|"
          "wager")
FIELD_TALK = re.compile(rf"\bcents\b|malformed|['\"]({FIELDS})['\"]|\bbuy_in\b|[{{}}]")
"""What a refusal must not show a person: cents, protocol jargon, a field of the protocol by
its name, JSON."""


def plain(message: str) -> bool:
    """A refusal a person can read: one sentence, amounts in dollars, no field names."""
    return "\n" not in message and FIELD_TALK.search(message) is None


def balances(room: Room) -> dict[str, int]:
    with room.storage.read() as conn:
        return ledger.balances(conn)


@pytest.mark.parametrize("game", list(SCENES))
def test_ten_thousand_hostile_messages_change_nothing(tmp_path: Path, game: str) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'fuzz.sqlite3'}")
    migrate(engine)
    room = Room(Storage(engine), SeededRandom(9))
    room.start()
    with room.storage.unit() as conn:
        owner = create_account(conn, "olivia", PW, Role.OWNER)
        alice, bob = (player(conn, n, PW) for n in ("alice", "bob"))
        for p in (alice, bob):
            buy_chips(conn, SELF_SERVICE, p, 100_000, "chips")
    t = playing_table(room, owner, "Fuzz", game).table_id
    stopped = datetime.now(UTC)  # a turn's time left is all that changes with time (issue 23)
    room.table(t).clock = lambda: stopped
    buy_in, first, second = SCENES[game]
    for p in (alice, bob):
        room.act(p, t, {"type": "sit", "buy_in": buy_in, "key": "sit"})
    first(room, t, bob)
    with room.storage.read() as conn:
        audited = len(list(audit.entries(conn)))

    client = FormClient(create_app(room))
    client.post("/login", data={"username": "alice", "password": PW})
    cookie = f"{COOKIE}={client.cookies[COOKIE]}"
    app, path = create_app(room), f"/ws/tables/{t}"
    hostile = Hostile(random.Random(f"fuzz-{game}"))
    replies: dict[str, int] = {"error": 0, "state": 0}

    async def fuzz() -> None:
        async with AsgiSocket(app, path, cookie) as ws:
            await ws.receive_json()
            books, seen = balances(room), room.table(t).snapshot(alice)
            for i in range(MESSAGES):
                if i == MESSAGES // 2:
                    assert balances(room) == books
                    second(room, t, bob)
                    books, seen = balances(room), room.table(t).snapshot(alice)
                seq = seen.get("seq")
                frame = hostile.frame(seq if isinstance(seq, int) else None)
                await ws.send(frame)
                reply = await ws.receive_json()
                replies[reply["type"]] += 1
                assert reply["type"] == "error", (frame[:300], reply)
                assert "could not handle" not in reply["message"], (frame[:300], reply)
                assert plain(reply["message"]), (frame[:300], reply)
                assert room.table(t).snapshot(alice) == seen, (frame[:300], reply)
                if i % 500 == 499:  # the books too, now and then (every message is refused)
                    assert balances(room) == books, (frame[:300], reply)
            assert balances(room) == books
        async with AsgiSocket(app, path, cookie) as ws:  # the server still serves
            assert (await ws.receive_json())["type"] == "state"

    started = time.perf_counter()
    asyncio.run(fuzz())
    elapsed = time.perf_counter() - started
    refused, applied = replies["error"], replies["state"]
    with room.storage.read() as conn:
        assert ledger.trial_balance(conn).ok and audit.verify(conn).ok
        entries = [e.data for e in list(audit.entries(conn))[audited:] if e.action == "refused"]
    counted = sum(e["count"] for e in entries if e["action"] == SUMMARY_ACTION)
    one_by_one = sum(1 for e in entries if e["action"] != SUMMARY_ACTION)
    assert one_by_one + counted == refused
    assert len(entries) <= 6 * (elapsed // 10 + 2)
    assert refused == MESSAGES and applied == 0
    print(f"\n{game}: {MESSAGES} hostile messages in {elapsed:.1f} s, {refused} refused, "
          f"{applied} applied; {len(entries)} audit entries ({one_by_one} one by one, "
          f"{counted} counted); ledger balanced, audit chain intact")
