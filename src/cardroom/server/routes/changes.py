"""The change socket of the live pages (`/ws/changes`: the lobby, the floor): it tells the
page what changed in the room, at this process or another (`cardroom.server.changes`), and
the page fetches its part again, built here for its viewer. It says only which part changed
(`{"type": "changed", "what": ["table 7", "jackpot"]}`), never a card or a figure."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

from fastapi import APIRouter, WebSocket

from cardroom.errors import CardroomError
from cardroom.room.storage.errors import DatabaseUnavailable
from cardroom.server.changes import Subscription
from cardroom.server.deps import HubDep, RoomDep, session_of
from cardroom.server.hub import COOKIE, Hub
from cardroom.server.relay import TRY_AGAIN_LATER
from cardroom.server.routes.tables import SESSION_RECHECK_S, refusal

router = APIRouter()


@router.websocket("/ws/changes")
async def changes_socket(ws: WebSocket, room: RoomDep, hub: HubDep) -> None:
    """For a logged-in viewer, as long as the page is open; its session re-checked at most
    every `SESSION_RECHECK_S` before it is told of a change (logged out: closed, 4401)."""
    await ws.accept()
    token = ws.cookies.get(COOKIE)
    try:
        await hub.blocking(session_of, room, token)
    except DatabaseUnavailable as exc:
        await _close(ws, str(exc), TRY_AGAIN_LATER)
        return
    except CardroomError as exc:
        await _close(ws, str(exc), 4401)
        return
    async with hub.changes.subscribe() as sub:
        left = asyncio.create_task(_until_closed(ws))
        try:
            await _tell(ws, room, hub, token, sub, left)
        finally:
            left.cancel()
            await asyncio.gather(left, return_exceptions=True)


async def _tell(ws: WebSocket, room: RoomDep, hub: Hub, token: str | None,
                sub: Subscription, left: asyncio.Task[None]) -> None:
    checked = time.monotonic()
    while True:
        heard = asyncio.create_task(sub.next())
        await asyncio.wait([heard, left], return_when=asyncio.FIRST_COMPLETED)
        if left.done():
            heard.cancel()
            return
        if time.monotonic() - checked > SESSION_RECHECK_S:
            try:
                await hub.blocking(session_of, room, token)
            except CardroomError as exc:
                await _close(ws, str(exc), 4401)
                return
            checked = time.monotonic()
        try:
            await ws.send_text(json.dumps({"type": "changed", "what": sorted(heard.result())}))
        except Exception:  # the page went away meanwhile
            return


async def _until_closed(ws: WebSocket) -> None:
    """Read (and drop) what the page sends until it closes."""
    with contextlib.suppress(Exception):
        while (await ws.receive())["type"] != "websocket.disconnect":
            pass


async def _close(ws: WebSocket, message: str, code: int) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(refusal(message))
        await ws.close(code=code)
