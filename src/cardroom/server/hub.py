"""The table sockets and how a table's actions reach the room and its viewers.

An action's database transaction (ledger, hand record, audit entry: a few milliseconds) runs in a
worker thread, not on the event loop, so the loop keeps reading and sending for every other
table meanwhile. A lock per table keeps one table's actions in the order they arrived and means
its engine is never touched by two actions at once (nor read for a snapshot while an action
applies); the database's own lock (`Storage.unit`) still admits one writer at a time. Each
update is built once per change (`snapshot_texts`: the public part encoded once, only each
viewer's own part added) and sent to the table's viewers concurrently, in the lock, so every
viewer gets a table's updates in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

import anyio.from_thread
import anyio.to_thread
from fastapi import WebSocket

from cardroom.errors import CardroomError
from cardroom.room.people.accounts import Account
from cardroom.room.play import leases
from cardroom.room.play.messages import message_text, message_type
from cardroom.room.play.refusals import RefusalLog
from cardroom.room.room import AnyTable, Room
from cardroom.server.changes import ROOM, Changes, topic_of_table
from cardroom.server.relay import TRY_AGAIN_LATER

COOKIE = "cardroom_session"
TICK_SECONDS = 1.0
"""How often the server looks for turns that ran out."""
UPDATE_EVERY_S = 0.1
"""While a table's messages queue, an update goes out at least this often (`Hub.act`)."""
LOG = logging.getLogger("cardroom.timers")
WALLET_MOVES = frozenset({"sit", "leave"})
"""Table actions that move a player's chips at the cage (a buy-in, a cash-out): the `cage`
topic too, so the figure on their pages follows."""
T = TypeVar("T")


@runtime_checkable
class SharedSnapshots(Protocol):
    """A live table that encodes one change for many viewers at once (the public part once)."""

    def snapshot_texts(self, viewers: Sequence[Account | None]) -> list[str]: ...


def _meters(room: Room) -> dict[str, tuple[int, ...]]:
    """Each jackpot pool's shown figures (to tell whether an action moved them)."""
    return {name: (p.meter, p.posted, int(p.locked)) for name, p in room.pools.items()}


def snapshot_texts(live: AnyTable, viewers: Sequence[Account | None]) -> list[str]:
    """For each viewer, the JSON of `live.snapshot(viewer)` (what that viewer may see); a table
    without its own fast path builds each distinct viewer's once."""
    if isinstance(live, SharedSnapshots):
        return live.snapshot_texts(viewers)
    memo: dict[Account | None, str] = {}
    out = []
    for v in viewers:
        if v not in memo:
            memo[v] = message_text(live.snapshot(v))
        out.append(memo[v])
    return out


@dataclass
class Hub:
    """Open WebSockets per table, each with its viewer, so updates are built per viewer."""

    sockets: dict[int, dict[WebSocket, Account]] = field(
        default_factory=lambda: defaultdict(dict))
    locks: dict[int, asyncio.Lock] = field(default_factory=lambda: defaultdict(asyncio.Lock))
    changes: Changes = field(default_factory=Changes)
    """What changed, to the live pages of this process and the others (`changes`)."""
    queued: Counter[int] = field(default_factory=Counter)
    """How many messages wait for each table's lock (`act`)."""
    unsent: set[int] = field(default_factory=set)
    """The tables changed since their viewers were last sent an update (`act`)."""
    sent_at: dict[int, float] = field(default_factory=dict)
    """When each table's last update was sent (`time.monotonic`)."""
    update_every: float = UPDATE_EVERY_S
    """`UPDATE_EVERY_S`, unless a test sets its own."""

    async def act(self, room: Room, who: Account, table_id: int, msg: object,
                  refusals: RefusalLog | None = None) -> None:
        """Apply one message (in a worker thread, in the table's order), then send the update
        to every viewer, unless another message of the table waits behind it: the update
        after that one shows both (`_send_unsent`). A refusal raises as `Room.act` does,
        changes nothing, sends nothing of its own; except where the table was taken back
        from the books first (an earlier commit's answer lost with the database,
        `Room.applying`): then every viewer gets the table as the books hold it, which may
        differ from what their page shows."""
        lock = self.locks[table_id]
        self.queued[table_id] += 1
        try:
            await lock.acquire()
        finally:
            self.queued[table_id] -= 1
        try:
            held, meters = room.tables.get(table_id), _meters(room)
            try:
                await anyio.to_thread.run_sync(room.act, who, table_id, msg, refusals)
            except CardroomError:
                now = room.tables.get(table_id)
                if now is not None and now is not held:
                    self.unsent.add(table_id)
                raise
            else:
                self.unsent.add(table_id)
            finally:
                await self._send_unsent(room, table_id)
            self._changed(room, table_id, meters, message_type(msg) in WALLET_MOVES)
            await self._leave_at_hand_end(room, table_id)
        finally:
            lock.release()

    async def _send_unsent(self, room: Room, table_id: int) -> None:
        """In the table's lock, after its message: the update its viewers have not had,
        unless another message of the table waits for the lock and the last update went out
        less than `update_every` ago (a burst: each viewer then gets the table as it
        stands after the messages queued together, not one update a message, and the
        server builds that many fewer, while nobody waits long for an update showing their
        move); a table this process is handing over sends at once (its sockets close after
        this message)."""
        if table_id in self.unsent and (
                not self.queued[table_id] or table_id in room.leaving
                or time.monotonic() - self.sent_at.get(table_id, 0.0) >= self.update_every):
            await self._send_update(room, table_id)

    async def _leave_at_hand_end(self, room: Room, table_id: int) -> None:
        """In the table's lock, after its action: a table this process hands over at the end
        of its hand (`Room.leaving`, `Room.leave_between_hands`; no worker thread for the
        others) goes now if that action ended the hand; its viewers, closed with "try again
        later", reconnect and reach it at its new holder."""
        if table_id in room.leaving and \
                await anyio.to_thread.run_sync(room.leave_between_hands, table_id):
            await self._close(lambda t, _ws, _who: t == table_id, leases.MOVED,
                              TRY_AGAIN_LATER)

    async def balance(self, room: Room) -> None:
        """A process of several over its fair share hands tables over (`Room.balance`, in a
        worker thread): the fewest viewers first, each in the table's order (`_held`)."""
        await anyio.to_thread.run_sync(
            room.balance, lambda t: len(self.sockets.get(t, ())), self._held)

    @contextlib.contextmanager
    def _held(self, table_id: int) -> Iterator[None]:
        """From a worker thread: the table's lock (taken on the event loop, which makes
        them) held, so no action of the table is half-way."""
        lock = anyio.from_thread.run_sync(self.locks.__getitem__, table_id)
        anyio.from_thread.run(lock.acquire)
        try:
            yield
        finally:
            anyio.from_thread.run_sync(lock.release)

    async def at_table(self, room: Room, table_id: int, fn: Callable[..., T], *args: Any
                       ) -> T:
        """Other work that changes what a table shows (a held payout verified or refused),
        in the table's order, then the update to every viewer."""
        async with self.locks[table_id]:
            meters = _meters(room)
            done = await anyio.to_thread.run_sync(fn, *args)
            if table_id in room.tables:
                await self._send_update(room, table_id)
            self._changed(room, table_id, meters)
            return done

    async def expire(self, room: Room) -> None:
        """Every table whose awaited turn has run out (issue 23, action timers): the default
        action is taken (`Room.time_out`), in the table's order, then the update is sent."""
        for table_id in room.timed_out():
            async with self.locks[table_id]:
                meters = _meters(room)
                if await anyio.to_thread.run_sync(room.time_out, table_id):
                    await self._send_update(room, table_id)
                    self._changed(room, table_id, meters)

    def _changed(self, room: Room, table_id: int, meters: dict[str, tuple[int, ...]],
                 wallet: bool = False) -> None:
        """A table changed (and the jackpot meters, when they moved with it; the `cage`,
        when a player's chips there moved with it): to the live pages here and at the
        other processes (`Changes`)."""
        topics = [topic_of_table(table_id)]
        if _meters(room) != meters:
            topics.append("jackpot")
        if wallet:
            topics.append("cage")
        self.changes.changed(*topics)

    async def heard(self, room: Room, topics: set[str]) -> None:
        """What another process of the room changed (`Changes.heard`): a jackpot meter that
        moved there (or anything, after the link was away) is read again from the books,
        with every table here held still (none of their actions half-way), and sent to the
        viewers of this process's jackpot tables; the rest needs nothing here (the pages
        fetch their parts again)."""
        if not topics & {"jackpot", ROOM} or not room.pools:
            return
        held = sorted(room.tables)
        async with contextlib.AsyncExitStack() as stack:
            for table_id in held:
                await stack.enter_async_context(self.locks[table_id])
            await anyio.to_thread.run_sync(room.reload_pools)
            for table_id in held:
                live = room.tables.get(table_id)
                if self.sockets[table_id] and getattr(live, "pool", None) is not None:
                    await self._send_update(room, table_id)

    async def run_timers(self, room: Room, tick: float = TICK_SECONDS) -> None:
        """For as long as the server runs: every `tick`, the turns that ran out are timed
        out. A failure of one round (the database away) is logged and the next round tries
        again."""
        while True:
            await asyncio.sleep(tick)
            try:
                await self.expire(room)
            except Exception:
                LOG.exception("the turn timers could not run")

    async def keep_leases(self, room: Room, beat: float = leases.HEARTBEAT_SECONDS) -> None:
        """A process of several (`Room.holder`), for as long as it runs: every `beat` its
        leases renewed, the tables handed to it and its share of those nobody holds taken
        (`Room.keep_leases`), and its tables over its share handed over (`balance`); the
        sockets of a table taken over from it or handed over are closed with "try again
        later", and their pages reconnect (to the holder, relayed: `relay`)."""
        while True:
            await asyncio.sleep(beat)
            try:
                await anyio.to_thread.run_sync(room.keep_leases)
                await self.balance(room)
            except Exception:
                LOG.exception("the table leases could not be renewed")
            await self._close(lambda table_id, _ws, _who: table_id not in room.tables,
                              leases.MOVED, TRY_AGAIN_LATER)

    async def blocking(self, fn: Callable[..., T], *args: Any) -> T:
        """Other blocking database work (a refusal's audit entry, a session check)."""
        return await anyio.to_thread.run_sync(fn, *args)

    async def joined(self, room: Room, table_id: int, ws: WebSocket, who: Account) -> None:
        """Register a viewer and send it the table as it is now (between two actions)."""
        async with self.locks[table_id]:
            live = room.table(table_id)
            self.sockets[table_id][ws] = who
            await ws.send_text(snapshot_texts(live, [who])[0])

    async def _send_update(self, room: Room, table_id: int) -> None:
        self.unsent.discard(table_id)
        self.sent_at[table_id] = time.monotonic()
        live = room.table(table_id)
        viewers = list(self.sockets[table_id].items())
        texts = snapshot_texts(live, [v for _, v in viewers])
        sent = await asyncio.gather(*(ws.send_text(text) for (ws, _), text
                                      in zip(viewers, texts, strict=True)),
                                    return_exceptions=True)
        for (ws, _), result in zip(viewers, sent, strict=True):
            if isinstance(result, BaseException):  # a closed socket is dropped
                self.sockets[table_id].pop(ws, None)

    async def close_session(self, token: str) -> None:
        """Log-out: close every table socket opened with that session (the page says so)."""
        await self._close(lambda _t, ws, _w: ws.cookies.get(COOKIE) == token, "logged out")

    async def close_account(self, account_id: int, message: str) -> None:
        """A lock-out or a change of role: close every table socket of that account at once,
        so none keeps the powers it was opened with (its sessions are already gone)."""
        await self._close(lambda _t, _ws, who: who.id == account_id, message)

    async def _close(self, which: Callable[[int, WebSocket, Account], bool], message: str,
                     code: int = 4401) -> None:
        """Close the sockets `which` picks (by table, socket and viewer) with `message`."""
        for table_id, table in list(self.sockets.items()):
            for ws in [w for w, who in table.items() if which(table_id, w, who)]:
                table.pop(ws, None)
                with contextlib.suppress(Exception):
                    await ws.send_text(message_text({"type": "error", "message": message}))
                    await ws.close(code=code)
