"""The hub: actions run off the event loop in each table's order, and one update per change is
built once and sent to every viewer, each seeing exactly what `snapshot(viewer)` allows."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from room.people import player
from room.rooms import playing_table

from cardroom.room.books.cashier import buy_chips
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.server.hub import Hub, snapshot_texts
from cardroom.shoe import SeededRandom

from .forms import PW


class FakeSocket:
    """Collects what the hub sends (a closed one raises, as a real socket does)."""

    def __init__(self, closed: bool = False) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed = closed
        self.cookies: dict[str, str] = {}

    async def send_text(self, text: str) -> None:
        if self.closed:
            raise RuntimeError("closed")
        await asyncio.sleep(0)
        self.sent.append(json.loads(text))


def room_with_players(storage: Storage, players: int) -> tuple[Room, list[Account], Account]:
    room = Room(storage, SeededRandom(11))
    room.start()
    with storage.unit() as conn:
        owner = create_account(conn, "olivia", PW, Role.OWNER)
        people = [player(conn, f"player{i}", PW) for i in range(players)]
        for p in people:
            buy_chips(conn, SELF_SERVICE, p, 100_000, f"chips-{p.id}")
    return room, people, owner


def test_shared_snapshot_texts_equal_each_viewers_own_snapshot(storage: Storage) -> None:
    """The fast path's text for a viewer is that viewer's snapshot: their own seat flag and
    `you`, the same public part, before and after a deal (hidden information stays hidden:
    no viewer sees more than `snapshot` gives them)."""
    room, people, owner = room_with_players(storage, 3)
    live = playing_table(room, owner, "Mini 1", "baccarat")
    t = live.table_id
    for p in people[:2]:
        room.act(p, t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(people[0], t, {"type": "bet", "bets": {"banker": 1_000}, "key": "b"})
    viewers: list[Account | None] = [*people, owner, None]
    for dealt in (False, True):
        if dealt:
            room.act(people[0], t, {"type": "deal"})
        texts = snapshot_texts(live, viewers)
        for v, text in zip(viewers, texts, strict=True):
            assert json.loads(text) == live.snapshot(v)
        assert "order" not in texts[2]  # the shoe's order is never in an update
        assert json.loads(texts[0])["you"]["seated"] and not json.loads(texts[2])["you"][
            "seated"]


def test_concurrent_actions_stay_in_order_and_the_books_balance(storage: Storage) -> None:
    """Every seated player bets at the same instant at two tables, then each table deals: the
    actions run in worker threads, one table's in order; every viewer's updates arrive in order
    (wagers only grow until the deal), a closed socket is dropped, a refusal changes nothing
    and is audited, and the ledger balances."""
    room, people, owner = room_with_players(storage, 8)
    tables = [playing_table(room, owner, f"Mini {i}", "baccarat").table_id for i in (1, 2)]
    seating = {p: tables[i % 2] for i, p in enumerate(people)}
    for p, t in seating.items():
        room.act(p, t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    hub = Hub()
    sockets = {p: FakeSocket() for p in people}
    dead = FakeSocket(closed=True)
    for p, t in seating.items():
        hub.sockets[t][sockets[p]] = p  # type: ignore[index]
    hub.sockets[tables[0]][dead] = owner  # type: ignore[index]
    with storage.read() as conn:
        audited = sum(1 for _ in audit.entries(conn))

    async def play() -> list[BaseException | None]:
        bets = await asyncio.gather(*(
            hub.act(room, p, t, {"type": "bet", "bets": {"player": 500}, "key": "r1"})
            for p, t in seating.items()), return_exceptions=True)
        refused = await asyncio.gather(
            hub.act(room, people[0], tables[0], {"type": "bet", "bets": {"player": 10**9},
                                                 "key": "too-much"}),
            return_exceptions=True)
        await asyncio.gather(*(hub.act(room, owner, t, {"type": "deal"}) for t in tables))
        return [*bets, *refused]

    outcomes = asyncio.run(play())
    assert all(o is None for o in outcomes[:-1])
    assert "already bet" in str(outcomes[-1])
    assert dead not in hub.sockets[tables[0]]
    for p in seating:
        seen = sockets[p].sent
        wagered = [sum(bool(s["bets"]) for s in u["seats"]) for u in seen[:-1]]
        assert wagered == sorted(wagered) and wagered[-1] == 4  # in order, all four bets
        assert seen[-1]["last"]["hand"] and not seen[-1]["hand"]["open"]  # then the deal
        assert [s["you"] for s in seen[-1]["seats"]].count(True) == 1
    with storage.read() as conn:
        assert ledger.trial_balance(conn).ok
        assert ledger.balance(conn, ledger.wagers(tables[0])) == 0
        new = [e.action for e in audit.entries(conn, after=audited)]
    assert new.count("table.bet") == 8 and new.count("refused") == 1


def test_messages_queued_together_at_a_table_share_one_update(storage: Storage) -> None:
    """A burst: three players bet at one table at the same instant, and a fourth message
    (a second bet of the first player, refused) comes with them. The first bet's thread
    runs while the others wait for the table, so its update is left to the message after
    it, and so on: each viewer gets one update, showing the three bets (the server builds
    one update where it built three); the refusal queued last sends the update the bets
    before it left. With `update_every` at 0 (the longest a viewer waits for an update
    while messages queue) each message sends its own again."""
    room, people, owner = room_with_players(storage, 5)
    t = playing_table(room, owner, "Mini 1", "baccarat").table_id
    for p in people:
        room.act(p, t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    hub = Hub(update_every=60)  # (however slow the machine, no update is due by time)
    hub.sent_at[t] = time.monotonic()  # (one just went out)
    sockets = {p: FakeSocket() for p in people}
    for p in people:
        hub.sockets[t][sockets[p]] = p  # type: ignore[index]

    async def burst(*bets: tuple[Account, str]) -> list[BaseException | None]:
        return await asyncio.gather(*(
            hub.act(room, p, t, {"type": "bet", "bets": {"player": 500}, "key": key})
            for p, key in bets), return_exceptions=True)

    async def both() -> tuple[list[BaseException | None], list[int], list[BaseException | None]]:
        first = await burst(*((p, "r1") for p in people[:3]), (people[0], "r2"))
        counts = [len(sockets[p].sent) for p in people]
        hub.update_every = 0
        return first, counts, await burst((people[3], "r1"), (people[4], "r1"))

    outcomes, counts, then = asyncio.run(both())
    assert outcomes[:3] == [None, None, None] and "already bet" in str(outcomes[3])
    assert counts == [1] * len(people) and then == [None, None]
    for p in people:
        assert [sum(bool(s["bets"]) for s in u["seats"]) for u in sockets[p].sent] == [3, 4, 5]
