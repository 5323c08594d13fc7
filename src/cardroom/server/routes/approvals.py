"""Signatures asked of a member of staff, given on their own session (`server/cosign.py`,
`room.approvals`; docs/security.md, "Second signatures"): the page of what waits for one's
signature (what it is, the amounts and the table, who asked, until when) with accept and
decline, and one's own requests, pending or closed, with withdraw."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Form
from fastapi.responses import HTMLResponse, Response

from cardroom.errors import CardroomError
from cardroom.room.people import approvals
from cardroom.room.people.accounts import Account, Role
from cardroom.room.room import Room
from cardroom.room.storage.errors import PermissionDenied
from cardroom.server import cosign
from cardroom.server.deps import Render, RoomDep, Viewer
from cardroom.server.flash import Flash
from cardroom.server.ids import ApprovalId

router = APIRouter()
PAGE = "/signatures"


def staff_member(who: Viewer) -> Account:
    if who.role is Role.PLAYER:
        raise PermissionDenied("Sorry: signatures are given by members of staff.")
    return who


Staff = Annotated[Account, Depends(staff_member)]


@router.get(PAGE, response_class=HTMLResponse)
def signatures(room: RoomDep, page: Render, who: Staff) -> HTMLResponse:
    now = datetime.now(UTC)
    with room.storage.read() as conn:
        waiting = approvals.waiting_for(conn, who, now)
        mine = approvals.asked_by(conn, who)
    return page("signatures.html", who, waiting=waiting, mine=mine, now=now)


def _closing(room: Room, who: Account, action: str, approval_id: int, what: str,
             close: approvals.Close) -> Response:
    try:
        room.operate(who, action, lambda conn: close(conn, who, approval_id),
                     {"approval": approval_id})
    except CardroomError as exc:
        return Flash(PAGE, error=str(exc))
    return Flash(PAGE, message=f"request {approval_id} {what}: nothing was signed")


@router.post(PAGE + "/{approval_id}/accept", response_model=None)
def accept(room: RoomDep, who: Staff, approval_id: ApprovalId) -> Response:
    """Sign: the last signature does the form's work."""
    try:
        said = cosign.accept(room, who, approval_id)
    except CardroomError as exc:
        return Flash(PAGE, error=str(exc))
    return Flash(PAGE, message=said)


@router.post(PAGE + "/{approval_id}/decline", response_model=None)
def decline(room: RoomDep, who: Staff, approval_id: ApprovalId,
            reason: str = Form("")) -> Response:
    return _closing(room, who, "approval.decline", approval_id, "declined",
                    lambda conn, w, i: approvals.decline(conn, w, i, reason))


@router.post(PAGE + "/{approval_id}/withdraw", response_model=None)
def withdraw(room: RoomDep, who: Staff, approval_id: ApprovalId) -> Response:
    return _closing(room, who, "approval.withdraw", approval_id, "withdrawn",
                    approvals.withdraw)
