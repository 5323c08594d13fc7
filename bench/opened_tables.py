"""The benches' tables opened for play as a room's floor would open them (WAC 230-15-495: no
house-banked table deals before its opener is signed): a floor supervisor and a dealer sign
an opener over an empty tray."""

from __future__ import annotations

from cardroom.room.books import table_books
from cardroom.room.books.cashier import buy_chips
from cardroom.room.people.accounts import Account, Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage, make_engine, migrate
from cardroom.room.storage.identity_key import IdentityKey
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.shoe import SystemRandom


def room_with_players(url: str, players: int) -> tuple[Room, Account, list[Account]]:
    """A self-service room on the books at `url` (migrated), started, with its owner and
    `players` players holding $100,000 of chips each; with an identity key, as every served
    room has, so that each action seals its table's hand (issue 25) as in play."""
    engine = make_engine(url)
    migrate(engine)
    room = Room(Storage(engine), SystemRandom(), settings=SELF_SERVICE,
                identity=IdentityKey.generate())
    room.start()
    with room.storage.unit() as conn:
        owner = create_account(conn, "olivia", "correct horse", Role.OWNER)
        seated = [create_account(conn, f"player{i}", "correct horse", Role.PLAYER)
                  for i in range(players)]
        for p in seated:
            buy_chips(conn, SELF_SERVICE, p, 10**7, f"chips{p.id}")
    return room, owner, seated


def open_tables(room: Room, table_ids: list[int], password_hash: str | None = None) -> None:
    """Make the bench's floor supervisor and dealer, then sign each table's first opener."""
    with room.storage.unit() as conn:
        floor = create_account(conn, "bench_floor", "bench password", Role.FLOOR, password_hash)
        dealer = create_account(conn, "bench_dealer", "bench password", Role.DEALER,
                                password_hash)
    for table_id in table_ids:
        room.operate(floor, "table.open",
                     lambda conn, t=table_id: table_books.open_table(conn, t, dealer, floor, 0))
