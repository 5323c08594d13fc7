"""The owner's staff page: accounts, roles and lock-outs in one place, each change audited
(`room/people/staff.py`); a refusal is audited and comes back as one sentence. A lock-out or a
change
of role ends the account's sessions and closes its table sockets at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Form
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.room.people import accounts as acc
from cardroom.room.people import staff as people
from cardroom.room.people.accounts import Account, Permission, Role
from cardroom.room.people.staff import StaffRow
from cardroom.room.room import Room
from cardroom.server import password_work
from cardroom.server.deps import HubDep, Render, RoomDep, require
from cardroom.server.hub import Hub
from cardroom.server.routes.cage import back, done

router = APIRouter()
Owner = Annotated[Account, require(Permission.MANAGE_STAFF)]


@router.get("/staff", response_class=HTMLResponse)
def staff_page(room: RoomDep, page: Render, who: Owner) -> HTMLResponse:
    with room.storage.read() as conn:
        rows = people.staff(conn)
    return page("staff.html", who, people=rows, roles=[r.value for r in Role])


def _do(room: Room, who: Account, action: str, work: Callable[[Connection], Any],
        said: Callable[[Any], str]) -> Response:
    return done(room, who, action, work, "/staff", said)


async def hire_staff(room: Room, who: Account, username: str, password: str, role: str
                     ) -> Account:
    """A new account: its password judged and hashed in the password threads, then the account
    written in one transaction; a refusal is audited and raised (CardroomError)."""
    try:
        made = await password_work.new_credentials(username, password)
    except CardroomError as exc:
        await run_in_threadpool(room.refused, who, "staff.hire", str(exc))
        raise
    return await run_in_threadpool(room.operate, who, "staff.hire",
                                   lambda c: people.hire(c, who, made, role))


def hired(made: Account) -> str:
    return f"{made.role.value} {made.username} created"


@router.post("/staff/hire", response_model=None)
async def hire(room: RoomDep, who: Owner, username: str = Form(...),
               password: str = Form(...), role: str = Form(...)) -> Response:
    try:
        made = await hire_staff(room, who, username, password, role)
    except CardroomError as exc:
        return back("/staff", error=str(exc))
    return back("/staff", message=hired(made))


async def _ending_sessions(room: Room, hub: Hub, who: Account, action: str,
                           work: Callable[[Connection], StaffRow],
                           said: Callable[[StaffRow], str], why: str) -> Response:
    """A change that ends an account's sessions (in `work`): then its table sockets close too,
    as at log-out, so none acts on with the powers it had."""
    changed: list[StaffRow] = []

    def recorded(conn: Connection) -> StaffRow:
        changed.append(work(conn))
        return changed[-1]

    resp = await hub.blocking(_do, room, who, action, recorded, said)
    for row in changed:
        await hub.close_account(row.id, why)
    return resp


@router.post("/staff/role", response_model=None)
async def role(room: RoomDep, hub: HubDep, who: Owner, username: str = Form(...),
               role: str = Form(...)) -> Response:
    return await _ending_sessions(
        room, hub, who, "staff.role", lambda c: people.change_role(c, who, username, role),
        lambda r: f"{r.username} is now a {r.role.value}",
        "your role has changed: please log in again")


@router.post("/staff/lock", response_model=None)
async def lock(room: RoomDep, hub: HubDep, who: Owner, username: str = Form(...),
               reason: str = Form(...)) -> Response:
    return await _ending_sessions(
        room, hub, who, "staff.lock", lambda c: people.lock(c, who, username, reason),
        lambda r: f"{r.username} is locked out", "your account is locked out")


@router.post("/staff/reinstate", response_model=None)
def reinstate(room: RoomDep, who: Owner, username: str = Form(...)) -> Response:
    return _do(room, who, "staff.reinstate", lambda c: people.reinstate(c, who, username),
               lambda r: f"{r.username} may log in again")


@router.post("/staff/unlock", response_model=None)
def unlock(room: RoomDep, who: Owner, username: str = Form(...)) -> Response:
    """Clear a name's log-in back-off (repeated wrong passwords)."""
    return _do(room, who, "staff.unlock", lambda c: acc.unlock(c, who, username),
               lambda _: f"{username.strip().lower()} may try to log in again at once")
