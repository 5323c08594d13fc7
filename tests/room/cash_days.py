"""What the tests of currency transactions and suspicious activity share (issue 22; 31 CFR
1021.311, 1021.320): a patron for a player (with or without their identity on file), and cash
bought or redeemed at the cage and at a table, each in its own write transaction as the pages
do it."""

from __future__ import annotations

from datetime import UTC, date, datetime

from cardroom.room import patrons, table_books
from cardroom.room.accounts import Account
from cardroom.room.cashier import redeem_chips, sell_chips
from cardroom.room.identity_key import IdentityKey
from cardroom.room.patrons import NewDocument, NewPatron
from cardroom.room.room import Room
from cardroom.room.settings import GamblingClock

KEY = IdentityKey(bytes(range(32)))
CLOCK = GamblingClock()
NINE = 900_000


def today() -> date:
    return CLOCK.day_of(datetime.now(UTC))


def calendar() -> date:
    return datetime.now(CLOCK.zone).date()


def patron_for(room: Room, p: dict[str, Account], player: str = "alice",
               identity: bool = False, name: str = "Alice Liddell") -> int:
    """A patron linked to `player`'s account: with a taxpayer id and an examined licence if
    `identity`, else with only a name, address and date of birth (identity not on file)."""
    docs = (NewDocument("driver-licence", "WDL-777", "Washington", date(2031, 1, 1)),) \
        if identity else ()
    new = NewPatron(name, "2 Rabbit Hole, Tacoma WA 98402", date(1980, 5, 4),
                    "123-45-6789" if identity else None, docs)
    with room.storage.unit() as conn:
        pid = patrons.create(conn, p["cathy"], new, KEY, calendar()).id
        patrons.link_account(conn, p["cathy"], p[player].id, pid)
    return pid


def identify(room: Room, p: dict[str, Account], pid: int) -> None:
    """The cashier records the taxpayer id and examines a licence."""
    with room.storage.unit() as conn:
        patrons.set_taxpayer_id(conn, p["cathy"], pid, "123-45-6789", KEY)
        patrons.add_document(conn, p["cathy"], pid, "driver-licence", "WDL-777",
                             "Washington", date(2031, 1, 1), KEY, calendar())


def sell(room: Room, p: dict[str, Account], amount: int, key: str, who: str = "alice",
         tender: str = "cash") -> None:
    room.operate(p["cathy"], "cage.sell", lambda c: sell_chips(
        c, p["cathy"], p[who], amount, key, tender))


def redeem(room: Room, p: dict[str, Account], amount: int, key: str, who: str = "alice"
           ) -> None:
    room.operate(p["cathy"], "cage.redeem", lambda c: redeem_chips(
        c, p["cathy"], p[who], amount, key))


def drop(room: Room, p: dict[str, Account], t: int, amount: int, key: str,
         who: str = "alice") -> None:
    room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p[who], amount, key))
