"""A Super-9 top award shared by chosen players at one baccarat table, for the Form W-2G tests
(the room's and the `cardroom report w2g` command's): the pool grown to what the shares should
be, the hand dealt, and the winners' patrons recorded with the identity the form needs."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from cardroom.room.money.jackpot import DEFAULT_POOL, adjust, post_daily
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Account, Role
from cardroom.room.people.patrons import NewDocument, NewPatron
from cardroom.room.play import progressive
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage

from .people import IDENTITY_KEY
from .rooms import CAST, make_room, rig_top_award

PLAYERS = ("alice", "bob", "carol", "dave")
SEED = 250_000
"""The pool's reset: the top award is the posted amount, shared equally."""


def jackpot_room(storage: Storage, table: str = "Mini 1"
                 ) -> tuple[Room, dict[str, Account], int]:
    """A room with four players who have bought chips, a floor person (fiona), an auditor
    (audrey) and a dealer (dan), and one baccarat table with the progressive."""
    room, people, tid = make_room(
        storage, "baccarat", seed=7, table=table, buyers=PLAYERS,
        cast=(*CAST, ("carol", Role.PLAYER), ("dave", Role.PLAYER), ("audrey", Role.AUDITOR),
              ("dan", Role.DEALER)))
    assert tid is not None
    return room, people, tid


def deal_top_award(room: Room, storage: Storage, people: dict[str, Account], table: int,
                   share: int, winners: tuple[str, ...]) -> progressive.Hit:
    """Grow the pool so that `winners`, each with a $1 progressive wager at `table`, share
    it `share` each, deal the top award, and verify the hand (fiona and dan)."""
    pool = room.pools[DEFAULT_POOL]
    with storage.unit() as conn:
        adjust(conn, people["fiona"], people["olivia"], DEFAULT_POOL, pool,
               share * len(winners) - SEED, "grown for the test", "grow")
        post_daily(conn, people["fiona"], DEFAULT_POOL, pool, datetime.now(UTC).date())
    for name in winners:
        room.act(people[name], table, {"type": "sit", "buy_in": 50_000, "key": f"s-{name}"})
        room.act(people[name], table, {"type": "bet", "key": f"b-{name}",
                                       "bets": {"player": 500, "progressive": 100}})
    rig_top_award(room, table)
    room.act(people[winners[0]], table, {"type": "deal"})
    with storage.read() as conn:
        [hit] = progressive.pending_hits(conn, DEFAULT_POOL)
    assert sorted(hit.shares.values()) == [share] * len(winners)
    return room.verify_jackpot(people["fiona"], people["dan"], hit.id, "recall: As 8s each")


TIN = "123-45-6789"
KEY = IDENTITY_KEY
"""The identity key the W-2G tests record and read identities with: the room's own where the
tests' rooms hold one (the same key must open every patron's record)."""


def write_key_file(path: Path) -> Path:
    """`KEY` in a key file at `path` (mode 0600, as the room writes its own)."""
    path.write_text(KEY.secret.hex() + "\n", encoding="utf-8")
    path.chmod(0o600)
    return path


def identify_winner(storage: Storage, people: dict[str, Account], name: str,
             tin: str | None = TIN) -> int:
    """The cage (olivia) records what a W-2G needs of `name`: their patron (legal name,
    address, date of birth, a driver's licence) linked to their account, made if they have
    none, and the taxpayer id `tin`; the patron's id."""
    with storage.unit() as conn:
        patron = patrons.patron_of(conn, people[name].id)
        if patron is None:
            patron = patrons.create(conn, people["olivia"], NewPatron(
                f"{name.title()} Winner", f"{len(name)} Main St, Tacoma WA 98402",
                date(1970, 1, 2), None, (NewDocument(
                    "driver-licence", f"WDL{name.upper()}1", "Washington",
                    date(2099, 1, 1)),)), KEY)
            patrons.link_account(conn, people["olivia"], people[name].id, patron.id)
        if tin is not None:
            patrons.set_taxpayer_id(conn, people["olivia"], patron.id, tin, KEY)
    return patron.id
