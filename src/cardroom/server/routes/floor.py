"""The floor: its pit screen (a card per table, `room.floor_view`), adding tables, voiding a
hand, recording an irregularity, acting for an absent player, staff accounts, unlocking a
name."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from cardroom.digits import whole_number
from cardroom.errors import CardroomError
from cardroom.registry import names as game_names
from cardroom.room.books import table_books
from cardroom.room.money.jackpot import DEFAULT_POOL, break_even_warning
from cardroom.room.people import accounts as acc
from cardroom.room.people.accounts import Account, Permission, Role
from cardroom.room.play.tables import list_tables
from cardroom.room.room import Room, reads_every_hand
from cardroom.room.storage.errors import PermissionDenied
from cardroom.room.views.floor_view import IRREGULARITIES, PitCard, gather, pit_card
from cardroom.server.deps import HubDep, Render, RoomDep, Viewer, require
from cardroom.server.flash import Flash
from cardroom.server.forward import at_holder, live_elsewhere, live_here
from cardroom.server.ids import FormTableId
from cardroom.server.routes.staff import hire_staff, hired

router = APIRouter()
FloorStaff = Annotated[Account, require(Permission.VOID, Permission.OPEN_TABLES,
                                        to="use the floor page")]
Voider = Annotated[Account, require(Permission.VOID)]
"""Who may void a hand: checked before the table is looked up."""
Dealer = Annotated[Account, require(Permission.DEAL, to="record an irregularity")]
"""Who may record an irregularity (a dealer or the floor): checked before the lookup."""
ActsFor = Annotated[Account, require(Permission.DEAL, to="act for a player")]


def floor_back(message: str = "", error: str = "") -> Response:
    """Back to the floor page, saying what was done or refused."""
    return Flash("/floor", message=message, error=error)


def pit(request: Request, room: Room) -> list[PitCard]:
    """Every table's card on the pit screen, now: the live part of those another process
    of the room holds as that process says (`forward.live_elsewhere`)."""
    elsewhere = live_elsewhere(request, room)
    with room.storage.read() as conn:
        facts = gather(conn, room.tables, room.settings.clock, datetime.now(UTC),
                       list_tables(conn), elsewhere)
    return [pit_card(f) for f in facts]


@router.get("/floor", response_class=HTMLResponse)
def floor(request: Request, room: RoomDep, page: Render, who: FloorStaff) -> HTMLResponse:
    cards = pit(request, room)
    with room.storage.read() as conn:
        held = acc.held_names(conn) if who.may(Permission.MANAGE_STAFF) else []
        errors = table_books.slips(conn, series="error")[::-1][:20]
        table_names = {c.id: c.name for c in cards}
    pool = room.pools.get(DEFAULT_POOL)
    return page("floor.html", who, cards=cards, games=game_names(), irregularities=IRREGULARITIES,
                roles=[r.value for r in Role], jackpot=pool, held=held, errors=errors,
                table_names=table_names, every_hand=reads_every_hand(who),
                jackpot_warning=None if pool is None else break_even_warning(pool))


@router.get("/floor/pit", response_class=HTMLResponse)
def floor_pit(request: Request, room: RoomDep, page: Render, who: FloorStaff
              ) -> HTMLResponse:
    """The pit screen's cards alone: its script fetches them to redraw the page."""
    cards = pit(request, room)
    resp = page.part("_pit.html", who, cards=cards, irregularities=IRREGULARITIES)
    resp.headers["Cache-Control"] = "no-store"
    return resp


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
    return floor_back(message=f"table {name} added")


@router.post("/floor/void", response_model=None)
async def floor_void(request: Request, room: RoomDep, hub: HubDep, who: Voider,
                     table_id: FormTableId, reason: str = Form(...)) -> Response:
    """Void the hand in play (every wager back); at the table's holder (`forward`)."""
    if (elsewhere := await at_holder(request, room, table_id, "/floor")) is not None:
        return elsewhere
    try:
        await hub.act(room, who, table_id, {"type": "void", "reason": reason})
    except PermissionDenied:
        raise
    except CardroomError as exc:
        return floor_back(error=str(exc))
    return floor_back(message="hand voided; wagers returned")


@router.get("/floor/tables.json", response_model=None)
def floor_tables(request: Request, room: RoomDep, who: FloorStaff) -> Response:
    """The pit screen's cards as JSON."""
    cards = pit(request, room)
    return JSONResponse([c.as_json() for c in cards], headers={"Cache-Control": "no-store"})


@router.get("/floor/live.json", response_model=None)
def floor_live(room: RoomDep, who: FloorStaff) -> Response:
    """What this process's live tables show on the pit screen (`floor_view.live_json`), for
    the pit screens of the room's other processes (`forward.live_elsewhere`)."""
    return JSONResponse(live_here(room), headers={"Cache-Control": "no-store"})


@router.post("/floor/act-for", response_model=None)
async def floor_act_for(request: Request, room: RoomDep, hub: HubDep, who: ActsFor,
                        table_id: FormTableId) -> Response:
    """The floor (or a dealer) takes the house rules' default action for the player the hand
    waits for (one who walked away): the table protocol's `act_for`, audited like a timer's;
    at the table's holder (`forward`)."""
    if (elsewhere := await at_holder(request, room, table_id, "/floor")) is not None:
        return elsewhere
    try:
        await hub.act(room, who, table_id, {"type": "act_for"})
    except PermissionDenied:
        raise
    except CardroomError as exc:
        return floor_back(error=str(exc))
    return floor_back(message="the default action was taken for the absent player")


@router.post("/floor/irregularity", response_model=None)
async def floor_irregularity(request: Request, room: RoomDep, hub: HubDep, who: Dealer,
                             table_id: FormTableId, kind: str = Form(...),
                             reason: str = Form(...), seat: str = Form("")) -> Response:
    """The floor's irregularity buttons: the table protocol's `irregularity` message (Super
    Pan 9 and Pai Gow tables); at the table's holder (`forward`)."""
    if (elsewhere := await at_holder(request, room, table_id, "/floor")) is not None:
        return elsewhere
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
