"""A table: its page, its posted rules and its WebSocket (docs/server.md, "Table protocol")."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse

from cardroom.errors import CardroomError
from cardroom.houserules import HouseRules
from cardroom.room.money.jackpot import DEFAULT_POOL
from cardroom.room.play.leases import MOVED, LeaseLost
from cardroom.room.play.messages import MAX_KEY, MalformedMessage
from cardroom.room.play.posted_rules import posted_rules
from cardroom.room.play.protocol_state import Refusal
from cardroom.room.play.refusals import RefusalLog
from cardroom.room.play.tables import get_table, list_tables, parse_rules
from cardroom.room.room import AnyTable, Room
from cardroom.room.storage.errors import AuthError, DatabaseUnavailable, NotFound
from cardroom.server.deps import Client, HubDep, MaybeViewer, Render, RoomDep, Viewer, session_of
from cardroom.server.frames import read_frame
from cardroom.server.hub import COOKIE
from cardroom.server.ids import TableId, row_id
from cardroom.server.relay import TRY_AGAIN_LATER, holder_address, relay

SESSION_RECHECK_S = 10.0
"""A table socket re-checks its session (expiry, log-out) at most this often."""
INTERNAL_ERROR = "the server could not handle that message (the error is logged)"
log = logging.getLogger(__name__)

router = APIRouter()


def refusal(message: str, key: str | None = None) -> str:
    """A refusal to the sender only (`protocol_state.Refusal`): one plain sentence, and the
    refused request's key when it had one."""
    return Refusal(type="error", message=message, key=key).model_dump_json(exclude_none=True)


@dataclass(frozen=True)
class HeldElsewhere:
    """What a table's page shows of a table another process of the room holds (its name,
    game and house rules, from the books; the rest comes over its socket, relayed: `relay`)."""

    table_id: int
    name: str
    game: str
    rules: HouseRules


def page_table(room: Room, table_id: int) -> AnyTable | HeldElsewhere:
    """The live table, or, held by another process, its name and game from the books."""
    try:
        return room.table(table_id)
    except LeaseLost:
        with room.storage.read() as conn:
            row = get_table(conn, table_id)
        if row is None:
            raise NotFound(f"there is no open table {table_id}") from None
        return HeldElsewhere(row.id, row.name, row.game, parse_rules(row.game, row.rules))


@router.get("/tables/{table_id}", response_class=HTMLResponse)
def table_page(room: RoomDep, who: Viewer, page: Render, table_id: TableId) -> HTMLResponse:
    table = page_table(room, table_id)
    return page(f"table_{table.game}.html", who, table=table, wallet=room.wallet(who))


@router.get("/tables/{table_id}/rules", response_class=HTMLResponse)
def table_rules(room: RoomDep, who: MaybeViewer, page: Render, table_id: TableId
                ) -> HTMLResponse:
    """The table's posted rules (WAC 230-15-060): public, no log-in needed."""
    with room.storage.read() as conn:
        row = next((t for t in list_tables(conn) if t.id == table_id), None)
    if row is None:
        raise NotFound(f"there is no table {table_id}")
    pool = room.pools.get(row.rules.get("jackpot_pool") or DEFAULT_POOL)  # linked tables
    return page("posted_rules.html", who,
                posted=posted_rules(row, pool.posted if pool is not None else None,
                                    pool.maximum if pool is not None else 0))


async def relay_to_holder(ws: WebSocket, room: Room, table_id: int, client: str) -> None:
    """The table's socket relayed to the process that holds it; nobody holding it now (its
    holder just stopped), the page is told to try again and reconnects by itself."""
    address = await run_in_threadpool(holder_address, room, table_id)
    if address is None:
        await ws.send_text(refusal(MOVED))
        await ws.close(code=TRY_AGAIN_LATER)
        return
    await relay(ws, table_id, address, client)


@router.websocket("/ws/tables/{table_ref}")
async def table_socket(ws: WebSocket, table_ref: str, room: RoomDep, hub: HubDep,
                       client: Client) -> None:
    """Any table reference is accepted at the handshake, so that one that names no table
    (`/ws/tables/x`) is told so in a message, like every other refusal."""
    await ws.accept()
    table_id = row_id(table_ref) or 0
    try:
        who = await hub.blocking(session_of, room, ws.cookies.get(COOKIE))
        if not table_id:
            raise NotFound(f"there is no open table {table_ref[:40]}")
        await hub.blocking(room.table, table_id)
    except LeaseLost:  # another process of the room holds it
        await relay_to_holder(ws, room, table_id, client)
        return
    except DatabaseUnavailable as exc:  # not audited: the audit log is in that database
        await ws.send_text(refusal(str(exc)))
        await ws.close(code=TRY_AGAIN_LATER)
        return
    except CardroomError as exc:
        room.refused(None, "table.connect", str(exc), {"table": table_id or table_ref[:40],
                                                       "client": client})
        await ws.send_text(refusal(str(exc)))
        await ws.close(code=4401)
        return
    checked = time.monotonic()
    refusals = RefusalLog(lambda action, reason, detail: room.refused(who, action, reason,
                                                                      detail),
                          {"table": table_id})
    try:
        await hub.joined(room, table_id, ws, who)
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect" or ws not in hub.sockets[table_id]:
                break  # the client left, or the hub closed it (log-out, lock-out, new role)
            msg: object = None
            try:
                try:
                    msg = read_frame(frame)
                except MalformedMessage as exc:  # refused before it reaches the room
                    if refusals.counting():  # junk in a flood costs no worker thread
                        refusals.refused("table.malformed", str(exc))
                    else:
                        await hub.blocking(refusals.refused, "table.malformed", str(exc))
                    raise
                if time.monotonic() - checked > SESSION_RECHECK_S:
                    await hub.blocking(session_of, room, ws.cookies.get(COOKIE))
                    checked = time.monotonic()
                await hub.act(room, who, table_id, msg, refusals)
            except LeaseLost as exc:  # taken over meanwhile: the page reconnects, to it
                await ws.send_text(refusal(str(exc)))
                await ws.close(code=TRY_AGAIN_LATER)
                break
            except AuthError as exc:
                await hub.blocking(room.refused, who, "table.message", str(exc),
                                   {"table": table_id})
                await ws.send_text(refusal(str(exc)))
                await ws.close(code=4401)
                break
            except CardroomError as exc:  # refused, audited, nothing changed
                key = msg.get("key") if isinstance(msg, dict) else None
                await ws.send_text(refusal(str(exc), key[:MAX_KEY] if isinstance(key, str)
                                           else None))
            except Exception:  # a defect, not the client's fault: logged, answered
                log.exception("table %s: a message from %s failed", table_id, who.username)
                await hub.blocking(refusals.refused, "table.message", INTERNAL_ERROR)
                await ws.send_text(refusal(INTERNAL_ERROR))
    except (WebSocketDisconnect, RuntimeError):  # the client left, or we closed it
        pass
    finally:
        hub.sockets[table_id].pop(ws, None)
        await hub.blocking(refusals.flush)
