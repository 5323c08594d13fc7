"""Baccarat tables linked to one progressive pool, and the moves the progressive's tests make
at them (`test_progressive.py`, `test_leases.py`)."""

from __future__ import annotations

from cardroom.room.people.accounts import Account, Role
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage

from .rooms import CAST, make_room, playing_table

POOL = "floor-a"
LINKED = {"jackpot_pool": POOL}


def linked_room(storage: Storage, tables: int = 2
                ) -> tuple[Room, dict[str, Account], list[int]]:
    room, people, _ = make_room(storage, seed=5, cast=(*CAST, ("audrey", Role.AUDITOR),
                                                       ("dan", Role.DEALER),
                                                       ("carol", Role.PLAYER)),
                                buyers=("alice", "bob", "carol"))
    ids = [playing_table(room, people["olivia"], f"Mini {i}", "baccarat", LINKED).table_id
           for i in range(1, tables + 1)]
    return room, people, ids


def play(room: Room, who: Account, table_id: int, key: str, jackpot: bool = True) -> None:
    bets = {"player": 500, **({"progressive": 100} if jackpot else {})}
    room.act(who, table_id, {"type": "bet", "bets": bets, "key": key})


def sit(room: Room, people: dict[str, Account], table_id: int, *names: str) -> None:
    for n in names:
        room.act(people[n], table_id, {"type": "sit", "buy_in": 50_000, "key": f"s{n}"})
