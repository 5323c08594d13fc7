"""The self-exclusion page (RCW 9.46.071, chapter 230-23 WAC), for the owner and the
compliance officer only (the list is confidential, WAC 230-23-025): whether the state's list is
current, the worklist of enrolment forms and breach notices owed to the commission with their
due times, an in-room enrolment, and a sweep of the tables after a list update. Every change
goes through `Room.operate` (audited; a refusal changes nothing and comes back as one
sentence)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Form
from fastapi.responses import HTMLResponse, Response

from cardroom.digits import whole_number
from cardroom.money import format_money
from cardroom.room.compliance import exclusions
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage.errors import PermissionDenied
from cardroom.room.storage.timezone import room_time
from cardroom.server.deps import Render, RoomDep, Viewer
from cardroom.server.ids import FormBreachId, FormEntryId, FormPatronId
from cardroom.server.routes.cage import back, done

router = APIRouter()
PAGE = "/exclusions"


def _reader(who: Viewer) -> Account:
    if not exclusions.may_read(who):
        raise PermissionDenied("only the owner and the compliance officer may see the "
                               "self-exclusion list")
    return who


Reader = Annotated[Account, Depends(_reader)]


def exclusion_warning(room: Room, who: Account | None) -> str:
    """The sentence every page shows the owner and the compliance officer while the state's
    list is out of date (WAC 230-23-030); empty otherwise, and for everyone else."""
    if who is None or not exclusions.may_read(who):
        return ""
    with room.storage.read() as conn:
        status = exclusions.list_status(conn)
    return status.sentence() if status.stale else ""


@router.get(PAGE, response_class=HTMLResponse)
def exclusions_page(room: RoomDep, page: Render, who: Reader) -> HTMLResponse:
    """The worklist and the list's state; a form's message comes from the flash."""
    now = datetime.now(UTC)
    with room.storage.read() as conn:
        status = exclusions.list_status(conn, now)
        work = exclusions.worklist(conn, who)
        people = exclusions.entries(conn, who)
    rule, _ = exclusions.deadlines(now.date())
    return page("exclusions.html", who, list_status=status, work=work, people=people, now=now,
                periods=exclusions.PERIODS, forward_hours=rule.forward_hours,
                notice_hours=rule.notice_hours)


@router.post(f"{PAGE}/enrol", response_model=None)
def enrol(room: RoomDep, who: Reader, patron: FormPatronId, years: str = Form(...)
          ) -> Response:
    period = whole_number(years.strip()[:3])  # not a period: refused by `enrol` in words
    response = done(room, who, "exclusion.enrol",
                    lambda c: exclusions.enrol(c, who, patron, -1 if period is None else period),
                    PAGE,
                    lambda e: f"{e.legal_name} is self-excluded for {e.period}: forward the "
                              f"form to the commission by {room_time(e.form_due)}")
    room.bar_excluded()
    return response


@router.post(f"{PAGE}/forwarded", response_model=None)
def forwarded(room: RoomDep, who: Reader, entry: FormEntryId) -> Response:
    return done(room, who, "exclusion.forwarded",
                lambda c: exclusions.mark_forwarded(c, who, entry), PAGE,
                lambda e: f"the form of {e.legal_name} is marked forwarded")


@router.post(f"{PAGE}/notified", response_model=None)
def notified(room: RoomDep, who: Reader, breach: FormBreachId) -> Response:
    return done(room, who, "exclusion.notified",
                lambda c: exclusions.mark_notified(c, who, breach), PAGE,
                lambda b: f"the notice of breach {b.id} is marked sent")


@router.post(f"{PAGE}/confiscate", response_model=None)
def confiscate(room: RoomDep, who: Reader, username: str = Form(...)) -> Response:
    return done(room, who, "exclusion.breach",
                lambda c: exclusions.breach_at_cage(c, who, username), PAGE,
                lambda b: f"{format_money(b.confiscated)} of {b.username}'s chips confiscated: "
                          f"notify the commission by {room_time(b.notice_due)}")


@router.post(f"{PAGE}/sweep", response_model=None)
def sweep(room: RoomDep, who: Reader) -> Response:
    removed = room.bar_excluded()
    return back(PAGE, message=f"tables checked against the list: {removed} people removed")
