"""`cardroom report month|quarter`: the monthly records (WAC 230-06-070) and the quarterly license
report (WAC 230-05-124) of gross gambling receipts, prizes and the progressive accrual
adjustment, per game and per month, from the daily reports; exit 1 when they do not reconcile
with the ledger. `cardroom cage count-cash`: the cage's cash count at opening (WAC 230-15-050)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from cardroom import registry
from cardroom.cli import options as opt
from cardroom.cli.apps import app, report_app
from cardroom.cli.catalog import summary
from cardroom.cli.company import Rooms, rooms_report
from cardroom.cli.options import console
from cardroom.cli.say import flagged
from cardroom.errors import CardroomError
from cardroom.money import format_money

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from cardroom.room.books.regulator import GameFigures, Period, PeriodReport

cage_app = typer.Typer(help=summary("cage"), no_args_is_help=True)
app.add_typer(cage_app, name="cage")
AsCsv = Annotated[bool, typer.Option("--csv", help="Print CSV only.")]


def _show(period: Period, database: str | None, as_json: bool, as_csv: bool,
          rooms: str | None) -> None:
    from cardroom.room.books.operations_report import to_csv
    from cardroom.room.books.regulator import period_report, report_rows
    from cardroom.room.storage.db import open_database
    from cardroom.room.storage.settings import GamblingClock

    if as_json and as_csv:
        raise CardroomError("choose --json or --csv, not both")
    clock = GamblingClock.from_env()

    def build(conn: Connection) -> PeriodReport:
        return period_report(conn, clock, period)

    if rooms is not None:
        form = "json" if as_json else "csv" if as_csv else "text"
        reports = rooms_report(database, rooms, form, build, lambda r: r.as_json(),
                               _print_period, PERIOD_FIGURES)
    else:
        with open_database(database).snapshot() as conn:
            reports = [build(conn)]
        if as_json:
            print(json.dumps(reports[0].as_json(), indent=1))
        elif as_csv:
            print(to_csv(report_rows(reports[0])), end="")
        else:
            _print_period(reports[0])
    if not all(r.reconciled for r in reports):
        raise typer.Exit(1)


PERIOD_FIGURES: list[tuple[str, Callable[[PeriodReport], int]]] = [
    ("net_win", lambda r: r.total.net_win), ("fees", lambda r: r.total.fees),
    ("receipts", lambda r: r.total.ggr), ("prizes", lambda r: r.total.prizes),
    ("accrual", lambda r: r.accrual)]
"""The company's figures of the monthly and quarterly reports (`--rooms`)."""


def _print_period(report: PeriodReport) -> None:
    for line in text_lines(report):
        console.print(line, highlight=False, markup=False)
    for problem in report.differences:
        console.print(flagged("not reconciled:", problem), highlight=False)


def _row(label: str, game: str, g: GameFigures) -> str:
    money = [format_money(x) for x in (g.net_win, g.fees, g.ggr, g.prizes)]
    return f"{label:<8}{game:<12}" + "".join(f"{m:>15}" for m in money)


def text_lines(report: PeriodReport) -> list[str]:
    """The report on an 80-column terminal."""
    what = ("Quarterly license report" if report.period.kind == "quarter"
            else "Monthly records")
    lines = [f"{what}, {report.period.label} ({report.period.first.isoformat()} to "
             f"{report.period.last.isoformat()}), profile {report.profile}",
             f"due {report.due.isoformat()} ({report.due_section})",
             "Gross gambling receipts (WAC 230-05-112): the net win of the house-banked games",
             f"and the {registry.fees_name()}, before any deduction. Prizes: progressive top "
             "awards hit.",
             "", f"{'month':<8}{'game':<12}" + "".join(
                 f"{h:>15}" for h in ("net win", registry.fees_name(), "receipts", "prizes"))]
    for m in report.months:
        for game, g in m.games.items():
            lines.append(_row(m.period.label, game, g))
        lines.append(_row(m.period.label, "all games", m.total))
        lines.append(f"{'':<8}progressive accrual adjustment {format_money(m.accrual):>15}")
        lines.append(f"{'':<8}records ready by {m.due.isoformat()} ({m.due_section})")
    lines.append(_row("period", "all games", report.total))
    lines.append(f"{'':<8}progressive accrual adjustment {format_money(report.accrual):>15}")
    if not report.activity:
        lines.append("No gambling activity in this period: the report is filed all the same.")
    elif report.reconciled:
        lines.append("Reconciled: the sum of the daily reports is what the ledger moved.")
    return lines


@report_app.command("month", short_help=summary("report month"))
def report_month(
    month: Annotated[str, typer.Option("--month", help="The month, YYYY-MM.")],
    database: opt.Database = None, as_json: opt.AsJson = False, as_csv: AsCsv = False,
    rooms: Rooms = None,
) -> None:
    """The monthly records (WAC 230-06-070): gross gambling receipts, prizes and the
    progressive accrual adjustment per game, summed from the daily reports; exit 1 if they do
    not reconcile with the ledger."""
    from cardroom.room.books.regulator import parse_month

    _show(parse_month(month), database, as_json, as_csv, rooms)


@report_app.command("quarter", short_help=summary("report quarter"))
def report_quarter(
    year: Annotated[int, typer.Option("--year", help="The year, e.g. 2025.")],
    quarter: Annotated[int, typer.Option("--quarter", help="The quarter, 1 to 4.")],
    database: opt.Database = None, as_json: opt.AsJson = False, as_csv: AsCsv = False,
    rooms: Rooms = None,
) -> None:
    """The quarterly license report (WAC 230-05-124, due 30 April, 31 July, 31 October,
    31 January; filed even with no activity), per month and game; exit 1 if it does not
    reconcile with the ledger."""
    from cardroom.room.books.regulator import quarter as quarter_of

    if not 1900 <= year <= 9999:
        raise CardroomError(f"{year} is not a year the books could hold")
    _show(quarter_of(year, quarter), database, as_json, as_csv, rooms)


@cage_app.command("count-cash")
def cage_count_cash(
    amount: Annotated[str, typer.Argument(help="The cash counted, in dollars (e.g. 42,000).")],
    by: Annotated[str, typer.Option("--by", help="The cashier who counted it.")],
    database: opt.Database = None,
    audit_key_file: opt.KeyFile = None,
    accept_failed_audit: opt.AcceptFailedAudit = False,
    as_json: opt.AsJson = False,
) -> None:
    """Record the cage's cash count at the opening of today's gambling day (WAC 230-15-050:
    the minimum cash on hand within 3 hours of opening); exit 1 if it is short of the
    requirement of the profile in force."""
    from cardroom.cli.operator import operator_storage
    from cardroom.money import parse_money
    from cardroom.room.books.regulator import cash_on_hand, record_cash_count
    from cardroom.room.people.accounts import find_account
    from cardroom.room.storage.errors import NotFound
    from cardroom.room.storage.settings import GamblingClock

    cents = parse_money(amount)
    clock = GamblingClock.from_env()
    storage = operator_storage(database, audit_key_file,
                               accept_failed_audit=accept_failed_audit)
    with storage.unit() as conn:
        who = find_account(conn, by)
        if who is None:
            raise NotFound(f"there is no account named {by.strip()[:40]!r}")
        counted = record_cash_count(conn, clock, who, cents)
    with storage.snapshot() as conn:
        status = cash_on_hand(conn, clock, counted.day)
    if as_json:
        print(json.dumps(status.as_json()))
    else:
        console.print(f"cash count recorded for {counted.day.isoformat()}: "
                      f"{format_money(cents)} by {who.username}", highlight=False)
        console.print(f"required ({status.section}): {format_money(status.required)}",
                      highlight=False)
        for problem in status.problems:
            console.print(flagged("cash on hand:", problem), highlight=False)
    if status.short:
        raise typer.Exit(1)
