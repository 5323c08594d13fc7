"""The progressive's pool: the daily posting, its page and the two-person adjustment."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from cardroom.errors import CardroomError
from cardroom.money import format_money, parse_money
from cardroom.room import accounts as acc
from cardroom.room import audit, ledger
from cardroom.room.accounts import Account, Permission
from cardroom.room.errors import AuthError, PermissionDenied
from cardroom.room.jackpot import DEFAULT_POOL, post_daily
from cardroom.room.jackpot import adjust as adjust_jackpot
from cardroom.room.pan_fees import fees_collected
from cardroom.room.room import Room
from cardroom.room.tables import list_tables
from cardroom.server.deps import Client, Page, Render, RoomDep, Viewer, require
from cardroom.server.routes.floor import floor_back

router = APIRouter()


@router.post("/floor/jackpot/post", response_model=None)
def jackpot_post(room: RoomDep, who: Viewer) -> Response:
    pool = room.pools.get(DEFAULT_POOL)
    if pool is None:
        return floor_back(error="no jackpot pool yet")
    with room.storage.unit() as conn:
        post_daily(conn, who, DEFAULT_POOL, pool, datetime.now(UTC).date())
    return floor_back(message=f"jackpot posted at {format_money(pool.posted)}")


def jackpot_page(page: Page, room: Room, who: Account, status: int = 200, message: str = "",
                 error: str = "") -> HTMLResponse:
    pool = room.pools.get(DEFAULT_POOL)
    with room.storage.read() as conn:
        held = ledger.balance(conn, ledger.jackpot(DEFAULT_POOL))
        report = [e for e in audit.entries(conn, newest_first=True)
                  if e.action in ("jackpot.post", "jackpot.adjust", "jackpot.seed")][:100]
        fees = fees_collected(conn)[:100]
        names = {t.id: t.name for t in list_tables(conn)}
    return page("jackpot.html", who, status, pool_name=DEFAULT_POOL, pool=pool, held=held,
                report=report, fees=fees, table_names=names, key=secrets.token_urlsafe(12),
                message=message, error=error)


@router.get("/floor/jackpot", response_class=HTMLResponse)
def jackpot_view(room: RoomDep, page: Render,
                 who: Annotated[Account, require(Permission.ADJUST_JACKPOT, Permission.READ_ALL,
                                                 to="see the jackpot page")],
                 message: str = "") -> HTMLResponse:
    """The pool, its daily posting report, and the two-person adjustment form."""
    return jackpot_page(page, room, who, message=message)


@router.post("/floor/jackpot/adjust", response_model=None)
def jackpot_adjust(room: RoomDep, page: Render, client: Client,
                   who: Annotated[Account, require(Permission.ADJUST_JACKPOT)],
                   direction: str = Form(...), amount: str = Form(...),
                   reason: str = Form(...), second: str = Form(...),
                   second_password: str = Form(...), key: str = Form(...)) -> Response:
    """The second approver confirms with their own password, on the same form."""
    try:
        pool = room.pools.get(DEFAULT_POOL)
        if pool is None:
            raise CardroomError("no jackpot pool yet")
        if direction not in ("add", "remove"):
            raise CardroomError("choose to add to or take from the meter")
        cents = parse_money(amount) * (1 if direction == "add" else -1)
        try:
            other = acc.authenticate(room.storage, second, second_password, client)
        except AuthError as exc:
            raise CardroomError(f"second approver: {exc}") from None
        with room.storage.unit() as conn:
            adjust_jackpot(conn, who, other, DEFAULT_POOL, pool, cents, reason.strip(),
                           key[:60])
    except PermissionDenied as exc:
        room.refused(who, "jackpot.adjust", str(exc))
        return jackpot_page(page, room, who, 403, error=str(exc))
    except CardroomError as exc:
        room.refused(who, "jackpot.adjust", str(exc))
        return jackpot_page(page, room, who, 400, error=str(exc))
    return RedirectResponse("/floor/jackpot?message=adjusted", status_code=303)
