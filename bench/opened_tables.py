"""The benches' tables opened for play as a room's floor would open them (WAC 230-15-495: no
house-banked table deals before its opener is signed): a floor supervisor and a dealer sign
an opener over an empty tray."""

from __future__ import annotations

from cardroom.room.books import table_books
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room


def open_tables(room: Room, table_ids: list[int], password_hash: str | None = None) -> None:
    """Make the bench's floor supervisor and dealer, then sign each table's first opener."""
    with room.storage.unit() as conn:
        floor = create_account(conn, "bench_floor", "bench password", Role.FLOOR, password_hash)
        dealer = create_account(conn, "bench_dealer", "bench password", Role.DEALER,
                                password_hash)
    for table_id in table_ids:
        room.operate(floor, "table.open",
                     lambda conn, t=table_id: table_books.open_table(conn, t, dealer, floor, 0))
