"""The Title 31 pages (issue 22; 31 CFR 1021.311, 1021.410): for the cashier, how close a
player's patron is to the currency transaction report's threshold today (`/cage/cash-today`);
for the compliance officer and the owner, the multiple transaction log of a gaming day
(`/compliance/mtl`, also as CSV and JSON), the currency transaction reports with their due
dates (`/compliance/ctr`), each report's form and its filing.

No page here is a player's: every one needs `Permission.CAGE` or `Permission.TITLE_31`. No
taxpayer id or document number is shown in clear on any page (the regulator's copy with them
is `cardroom compliance ctr-form --identity-key-file`)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import HTMLResponse, Response

from cardroom.errors import CardroomError
from cardroom.room.books.operations_report import to_csv
from cardroom.room.compliance import currency
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.room import Room
from cardroom.server.deps import Render, RoomDep, require
from cardroom.server.ids import ReportId
from cardroom.server.routes.cage import back, done, named_player
from cardroom.server.routes.reports import _day

router = APIRouter()
Cashier = Annotated[Account, require(Permission.CAGE)]
Officer = Annotated[Account, require(Permission.TITLE_31,
                                     to="open this page")]


def _gaming_today(room: Room) -> date:
    return room.settings.clock.day_of(datetime.now(UTC))


@router.get("/cage/cash-today", response_class=HTMLResponse)
def cash_today(room: RoomDep, page: Render, who: Cashier, player_name: str = "") -> Response:
    """A player's patron's cash in and cash out today, the threshold, what is left, whether
    their identity is on file, and today's transactions; with no player named, every patron
    with cash today, the most first: for the cashier only."""
    day = _gaming_today(room)
    calendar = datetime.now(room.settings.clock.zone).date()
    if not player_name.strip():
        with room.storage.read() as conn:
            everyone = currency.day_totals(conn, day)
        return page("cash_today_all.html", who, everyone=everyone, day=day.isoformat(),
                    threshold=currency.threshold(day), floor=currency.log_floor(day))
    try:
        with room.storage.read() as conn:
            customer = named_player(conn, player_name)
            standing = currency.standing(conn, customer, day, calendar)
            pid = None if standing.patron is None else standing.patron.id
            rows = currency.transactions(conn, day=day, patron_id=pid,
                                         account_id=customer.id)
    except CardroomError as exc:
        return back("/cage", error=str(exc))
    return page("cash_today.html", who, customer=customer, standing=standing, rows=rows,
                day=day.isoformat(), directions=currency.DIRECTIONS)


@router.get("/compliance/mtl", response_model=None)
def mtl(room: RoomDep, page: Render, who: Officer, date: str | None = None) -> Response:
    return _mtl(room, page, who, date, "")


@router.get("/compliance/mtl.{fmt}", response_model=None)
def mtl_file(room: RoomDep, page: Render, who: Officer, fmt: str, date: str | None = None
             ) -> Response:
    return _mtl(room, page, who, date, fmt)


def _mtl(room: Room, page: Render, who: Account, text: str | None, fmt: str) -> Response:
    if fmt not in ("", "csv", "json"):
        return page.error(404, "the log is a page, a CSV or a JSON file")
    try:
        day = _day(room, text)
    except CardroomError as exc:
        return page.error(400, str(exc))
    with room.storage.snapshot() as conn:
        lines = currency.log(conn, day)
    rows = [line.as_json() for line in lines]
    if fmt == "json":
        return Response(json.dumps({"gaming_day": day.isoformat(), "lines": rows}, indent=1),
                        media_type="application/json")
    if fmt == "csv":
        return Response(to_csv(rows), media_type="text/csv", headers={
            "Content-Disposition": f'attachment; filename="mtl-{day.isoformat()}.csv"'})
    return page("compliance_mtl.html", who, lines=lines, day=day.isoformat(),
                floor=currency.log_floor(day), directions=currency.DIRECTIONS)


@router.get("/compliance/ctr", response_class=HTMLResponse)
def ctr(room: RoomDep, page: Render, who: Officer) -> HTMLResponse:
    """The report items; a filing's message comes from the flash."""
    today = _gaming_today(room)
    with room.storage.snapshot() as conn:
        items = currency.reports(conn)
    return page("compliance_ctr.html", who, items=items, today=today,
                threshold=currency.threshold(today))


@router.get("/compliance/ctr/{report_id}", response_model=None)
def ctr_form(room: RoomDep, page: Render, who: Officer, report_id: ReportId) -> Response:
    try:
        with room.storage.unit() as conn:
            data = currency.form(conn, who, report_id)
    except CardroomError as exc:
        return page.error(404, str(exc))
    kinds = {**currency.FORM_KINDS[currency.IN], **currency.FORM_KINDS[currency.OUT]}
    return page("compliance_ctr_form.html", who, form=data, report_id=report_id,
                directions=currency.DIRECTIONS, kind_words=kinds)


@router.post("/compliance/ctr/{report_id}/file", response_model=None)
def ctr_file(room: RoomDep, who: Officer, report_id: ReportId, reference: str = Form(...)
             ) -> Response:
    return done(room, who, "ctr.file", lambda conn: currency.file_report(
        conn, who, report_id, reference, _gaming_today(room)), "/compliance/ctr",
        lambda r: f"report {r.id} is filed ({r.reference})")
