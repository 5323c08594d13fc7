"""The self-exclusion tests' shared material (RCW 9.46.071): the identity key, a state list as
the commission sends it, and a listed person recorded as a patron linked to a player."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from sqlalchemy.engine import Connection

from cardroom.room.compliance import exclusions
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Account, Role
from cardroom.room.people.patrons import NewDocument, NewPatron, Patron

from .people import IDENTITY_KEY

KEY = IDENTITY_KEY
LICENCE = "WDL-GH 1980"
OPERATOR = Account(0, "cli-operator", Role.OWNER)


def state_list(*rows: str, dated: datetime | None = None) -> str:
    """The state's CSV: a '# list date:' line (an hour ago unless `dated`), the header, and
    `rows` ("name,date of birth,identifiers,period")."""
    when = dated or datetime.now(UTC) - timedelta(hours=1)
    return "\n".join([f"# list date: {when.isoformat()}",
                      "name,date of birth,identifiers,period", *rows]) + "\n"


GRACE = '"Hopper, Grace",1980-12-09,driver-licence:WDL-GH-1980,5'
"""Grace Hopper as the state lists her: surname first, her licence among her identifiers."""
ALAN = "Alan Turing,1912-06-23,,10"


def grace_patron(conn: Connection, cashier: Account, player: Account | None = None,
                 name: str = "Grace Hopper", number: str = LICENCE) -> Patron:
    """Grace recorded by the cage (her licence checked); with `player`, the patron the cage
    already identified for that account shows Grace's licence too (the list then matches the
    player by that document)."""
    if player is not None:
        mine = patrons.patron_of(conn, player.id)
        assert mine is not None, "the tests' players are identified (tests/room/people.py)"
        return patrons.add_document(conn, cashier, mine.id, "driver-licence", number,
                                    "Washington", date(2031, 1, 1), KEY)
    return patrons.create(conn, cashier, NewPatron(
        name, "1 Main St, Tacoma WA 98402", date(1980, 12, 9), None,
        (NewDocument("driver-licence", number, "Washington", date(2031, 1, 1)),)), KEY)


def import_grace(conn: Connection, dated: datetime | None = None) -> exclusions.Imported:
    """The state's list with Grace and Alan on it, imported by the operator."""
    return exclusions.import_list(conn, OPERATOR, state_list(GRACE, ALAN, dated=dated), KEY)
