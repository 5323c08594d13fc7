"""The people of the tests, in one place: accounts by name and role, each player identified at
the cage (issue 22: a patron of age with an identity document, linked to the account), so that
they may buy chips, sit and be paid in a real room (issue 21, WAC 230-06-010)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date

from sqlalchemy.engine import Connection

from cardroom.room.people import patrons
from cardroom.room.people.accounts import Account, Role, create_account
from cardroom.room.people.patrons import NewDocument, NewPatron
from cardroom.room.storage.identity_key import IdentityKey

PW = "correct horse"
IDENTITY_KEY = IdentityKey(bytes(range(100, 132)))
"""The identity key of the tests' rooms (`Room.identity`)."""
OF_AGE = date(1980, 6, 15)
"""The date of birth the tests' players show at the cage: of age in any profile."""
DESK = Account(0, "cli-operator", Role.OWNER)
"""Who identifies the tests' players (the room's own operator, as the command line is)."""


def identify(conn: Connection, player: Account, born: date = OF_AGE) -> patrons.Patron:
    """A patron for `player` (their name as legal name, a driver's licence numbered after the
    account), linked to the account."""
    patron = patrons.create(conn, DESK, NewPatron(
        player.username.title(), f"{player.id} Test Street, Tacoma WA", born, None,
        (NewDocument("driver-licence", f"T{player.id:06d}{player.username[:8]}", "Washington",
                     date(2099, 1, 1)),)), IDENTITY_KEY)
    patrons.link_account(conn, DESK, player.id, patron.id)
    return patron


def player(conn: Connection, name: str, password: str = PW, born: date = OF_AGE) -> Account:
    """A player account, identified at the cage."""
    account = create_account(conn, name, password, Role.PLAYER)
    identify(conn, account, born)
    return account


def person(conn: Connection, name: str, password: str, role: Role) -> Account:
    """An account of `role`; a player identified at the cage."""
    if role is Role.PLAYER:
        return player(conn, name, password)
    return create_account(conn, name, password, role)


def make_people(conn: Connection, cast: Iterable[tuple[str, Role]], password: str = PW
                ) -> dict[str, Account]:
    """The accounts of `cast` by name; every player identified at the cage."""
    return {name: person(conn, name, password, role) for name, role in cast}
