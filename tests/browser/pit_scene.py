"""A floor mid-shift, for the pit screen's browser test and its screenshots
(`scripts/screenshots floor`): the owner (olga), the staff and two players; Mini 1
open, filled with $2,000 and $100 bought at the table, a credit asked and waiting for the
dealer's and the floor's signatures; Nine 1 (Super Pan 9, five minutes a turn) open with a
round dealt (alice is to act); Mini 2 new, awaiting its opener; Pan 1, player-dealt, empty."""

from __future__ import annotations

from room.people import person, player
from room.rooms import open_for_play

from cardroom.room.books import table_books
from cardroom.room.books.cashier import buy_chips
from cardroom.room.people import approvals
from cardroom.room.people.accounts import Account, Role
from cardroom.room.room import Room
from cardroom.room.storage.settings import SELF_SERVICE

from .room_flows import PW

STAFF = (("olga", Role.OWNER), ("fiona", Role.FLOOR), ("dan", Role.DEALER), ("cathy", Role.CASHIER))


def mid_shift(room: Room) -> dict[str, int]:
    """Set the floor up (see the module's text); the tables' ids by name."""
    with room.storage.unit() as conn:
        p: dict[str, Account] = {n: person(conn, n, PW, r) for n, r in STAFF}
        for name in ("alice", "bob"):
            p[name] = player(conn, name, PW)
            buy_chips(conn, SELF_SERVICE, p[name], 50_000, f"chips-{name}")
    ids = {name: room.create_table(p["olga"], name, game, rules).table_id
           for name, game, rules in (
               ("Mini 1", "baccarat", None), ("Nine 1", "super-pan-9", {"turn_seconds": 300}),
               ("Mini 2", "baccarat", None), ("Pan 1", "pan", None))}
    mini, nine = ids["Mini 1"], ids["Nine 1"]
    for t in (mini, nine):
        open_for_play(room, t)
    with room.storage.unit() as conn:
        table_books.fill(conn, mini, p["cathy"], p["dan"], p["fiona"], 200_000)
        table_books.drop_buy_in(conn, p["dan"], mini, p["alice"], 10_000, "at-table")
        approvals.ask(conn, p["cathy"], "credit", "credit slip: $500.00 from Mini 1",
                      {"table": mini, "amount": 50_000, "number": None},
                      {"dealer": p["dan"], "floor": p["fiona"]})
    for name, wager in (("alice", 1_000), ("bob", 2_500)):
        room.act(p[name], nine, {"type": "sit", "buy_in": 20_000, "key": f"s{name}"})
        room.act(p[name], nine, {"type": "bet", "bets": {"wager": wager}, "key": f"b{name}"})
    room.act(p["alice"], nine, {"type": "deal"})
    return ids
