"""`cardroom headoffice publish|subscribe|rooms`: a room's books replicated to the head office
by PostgreSQL's logical replication, one schema per room (issue 25; docs/deployment.md, "Head
office")."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console

from cardroom.cli import options as opt
from cardroom.cli.apps import app
from cardroom.cli.catalog import summary

headoffice_app = typer.Typer(help=summary("headoffice"), no_args_is_help=True)
app.add_typer(headoffice_app, name="headoffice")
_out = Console()

RoomId = Annotated[str, typer.Option(
    "--room", help="the room's id (lower-case letters, digits, underscores): its books live in "
    "the schema room_<id>")]


@headoffice_app.command("publish")
def headoffice_publish(room: RoomId, database: opt.Database = None,
                       as_json: opt.AsJson = False) -> None:
    """At the room: publish its books for the head office (every table but the sealed shoe
    orders and the log-in sessions); run again after an upgrade."""
    from cardroom.room.books import head_office
    from cardroom.room.storage.db import open_database

    tables = head_office.publish(open_database(database), room)
    if as_json:
        print(json.dumps({"publication": head_office.PUBLICATION, "tables": tables}))
    else:
        _out.print(f"published {len(tables)} tables of room {room} as "
                   f"{head_office.PUBLICATION}", highlight=False)


@headoffice_app.command("subscribe")
def headoffice_subscribe(
    room: RoomId,
    source: Annotated[str, typer.Option(
        "--from", help="how the head office reaches the room's database: a libpq connection "
        "string, e.g. 'host=tacoma.example dbname=cardroom user=headoffice sslmode=verify-full'")],
    database: opt.Database = None,
    as_json: opt.AsJson = False,
) -> None:
    """At the head office: create the room's schema, migrate it and subscribe to the room's
    publication (again after an upgrade: migrated and refreshed)."""
    from cardroom.room.books import head_office

    if database is None:
        raise head_office.HeadOfficeError("give the head office's database (--database or "
                                          "$CARDROOM_DATABASE)")
    new = head_office.subscribe(database, room, source)
    if as_json:
        print(json.dumps({"room": room, "schema": head_office.schema_of(room), "new": new}))
    else:
        _out.print(f"room {room} {'subscribed' if new else 'refreshed'}: its books arrive in "
                   f"the schema {head_office.schema_of(room)}", highlight=False)


@headoffice_app.command("rooms")
def headoffice_rooms(database: opt.Database = None, as_json: opt.AsJson = False) -> None:
    """At the head office: the rooms whose books it holds."""
    from cardroom.room.books import head_office
    from cardroom.room.storage.db import open_database

    with open_database(database).read() as conn:
        held = head_office.rooms(conn)
    if as_json:
        print(json.dumps({"rooms": held}))
    else:
        _out.print("\n".join(held) or "no room yet", highlight=False)
