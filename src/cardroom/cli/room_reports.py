"""`cardroom report games|cage|slips|reconcile`: the card room's daily reports from its books (a
table on the terminal, or `--json`, or `--csv`). `report slips` exits 1 when a series of slips
has a gap; `report games` and `report cage` exit 1 when a figure does not reconcile with the
ledger; `report reconcile` exits 1 when a ledger movement of the day is explained by no report
(or a report does not reconcile)."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from cardroom import registry
from cardroom.cli import options as opt
from cardroom.cli.apps import report_app
from cardroom.cli.catalog import summary
from cardroom.cli.company import Rooms, rooms_report
from cardroom.cli.options import console
from cardroom.cli.say import flagged
from cardroom.errors import CardroomError
from cardroom.money import format_money

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from cardroom.room.books.operations_report import CageReport, GamesReport, Line
    from cardroom.room.books.regulator import CashOnHand

    CageDay = tuple[CageReport, CashOnHand]

Day = Annotated[str | None, typer.Option(
    "--date", help="The gambling day, YYYY-MM-DD (default: today's, in the room's time zone).")]
AsCsv = Annotated[bool, typer.Option("--csv", help="Print CSV only.")]


def parse_day(text: str | None) -> date:
    from datetime import UTC, datetime

    from cardroom.room.storage.settings import GamblingClock

    if text is None:
        return GamblingClock.from_env().day_of(datetime.now(UTC))
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise CardroomError(f"{text!r} is not a date: give the gambling day as YYYY-MM-DD") \
            from None


def _output(as_json: bool, as_csv: bool) -> str:
    if as_json and as_csv:
        raise CardroomError("choose --json or --csv, not both")
    return "json" if as_json else "csv" if as_csv else "text"


@report_app.command("games", short_help=summary("report games"))
def report_games(day: Day = None, database: opt.Database = None, as_json: opt.AsJson = False,
                 as_csv: AsCsv = False, rooms: Rooms = None) -> None:
    """The daily games report: per table and game, the drop, fills, credits, opener, closer,
    win and hold %, fees, commission, jackpot contributions and awards, hands played; per
    shift; totals for the room (with --rooms at the head office: each room's, and the
    company's). Exit 1 if a table's win does not reconcile with the ledger."""
    from cardroom.room.books.operations_report import games_report, games_rows, to_csv
    from cardroom.room.storage.db import open_database
    from cardroom.room.storage.settings import GamblingClock

    form, wanted = _output(as_json, as_csv), parse_day(day)
    clock = GamblingClock.from_env()

    def build(conn: Connection) -> GamesReport:
        return games_report(conn, clock, wanted)

    if rooms is not None:
        reports = rooms_report(database, rooms, form, build, lambda r: r.as_json(),
                               _show_games, GAMES_FIGURES)
    else:
        with open_database(database).snapshot() as conn:
            reports = [build(conn)]
        if form == "json":
            print(json.dumps(reports[0].as_json(), indent=1))
        elif form == "csv":
            print(to_csv(games_rows(reports[0])), end="")
        else:
            _show_games(reports[0])
    if not all(r.reconciled for r in reports):
        raise typer.Exit(1)


def _total_figure(name: str) -> Callable[[GamesReport], int]:
    return lambda report: int(getattr(report.total, name))


GAMES_FIGURES = [(name, _total_figure(name))
                 for name in ("drop", "fills", "credits", "win", "commission", "fees",
                              "jackpot_contributions", "jackpot_awards", "hands")]
"""The company's figures of the games report (`--rooms`)."""


def _show_games(report: GamesReport) -> None:
    for table in games_tables(report, console.width):
        console.print(table)
    console.print(_drop_by_tender(report))
    for x in report.lines:
        if not x.reconciled:
            console.print(flagged("not reconciled:", f"{x.table}: win "
                          f"{format_money(x.win)}, ledger {format_money(x.ledger_win)}; "
                          f"drop {format_money(x.drop)}, in the books "
                          f"{format_money(x.drop_in_books)}"), highlight=False)


def _games_figures(x: Line, reconciled: bool) -> dict[str, str]:
    """A line's figures as the terminal shows them, in the page's order."""
    money = ("drop", "fills", "credits", "opener", "closer", "win")
    return {"game": x.game, **{c: format_money(getattr(x, c)) for c in money},
            "hold": "-" if x.hold is None else f"{100 * x.hold:.2f}%",
            "reconciled": "yes" if reconciled else "NO",
            "hands": str(x.hands), "commission": format_money(x.commission),
            registry.fees_name(): format_money(x.fees),
            "jackpot in": format_money(x.jackpot_contributions),
            "jackpot paid": format_money(x.jackpot_awards)}


def games_tables(report: GamesReport, width: int) -> list[Table]:
    """The games report turned on its side, so that it fits the terminal (issue 23: 80
    columns truncated every figure): a row per figure, a column per table and one for the
    room, as many tables side by side as `width` holds, then the next ones below."""
    lines = [*report.lines, report.total]
    shown = [_games_figures(x, report.reconciled if x.table_id is None else x.reconciled)
             for x in lines]
    label = max(len(k) for k in shown[0])
    cols = [max(len(lines[i].table), *map(len, f.values())) for i, f in enumerate(shown)]
    chunks: list[list[int]] = [[]]
    used = 1 + label + 3  # a rich table: 1 for its left edge, 3 around each column
    for i, w in enumerate(cols):
        if chunks[-1] and used + w + 3 > width:
            chunks.append([])
            used = 1 + label + 3
        chunks[-1].append(i)
        used += w + 3
    tables = []
    for n, chunk in enumerate(chunks):
        part = f" ({n + 1} of {len(chunks)})" if len(chunks) > 1 else ""
        table = Table(title=f"Games report, gambling day {report.day.isoformat()}{part}")
        table.add_column("")
        for i in chunk:
            table.add_column(lines[i].table, justify="right", no_wrap=True)
        for figure in shown[0]:
            table.add_row(figure, *(shown[i][figure] for i in chunk))
        tables.append(table)
    return tables


def _drop_by_tender(report: GamesReport) -> Table:
    """Each table's drop by tender (WAC 230-15-500(2): cash or a debit card; a migrated room's
    markers, historical, only when there are any)."""
    from cardroom.room.money.tenders import MARKERS_LABEL

    columns = {"drop_cash": "cash", "drop_debit": "debit card"}
    if report.total.drop_markers:
        columns["drop_markers"] = MARKERS_LABEL
    table = Table(title="Drop by tender")
    table.add_column("table")
    for label in (*columns.values(), "drop"):
        table.add_column(label, justify="right")
    for x in [*report.lines, report.total]:
        table.add_row(x.table, *(format_money(getattr(x, c)) for c in columns),
                      format_money(x.drop))
    return table


@report_app.command("cage", short_help=summary("report cage"))
def report_cage(day: Day = None, database: opt.Database = None, as_json: opt.AsJson = False,
                as_csv: AsCsv = False, rooms: Rooms = None) -> None:
    """The cage's day: chips sold and redeemed (cash in and out, by cashier), fills issued,
    credits received, the drop counted, the cash on hand at opening against the profile's
    minimum (WAC 230-15-050) (with --rooms at the head office: each room's, and the
    company's); exit 1 if it does not reconcile with the ledger, if the cash counted is short,
    or if no count was made within 3 hours of opening."""
    from cardroom.room.books.operations_report import cage_report, cage_rows, to_csv
    from cardroom.room.books.regulator import cash_on_hand, cash_rows
    from cardroom.room.storage.db import open_database
    from cardroom.room.storage.settings import GamblingClock

    form, wanted = _output(as_json, as_csv), parse_day(day)
    clock = GamblingClock.from_env()

    def build(conn: Connection) -> CageDay:
        return cage_report(conn, clock, wanted), cash_on_hand(conn, clock, wanted)

    if rooms is not None:
        days = rooms_report(database, rooms, form, build, _cage_json, _show_cage,
                            CAGE_FIGURES)
    else:
        with open_database(database).snapshot() as conn:
            days = [build(conn)]
        if form == "json":
            print(json.dumps(_cage_json(days[0]), indent=1))
        elif form == "csv":
            print(to_csv([*cage_rows(days[0][0]), *cash_rows(days[0][1])]), end="")
        else:
            _show_cage(days[0])
    if not all(report.reconciled and not cash.problems for report, cash in days):
        raise typer.Exit(1)


def _cage_json(day: CageDay) -> dict[str, Any]:
    return {**day[0].as_json(), "cash_on_hand": day[1].as_json()}


CAGE_FIGURES: list[tuple[str, Callable[[CageDay], int]]] = [
    ("cash_in", lambda d: d[0].cash_in), ("cash_out", lambda d: d[0].cash_out),
    ("drop_counted", lambda d: d[0].drop.cash + d[0].drop.debit + d[0].drop.markers),
    ("chips_outstanding", lambda d: d[0].outstanding)]
"""The company's figures of the cage report (`--rooms`)."""


def _show_cage(day: CageDay) -> None:
    from cardroom.room.books.operations_report import CAGE_KINDS
    from cardroom.room.money.tenders import MARKERS_LABEL

    report, cash = day
    table = Table(title=f"Cage report, gambling day {report.day.isoformat()}")
    for col in ("what", "count", "amount"):
        table.add_column(col, justify="left" if col == "what" else "right")
    for kind, (n, cents) in report.moves.items():
        table.add_row(CAGE_KINDS[kind], str(n), format_money(cents))
    table.add_row("cash in", "", format_money(report.cash_in))
    table.add_row("cash out", "", format_money(report.cash_out))
    table.add_row("drop counted: cash", "", format_money(report.drop.cash))
    table.add_row("drop counted: debit card slips", "", format_money(report.drop.debit))
    if report.drop.markers:
        table.add_row(f"drop counted: {MARKERS_LABEL}", "",
                      format_money(report.drop.markers))
    table.add_row("chips outstanding", "", format_money(report.outstanding))
    console.print(table)
    if not report.reconciled:
        console.print("[red]not reconciled:[/red] the lines do not add up to what the "
                      "cage's account moved in the ledger")
    console.print(f"cash on hand required ({cash.section}, {cash.tables} house-banked "
                  f"table(s)): {format_money(cash.required)}; counted at opening: "
                  + ("none" if cash.count is None else
                     f"{format_money(cash.count.amount)} by {cash.count.counted_by}"),
                  highlight=False)
    for problem in cash.problems:
        console.print(flagged("cash on hand:", problem), highlight=False)


@report_app.command("reconcile", short_help=summary("report reconcile"))
def report_reconcile(day: Day = None, database: opt.Database = None,
                     as_json: opt.AsJson = False) -> None:
    """The room-wide check of a gambling day: the day's reports (games, cage, jackpot,
    surveillance) together explain every ledger movement of the day. Lists each movement no
    report explains and each report that does not reconcile; exit 1 if there is any."""
    from cardroom.room.books.reconcile import reconcile
    from cardroom.room.storage.db import open_database
    from cardroom.room.storage.settings import GamblingClock

    wanted = parse_day(day)
    with open_database(database).snapshot() as conn:
        found = reconcile(conn, GamblingClock.from_env(), wanted)
    if as_json:
        print(json.dumps(found.as_json(), indent=1))
    else:
        table = Table(title=f"Ledger movements of gambling day {wanted.isoformat()}, by the "
                            "report that explains them")
        for col in ("report", "kind", "transactions"):
            table.add_column(col, justify="right" if col == "transactions" else "left")
        for report, kinds in found.explained.items():
            for kind, n in sorted(kinds.items()):
                table.add_row(report, kind, str(n))
        console.print(table)
        for m in found.unexplained:
            console.print(flagged("unexplained:", m.words()), highlight=False)
        for failure in found.not_reconciled:
            console.print(flagged("not reconciled:", failure), highlight=False)
        if found.ok:
            console.print(f"every one of the {found.transactions} ledger movements of the day "
                          "is explained by a report, and every report reconciles")
    if not found.ok:
        raise typer.Exit(1)


@report_app.command("slips", short_help=summary("report slips"))
def report_slips(database: opt.Database = None, as_json: opt.AsJson = False,
                 as_csv: AsCsv = False) -> None:
    """Every numbered slip (table inventory, fill, credit, notification of error), voids
    included; exit 1 if a series has a gap in its numbers."""
    from cardroom.room.books.operations_report import slips_report, slips_rows, to_csv
    from cardroom.room.storage.db import open_database

    form = _output(as_json, as_csv)
    with open_database(database).snapshot() as conn:
        report = slips_report(conn)
    data = report.as_json()
    if form == "json":
        print(json.dumps(data, indent=1))
    elif form == "csv":
        print(to_csv(slips_rows(report)), end="")
    else:
        table = Table(title="Numbered slips")
        for col in ("form", "number", "table", "kind", "amount", "signed by", "status"):
            table.add_column(col, justify="right" if col == "amount" else "left",
                             no_wrap=col in ("number", "amount"))
        for s in report.slips:
            signed = ", ".join(n for n in (s.cashier, s.dealer, s.floor) if n)
            status = "valid" if s.valid else f"VOID by {s.voided_by}: {s.void_reason}"
            table.add_row(s.form, str(s.number), report.tables.get(s.table_id, "?"), s.kind,
                          format_money(s.amount), signed, status)
        console.print(table)
    for series, missing in report.gaps.items():
        if form == "text":
            console.print(flagged("gap:", f"{series} slips missing numbers "
                          f"{', '.join(map(str, missing))}"), highlight=False)
    if report.gaps:
        raise typer.Exit(1)
