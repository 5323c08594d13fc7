"""The daily reports as pages, CSV and JSON (docs/operations.md, "Reports"): the games report
with its hold chart (SVG drawn on the server), the cage report, the numbered slips. For the
floor, the cage, the auditor and the owner."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Annotated, Any

from fastapi import APIRouter
from fastapi.responses import Response

from cardroom.errors import CardroomError
from cardroom.room import table_books
from cardroom.room.accounts import Account, Permission
from cardroom.room.operations_report import (
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
    to_csv,
)
from cardroom.room.reconcile import Reconciliation, reconcile
from cardroom.room.room import Room
from cardroom.room.tenders import MARKERS_LABEL
from cardroom.server.deps import Render, RoomDep, require

router = APIRouter()
Reader = Annotated[Account, require(Permission.READ_ALL, Permission.OPEN_TABLES,
                                    Permission.CAGE, to="read the reports")]


def _day(room: Room, text: str | None) -> date:
    if not text:
        return room.settings.clock.day_of(datetime.now(UTC))
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise CardroomError(f"{text.strip()[:20]!r} is not a gambling day: write it as "
                            "YYYY-MM-DD") from None


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
    context: dict[str, Any]
    if isinstance(found, GamesReport):
        rows, context = games_rows(found), {"reconciled": found.reconciled, "check": check}
    elif isinstance(found, Reconciliation):
        rows, context = [{"gambling_day": day.isoformat(), "tx": m.tx_id, "kind": m.kind,
                          "actor": m.actor, "memo": m.memo, "account": name,
                          "amount_cents": amount}
                         for m in found.unexplained for name, amount in m.entries], {}
    elif isinstance(found, CageReport):
        rows, context = cage_rows(found), {"kinds": CAGE_KINDS, "by_cashier": BY_CASHIER,
                                           "markers_label": MARKERS_LABEL}
    else:
        rows, context = found.as_json()["slips"], {"forms": table_books.FORMS}
    if fmt == "json":
        return Response(json.dumps(found.as_json(), indent=1), media_type="application/json")
    if fmt == "csv":
        label = kind if kind == "slips" else f"{kind}-{day.isoformat()}"
        return Response(to_csv(rows), media_type="text/csv", headers={
            "Content-Disposition": f'attachment; filename="{label}.csv"'})
    return page(f"report_{kind}.html", who, report=found, **context)
