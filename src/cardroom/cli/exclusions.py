"""`cardroom exclusions import FILE` and `cardroom exclusions check`: the statewide
self-exclusion list (RCW 9.46.071; WAC 230-23-030). Exit status: 0 done (the list is current
and nothing is overdue), 1 the check failed, 2 a user error."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from cardroom.cli import options as opt
from cardroom.cli.apps import app
from cardroom.cli.catalog import summary
from cardroom.cli.say import escape, flagged
from cardroom.errors import CardroomError

if TYPE_CHECKING:
    from cardroom.room.compliance.exclusions import Imported

exclusions_app = typer.Typer(help=summary("exclusions"),
                             no_args_is_help=True)
app.add_typer(exclusions_app, name="exclusions")
_out = Console()

@exclusions_app.command("import")
def exclusions_import(
    file: Annotated[Path, typer.Argument(help="the state's list: a CSV of name, date of birth, "
                                             "identifiers, period")],
    list_date: Annotated[str | None, typer.Option(
        "--list-date", help="the list's own date (e.g. 2026-11-25T09:00; UTC unless it says "
        "otherwise), if the file has no '# list date:' line")] = None,
    database: opt.Database = None,
    audit_key_file: opt.KeyFile = None,
    identity_key_file: opt.IdentityKeyFile = None,
    as_json: opt.AsJson = False,
    accept_failed_audit: opt.AcceptFailedAudit = False,
) -> None:
    """Load the state's self-exclusion list: it replaces the state's entries (people it no
    longer lists come off; history is kept); the same list imported twice changes nothing."""
    from cardroom.cli.operator import operator_storage, terminal_operator
    from cardroom.room.compliance import exclusions
    from cardroom.room.storage.identity_key import load_or_create_identity_key

    try:
        text = file.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        raise CardroomError(f"cannot read the list file {file}") from None
    when = None if list_date is None else exclusions.parse_date(list_date, "list's date")
    key, _ = load_or_create_identity_key(identity_key_file)
    storage = operator_storage(database, audit_key_file,
                               accept_failed_audit=accept_failed_audit)
    operator = terminal_operator()
    with storage.unit() as conn:
        done = exclusions.import_list(conn, operator, text, key, when)
    _say_imported(done, as_json, "the self-exclusion list")


def _say_imported(done: Imported, as_json: bool, what: str) -> None:
    """What an import (`import`, `pull`) did, on one line or as JSON."""
    if as_json:
        print(json.dumps({"list": done.list_id, "list_date": done.list_date.isoformat(),
                          "entries": done.entries, "added": done.added,
                          "removed": done.removed, "already_imported": done.replayed}))
    elif done.replayed:
        _out.print(f"this list (dated {done.list_date:%Y-%m-%d %H:%M} UTC) was already "
                   "imported: nothing changed", highlight=False, soft_wrap=True)
    else:
        _out.print(f"imported {what} dated {done.list_date:%Y-%m-%d %H:%M} "
                   f"UTC: {done.entries} people ({done.added} added, {done.removed} removed)",
                   highlight=False, soft_wrap=True)


@exclusions_app.command("pull")
def exclusions_pull(
    head_office: opt.HeadOffice,
    database: opt.Database = None,
    audit_key_file: opt.KeyFile = None,
    as_json: opt.AsJson = False,
    accept_failed_audit: opt.AcceptFailedAudit = False,
) -> None:
    """At a room: import the self-exclusion list kept at the head office (its date kept, so
    `exclusions check` holds the head office's list to the 48 hours); run it hourly."""
    from cardroom.cli.operator import operator_storage, terminal_operator
    from cardroom.room.books import head_office as office

    storage = operator_storage(database, audit_key_file,
                               accept_failed_audit=accept_failed_audit)
    operator = terminal_operator()
    done = office.from_head_office(head_office, storage,
                                   lambda held, conn: office.pull_exclusions(held, conn, operator))
    _say_imported(done, as_json, "the head office's self-exclusion list")


@exclusions_app.command("check")
def exclusions_check(database: opt.Database = None, as_json: opt.AsJson = False) -> None:
    """Exit 1 when the list the room holds is older than the update rule allows (48 hours,
    WAC 230-23-030) or an enrolment form or a breach notice to the commission is overdue."""
    from cardroom.cli.operator import terminal_operator
    from cardroom.room.compliance import exclusions
    from cardroom.room.storage.db import open_database

    storage = open_database(database)
    now = datetime.now(UTC)
    operator = terminal_operator()
    with storage.read() as conn:
        status = exclusions.list_status(conn, now)
        work = exclusions.worklist(conn, operator)
    overdue = work.overdue(now)
    if as_json:
        print(json.dumps({
            "list_date": None if status.list_date is None else status.list_date.isoformat(),
            "entries": status.entries, "stale": status.stale, "forms": len(work.forms),
            "notices": len(work.notices), "overdue": overdue,
            "ok": not (status.stale or overdue)}))
    else:
        line = escape(status.sentence())
        _out.print(flagged("warning:", status.sentence()) if status.stale else line,
                   highlight=False, soft_wrap=True)
        _out.print(f"{len(work.forms)} enrolment forms to forward, {len(work.notices)} breach "
                   f"notices to send" + (f": [red]{overdue} overdue[/red]" if overdue else ""),
                   highlight=False, soft_wrap=True)
    if status.stale or overdue:
        raise typer.Exit(1)
