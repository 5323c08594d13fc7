"""The room the lobby and hand-history browser tests and screenshots share (issue 23): Mini 1
open with alice seated, Mini 2 never opened, Mini 3 opened then closed, a Pan table, and
alice's 27 hands, dealt through the room with known cards: one at Mini 3 before it closed
($20 on Banker, lost), then 26 at Mini 1 ($5 on Banker lost, then 25 times $5 on Player
won)."""

from __future__ import annotations

from typing import Any

from room.rooms import open_for_play, rig_coup

from cardroom.cards import parse_cards
from cardroom.room.books import table_books
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, find_account
from cardroom.room.room import Room

from .room_flows import owner_opens_table, player_sits

PLAYER_NINE = parse_cards("9h Ts Kd Qc")
"""Dealt player, banker, player, banker: Player's natural 9 beats Banker's 0."""


def coup(room: Room, table: int, who: Account, bets: dict[str, int], cards: Any, key: str
         ) -> None:
    """One coup at the baccarat table `table` with known cards."""
    rig_coup(room, table, list(cards))
    room.act(who, table, {"type": "bet", "bets": bets, "key": key})
    room.act(who, table, {"type": "deal"})


def lobby_room(page: Any, base: str, room: Room) -> dict[str, int]:
    """The tables and alice's hands (see the module's text); the tables' ids by name. The
    page is left logged in as alice, in the lobby."""
    owner_opens_table(page, base, "Mini 1", "baccarat", room)
    ids = {live.name: t for t, live in room.tables.items()}
    olga = room.account(1)
    assert olga is not None
    ids["Mini 2"] = room.create_table(olga, "Mini 2", "baccarat").table_id
    ids["Mini 3"] = room.create_table(olga, "Mini 3", "baccarat").table_id
    ids["Pan 1"] = room.create_table(olga, "Pan 1", "pan").table_id
    open_for_play(room, ids["Mini 3"])
    player_sits(page, base, "alice")
    with room.storage.read() as conn:
        alice = find_account(conn, "alice")
        dealer = find_account(conn, "tray_dealer")  # who signed the openers with olga
    assert alice is not None and dealer is not None
    room.act(alice, ids["Mini 3"], {"type": "sit", "buy_in": 10_000, "key": "s3"})
    coup(room, ids["Mini 3"], alice, {"banker": 2_000}, PLAYER_NINE, "c0")
    room.act(alice, ids["Mini 3"], {"type": "leave", "key": "l3"})
    coup(room, ids["Mini 1"], alice, {"banker": 500}, PLAYER_NINE, "b0")
    for i in range(1, 26):
        coup(room, ids["Mini 1"], alice, {"player": 500}, PLAYER_NINE, f"b{i}")
    room.operate(None, "table.close", lambda conn: table_books.close_table(
        conn, ids["Mini 3"], dealer, olga, ledger.balance(conn, ledger.tray(ids["Mini 3"]))))
    page.goto(base + "/lobby")
    return ids
