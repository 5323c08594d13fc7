"""A started room with its people and, optionally, one table: the one `make_room` the room
tests share (each game's tests keep their own seed and cast, so their dealt cards and ledger
stay as they were); and what the banked games' room tests do at a table (a view, the books,
the refusals, a Super Pan 9 round dealt, Pai Gow hands set)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from functools import partial
from importlib.resources import files
from pathlib import Path
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.engine import Connection

from cardroom.cards import Card, parse_card, parse_cards
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.pai_gow.settings import legal_settings
from cardroom.room.books import table_books
from cardroom.room.books.cashier import buy_chips
from cardroom.room.books.reconcile import reconcile
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Permission, Role, get_account
from cardroom.room.room import AnyTable, Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import accounts, audit_log, sealed_tables
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.shoe import SeededRandom, Shoe

from .people import IDENTITY_KEY, PW, make_people, person

CAST = (("olivia", Role.OWNER), ("alice", Role.PLAYER), ("bob", Role.PLAYER),
        ("fiona", Role.FLOOR))
"""Everyone a table test needs: the owner (olivia) opens tables, two players, a floor person."""

BUY_IN = 100_000


def make_room(storage: Storage, game: str | None = None, *, seed: int, table: str = "",
              rules: dict[str, Any] | None = None, cast: Sequence[tuple[str, Role]] = CAST,
              buyers: Sequence[str] = ("alice", "bob"), key: str = "first-{name}",
              opened: bool = True) -> tuple[Room, dict[str, Account], int | None]:
    """Start a room on `storage` (deals seeded with `seed`), open the accounts of `cast`,
    sell each of `buyers` `BUY_IN` cents of chips (idempotency key `key`), and open a table of
    `game` named `table` when a game is given, its inventory opened unless not `opened`
    (`open_for_play`), and its clock stopped at the opening (a timed turn's seconds left,
    issue 23, stays put between two snapshots; a test that times turns moves a clock of its
    own). Returns the room, the people, the table id."""
    room = Room(storage, SeededRandom(seed), identity=IDENTITY_KEY)
    room.start()
    with storage.unit() as conn:
        people = make_people(conn, cast)
        for name in buyers:
            buy_chips(conn, SELF_SERVICE, people[name], BUY_IN, key.format(name=name))
    if game is None:
        return room, people, None
    live = room.create_table(people["olivia"], table, game, rules)
    stopped = datetime.now(UTC)
    live.clock = lambda: stopped
    if opened:
        open_for_play(room, live.table_id)
    return room, people, live.table_id


ACE_EIGHT = parse_cards("As As 8s 8s")
"""Dealt player, banker, player, banker: both hands the same suited two-card Ace-8, the top
award (Super-9: "Player and banker have same suited 2 card ACE-8 Jackpot")."""


def state_profile_with(folder: Path, figure: str, changed: str) -> Path:
    """A copy of the Washington profile in `folder` with one figure's lines (`figure`, the
    period's header and its value, as the file writes them) replaced by `changed`: for a
    test that runs the room under another figure of the law (name it in CARDROOM_PROFILE)."""
    state = files("cardroom.data").joinpath("profiles/washington.toml").read_text("utf-8")
    assert figure in state
    path = folder / "profile.toml"
    path.write_text(state.replace(figure, changed), encoding="utf-8")
    return path


def rig_top_award(room: Room, table_id: int) -> None:
    """The next coup at the baccarat table `table_id` deals the top award (the test sets the
    shoe's order; its cut card far off)."""
    rig_coup(room, table_id, ACE_EIGHT)


def rig_coup(room: Room, table_id: int, first: list[Card]) -> None:
    """The next coup at the baccarat table `table_id` deals `first` (player, banker, player,
    banker, then any draws) from an eight-deck shoe whose cut card is far off."""
    live = room.table(table_id)
    cards = BaccaratRules().shoe_spec.cards()
    for c in first:
        cards.remove(c)
    live.engine.shoe = Shoe(order=first + cards,  # type: ignore[attr-defined]
                            cut_index=len(cards) - 20, salt=bytes(16))


def unseal(storage: Storage, table_id: int) -> None:
    """Drop the table's sealed record (issue 25), as the books of a room from before hands
    were sealed hold none: a hand in play then cannot be resumed at the next start, and is
    voided (`Room.recover`)."""
    with storage.unit() as conn:
        conn.execute(delete(sealed_tables).where(sealed_tables.c.table_id == table_id))


def tid(room: Room) -> int:
    """The id of the room's first table."""
    return next(iter(room.tables))


def view(room: Room, t: int, who: Account | None) -> dict[str, Any]:
    """Table `t` as `who` sees it (None: a spectator)."""
    return room.table(t).snapshot(who)


def books(storage: Storage) -> dict[str, int]:
    """Every account's balance, once the ledger is checked balanced and the audit chain whole."""
    with storage.read() as conn:
        assert ledger.trial_balance(conn).ok
        assert audit.verify(conn).ok
        return ledger.balances(conn)


def refused_count(storage: Storage) -> int:
    """How many refusals the audit log holds."""
    with storage.read() as conn:
        return len(list(conn.execute(select(audit_log.c.seq).where(
            audit_log.c.action == "refused"))))


def seat_view(snap: dict[str, Any], seat: int) -> dict[str, Any]:
    """Seat `seat` of a Super Pan 9 snapshot's round."""
    return next(s for s in snap["round"]["seats"] if s["seat"] == seat)


def start_round(room: Room, p: dict[str, Account], t: int) -> None:
    """At the Super Pan 9 table `t`: alice (wager $10, tie $1) and bob (wager $20) sit with
    $200 each and the round is dealt."""
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "sa"})
    room.act(p["bob"], t, {"type": "sit", "buy_in": 20_000, "key": "sb"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000, "tie": 100},
                             "key": "ba"})
    room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 2_000}, "key": "bb"})
    room.act(p["alice"], t, {"type": "deal"})


def set_all(room: Room, t: int, people: list[Account], manual: bool = False) -> None:
    """At the Pai Gow table `t`, each player sets every hand they must: a legal setting of
    their own choosing (the first one listed) or the house way."""
    for who in people:
        for spot in view(room, t, who)["you"]["to_set"]:
            if not manual:
                room.act(who, t, {"type": "house_way", "spot": spot})
                continue
            mine = next(s for s in view(room, t, who)["spots"] if s["spot"] == spot)
            cards = [parse_card(c["text"]) for c in mine["cards"]]
            front = legal_settings(cards)[0].front
            room.act(who, t, {"type": "set", "spot": spot, "front": [str(c) for c in front]})


baccarat_room = partial(make_room, game="baccarat", seed=7, table="Mini 1",
                        cast=(*CAST, ("audrey", Role.AUDITOR)))
pai_gow_room = partial(make_room, game="pai-gow", seed=3, table="Pai Gow one")
super_pan_9_room = partial(make_room, game="super-pan-9", seed=11, table="Pan 9 one",
                           cast=(*CAST, ("dan", Role.DEALER)))
pan_room = partial(
    make_room, game="pan", seed=3, table="Pan 1", buyers=("alice", "bob", "carol"),
    cast=(("olivia", Role.OWNER), ("alice", Role.PLAYER), ("bob", Role.PLAYER),
          ("carol", Role.PLAYER), ("fiona", Role.FLOOR), ("audrey", Role.AUDITOR)))
"""Each game's room as its tests have always dealt it (the seed fixes the shuffles)."""

CAGE_CAST = (("olivia", Role.OWNER), ("alice", Role.PLAYER), ("bob", Role.PLAYER),
             ("fiona", Role.FLOOR), ("gus", Role.FLOOR), ("dan", Role.DEALER),
             ("cathy", Role.CASHIER), ("colin", Role.CASHIER), ("audrey", Role.AUDITOR))
"""A room run as a card room: the cage (cathy, colin), a dealer (dan), two floor
supervisors (fiona, gus) and the auditor; players buy no chips by themselves."""
cage_room = partial(make_room, game="baccarat", seed=7, table="Mini 1", cast=CAGE_CAST,
                    buyers=(), opened=False)

OPENERS = (("tray_floor", Role.FLOOR), ("tray_dealer", Role.DEALER))
"""The floor supervisor and the dealer who sign a test table's opener when the room has no
two staff who may (`open_for_play`)."""


def open_for_play(room: Room, table_id: int) -> None:
    """Open the table's inventory so that it may play (WAC 230-15-495: no house-banked table
    deals before its opener is signed): a floor supervisor and a dealer of the room (two
    different staff, made when the room lacks them) count its tray (empty: the first opening)
    and sign the opener. A table that is open already, or not house-banked, is left alone.
    The one place every test helper that deals at a table opens it."""
    with room.storage.read() as conn:
        if table_id not in table_books.closed_tables(conn):
            return

    def sign(conn: Connection) -> None:
        staff = [a for i in conn.execute(select(accounts.c.id).where(
            accounts.c.role != Role.PLAYER.value).order_by(accounts.c.id)).scalars()
            if (a := get_account(conn, int(i))) is not None]
        staff.sort(key=lambda a: a.role is Role.OWNER)  # a floor or a dealer signs first
        floor = next((a for a in staff if a.may(Permission.OPEN_TABLES)), None) \
            or person(conn, OPENERS[0][0], PW, OPENERS[0][1])
        dealer = next((a for a in staff if a.may(Permission.DEAL)
                       and a.username != floor.username), None) \
            or person(conn, OPENERS[1][0], PW, OPENERS[1][1])
        table_books.open_table(conn, table_id, dealer, floor, 0)

    room.operate(None, "table.open", sign)


def playing_table(room: Room, who: Account, name: str, game: str,
                  rules: dict[str, Any] | None = None) -> AnyTable:
    """A new table of `game` made by `who`, its inventory opened (`open_for_play`)."""
    live = room.create_table(who, name, game, rules)
    open_for_play(room, live.table_id)
    return live


def unexplained_today(room: Room) -> list[str]:
    """Issue 23, "Reconciled must mean every cent": what the room-wide check of today's
    gambling day finds wrong (each ledger movement no report explains, each report that does
    not agree with the ledger), in words; empty when the day reconciles."""
    clock = room.settings.clock
    with room.storage.snapshot() as conn:
        check = reconcile(conn, clock, clock.day_of(datetime.now(UTC)))
    return [m.words() for m in check.unexplained] + list(check.not_reconciled)


def progressive_coup(room: Room, people: dict[str, Account], table: int) -> None:
    """One coup at `table` with alice and bob each on Player ($5) and the $1 progressive."""
    for name in ("alice", "bob"):
        room.act(people[name], table, {"type": "sit", "buy_in": 50_000, "key": f"s{name}"})
        room.act(people[name], table, {"type": "bet", "key": f"b{name}",
                                       "bets": {"player": 500, "progressive": 100}})
    room.act(people["alice"], table, {"type": "deal"})
