"""The surveillance queue (WAC 230-15-320(4)): every payout over the profile's surveillance
figure that waits (a wager's payout held at its table, a progressive top award's share
without its surveillance check), for staff only; a person with the surveillance duty verifies
or refuses a held payout from it (`room.surveillance`), the table told at once."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response

from cardroom.errors import CardroomError
from cardroom.room.compliance import surveillance
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.play import progressive
from cardroom.room.room import Room
from cardroom.room.storage.errors import NotFound, PermissionDenied
from cardroom.server.deps import HubDep, Page, Render, RoomDep, require
from cardroom.server.flash import Flash
from cardroom.server.forward import at_holder
from cardroom.server.ids import HeldId

router = APIRouter()
Surveillance = Annotated[Account, require(Permission.ADJUST_JACKPOT, Permission.READ_ALL,
                                          to="see the surveillance queue")]
"""Who sees the queue and may decide from it: the people with the surveillance duty."""


def queue_page(page: Page, room: Room, who: Account, status: int = 200, error: str = ""
               ) -> HTMLResponse:
    """The queue; `error` is a refusal said here and now (a decision's message after its
    redirect comes from the flash)."""
    with room.storage.read() as conn:
        held = surveillance.waiting(conn)
        done = surveillance.decided(conn, 20)
        hits = [h for h in progressive.list_hits(conn)
                if h.status != "paid" and h.needs_surveillance and h.surveillance_at is None]
    said = {"error": error} if error else {}
    return page("surveillance.html", who, status, held=held, done=done, hits=hits, **said)


@router.get("/floor/surveillance", response_class=HTMLResponse)
def surveillance_view(room: RoomDep, page: Render, who: Surveillance) -> HTMLResponse:
    """What waits for surveillance, oldest first, and the latest decisions."""
    return queue_page(page, room, who)


async def decide(request: Request, room: Room, hub: HubDep, page: Page, who: Account,
                 held_id: int, note: str, verified: bool) -> Response:
    """Verify or refuse one held payout; a refusal of the request is audited (by the room)
    and shown on the queue page in one sentence. Its table held by another process of the
    room, the form goes to that process (`forward`), which shows the table's last result
    without the payout's wait."""
    try:
        with room.storage.read() as conn:
            table_id = surveillance.get(conn, held_id).table_id
    except NotFound as exc:
        room.refused(who, "payout.verify" if verified else "payout.refuse", str(exc),
                     {"held": held_id})
        return queue_page(page, room, who, 404, error=str(exc))
    elsewhere = await at_holder(request, room, table_id, "/floor/surveillance")
    if elsewhere is not None:
        return elsewhere
    try:
        await hub.at_table(room, table_id, room.decide_payout, who, held_id, note, verified)
    except PermissionDenied as exc:
        return queue_page(page, room, who, 403, error=str(exc))
    except CardroomError as exc:
        return queue_page(page, room, who, 400, error=str(exc))
    word = "verified: paid to the winner" if verified else "refused: the wager is void"
    return Flash("/floor/surveillance", message=f"payout {held_id} {word}")


@router.post("/floor/surveillance/{held_id}/verify", response_model=None)
async def surveillance_verify(request: Request, room: RoomDep, hub: HubDep, page: Render,
                              who: Surveillance, held_id: HeldId, note: str = Form("")
                              ) -> Response:
    return await decide(request, room, hub, page, who, held_id, note, True)


@router.post("/floor/surveillance/{held_id}/refuse", response_model=None)
async def surveillance_refuse(request: Request, room: RoomDep, hub: HubDep, page: Render,
                              who: Surveillance, held_id: HeldId, note: str = Form("")
                              ) -> Response:
    return await decide(request, room, hub, page, who, held_id, note, False)
