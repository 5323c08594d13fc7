"""What the tests of currency transactions and suspicious activity share (issue 22; 31 CFR
1021.311, 1021.320): the patron of a player the cage identified (tests/room/people.py), with
the taxpayer id recorded when asked, and cash bought or redeemed at the cage and at a table,
each in its own write transaction as the pages do it."""

from __future__ import annotations

from datetime import UTC, date, datetime

from cardroom.room.books import table_books
from cardroom.room.books.cashier import redeem_chips, sell_chips
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage.settings import GamblingClock

from .people import IDENTITY_KEY as KEY

__all__ = ["CLOCK", "KEY", "NINE", "calendar", "drop", "identify", "patron_for", "redeem",
           "sell", "today"]

CLOCK = GamblingClock()
NINE = 900_000


def today() -> date:
    return CLOCK.day_of(datetime.now(UTC))


def calendar() -> date:
    return datetime.now(CLOCK.zone).date()


def patron_for(room: Room, p: dict[str, Account], player: str = "alice",
               identity: bool = False) -> int:
    """The patron the cage linked to `player`'s account (`people.identify`: a name, an address,
    a date of birth and an examined licence, no taxpayer id: identity not complete), with the
    taxpayer id recorded too if `identity`."""
    with room.storage.unit() as conn:
        patron = patrons.patron_of(conn, p[player].id)
        assert patron is not None
        if identity:
            patrons.set_taxpayer_id(conn, p["cathy"], patron.id, "123-45-6789", KEY)
    return patron.id


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
