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
from cardroom.cli.catalog import summary
from cardroom.cli.options import console
from cardroom.cli.room_reports import AsCsv, Day, parse_day
from cardroom.cli.say import flagged
from cardroom.errors import CardroomError
from cardroom.money import format_money

compliance_app = typer.Typer(help=summary("compliance"),
                             no_args_is_help=True)
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
    from cardroom.room.storage.settings import GamblingClock

    return GamblingClock.from_env().day_of(datetime.now(UTC))


@report_app.command("mtl", short_help=summary("report mtl"))
def report_mtl(day: Day = None, database: opt.Database = None, as_json: opt.AsJson = False,
               as_csv: AsCsv = False) -> None:
    """The multiple transaction log of a gaming day: every cash transaction at or above the
    profile's floor, with the patron's running total for the day in its direction."""
    from cardroom.room.compliance import currency
    from cardroom.room.storage.db import open_database

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
    from cardroom.room.storage.timezone import room_time

    for line in lines:
        t = line.transaction
        table.add_row(room_time(t.at), t.patron_name or "(no patron on file)", t.player,
                      currency.DIRECTIONS[t.direction], t.kind, format_money(t.amount),
                      format_money(line.running), t.where, t.employee)
    console.print(table)


@report_app.command("ctr", short_help=summary("report ctr"))
def report_ctr(pending: Pending = False, database: opt.Database = None,
               as_json: opt.AsJson = False, as_csv: AsCsv = False) -> None:
    """The currency transaction reports (a patron's cash in or out over the threshold in a
    gaming day): due dates, status, totals apart. Exit 1 if one is overdue."""
    from cardroom.room.compliance import currency
    from cardroom.room.storage.db import open_database

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
    from cardroom.room.people.accounts import Account, Role

    return Account(0, ACTOR, Role.COMPLIANCE)


def _key(path: Path | None) -> Any:
    if path is None:
        return None
    from cardroom.room.storage.identity_key import load_identity_key

    return load_identity_key(path)


@compliance_app.command("ctr-form")
def ctr_form(report: Annotated[int, typer.Argument(help="the report's number")],
             database: opt.Database = None, audit_key_file: opt.KeyFile = None,
             identity_key_file: IdentityKeyFile = None) -> None:
    """One report's data as FinCEN Form 112 asks it (JSON): the person and their identity,
    the amounts by kind, the day, the room as filer, the transactions it adds up."""
    from cardroom.room.compliance import currency
    from cardroom.room.trust.keying import open_keyed

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
    from cardroom.room.compliance import currency
    from cardroom.room.trust.keying import open_keyed

    storage = open_keyed(database, audit_key_file, create=False, actor=ACTOR)
    with storage.unit() as conn:
        done = currency.file_report(conn, _officer(), report, reference, _today())
    console.print(f"report {done.id} is filed ({done.reference})", highlight=False)


@compliance_app.command("export")
def export(out: Annotated[Path, typer.Option("--out", help="a new or empty folder")],
           database: opt.Database = None, audit_key_file: opt.KeyFile = None,
           identity_key_file: IdentityKeyFile = None) -> None:
    """Every Title 31 record for an examiner (31 CFR 1021.410, 1021.320(d)): the currency
    transactions, the multiple transaction log of every gaming day, the reports and each
    report's form, the suspicious-activity alerts and cases (each case's narrative and
    evidence), as CSV and JSON. Nothing is deleted from the books."""
    from cardroom.room.compliance import currency
    from cardroom.room.trust.keying import open_keyed

    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise CardroomError(f"{out} is not an empty folder: give a new or empty one")
    key = _key(identity_key_file)
    storage = open_keyed(database, audit_key_file, create=False, actor=ACTOR)
    from cardroom.room.compliance import suspicious

    with storage.unit() as conn:
        records = {**currency.export(conn, _officer(), key),
                   **suspicious.export(conn, _officer(), _today())}
    out.mkdir(parents=True, exist_ok=True)
    for name, rows in records.items():
        (out / f"{name}.json").write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
        if name != "ctr_forms":
            (out / f"{name}.csv").write_text(_csv(rows), encoding="utf-8")
    console.print(f"exported {', '.join(f'{len(v)} {k}' for k, v in records.items())} to {out}",
                  highlight=False)


# suspicious activity (31 CFR 1021.320) -------------------------------------------------------
Overdue = Annotated[bool, typer.Option("--overdue", help="Only the cases open past their due "
                                       "date.")]


def _storage(database: str | None, audit_key_file: Path | None) -> Any:
    from cardroom.room.trust.keying import open_keyed

    return open_keyed(database, audit_key_file, create=False, actor=ACTOR)


@compliance_app.command("alerts")
def alerts(day: Day = None, database: opt.Database = None, audit_key_file: opt.KeyFile = None,
           as_json: opt.AsJson = False) -> None:
    """The suspicious-activity alerts of a gaming day (31 CFR 1021.320): the day's patterns
    are computed again and any not yet raised are raised now, then every alert of the day is
    listed (structuring, big buy-in with little play, one person for others, excluded, flagged
    by staff)."""
    from cardroom.room.compliance import suspicious
    from cardroom.room.storage.timezone import room_time

    wanted = parse_day(day)
    with _storage(database, audit_key_file).unit() as conn:
        found = suspicious.scan_day(conn, _officer(), wanted)
    if as_json:
        print(json.dumps({"gaming_day": wanted.isoformat(),
                          "alerts": [a.as_json() for a in found]}, indent=1))
        return
    table = Table(title=f"Suspicious-activity alerts, gaming day {wanted.isoformat()}")
    for col in ("alert", "kind", "patron", "detected", "what"):
        table.add_column(col)
    for a in found:
        table.add_row(str(a.id), a.kind_words, a.patron_name or "", room_time(a.detected_at),
                      a.summary)
    console.print(table)
    if not found:
        console.print("no alerts", highlight=False)


@compliance_app.command("cases")
def cases(overdue: Overdue = False, database: opt.Database = None,
          as_json: opt.AsJson = False) -> None:
    """The suspicious-activity cases, the soonest due first: due 30 days from detection (31
    CFR 1021.320(b)(3)), status and decision. Exit 1 if one is open past its due date."""
    from cardroom.room.compliance import suspicious
    from cardroom.room.storage.db import open_database

    today = datetime.now(_clock().zone).date()
    with open_database(database).snapshot() as conn:
        every = suspicious.cases(conn, _officer())
    late = [c for c in every if c.overdue(today)]
    shown = late if overdue else every
    if as_json:
        print(json.dumps({"cases": [c.as_json(today) for c in shown]}, indent=1))
    else:
        table = Table(title="Suspicious-activity cases" + (" overdue" if overdue else ""))
        for col in ("case", "subject", "detected", "due", "status", "alerts", "transactions",
                    "hands"):
            table.add_column(col)
        for c in shown:
            status = ("OVERDUE" if c.overdue(today) else c.status_words
                      + (f" ({c.reference})" if c.reference else ""))
            table.add_row(str(c.id), c.subject, c.detected_on.isoformat(), c.due.isoformat(),
                          status, str(len(c.alerts)), str(len(c.transactions)),
                          str(len(c.hands)))
        console.print(table)
        for c in late:
            console.print(flagged("overdue:", f"case {c.id} ({c.subject}) was due "
                                  f"{c.due.isoformat()}"), highlight=False)
    if late:
        raise typer.Exit(1)


def _clock() -> Any:
    from cardroom.room.storage.settings import GamblingClock

    return GamblingClock.from_env()


@compliance_app.command("case-open")
def case_open(narrative: Annotated[str, typer.Option("--narrative", help="what was seen")],
              alert: Annotated[list[int] | None, typer.Option(
                  "--alert", help="an alert the case comes from (repeatable)")] = None,
              player: Annotated[str | None, typer.Option(
                  "--player", help="the player the case is about, opened by hand")] = None,
              database: opt.Database = None, audit_key_file: opt.KeyFile = None) -> None:
    """Open a suspicious-activity case from alerts or by hand about a player: due 30 days
    from detection (31 CFR 1021.320(b)(3))."""
    from cardroom.room.compliance import suspicious
    from cardroom.room.people.accounts import find_account

    with _storage(database, audit_key_file).unit() as conn:
        who = None
        if player is not None:
            who = find_account(conn, player)
            if who is None:
                raise CardroomError(f"there is no player {player}")
        case = suspicious.open_case(conn, _officer(), narrative, alert_ids=alert or (),
                                    player=who)
    console.print(f"case {case.id} is open ({case.subject}), due {case.due.isoformat()}",
                  highlight=False)


@compliance_app.command("case-note")
def case_note(case: Annotated[int, typer.Argument(help="the case's number")],
              text: Annotated[str, typer.Argument(help="what to add to the narrative")],
              database: opt.Database = None, audit_key_file: opt.KeyFile = None) -> None:
    """Add to a case's narrative (earlier entries stay as written)."""
    from cardroom.room.compliance import suspicious

    with _storage(database, audit_key_file).unit() as conn:
        suspicious.add_note(conn, _officer(), case, text)
    console.print(f"case {case}: narrative added", highlight=False)


@compliance_app.command("case-decide")
def case_decide(case: Annotated[int, typer.Argument(help="the case's number")],
                filed: Annotated[str | None, typer.Option(
                    "--filed", help="the SAR's BSA reference from FinCEN")] = None,
                not_filed: Annotated[str | None, typer.Option(
                    "--not-filed", help="the reasons for not filing")] = None,
                database: opt.Database = None, audit_key_file: opt.KeyFile = None) -> None:
    """Record a case's decision, once: a SAR filed (its BSA reference) or not filed (the
    reasons, 31 CFR 1021.320)."""
    from cardroom.room.compliance import suspicious

    if (filed is None) == (not_filed is None):
        raise CardroomError("give --filed REFERENCE or --not-filed REASONS")
    with _storage(database, audit_key_file).unit() as conn:
        done = suspicious.decide(conn, _officer(), case, filed is not None,
                                 filed if filed is not None else str(not_filed))
    console.print(f"case {done.id}: {done.status_words}", highlight=False)
