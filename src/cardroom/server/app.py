"""The FastAPI application: pages rendered on the server, one WebSocket per table.

`create_app` builds the app: its state (the room, the table sockets, the templates), the
security headers, the cross-site check before every route, the exception handlers, and the
routers of `cardroom.server.routes` (one module per area; their shared dependencies are in
`deps`).

Sessions are random tokens in an HttpOnly, SameSite=Strict cookie (stored hashed; Secure with
`secure_cookies`). Every state-changing form carries a CSRF token and every table socket's
`Origin` is checked (`csrf`); every response carries the security headers (`headers`). Every
refusal (bad session, forbidden page, forged form, refused action, malformed message) goes to
that client only and is written to the audit log.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Sequence
from functools import partial
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError, WebSocketException
from fastapi.responses import RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.status import WS_1008_POLICY_VIOLATION
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from cardroom import registry
from cardroom.cards import card_words
from cardroom.money import format_money
from cardroom.profile import helpline
from cardroom.room.money.hands import hand_title
from cardroom.room.money.progressive_terms import progressive
from cardroom.room.play.recall import result_words, wager_name
from cardroom.room.room import Room
from cardroom.room.storage.errors import AuthError, DatabaseUnavailable, NotFound, PermissionDenied
from cardroom.room.storage.timezone import room_time
from cardroom.server import csrf
from cardroom.server.audit_view import AuditProgress
from cardroom.server.changes import ChangedForms, PgLink
from cardroom.server.deps import Page, client_of, maybe_viewer, room_of, sentence
from cardroom.server.headers import SecurityHeaders
from cardroom.server.hub import COOKIE, Hub
from cardroom.server.ids import id_refusal
from cardroom.server.routes import ROUTERS
from cardroom.server.routes.exclusions import exclusion_warning

__all__ = ["COOKIE", "create_app"]

HERE = Path(__file__).resolve().parent


async def cross_site(conn: HTTPConnection) -> None:
    """Before every route: a form must carry its token, a table socket must come from a page
    of this room."""
    if isinstance(conn, Request):
        reason = await csrf.form_refusal(conn)
        if reason is not None:
            raise PermissionDenied(reason)
    elif csrf.foreign_origin(conn):
        await run_in_threadpool(room_of(conn).refused, None, "table.connect",
                                csrf.REFUSED_ORIGIN,
                                {"client": client_of(conn),
                                 "origin": conn.headers.get("origin", "")[:200]})
        raise WebSocketException(WS_1008_POLICY_VIOLATION, csrf.REFUSED_ORIGIN)


async def _auth(request: Request, exc: Exception) -> Response:
    """No session, or one expired or logged out: to the log-in page (audited when the browser
    sent a session)."""
    if request.cookies.get(COOKIE):
        room_of(request).refused(None, f"page {request.url.path}", str(exc),
                                 {"client": client_of(request)})
    return RedirectResponse("/login", status_code=303)


async def _denied(request: Request, exc: Exception) -> Response:
    """A forbidden page or a forged form: a 403 page, audited."""
    who = maybe_viewer(request)
    room_of(request).refused(who, f"page {request.url.path}", str(exc))
    return Page(request)("error.html", who, 403, problem=str(exc))


async def _not_found(request: Request, exc: Exception) -> Response:
    """No such hand, table or account: a 404 with the reason."""
    return Page(request).error(404, str(exc))


async def _database_away(request: Request, exc: Exception) -> Response:
    """The database does not answer (a restart, a switch to its standby): a 503 page that
    says to try again, rendered without the database (no viewer looked up), not audited
    (the audit log is in that database)."""
    resp = Page(request)("error.html", None, 503, problem=str(exc))
    resp.headers["Retry-After"] = "5"
    return resp


HTTP_WORDS = {404: "There is no page at this address.",
              405: "That page cannot be used this way."}


async def _http(request: Request, exc: Exception) -> Response:
    """Any other HTTP error (a path that names nothing above all) as a page with a way back,
    never FastAPI's JSON."""
    assert isinstance(exc, StarletteHTTPException)
    return Page(request).error(exc.status_code, HTTP_WORDS.get(
        exc.status_code, "The request could not be served."))


async def _invalid(request: Request, exc: Exception) -> Response:
    """An id out of range or not a number is refused as an id that names nothing (a 404 in
    the path; a 400 in a form, audited as the form's other refusals are); a form with a field
    missing or malformed is a 400 that says so (never FastAPI's raw JSON)."""
    assert isinstance(exc, RequestValidationError)
    refused = id_refusal(exc.errors())
    if refused is not None:
        status, reason = refused
        if status == 400:
            room_of(request).refused(maybe_viewer(request), f"page {request.url.path}",
                                     reason)
        return Page(request).error(status, reason)
    return Page(request).error(400, "the request was incomplete or malformed: nothing was "
                                    "changed")


@contextlib.asynccontextmanager
async def _background(app: FastAPI) -> AsyncIterator[None]:
    """While the server runs, the turns that run out are timed out (`Hub.run_timers`); a
    process of several keeps its table leases (`Hub.keep_leases`) and lets them go when it
    stops in good order (`Room.release_leases`: the others take its tables at once), and
    its changes cross to the others and theirs to it (`changes.PgLink`, `Hub.heard`)."""
    hub, room = app.state.hub, app.state.room
    hub.changes.react = partial(hub.heard, room)
    tasks = [asyncio.create_task(hub.run_timers(room))]
    if room.holder is not None:
        tasks.append(asyncio.create_task(hub.keep_leases(room)))
        if room.storage.engine.dialect.name == "postgresql":
            app.state.link = PgLink(room.storage.engine.url.render_as_string(
                hide_password=False), hub.changes)
            tasks.append(asyncio.create_task(app.state.link.run()))
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if room.holder is not None:
            with contextlib.suppress(DatabaseUnavailable):  # they expire by themselves
                await run_in_threadpool(room.release_leases)


def create_app(room: Room, secure_cookies: bool = False,
               trusted_proxies: Sequence[str] = ()) -> FastAPI:
    """`secure_cookies`: the room is served over HTTPS (directly or behind a TLS proxy), so its
    cookies are sent over TLS only and browsers are told to keep to HTTPS. `trusted_proxies`:
    the addresses (or networks) of the proxies whose `X-Forwarded-For` says who the client is;
    from anyone else, and with none, the header is ignored and the client is the peer."""
    app = FastAPI(title="cardroom", docs_url=None, redoc_url=None, openapi_url=None,
                  dependencies=[Depends(cross_site)], lifespan=_background)
    app.add_middleware(SecurityHeaders, tls=secure_cookies)
    app.add_middleware(ChangedForms)
    if trusted_proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(trusted_proxies))
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.filters["money"] = format_money
    templates.env.filters["game_name"] = registry.title
    templates.env.filters["room_time"] = room_time
    templates.env.filters["card_name"] = card_words
    templates.env.filters["sentence"] = sentence
    templates.env.globals["hand_title"] = hand_title
    templates.env.globals["helpline"] = helpline
    templates.env.globals["exclusion_warning"] = partial(exclusion_warning, room)
    templates.env.filters["wager_name"] = wager_name
    templates.env.filters["result_words"] = result_words
    templates.env.filters["award_words"] = progressive().award_words
    app.state.room, app.state.hub = room, Hub()
    app.state.templates, app.state.secure_cookies = templates, secure_cookies
    app.state.audit_seen = AuditProgress()
    app.state.flash_key = secrets.token_bytes(32)
    app.state.registrar_key = secrets.token_bytes(32)
    app.add_exception_handler(AuthError, _auth)
    app.add_exception_handler(PermissionDenied, _denied)
    app.add_exception_handler(NotFound, _not_found)
    app.add_exception_handler(DatabaseUnavailable, _database_away)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(StarletteHTTPException, _http)
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    for router in ROUTERS:
        app.include_router(router)
    return app
