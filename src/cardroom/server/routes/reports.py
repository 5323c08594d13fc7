"""The daily reports as pages, CSV and JSON (docs/operations.md, "Reports"): the games report
with its hold chart (SVG drawn on the server), the cage report, the numbered slips. For the
floor, the cage, the auditor and the owner."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Annotated, Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from cardroom.errors import CardroomError
from cardroom.room import table_books
from cardroom.room.accounts import Account, Permission
from cardroom.room.operations_report import (
    CAGE_KINDS,
    cage_report,
    cage_rows,
    games_report,
    games_rows,
    hold_chart,
    slips_report,
    to_csv,
)
from cardroom.room.room import Room
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


def _as(fmt: str, data: dict[str, Any], rows: list[dict[str, Any]], name: str) -> Response:
    if fmt == "json":
        return Response(json.dumps(data, indent=1), media_type="application/json")
    return Response(to_csv(rows), media_type="text/csv",
                    headers={"Content-Disposition": f'attachment; filename="{name}.csv"'})


@router.get("/reports/games", response_class=HTMLResponse)
def games_page(room: RoomDep, page: Render, who: Reader, date: str | None = None
               ) -> Response:
    try:
        day = _day(room, date)
    except CardroomError as exc:
        return page.error(400, str(exc))
    with room.storage.snapshot() as conn:
        report = games_report(conn, room.settings.clock, day)
    return page("report_games.html", who, report=report, reconciled=report.reconciled)


@router.get("/reports/games.{fmt}", response_model=None)
def games_file(room: RoomDep, page: Render, who: Reader, fmt: str, date: str | None = None
               ) -> Response:
    if fmt not in ("csv", "json"):
        return page.error(404, "the games report is a page, a CSV or a JSON file")
    try:
        day = _day(room, date)
    except CardroomError as exc:
        return page.error(400, str(exc))
    with room.storage.snapshot() as conn:
        report = games_report(conn, room.settings.clock, day)
    return _as(fmt, report.as_json(), games_rows(report), f"games-{day.isoformat()}")


@router.get("/reports/hold.svg", response_model=None)
def hold_svg(room: RoomDep, page: Render, who: Reader, date: str | None = None) -> Response:
    try:
        day = _day(room, date)
    except CardroomError as exc:
        return page.error(400, str(exc))
    with room.storage.snapshot() as conn:
        svg = hold_chart(conn, room.settings.clock, day)
    return Response(svg, media_type="image/svg+xml")


@router.get("/reports/cage", response_class=HTMLResponse)
def cage_page(room: RoomDep, page: Render, who: Reader, date: str | None = None) -> Response:
    try:
        day = _day(room, date)
    except CardroomError as exc:
        return page.error(400, str(exc))
    with room.storage.snapshot() as conn:
        report = cage_report(conn, room.settings.clock, day)
    return page("report_cage.html", who, report=report, kinds=CAGE_KINDS)


@router.get("/reports/cage.{fmt}", response_model=None)
def cage_file(room: RoomDep, page: Render, who: Reader, fmt: str, date: str | None = None
              ) -> Response:
    if fmt not in ("csv", "json"):
        return page.error(404, "the cage report is a page, a CSV or a JSON file")
    try:
        day = _day(room, date)
    except CardroomError as exc:
        return page.error(400, str(exc))
    with room.storage.snapshot() as conn:
        report = cage_report(conn, room.settings.clock, day)
    return _as(fmt, report.as_json(), cage_rows(report), f"cage-{day.isoformat()}")


@router.get("/reports/slips", response_class=HTMLResponse)
def slips_page(room: RoomDep, page: Render, who: Reader) -> Response:
    with room.storage.snapshot() as conn:
        report = slips_report(conn)
    return page("report_slips.html", who, report=report, forms=table_books.FORMS)


@router.get("/reports/slips.{fmt}", response_model=None)
def slips_file(room: RoomDep, page: Render, who: Reader, fmt: str) -> Response:
    if fmt not in ("csv", "json"):
        return page.error(404, "the slips report is a page, a CSV or a JSON file")
    with room.storage.snapshot() as conn:
        report = slips_report(conn)
    data = report.as_json()
    return _as(fmt, data, data["slips"], "slips")
