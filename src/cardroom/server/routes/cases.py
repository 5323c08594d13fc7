"""The compliance officer's suspicious-activity pages (issue 22, "Suspicious activity"; 31 CFR
1021.320): the alerts (`/compliance/alerts`, a gaming day's computed again on request), the
cases (`/compliance/cases`, opened from alerts or by hand) and a case's page (narrative,
evidence with links to the hands, its due date and its decision).

Every page and form needs `Permission.CASES`: the compliance role only, not the owner (the
menu shows them to no one else); the cage may flag a player by hand (`/cage/flag`). No
player page links here or names any of it."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.room.compliance import currency, suspicious
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.room import Room
from cardroom.room.storage.errors import NotFound
from cardroom.server.deps import Render, RoomDep, require
from cardroom.server.ids import CaseId, FormEvidence, row_id
from cardroom.server.routes.cage import done, named_player
from cardroom.server.routes.reports import _day

router = APIRouter()
Officer = Annotated[Account, require(Permission.CASES,
                                     to="open this page")]
Cashier = Annotated[Account, require(Permission.CAGE)]


def _today(room: Room) -> date:
    return datetime.now(room.settings.clock.zone).date()


@router.get("/compliance/alerts", response_model=None)
def alerts(room: RoomDep, page: Render, who: Officer, date: str | None = None) -> Response:
    """Every alert, the newest gaming day first (one day's with `date`), each with a box to
    open a case from it."""
    try:
        day = _day(room, date) if date else None
    except CardroomError as exc:
        return page.error(400, str(exc))
    with room.storage.snapshot() as conn:
        found = suspicious.alerts(conn, who, day=day)
    shown = day or room.settings.clock.day_of(datetime.now(UTC))
    return page("compliance_alerts.html", who, alerts=found, day=shown.isoformat(),
                filtered=day is not None)


@router.post("/compliance/alerts/scan", response_model=None)
def scan(room: RoomDep, who: Officer, day: str = Form("")) -> Response:
    def work(conn: Connection) -> list[suspicious.Alert]:
        return suspicious.scan_day(conn, who, _day(room, day))

    return done(room, who, "compliance.scan", work, "/compliance/alerts",
                lambda found: f"the gaming day has {len(found)} alerts")


@router.get("/compliance/cases", response_class=HTMLResponse)
def cases(room: RoomDep, page: Render, who: Officer) -> HTMLResponse:
    """The cases; a form's message comes from the flash, never the address."""
    today = _today(room)
    with room.storage.snapshot() as conn:
        every = suspicious.cases(conn, who)
    return page("compliance_cases.html", who, cases=every, today=today)


@router.post("/compliance/cases/open", response_model=None)
def case_open(room: RoomDep, who: Officer, narrative: str = Form(""),
              alert: Annotated[list[str] | None, Form()] = None, player_name: str = Form(""),
              ) -> Response:
    def work(conn: Connection) -> suspicious.Case:
        ids = [row_id(a) for a in alert or ()]
        if None in ids:
            raise NotFound("There is no such alert.")
        subject = named_player(conn, player_name) if player_name.strip() else None
        return suspicious.open_case(conn, who, narrative,
                                    alert_ids=[i for i in ids if i is not None],
                                    player=subject)

    back = "/compliance/alerts" if alert else "/compliance/cases"
    return done(room, who, "compliance.case.open", work, back,
                lambda c: f"case {c.id} is open, due {c.due.isoformat()}")


@router.get("/compliance/cases/{case_id}", response_model=None)
def case(room: RoomDep, page: Render, who: Officer, case_id: CaseId) -> Response:
    try:
        with room.storage.snapshot() as conn:
            found = suspicious.get_case(conn, who, case_id)
    except CardroomError as exc:
        return page.error(404, str(exc))
    return page("compliance_case.html", who, case=found, today=_today(room),
                directions=currency.DIRECTIONS, kinds=suspicious.KIND_WORDS)


@router.post("/compliance/cases/{case_id}/note", response_model=None)
def case_note(room: RoomDep, who: Officer, case_id: CaseId, text: str = Form("")) -> Response:
    return done(room, who, "compliance.case.note", lambda conn: suspicious.add_note(
        conn, who, case_id, text), f"/compliance/cases/{case_id}",
        lambda c: "the narrative is added")


@router.post("/compliance/cases/{case_id}/evidence", response_model=None)
def case_evidence(room: RoomDep, who: Officer, case_id: CaseId, kind: str = Form(""),
                  ref: FormEvidence = 0) -> Response:
    return done(room, who, "compliance.case.evidence", lambda conn: suspicious.add_evidence(
        conn, who, case_id, kind, ref), f"/compliance/cases/{case_id}",
        lambda c: f"the {kind} is linked")


@router.post("/compliance/cases/{case_id}/decide", response_model=None)
def case_decide(room: RoomDep, who: Officer, case_id: CaseId, decision: str = Form(""),
                text: str = Form("")) -> Response:
    return done(room, who, "compliance.case.decide", lambda conn: suspicious.decide(
        conn, who, case_id, decision == "filed", text), f"/compliance/cases/{case_id}",
        lambda c: f"the case is decided: {c.status_words}")


@router.post("/cage/flag", response_model=None)
def flag(room: RoomDep, who: Cashier, player_name: str = Form(""), note: str = Form("")
         ) -> Response:
    """The cashier flags a player's cash by hand (e.g. one person buying for others): an
    alert for the compliance officer; the cashier reads nothing of what comes of it."""
    return done(room, who, "cage.flag", lambda conn: suspicious.flag(
        conn, who, named_player(conn, player_name), note), "/cage",
        lambda _: "your note is with the compliance officer")
