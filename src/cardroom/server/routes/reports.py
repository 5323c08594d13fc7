"""The daily reports as pages, CSV and JSON (docs/operations.md, "Reports"): the games report
with its hold chart (SVG drawn on the server), the cage report, the numbered slips. For the
floor, the cage, the auditor and the owner."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter
from fastapi.responses import Response

from cardroom import registry
from cardroom.errors import CardroomError
from cardroom.room.books import regulator, table_books
from cardroom.room.books.operations_report import (
    BY_CASHIER,
    CAGE_KINDS,
    CageReport,
    GamesReport,
    SlipsReport,
    cage_report,
    cage_rows,
    games_report,
    games_rows,
    hold_chart,
    slips_report,
    slips_rows,
    to_csv,
)
from cardroom.room.books.reconcile import Reconciliation, reconcile
from cardroom.room.books.regulator import (
    Period,
    cash_on_hand,
    cash_rows,
    parse_month,
    period_report,
    report_rows,
)
from cardroom.room.money.tenders import MARKERS_LABEL
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.room import Room
from cardroom.server.deps import Render, RoomDep, form_day, require

router = APIRouter()
Reader = Annotated[Account, require(Permission.READ_ALL, Permission.OPEN_TABLES,
                                    Permission.CAGE, to="read the reports")]


def _day(room: Room, text: str | None) -> date:
    if not text:
        return room.settings.clock.day_of(datetime.now(UTC))
    return form_day(text, "a gambling day")


@router.get("/reports/hold.svg", response_model=None)
def hold_svg(room: RoomDep, page: Render, who: Reader, date: str | None = None) -> Response:
    try:
        day = _day(room, date)
    except CardroomError as exc:
        return page.error(400, str(exc))
    with room.storage.snapshot() as conn:
        svg = hold_chart(conn, room.settings.clock, day)
    return Response(svg, media_type="image/svg+xml")


REPORTS = ("games", "cage", "slips", "reconcile")
PERIODS = ("month", "quarter")
"""The reports to the regulator (`cardroom.room.books.regulator`), for the owner and the auditor."""
Owner = Annotated[Account, require(Permission.READ_ALL, to="read the reports to the regulator")]


def _period(room: Room, kind: str, month: str | None, year: str | None,
            quarter: str | None) -> Period:
    """The month (YYYY-MM) or the quarter asked for; the last one ended by default."""
    today = room.settings.clock.day_of(datetime.now(UTC))
    if kind == "month":
        if month:
            return parse_month(month)
        before = today.replace(day=1) - timedelta(days=1)
        return regulator.month(before.year, before.month)
    if not year and not quarter:
        q = (today.month - 1) // 3
        return regulator.quarter(today.year - (q == 0), q or 4)
    try:
        return regulator.quarter(int((year or "").strip()), int((quarter or "").strip()))
    except ValueError:
        raise CardroomError("give the year as four digits and the quarter as 1 to 4") from None


@router.get("/reports/regulator/{name}", response_model=None)
def period_page(room: RoomDep, page: Render, who: Owner, name: str, month: str | None = None,
                year: str | None = None, quarter: str | None = None) -> Response:
    """`/reports/regulator/month?month=YYYY-MM`, `/reports/regulator/quarter?year=&quarter=`,
    each also as `.csv` and `.json`."""
    kind, _, fmt = name.partition(".")
    if kind not in PERIODS or fmt not in ("", "csv", "json"):
        return page.error(404, "there is no such report: the reports to the regulator are "
                          "month and quarter, each a page, a CSV or a JSON file")
    try:
        period = _period(room, kind, month, year, quarter)
    except CardroomError as exc:
        return page.error(400, str(exc))
    with room.storage.snapshot() as conn:
        found = period_report(conn, room.settings.clock, period)
    if fmt == "json":
        return Response(json.dumps(found.as_json(), indent=1), media_type="application/json")
    if fmt == "csv":
        label = period.label.replace(" ", "-")
        return Response(to_csv(report_rows(found)), media_type="text/csv", headers={
            "Content-Disposition": f'attachment; filename="{kind}-{label}.csv"'})
    query = (f"month={period.label}" if kind == "month" else
             f"year={period.first.year}&quarter={(period.first.month - 1) // 3 + 1}")
    return page("report_regulator.html", who, report=found, kind=kind, query=query,
                fees_name=registry.fees_name())


@router.get("/reports/{name}", response_model=None)
def report(room: RoomDep, page: Render, who: Reader, name: str, date: str | None = None
           ) -> Response:
    """`/reports/games`, `/reports/games.csv`, `/reports/games.json` (and cage, slips, and the
    room-wide check of the day, reconcile)."""
    kind, _, fmt = name.partition(".")
    if kind not in REPORTS or fmt not in ("", "csv", "json"):
        return page.error(404, "there is no such report: the reports are games, cage, slips "
                          "and reconcile, each a page, a CSV or a JSON file")
    try:
        day = _day(room, date)
    except CardroomError as exc:
        return page.error(400, str(exc))
    clock = room.settings.clock
    with room.storage.snapshot() as conn:
        found: GamesReport | CageReport | SlipsReport | Reconciliation = (
            games_report(conn, clock, day) if kind == "games" else
            cage_report(conn, clock, day) if kind == "cage" else
            reconcile(conn, clock, day) if kind == "reconcile" else slips_report(conn))
        check = reconcile(conn, clock, day) if kind == "games" else None
        cash = cash_on_hand(conn, clock, day) if kind == "cage" else None
    context: dict[str, Any]
    data = found.as_json()
    if isinstance(found, GamesReport):
        rows, context = games_rows(found), {"reconciled": found.reconciled, "check": check,
                                            "fees_name": registry.fees_name()}
    elif isinstance(found, Reconciliation):
        rows, context = [{"gambling_day": day.isoformat(), "tx": m.tx_id, "kind": m.kind,
                          "actor": m.actor, "memo": m.memo, "account": name,
                          "amount_cents": amount}
                         for m in found.unexplained for name, amount in m.entries], {}
    elif isinstance(found, CageReport):
        assert cash is not None
        data["cash_on_hand"] = cash.as_json()
        rows, context = [*cage_rows(found), *cash_rows(cash)], {
            "kinds": CAGE_KINDS, "by_cashier": BY_CASHIER, "markers_label": MARKERS_LABEL,
            "cash": cash}
    else:
        rows, context = slips_rows(found), {"forms": table_books.FORMS}
    if fmt == "json":
        return Response(json.dumps(data, indent=1), media_type="application/json")
    if fmt == "csv":
        label = kind if kind == "slips" else f"{kind}-{day.isoformat()}"
        return Response(to_csv(rows), media_type="text/csv", headers={
            "Content-Disposition": f'attachment; filename="{label}.csv"'})
    return page(f"report_{kind}.html", who, report=found, **context)
