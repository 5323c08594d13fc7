"""The player's own cashier page: their chips, and (only in a room with the house setting
`self_service_chips`, for demonstration and free-play) buying chips and cashing out
themselves; elsewhere players buy and redeem chips at the cage (`routes/cage.py`)."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import APIRouter, Form
from fastapi.responses import HTMLResponse, Response

from cardroom.errors import CardroomError
from cardroom.money import parse_money
from cardroom.room.books.cashier import buy_chips, cash_out
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.storage.errors import PermissionDenied
from cardroom.server.deps import Render, RoomDep, Viewer, require
from cardroom.server.flash import Flash

router = APIRouter()


@router.get("/cashier", response_class=HTMLResponse)
def cashier(room: RoomDep, who: Annotated[Account, require(Permission.CASHIER)], page: Render,
            ) -> HTMLResponse:
    return page("cashier.html", who, wallet=room.wallet(who), key=secrets.token_urlsafe(12),
                self_service=room.settings.self_service_chips)


@router.post("/cashier/{op}", response_model=None)
def cashier_op(room: RoomDep, who: Viewer, page: Render, op: str, amount: str = Form(...),
               key: str = Form(...)) -> Response:
    try:
        cents = parse_money(amount)
        with room.storage.unit() as conn:
            if op == "buy":
                buy_chips(conn, room.settings, who, cents, key)
            elif op == "cashout":
                cash_out(conn, room.settings, who, cents, key)
            else:
                raise CardroomError(f"unknown cashier operation {op!r}")
    except PermissionDenied:
        raise
    except CardroomError as exc:
        room.refused(who, f"cashier.{op}"[:60], str(exc))
        return page("cashier.html", who, 400, wallet=room.wallet(who),
                    key=secrets.token_urlsafe(12), error=str(exc),
                    self_service=room.settings.self_service_chips)
    return Flash("/cashier", message="done")
