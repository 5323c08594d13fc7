"""The floor: its page, opening tables, voiding a hand, staff accounts, unlocking a name."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import HTMLResponse, JSONResponse, Response

from cardroom.digits import whole_number
from cardroom.errors import CardroomError
from cardroom.registry import names as game_names
from cardroom.room import accounts as acc
from cardroom.room import table_books
from cardroom.room.accounts import Account, Permission, Role
from cardroom.room.errors import PermissionDenied
from cardroom.room.floor_view import IRREGULARITIES, table_summary
from cardroom.room.hands import open_hands
from cardroom.room.jackpot import DEFAULT_POOL, break_even_warning
from cardroom.room.tables import list_tables
from cardroom.server.deps import HubDep, Render, RoomDep, Viewer, require
from cardroom.server.flash import Flash
from cardroom.server.ids import FormTableId
from cardroom.server.routes.staff import hire_staff, hired

router = APIRouter()
FloorStaff = Annotated[Account, require(Permission.VOID, Permission.OPEN_TABLES,
                                        to="use the floor page")]
Voider = Annotated[Account, require(Permission.VOID)]
"""Who may void a hand: checked before the table is looked up."""
Dealer = Annotated[Account, require(Permission.DEAL, to="record an irregularity")]
"""Who may record an irregularity (a dealer or the floor): checked before the lookup."""


def floor_back(message: str = "", error: str = "") -> Response:
    """Back to the floor page, saying what was done or refused."""
    return Flash("/floor", message=message, error=error)


@router.get("/floor", response_class=HTMLResponse)
def floor(room: RoomDep, page: Render, who: FloorStaff) -> HTMLResponse:
    with room.storage.read() as conn:
        registry = list_tables(conn)
        rows = [table_summary(t, room.tables.get(t.id)) for t in registry]
        hands_open = open_hands(conn)
        held = acc.held_names(conn) if who.may(Permission.MANAGE_STAFF) else []
        errors = table_books.slips(conn, series="error")[::-1][:20]
    pool = room.pools.get(DEFAULT_POOL)
    return page("floor.html", who, tables=rows, games=game_names(), irregularities=IRREGULARITIES,
                roles=[r.value for r in Role], open_hands=hands_open,
                jackpot=pool, held=held, errors=errors,
                table_names={t.id: t.name for t in registry},
                jackpot_warning=None if pool is None else break_even_warning(pool))


@router.post("/floor/tables", response_model=None)
def floor_create(room: RoomDep, who: Viewer, name: str = Form(...), game: str = Form(...)
                 ) -> Response:
    try:
        room.create_table(who, name, game)
    except PermissionDenied:
        raise
    except CardroomError as exc:
        room.refused(who, "table.create", str(exc))
        return floor_back(error=str(exc))
    return floor_back(message=f"table {name} opened")


@router.post("/floor/void", response_model=None)
async def floor_void(room: RoomDep, hub: HubDep, who: Voider, table_id: FormTableId,
                     reason: str = Form(...)) -> Response:
    try:
        await hub.act(room, who, table_id, {"type": "void", "reason": reason})
    except PermissionDenied:
        raise
    except CardroomError as exc:
        return floor_back(error=str(exc))
    return floor_back(message="hand voided; wagers returned")


@router.get("/floor/tables.json", response_model=None)
def floor_tables(room: RoomDep, who: FloorStaff) -> Response:
    """The floor page's live rows (its script polls them)."""
    with room.storage.read() as conn:
        rows = [table_summary(t, room.tables.get(t.id)) for t in list_tables(conn)]
    return JSONResponse(rows, headers={"Cache-Control": "no-store"})


@router.post("/floor/irregularity", response_model=None)
async def floor_irregularity(room: RoomDep, hub: HubDep, who: Dealer,
                             table_id: FormTableId, kind: str = Form(...),
                             reason: str = Form(...), seat: str = Form("")) -> Response:
    """The floor's irregularity buttons: the table protocol's `irregularity` message (Super
    Pan 9 and Pai Gow tables)."""
    try:
        number = whole_number(seat)
        if seat.strip() and number is None:
            raise CardroomError("choose a seat by its number, or none for the whole deal")
        await hub.act(room, who, table_id, {
            "type": "irregularity", "kind": kind, "reason": reason.strip()[:200],
            "seat": number})
    except PermissionDenied:
        raise
    except CardroomError as exc:
        return floor_back(error=str(exc))
    return floor_back(message=f"{IRREGULARITIES.get(kind, 'irregularity')} recorded; the "
                      "hands it voids have their wagers back")


@router.post("/floor/staff", response_model=None)
async def staff(room: RoomDep, who: Annotated[Account, require(Permission.MANAGE_STAFF)],
                username: str = Form(...), password: str = Form(...), role: str = Form(...)
                ) -> Response:
    try:
        made = await hire_staff(room, who, username, password, role)
    except CardroomError as exc:
        return floor_back(error=str(exc))
    return floor_back(message=hired(made))


@router.post("/floor/unlock", response_model=None)
def unlock(room: RoomDep, who: Viewer, username: str = Form(...)) -> Response:
    """The owner lets a name that is backing off log in again at once."""
    try:
        with room.storage.unit() as conn:
            acc.unlock(conn, who, username)
    except PermissionDenied:
        raise
    except CardroomError as exc:
        return floor_back(error=str(exc))
    return floor_back(message=f"{username.strip().lower()} may log in again")
