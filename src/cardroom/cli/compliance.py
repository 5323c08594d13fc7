"""`cardroom report mtl|ctr` and `cardroom compliance ...`: the Title 31 records (issue 22;
31 CFR 1021.311, 1021.410): the multiple transaction log of a gaming day, the currency
transaction reports (`report ctr` exits 1 when one is overdue), each report's FinCEN form, the
filing of a report, and an export of every record for an examiner.

The command line is run by the person who holds the database (and, for a taxpayer id in clear,
the identity key file): it acts as the compliance officer (`cli-compliance`). A taxpayer id or
document number is printed in clear only by `compliance ctr-form` and `compliance export`, and
only when `--identity-key-file` is given (the regulator's copy); every reveal is audited."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from cardroom.cli import options as opt
from cardroom.cli.apps import app, report_app
from cardroom.cli.options import console
from cardroom.cli.room_reports import AsCsv, Day, parse_day
from cardroom.cli.say import flagged
from cardroom.errors import CardroomError
from cardroom.money import format_money

compliance_app = typer.Typer(help="The Title 31 records (currency transactions, reports) for "
                             "the compliance officer.", no_args_is_help=True)
app.add_typer(compliance_app, name="compliance")

Pending = Annotated[bool, typer.Option("--pending", help="Only the reports not yet filed.")]
IdentityKeyFile = Annotated[Path | None, typer.Option(
    "--identity-key-file", help="the identity key file: with it, taxpayer ids and document "
    "numbers are printed in clear (the regulator's copy; each reveal is audited); without it "
    "they are shown as on file")]
ACTOR = "cli-compliance"


def _form(as_json: bool, as_csv: bool) -> str:
    if as_json and as_csv:
        raise CardroomError("choose --json or --csv, not both")
    return "json" if as_json else "csv" if as_csv else "text"


def _csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows([{k: (json.dumps(v) if isinstance(v, list | dict) else v)
                           for k, v in r.items()} for r in rows])
    return out.getvalue()


def _today() -> Any:
    from cardroom.room.settings import GamblingClock

    return GamblingClock.from_env().day_of(datetime.now(UTC))


@report_app.command("mtl")
def report_mtl(day: Day = None, database: opt.Database = None, as_json: opt.AsJson = False,
               as_csv: AsCsv = False) -> None:
    """The multiple transaction log of a gaming day: every cash transaction at or above the
    profile's floor, with the patron's running total for the day in its direction."""
    from cardroom.room import currency
    from cardroom.room.db import open_database

    form, wanted = _form(as_json, as_csv), parse_day(day)
    with open_database(database).snapshot() as conn:
        lines = currency.log(conn, wanted)
    rows = [line.as_json() for line in lines]
    if form == "json":
        print(json.dumps({"gaming_day": wanted.isoformat(),
                          "floor": currency.log_floor(wanted), "lines": rows}, indent=1))
        return
    if form == "csv":
        print(_csv(rows), end="")
        return
    table = Table(title=f"Multiple transaction log, gaming day {wanted.isoformat()} "
                  f"(floor {format_money(currency.log_floor(wanted))})")
    for col in ("time", "patron", "player", "direction", "kind", "amount", "running total",
                "place", "employee"):
        table.add_column(col, justify="right" if col in ("amount", "running total")
                         else "left")
    from cardroom.room.timezone import room_time

    for line in lines:
        t = line.transaction
        table.add_row(room_time(t.at), t.patron_name or "(no patron on file)", t.player,
                      currency.DIRECTIONS[t.direction], t.kind, format_money(t.amount),
                      format_money(line.running), t.where, t.employee)
    console.print(table)


@report_app.command("ctr")
def report_ctr(pending: Pending = False, database: opt.Database = None,
               as_json: opt.AsJson = False, as_csv: AsCsv = False) -> None:
    """The currency transaction reports (a patron's cash in or out over the threshold in a
    gaming day): due dates, status, totals apart. Exit 1 if one is overdue."""
    from cardroom.room import currency
    from cardroom.room.db import open_database

    form, today = _form(as_json, as_csv), _today()
    with open_database(database).snapshot() as conn:
        items = currency.reports(conn, pending)
    rows = [{**r.as_json(), "overdue": r.overdue(today)} for r in items]
    late = [r for r in items if r.overdue(today)]
    if form == "json":
        print(json.dumps({"reports": rows}, indent=1))
    elif form == "csv":
        print(_csv(rows), end="")
    else:
        table = Table(title="Currency transaction reports" + (" pending" if pending else ""))
        for col in ("report", "patron", "gaming day", "cash in", "cash out", "due", "status"):
            table.add_column(col, justify="right" if col.startswith("cash") else "left")
        for r in items:
            status = r.status + (f" ({r.reference})" if r.reference else "")
            table.add_row(str(r.id), r.patron_name, r.gaming_day.isoformat(),
                          format_money(r.totals.cash_in), format_money(r.totals.cash_out),
                          r.due.isoformat(), "OVERDUE" if r.overdue(today) else status)
        console.print(table)
        for r in late:
            console.print(flagged("overdue:", f"report {r.id} ({r.patron_name}, gaming day "
                                  f"{r.gaming_day.isoformat()}) was due {r.due.isoformat()}"),
                          highlight=False)
    if late:
        raise typer.Exit(1)


def _officer() -> Any:
    from cardroom.room.accounts import Account, Role

    return Account(0, ACTOR, Role.COMPLIANCE)


def _key(path: Path | None) -> Any:
    if path is None:
        return None
    from cardroom.room.identity_key import load_identity_key

    return load_identity_key(path)


@compliance_app.command("ctr-form")
def ctr_form(report: Annotated[int, typer.Argument(help="the report's number")],
             database: opt.Database = None, audit_key_file: opt.KeyFile = None,
             identity_key_file: IdentityKeyFile = None) -> None:
    """One report's data as FinCEN Form 112 asks it (JSON): the person and their identity,
    the amounts by kind, the day, the room as filer, the transactions it adds up."""
    from cardroom.room import currency
    from cardroom.room.keying import open_keyed

    key = _key(identity_key_file)
    storage = open_keyed(database, audit_key_file, create=False, actor=ACTOR)
    with storage.unit() as conn:
        print(json.dumps(currency.form(conn, _officer(), report, key), indent=1))


@compliance_app.command("file-ctr")
def file_ctr(report: Annotated[int, typer.Argument(help="the report's number")],
             reference: Annotated[str, typer.Option(
                 "--reference", help="the filing's BSA identifier from FinCEN")],
             database: opt.Database = None, audit_key_file: opt.KeyFile = None) -> None:
    """Record a report filed with FinCEN (after its gaming day has ended)."""
    from cardroom.room import currency
    from cardroom.room.keying import open_keyed

    storage = open_keyed(database, audit_key_file, create=False, actor=ACTOR)
    with storage.unit() as conn:
        done = currency.file_report(conn, _officer(), report, reference, _today())
    console.print(f"report {done.id} is filed ({done.reference})", highlight=False)


@compliance_app.command("export")
def export(out: Annotated[Path, typer.Option("--out", help="a new or empty folder")],
           database: opt.Database = None, audit_key_file: opt.KeyFile = None,
           identity_key_file: IdentityKeyFile = None) -> None:
    """Every Title 31 record for an examiner (31 CFR 1021.410): the currency transactions,
    the multiple transaction log of every gaming day, the reports and each report's form, as
    CSV and JSON, with a manifest. Nothing is deleted from the books."""
    from cardroom.room import currency
    from cardroom.room.keying import open_keyed

    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CardroomError(f"{out} is not an empty folder: give a new or empty one")
    key = _key(identity_key_file)
    storage = open_keyed(database, audit_key_file, create=False, actor=ACTOR)
    with storage.unit() as conn:
        records = currency.export(conn, _officer(), key)
    out.mkdir(parents=True, exist_ok=True)
    for name, rows in records.items():
        (out / f"{name}.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        if name != "ctr_forms":
            (out / f"{name}.csv").write_text(_csv(rows), encoding="utf-8")
    console.print(f"exported {', '.join(f'{len(v)} {k}' for k, v in records.items())} to {out}",
                  highlight=False)
