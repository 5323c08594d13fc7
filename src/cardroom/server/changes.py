"""What changed in the room, to the live pages of every process (issue 25: several
`cardroom serve` processes on one PostgreSQL room).

Each change a process makes is named by a topic (`table 7`: a table's play or seats;
`jackpot`: a progressive meter or its settings; `lobby`: tables opened, closed or added;
`cage`: money at the cage; `room`: anything, after a listener was away) and published at
once to the pages it serves (`Changes.changed`: each page's change socket, `routes/changes`,
tells its script to fetch its part again). With several processes the topics also cross to
the others by PostgreSQL's LISTEN/NOTIFY (`PgLink`): the notification carries only the topic,
never a card, a figure or a name, and each process that hears it does what it does for its
own changes (its pages fetch their parts again, built there from the books; a jackpot meter
is read again from the books and sent to its tables' viewers: `Hub.heard`).

A process listens on a connection of its own and sends on another (psycopg holds a
connection while it waits for notifications); the channel is named after the room's schema,
so rooms in other schemas of one database hear nothing of each other. The database away (a
restart, a switch to its standby), the link connects again by itself, and the topic `room`
is heard once it is back: what changed meanwhile is not known, so every page fetches its
part again. One process (SQLite, or a single `serve`) has no link: nothing is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo
from sqlalchemy.engine import make_url
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardroom.room.storage.db import POSTGRES_CONNECT

LOG = logging.getLogger("cardroom.changes")
ROOM = "room"
"""Anything may have changed (a link back after the database was away)."""
TOPIC = re.compile(r"(lobby|jackpot|cage|room|table [1-9][0-9]{0,11})")
"""What a notification may say; anything else heard is ignored."""
KEEPALIVE_S = 10.0
"""How long the listener waits for a notification before it checks that its connection
still answers (a server lost without a word is found within this and libpq's keepalives)."""
RETRY_S = (0.2, 0.5, 1.0, 2.0)
"""The waits between tries to connect again (the last repeated)."""


def topic_of_table(table_id: int) -> str:
    return f"table {table_id}"


def table_of(topic: str) -> int | None:
    """The table a topic names, or None."""
    return int(topic[6:]) if topic.startswith("table ") else None


@dataclass(eq=False)
class Subscription:
    """What one page's change socket has yet to be told (topics heard meanwhile, merged)."""

    waiting: set[str] = field(default_factory=set)
    ready: asyncio.Event = field(default_factory=asyncio.Event)

    def add(self, topics: Iterable[str]) -> None:
        self.waiting.update(topics)
        self.ready.set()

    async def next(self) -> set[str]:
        """The topics heard since the last call (waits for one)."""
        await self.ready.wait()
        self.ready.clear()
        out, self.waiting = self.waiting, set()
        return out


@dataclass
class Changes:
    """The topics of one process: to its pages' sockets, and through its link (when it has
    one) to the other processes. Used on the event loop only."""

    subscribers: set[Subscription] = field(default_factory=set)
    outbox: set[str] = field(default_factory=set)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    linked: bool = False
    """A link sends the outbox to the other processes (set by `PgLink.run`)."""
    react: Callable[[set[str]], Awaitable[None]] | None = None
    """What the process does for topics heard from the others (`Hub.heard`)."""

    def changed(self, *topics: str) -> None:
        """Changes made here: to this process's pages now, to the others through the link."""
        self._publish(topics)
        if self.linked:
            self.outbox.update(topics)
            self.wake.set()

    async def heard(self, topics: set[str]) -> None:
        """Changes another process made: what this one does for them, then its pages."""
        if self.react is not None:
            try:
                await self.react(topics)
            except Exception:  # the pages are told all the same
                LOG.exception("the changes heard could not be applied here")
        self._publish(topics)

    def _publish(self, topics: Iterable[str]) -> None:
        topics = set(topics)
        for sub in self.subscribers:
            sub.add(topics)

    @contextlib.asynccontextmanager
    async def subscribe(self) -> AsyncIterator[Subscription]:
        sub = Subscription()
        self.subscribers.add(sub)
        try:
            yield sub
        finally:
            self.subscribers.discard(sub)

    def take_outbox(self) -> list[str]:
        out, self.outbox = sorted(self.outbox), set()
        self.wake.clear()
        return out


def conninfo(url: str) -> str:
    """libpq's connection string for a room's SQLAlchemy URL (its schema in `options`), with
    the room's connection settings where the URL gives none (`db.POSTGRES_CONNECT`: a server
    gone is given up within seconds)."""
    given = make_url(url)
    info = given.set(drivername="postgresql").render_as_string(hide_password=False)
    return make_conninfo(info, **{k: v for k, v in POSTGRES_CONNECT.items()
                                  if k not in given.query})


def channel_of(schema: str) -> str:
    """The room's channel: one per schema, within PostgreSQL's 63 bytes of a name."""
    return f"cardroom.{schema}"[:63]


@dataclass
class PgLink:
    """A process's LISTEN/NOTIFY link to the others of its room (`run`, for as long as the
    process serves)."""

    url: str
    changes: Changes
    listener_pid: int | None = None
    """The server process of the listening connection (a test ends it as a restart would)."""
    up: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self) -> None:
        """Listen and send; the connection lost, connect again (`RETRY_S`), and once back
        tell this process's pages that anything may have changed."""
        self.changes.linked = True
        tries = 0
        while True:
            try:
                await self._session(back=tries > 0)
            except (psycopg.Error, OSError) as exc:
                LOG.warning("the room's change link is down (%s): connecting again", exc)
            except Exception:  # a defect: logged, and the link tries again all the same
                LOG.exception("the room's change link failed: connecting again")
            if self.up.is_set():  # it was up: the first wait is short again
                tries = 0
            self.up.clear()
            self.listener_pid = None
            await asyncio.sleep(RETRY_S[min(tries, len(RETRY_S) - 1)])
            tries += 1

    async def _session(self, back: bool) -> None:
        info = conninfo(self.url)
        async with await psycopg.AsyncConnection.connect(info, autocommit=True) as listen, \
                await psycopg.AsyncConnection.connect(info, autocommit=True) as send:
            schema = (await (await listen.execute("SELECT current_schema()")).fetchone()
                      or ("public",))[0]
            channel = channel_of(str(schema))
            await listen.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
            self.listener_pid = listen.info.backend_pid
            self.up.set()
            if back:
                await self.changes.heard({ROOM})
            heard = Subscription()
            tasks = [asyncio.create_task(self._receive(listen, send.info.backend_pid, heard)),
                     asyncio.create_task(self._apply(heard)),
                     asyncio.create_task(self._send(send, channel))]
            try:
                done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
                for task in done:
                    task.result()
            finally:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)

    async def _receive(self, listen: psycopg.AsyncConnection[object], own: int,
                       heard: Subscription) -> None:
        """The topics the other processes send (this process's own, from `own`, skipped);
        every `KEEPALIVE_S` the connection is asked whether it still answers."""
        while True:
            async for note in listen.notifies(timeout=KEEPALIVE_S):
                if note.pid != own and TOPIC.fullmatch(note.payload):
                    heard.add([note.payload])
            await listen.execute("SELECT 1")

    async def _apply(self, heard: Subscription) -> None:
        """The topics heard, applied here; those that arrive meanwhile merged into one go."""
        while True:
            await self.changes.heard(await heard.next())

    async def _send(self, send: psycopg.AsyncConnection[object], channel: str) -> None:
        """Every topic changed here, in one statement for those that came together; lost
        with the connection (the others then hear `room` when they are back)."""
        while True:
            await self.changes.wake.wait()
            topics = self.changes.take_outbox()
            if topics:
                await send.execute("SELECT pg_notify(%s, t) FROM unnest(%s::text[]) AS t",
                                   (channel, topics))


FORM_TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("/floor/jackpot/", ("jackpot",)), ("/floor/inventory/", ("lobby", "cage")),
    ("/floor/", ("lobby",)), ("/cage/", ("cage",)), ("/cashier/", ("cage",)),
    ("/signatures/", ("lobby", "cage", "jackpot")))
"""What a form of each area changes (the first prefix of its path that matches): the
floor's forms change tables (added, opened, closed), its inventory forms the tables and the
cage (a fill or credit slip voided), the cage's and the player's cashier's forms money at the
cage, the progressive controller's the meters. The last signature of a second-signature form
does that form's work, which may be any of these (a fill or a credit: a table's tray and
the cage; a count; a table opened or closed; a meter adjusted, its settings, a top award
verified): all three topics (rare: a few a shift)."""


def form_topics(path: str) -> tuple[str, ...]:
    return next((topics for prefix, topics in FORM_TOPICS if path.startswith(prefix)), ())


class ChangedForms:
    """ASGI middleware: a form sent (POST) to an area of `FORM_TOPICS` and answered without
    an error status publishes its topics (`Changes.changed`, the app's `hub.changes`); a
    refusal redirected with its reason publishes it too (the pages fetch their parts again
    and find nothing new)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        topics = form_topics(scope["path"]) if scope["type"] == "http" and \
            scope["method"] == "POST" else ()
        if not topics:
            await self.app(scope, receive, send)
            return
        status = 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        await self.app(scope, receive, sending)
        if status < 400:
            scope["app"].state.hub.changes.changed(*topics)
