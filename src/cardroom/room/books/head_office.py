"""Many rooms, one head office (issue 25): each room's books reach the head office's database
by PostgreSQL's logical replication, one schema per room; the company's reports are the rooms'
own reports, run on each room's schema there; the self-exclusion list is kept once, at the head
office, and each room pulls it.

- **One schema per room.** A room that reports to a head office keeps its books in the
  PostgreSQL schema `room_<id>` of its own database (its `search_path`); logical replication
  names a table by schema and name, so the same tables arrive in `room_<id>` at the head office,
  beside the other rooms' and apart from them. The room id is the schema's name: no column is
  added, and no report is changed.
- **Publish, subscribe.** `publish` (at the room) publishes every table of the books but
  `NOT_REPLICATED`; `subscribe` (at the head office) creates the room's schema, migrates it to
  the same revision, and subscribes to the room's publication. The room never waits for the
  head office: a link down only holds the room's changes in its replication slot, and they are
  sent when the link is back.
- **Reports.** `each_room` runs one report function (the room's own) on each room's schema
  inside one snapshot; `company` adds the rooms' main figures up.
- **Exclusions.** `pull_exclusions` imports the head office's list into a room, with its date,
  so that the room's 48-hour rule (`exclusions.list_status`) holds for the head office's list.
- **Patrons.** The company's patron register, merged from the rooms' schemas and pulled by
  the rooms: `books.patron_register`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import TypeVar

from sqlalchemy import select, text
from sqlalchemy.engine import Connection, make_url

from cardroom.errors import CardroomError
from cardroom.room.compliance import exclusions
from cardroom.room.people.accounts import Account
from cardroom.room.storage.db import Storage, make_engine, open_database
from cardroom.room.storage.schema import exclusion_entries, exclusion_identifiers, metadata

R = TypeVar("R")

PUBLICATION = "cardroom_head_office"
"""The publication's name in every room's database."""
SCHEMA_PREFIX = "room_"
ROOM_ID = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
NOT_REPLICATED = frozenset({"room_processes", "sealed_tables", "sessions", "throttle",
                            "trusted_devices"})
"""Kept at the room: the encrypted shoe orders of tables in play (`sealed_tables`: never to
leave the room), the staff's and players' log-in sessions, throttles and trusted devices
(secrets of the room's own doors, no figure of any report), and its serving processes'
heartbeats (`room_processes`: renewed every second, no figure either)."""


class HeadOfficeError(CardroomError):
    """A head-office step refused, in one sentence."""


def schema_of(room: str) -> str:
    """The schema of room `room` (its id: lower-case letters, digits, underscores)."""
    if not ROOM_ID.match(room):
        raise HeadOfficeError(f"{room[:40]!r} is not a room id: use lower-case letters, digits "
                              "and underscores, starting with a letter")
    return SCHEMA_PREFIX + room


def replicated_tables() -> list[str]:
    """The tables of the books that go to the head office."""
    return sorted(name for name in metadata.tables if name not in NOT_REPLICATED)


def _require_postgres(storage: Storage, where: str) -> None:
    if not storage.is_postgres:
        raise HeadOfficeError(f"{where} must be on PostgreSQL (logical replication)")


def publish(storage: Storage, room: str) -> list[str]:
    """At the room: publish its books (all but `NOT_REPLICATED`) for the head office; again
    after an upgrade adds a table. Returns the tables published."""
    schema = schema_of(room)
    _require_postgres(storage, "the room's books")
    with storage.unit() as conn:
        current = conn.execute(text("SELECT current_schema()")).scalar_one()
        if current != schema:
            raise HeadOfficeError(f"the room's books are in the schema {current}: a room that "
                                  f"reports to a head office keeps them in {schema} (its "
                                  "search_path; docs/deployment.md, \"Head office\")")
        tables = replicated_tables()
        listed = ", ".join(f'"{schema}"."{t}"' for t in tables)
        exists = conn.execute(text("SELECT 1 FROM pg_publication WHERE pubname = :p"),
                              {"p": PUBLICATION}).first()
        verb = f"ALTER PUBLICATION {PUBLICATION} SET" if exists else \
            f"CREATE PUBLICATION {PUBLICATION} FOR"
        conn.execute(text(f"{verb} TABLE {listed}"))
    return tables


def room_url(head_office: str, room: str) -> str:
    """The head office's URL with the room's schema as its search_path."""
    url = make_url(head_office)
    return url.update_query_dict({"options": f"-csearch_path={schema_of(room)}"}) \
        .render_as_string(hide_password=False)


def subscribe(head_office: str, room: str, conninfo: str) -> bool:
    """At the head office (`head_office`: its database URL): the room's schema, migrated to
    this program's revision, subscribed to the room's publication (`conninfo`: how the head
    office reaches the room's database, a libpq connection string). A room already subscribed
    is migrated and its subscription refreshed (after an upgrade). True when new."""
    storage = open_database(head_office)
    _require_postgres(storage, "the head office's books")
    schema = schema_of(room)
    name = f"cardroom_{schema}"
    with storage.engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
        known = conn.execute(text("SELECT 1 FROM pg_subscription WHERE subname = :n"),
                             {"n": name}).first() is not None
    open_database(room_url(head_office, room)).engine.dispose()  # migrates the room's schema
    engine = make_engine(storage.engine.url.render_as_string(hide_password=False))
    with engine.connect() as conn:
        conn = conn.execution_options(isolation_level="AUTOCOMMIT")
        if known:
            conn.execute(text(f"ALTER SUBSCRIPTION {name} REFRESH PUBLICATION"))
        else:  # the room's rows replace whatever the migrations wrote in the empty schema
            listed = ", ".join(f'"{schema}"."{t}"' for t in replicated_tables())
            conn.execute(text(f"TRUNCATE {listed} CASCADE"))
            literal = conninfo.replace("'", "''")
            conn.execute(text(f"CREATE SUBSCRIPTION {name} CONNECTION '{literal}' "
                              f"PUBLICATION {PUBLICATION}"))
    engine.dispose()
    storage.engine.dispose()
    return not known


def rooms(conn: Connection) -> list[str]:
    """The rooms whose books the head office holds (their schemas), in order."""
    found = conn.execute(text("SELECT nspname FROM pg_namespace WHERE nspname LIKE :p "
                              "ORDER BY nspname"), {"p": SCHEMA_PREFIX.replace("_", r"\_") + "%"})
    return [str(n).removeprefix(SCHEMA_PREFIX) for (n,) in found]


def chosen_rooms(conn: Connection, wanted: str) -> list[str]:
    """`all`, or room ids separated by commas, each one the head office holds."""
    held = rooms(conn)
    if wanted.strip() == "all":
        if not held:
            raise HeadOfficeError("the head office holds no room yet: subscribe to one first "
                                  "(cardroom headoffice subscribe)")
        return held
    asked = [r.strip() for r in wanted.split(",") if r.strip()]
    for r in asked:
        if r not in held:
            raise HeadOfficeError(f"the head office holds no room {r[:40]!r}: it holds "
                                  f"{', '.join(held) or 'none'}")
    if not asked:
        raise HeadOfficeError("name the rooms (--rooms all, or ids separated by commas)")
    return asked


def each_room(conn: Connection, wanted: str, build: Callable[[Connection], R]
              ) -> dict[str, R]:
    """`build` (a room's own report function) run on each room's schema, in `conn`'s one
    transaction (a snapshot: every room read at the same moment)."""
    out: dict[str, R] = {}
    for room in chosen_rooms(conn, wanted):
        conn.execute(text(f'SET LOCAL search_path TO "{schema_of(room)}"'))
        out[room] = build(conn)
    return out


def company(reports: dict[str, R], figures: Sequence[tuple[str, Callable[[R], int]]]
            ) -> tuple[dict[str, dict[str, int]], dict[str, int]]:
    """Each room's main `figures` (name, how its report gives it) and the company's: their sums,
    to the cent."""
    rows = {room: {name: get(report) for name, get in figures}
            for room, report in reports.items()}
    return rows, {name: sum(row[name] for row in rows.values()) for name, _ in figures}


def from_head_office(head_office: str, room: Storage,
                     work: Callable[[Connection, Connection], R]) -> R:
    """`work(held, conn)`: `held` the head office's books (`head_office`, its URL) read in one
    snapshot, `conn` the room's write unit; the head office's connection closed after."""
    source = open_database(head_office)
    try:
        with source.snapshot() as held, room.unit() as conn:
            return work(held, conn)
    finally:
        source.engine.dispose()


def pull_exclusions(head_office: Connection, room: Connection, staff: Account
                    ) -> exclusions.Imported:
    """Import the head office's self-exclusion list (its latest list's date and active state
    entries) into the room, as `exclusions.import_list` would the same file there. The room and
    the head office index identity numbers with the company's one identity key."""
    latest = exclusions.latest_list(head_office)
    if latest is None:
        raise HeadOfficeError("the head office holds no self-exclusion list yet: import the "
                              "state's list there first (cardroom exclusions import)")
    numbers: defaultdict[int, list[str]] = defaultdict(list)
    for entry_id, index in head_office.execute(select(exclusion_identifiers.c.entry_id,
                                                      exclusion_identifiers.c.number_index)):
        numbers[entry_id].append(index)
    people = [exclusions.Listed(r.legal_name, r.name_key, r.date_of_birth, r.period,
                                tuple(sorted(numbers[r.id])))
              for r in head_office.execute(select(exclusion_entries).where(
                  exclusion_entries.c.source == "state", exclusion_entries.c.active))]
    return exclusions.import_people(room, staff, latest.list_date, people)
