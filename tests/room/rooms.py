"""A started room with its people and, optionally, one table: the one `make_room` the room
tests share (each game's tests keep their own seed and cast, so their dealt cards and ledger
stay as they were)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any

from cardroom.room.accounts import Account, Role, create_account
from cardroom.room.cashier import buy_chips
from cardroom.room.db import Storage
from cardroom.room.room import Room
from cardroom.room.settings import SELF_SERVICE
from cardroom.shoe import SeededRandom

PW = "correct horse"

CAST = (("olivia", Role.OWNER), ("alice", Role.PLAYER), ("bob", Role.PLAYER),
        ("fiona", Role.FLOOR))
"""Everyone a table test needs: the owner (olivia) opens tables, two players, a floor person."""

BUY_IN = 100_000


def make_room(storage: Storage, game: str | None = None, *, seed: int, table: str = "",
              rules: dict[str, Any] | None = None, cast: Sequence[tuple[str, Role]] = CAST,
              buyers: Sequence[str] = ("alice", "bob"), key: str = "first-{name}",
              ) -> tuple[Room, dict[str, Account], int | None]:
    """Start a room on `storage` (deals seeded with `seed`), open the accounts of `cast`,
    sell each of `buyers` `BUY_IN` cents of chips (idempotency key `key`), and open a table of
    `game` named `table` when a game is given. Returns the room, the people, the table id."""
    room = Room(storage, SeededRandom(seed))
    room.start()
    with storage.unit() as conn:
        people = {name: create_account(conn, name, PW, role) for name, role in cast}
        for name in buyers:
            buy_chips(conn, SELF_SERVICE, people[name], BUY_IN, key.format(name=name))
    if game is None:
        return room, people, None
    return room, people, room.create_table(people["olivia"], table, game, rules).table_id


def tid(room: Room) -> int:
    """The id of the room's first table."""
    return next(iter(room.tables))


baccarat_room = partial(make_room, game="baccarat", seed=7, table="Mini 1",
                        cast=(*CAST, ("audrey", Role.AUDITOR)))
pai_gow_room = partial(make_room, game="pai-gow", seed=3, table="Pai Gow one")
super_pan_9_room = partial(make_room, game="super-pan-9", seed=11, table="Pan 9 one",
                           cast=(*CAST, ("dan", Role.DEALER)))
pan_room = partial(
    make_room, game="pan", seed=3, table="Pan 1", buyers=("alice", "bob", "carol"),
    cast=(("olivia", Role.OWNER), ("alice", Role.PLAYER), ("bob", Role.PLAYER),
          ("carol", Role.PLAYER), ("fiona", Role.FLOOR), ("audrey", Role.AUDITOR)))
"""Each game's room as its tests have always dealt it (the seed fixes the shuffles)."""

CAGE_CAST = (("olivia", Role.OWNER), ("alice", Role.PLAYER), ("bob", Role.PLAYER),
             ("fiona", Role.FLOOR), ("gus", Role.FLOOR), ("dan", Role.DEALER),
             ("cathy", Role.CASHIER), ("colin", Role.CASHIER), ("audrey", Role.AUDITOR))
"""A room run as a card room: the cage (cathy, colin), a dealer (dan), two floor
supervisors (fiona, gus) and the auditor; players buy no chips by themselves."""
cage_room = partial(make_room, game="baccarat", seed=7, table="Mini 1", cast=CAGE_CAST,
                    buyers=())
