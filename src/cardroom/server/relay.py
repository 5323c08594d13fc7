"""A table's socket reached at a process that does not hold the table (issue 25: several
`cardroom serve` processes on one PostgreSQL room, each table held by one of them under a
lease, `room.play.leases`).

The process the browser reached checked the session and the origin as for any socket; it then
opens the same table's socket at the holder (whose address ends its holder id:
`leases.address_of`) with the browser's cookies and relays every frame both ways, unread: the
holder alone applies the table's actions and builds each viewer's snapshot, so what a viewer
may see is decided where it always is. The holder gone (stopped, killed), the browser's socket
is closed with "try again later" and the page reconnects by itself, to whichever process
holds the table by then. A close the holder decided (a session ended: 4401; a refused origin:
1008) reaches the browser as it was sent, so the page stops as it would have there.
"""

from __future__ import annotations

import asyncio
import contextlib

from fastapi import WebSocket
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from cardroom.room.play import leases
from cardroom.room.room import Room
from cardroom.server.frames import MAX_FRAME_BYTES

TRY_AGAIN_LATER = 1013
"""The WebSocket close code "try again later" (RFC 6455, 7.4 / IANA): a socket opened while
the database does not answer, or whose table moved, is closed with it, and the page reconnects
by itself (only 4401 and 1008 stop it: table-client.js)."""
FINAL_CLOSES = frozenset({1008, 4401})
"""The holder's closes passed on as they are: the page must not reconnect after them."""
OPEN_TIMEOUT_S = 5.0


def holder_address(room: Room, table_id: int) -> str | None:
    """Where the process that holds the table serves; None when nobody else holds it now (its
    holder stopped: the next try takes it over) or its holder gave no address."""
    with room.storage.read() as conn:
        holder = leases.holder_of(conn, table_id)
    if holder is None or holder == room.holder:
        return None
    return leases.address_of(holder)


async def relay(ws: WebSocket, table_id: int, address: str, client: str) -> None:
    """Relay the accepted browser socket `ws` to the table's socket at `address` until either
    side closes; then close the browser's with the holder's final close, or "try again later"."""
    headers = {"Cookie": ws.headers.get("cookie", ""), "X-Forwarded-For": client}
    code = TRY_AGAIN_LATER
    try:
        async with connect(f"ws://{address}/ws/tables/{table_id}", additional_headers=headers,
                           max_size=MAX_FRAME_BYTES, open_timeout=OPEN_TIMEOUT_S) as upstream:
            await _pump(ws, upstream)
            if upstream.close_code in FINAL_CLOSES:
                code = upstream.close_code
    except (OSError, TimeoutError, WebSocketException):
        pass  # the holder is gone: the page reconnects
    with contextlib.suppress(Exception):
        await ws.close(code=code)


async def _pump(ws: WebSocket, upstream: ClientConnection) -> None:
    """Both directions at once; the first to end (either side closed) ends the other."""
    tasks = [asyncio.create_task(_to_holder(ws, upstream)),
             asyncio.create_task(_to_browser(ws, upstream))]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def _to_holder(ws: WebSocket, upstream: ClientConnection) -> None:
    while True:
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        text, data = frame.get("text"), frame.get("bytes")
        await upstream.send(text if text is not None else data or b"")


async def _to_browser(ws: WebSocket, upstream: ClientConnection) -> None:
    with contextlib.suppress(WebSocketException):
        async for message in upstream:
            if isinstance(message, str):
                await ws.send_text(message)
            else:
                await ws.send_bytes(message)
