"""A staff form about one table (void a hand, act for an absent player, an irregularity, a
payout held for surveillance) sent to a process of the room that does not hold the table
(issue 25; the table's socket is relayed the same way: `relay`).

The process the browser reached sends the same form to the holder (its address from the
lease, `relay.holder_address`) with the browser's cookies: the holder checks the session,
the form's token and the permission and applies the action as for its own pages, audited
there; what it answers (the sentence it put in its flash: done, or refused and why) is what
the browser is told, sealed again by this process (each process seals its own flashes).
The holder gone, the form is not sent and the floor reads the one plain sentence `MOVED`
("please try again"); the holder reached but silent before its answer, the floor is told to
look at the table before trying again (the action was applied whole or not at all: each is
one transaction at the holder). A form that already came from another process is applied
where it arrives (one hop, never a loop).

The pit screen shows every table; each is live at its holder alone, so a process asks the
others, with the browser's cookies, what their live tables show (`live_elsewhere`: their
`/floor/live.json`, seats, hand in play, turn and last hand, never a card) and draws those
tables' cards with it; a process that does not answer within `PIT_TIMEOUT_S` leaves its
tables' cards without their live part this time."""

from __future__ import annotations

import http.client
import json
from collections import defaultdict
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import FormData

from cardroom.room.play import leases
from cardroom.room.play.leases import MOVED
from cardroom.room.room import Room
from cardroom.room.views.floor_view import Live, live_facts, live_json, live_of_json
from cardroom.server import flash
from cardroom.server.deps import client_of
from cardroom.server.flash import Flash
from cardroom.server.relay import holder_address

FORWARDED = "X-Cardroom-Forwarded"
"""Marks a form sent on by another process of the room (applied where it arrives)."""
TIMEOUT_S = 15.0
PIT_TIMEOUT_S = 2.0
NO_ANSWER = ("the table's server did not answer: look at the table before trying again "
             "(the action was applied whole or not at all)")


async def at_holder(request: Request, room: Room, table_id: int, back: str) -> Response | None:
    """The holder's answer to this form when another process holds the table; None when
    this process holds it (or will: nobody holds it now) and applies the form itself. `back`:
    the page the browser returns to when the holder cannot be reached."""
    if room.holder is None or table_id in room.tables or request.headers.get(FORWARDED):
        return None
    address = await run_in_threadpool(holder_address, room, table_id)
    if address is None:
        return None
    form = await request.form()
    try:
        status, headers, body = await run_in_threadpool(
            _post, address, request.url.path, _encoded(form),
            request.headers.get("cookie", ""), client_of(request))
    except ConnectionError:
        return Flash(back, error=MOVED)
    except (OSError, http.client.HTTPException):
        return Flash(back, error=NO_ANSWER)
    return _answer(status, headers, body, back)


def _encoded(form: FormData) -> bytes:
    return urlencode([(k, v) for k, v in form.multi_items() if isinstance(v, str)]).encode()


def _connection(address: str, timeout: float) -> http.client.HTTPConnection:
    """An HTTP connection (not yet opened) to the process serving at `address` (host:port, an
    IPv6 host in brackets: `leases.address_of`)."""
    host, _, port = address.rpartition(":")
    return http.client.HTTPConnection(host.strip("[]"), int(port), timeout=timeout)


def _post(address: str, path: str, body: bytes, cookie: str, client: str
          ) -> tuple[int, http.client.HTTPMessage, bytes]:
    """POST the form to the holder; its status, headers and body. `ConnectionError`: it
    could not be reached (nothing was sent)."""
    conn = _connection(address, TIMEOUT_S)
    try:
        try:
            conn.connect()
        except OSError as exc:
            raise ConnectionError(str(exc)) from exc
        conn.request("POST", path, body, {
            "Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie,
            "X-Forwarded-For": client, FORWARDED: "1"})
        resp = conn.getresponse()
        return resp.status, resp.headers, resp.read()
    finally:
        conn.close()


def _answer(status: int, headers: http.client.HTTPMessage, body: bytes, back: str
            ) -> Response:
    """The holder's answer for the browser: its flash sealed again here, with the redirect
    it gave; any other page (a 403, a 404) as it was rendered there."""
    location = headers.get("location")
    if status in (302, 303) and location and location.startswith("/"):
        said = next((flash.contents(c.partition("=")[2].partition(";")[0])
                     for c in headers.get_all("set-cookie") or []
                     if c.startswith(flash.COOKIE + "=")), None)
        if said is None:
            return RedirectResponse(location, status_code=303)
        said.pop("to", None)
        return Flash(location, **said)
    if status >= 400:
        return HTMLResponse(body.decode("utf-8", "replace"), status_code=status)
    return Flash(back, error=NO_ANSWER)


def live_elsewhere(request: Request, room: Room) -> dict[int, Live]:
    """What the room's other processes say of the live tables they hold (called in a worker
    thread: a pit screen's route)."""
    if room.holder is None or request.headers.get(FORWARDED):
        return {}
    with room.storage.read() as conn:
        held = leases.holders(conn)
    by_address: dict[str, set[int]] = defaultdict(set)
    for table_id, holder in held.items():
        address = leases.address_of(holder)
        if holder != room.holder and address is not None:
            by_address[address].add(table_id)
    found: dict[int, Live] = {}
    for address, tables in by_address.items():
        found.update({t: live for t, live in _asked(address, request).items() if t in tables})
    return found


def live_here(room: Room) -> dict[str, Any]:
    """What this process's live tables show on the pit screen (`floor_view.live_json`), by
    table: the answer to the others' `live_elsewhere`."""
    return {str(t): live_json(live_facts(live.game, live))
            for t, live in list(room.tables.items())}


def _asked(address: str, request: Request) -> dict[int, Live]:
    """One process's `/floor/live.json` read; {} when it does not answer or answers no."""
    conn = _connection(address, PIT_TIMEOUT_S)
    try:
        conn.request("GET", "/floor/live.json", headers={
            "Cookie": request.headers.get("cookie", ""), FORWARDED: "1",
            "X-Forwarded-For": client_of(request)})
        resp = conn.getresponse()
        body = resp.read()
        if resp.status != 200:
            return {}
        return {int(t): live_of_json(d) for t, d in json.loads(body).items()}
    except (OSError, http.client.HTTPException, ValueError, KeyError, TypeError):
        return {}
    finally:
        conn.close()
