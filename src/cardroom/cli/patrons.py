"""`cardroom patrons merge|pull|check`: the company's patron register, kept once at the head
office and pulled by every room (issue 25; docs/deployment.md, "Head office"). Exit status:
0 done (the register the room holds is current), 1 the check failed, 2 a user error."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from cardroom.cli import options as opt
from cardroom.cli.apps import app
from cardroom.cli.catalog import summary
from cardroom.cli.say import escape, flagged

if TYPE_CHECKING:
    from cardroom.room.books.patron_register import Absorbed

patrons_app = typer.Typer(help=summary("patrons"), no_args_is_help=True)
app.add_typer(patrons_app, name="patrons")
_out = Console()


def _ids(ids: list[int]) -> str:
    return ", ".join(f"#{i}" for i in ids[:20]) + (f" and {len(ids) - 20} more"
                                                  if len(ids) > 20 else "")


def _say(what: str, done: Absorbed, kept: str) -> None:
    """One line of what a merge or pull did, and a warning line for each thing left as it
    was (`kept`: why the target's newer records were kept)."""
    _out.print(f"{what}: {len(done.added)} patrons added, {len(done.updated)} updated, "
               f"{done.documents} documents added", highlight=False, soft_wrap=True)
    if done.kept:
        _out.print(flagged("note:", f"{kept}: {_ids(done.kept)}"), highlight=False,
                   soft_wrap=True)
    if done.ambiguous:
        _out.print(flagged("warning:", f"records matching two patrons (one person recorded "
                                       f"twice?), left for the compliance officer: "
                                       f"{_ids(done.ambiguous)} at the source"),
                   highlight=False, soft_wrap=True)


@patrons_app.command("merge")
def patrons_merge(
    rooms: Annotated[str, typer.Option(
        "--rooms", help="all, or room ids separated by commas")] = "all",
    database: opt.Database = None,
    audit_key_file: opt.KeyFile = None,
    identity_key_file: opt.IdentityKeyFile = None,
    as_json: opt.AsJson = False,
    accept_failed_audit: opt.AcceptFailedAudit = False,
) -> None:
    """At the head office: take the rooms' patrons (replicated into their schemas) into the
    company's register, matched by identity document; run it hourly."""
    from cardroom.cli.operator import operator_storage, terminal_operator
    from cardroom.room.books import patron_register
    from cardroom.room.storage.identity_key import load_identity_key

    key = load_identity_key(identity_key_file)
    storage = operator_storage(database, audit_key_file,
                               accept_failed_audit=accept_failed_audit)
    with storage.unit() as conn:
        done = patron_register.merge(conn, terminal_operator(), key, rooms)
    if as_json:
        print(json.dumps({"rooms": {room: d.counts() for room, d in done.items()}}))
        return
    for room, d in done.items():
        _say(f"room {room}", d, "older than the register's record, not taken (the room takes "
             "the register's at its next pull)")


@patrons_app.command("pull")
def patrons_pull(
    head_office: opt.HeadOffice,
    database: opt.Database = None,
    audit_key_file: opt.KeyFile = None,
    identity_key_file: opt.IdentityKeyFile = None,
    as_json: opt.AsJson = False,
    accept_failed_audit: opt.AcceptFailedAudit = False,
) -> None:
    """At a room: take the head office's patron register (people the room does not know
    added, newer details taken, the room's own newer records kept and named); run it
    hourly."""
    from cardroom.cli.operator import operator_storage, terminal_operator
    from cardroom.room.books import patron_register
    from cardroom.room.books.head_office import from_head_office
    from cardroom.room.storage.identity_key import load_identity_key

    key = load_identity_key(identity_key_file)
    storage = operator_storage(database, audit_key_file,
                               accept_failed_audit=accept_failed_audit)
    operator = terminal_operator()
    pulled = from_head_office(head_office, storage, lambda held, conn: patron_register.pull(
        held, conn, operator, key))
    done = pulled.done
    if as_json:
        print(json.dumps({"register_date": pulled.register_date.isoformat(),
                          **done.counts(), "kept_patrons": done.kept}))
        return
    _say(f"the head office's patron register dated {pulled.register_date:%Y-%m-%d %H:%M} UTC",
         done, "the room's own record is newer and was kept (it reaches the head office by "
         "replication and its next merge)")


@patrons_app.command("check")
def patrons_check(database: opt.Database = None, as_json: opt.AsJson = False) -> None:
    """At a room: exit 1 when the patron register it holds is older than the update rule
    allows (48 hours) or was never pulled."""
    from cardroom.room.books import patron_register
    from cardroom.room.storage.db import open_database

    with open_database(database).read() as conn:
        status = patron_register.status(conn, datetime.now(UTC))
    if as_json:
        dated = status.register_date
        print(json.dumps({"register_date": None if dated is None else dated.isoformat(),
                          "stale": status.stale, "ok": not status.stale}))
    else:
        _out.print(flagged("warning:", status.sentence()) if status.stale
                   else escape(status.sentence()), highlight=False, soft_wrap=True)
    if status.stale:
        raise typer.Exit(1)
