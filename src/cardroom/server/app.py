"""The FastAPI application: pages rendered on the server, one WebSocket per table.

Sessions are random tokens in an HttpOnly, SameSite=Strict cookie (stored hashed; Secure with
`secure_cookies`). Every state-changing form carries a CSRF token and every table socket's
`Origin` is checked (`csrf`); every response carries the security headers (`headers`). Every
refusal (bad session, forbidden page, forged form, refused action, malformed message) goes to
that client only and is written to the audit log.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Form, Request, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError, WebSocketException
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.status import WS_1008_POLICY_VIOLATION

from cardroom.cards import Card, card_words
from cardroom.errors import CardroomError
from cardroom.money import format_money, parse_money
from cardroom.room import accounts as acc
from cardroom.room import audit, ledger
from cardroom.room.accounts import Account, Permission, Role
from cardroom.room.cashier import buy_chips, cash_out
from cardroom.room.errors import AuthError, NotFound, PermissionDenied
from cardroom.room.hands import open_hands
from cardroom.room.jackpot import DEFAULT_POOL, break_even_warning, post_daily
from cardroom.room.jackpot import adjust as adjust_jackpot
from cardroom.room.messages import MAX_KEY, MalformedMessage
from cardroom.room.pan_fees import fees_collected
from cardroom.room.posted_rules import TITLES, posted_rules
from cardroom.room.floor_view import IRREGULARITIES, table_summary
from cardroom.room.recall import history_of, recall_page
from cardroom.room.refusals import RefusalLog
from cardroom.room.room import Room, dumps
from cardroom.room.tables import GAMES, list_tables
from cardroom.server import csrf
from cardroom.room.timezone import room_time, zone_name
from cardroom.server.audit_view import (
    AUDIT_PAGE,
    AuditProgress,
    audit_filter,
    detail_fields,
    page_start,
)
from cardroom.server.cards_svg import back_svg, card_svg
from cardroom.server.frames import read_frame
from cardroom.server.headers import SecurityHeaders
from cardroom.server.hub import COOKIE, Hub
from cardroom.server.ids import RowId, path_not_found, row_id

HERE = Path(__file__).resolve().parent
SESSION_RECHECK_S = 10.0
"""A table socket re-checks its session (expiry, log-out) at most this often."""
INTERNAL_ERROR = "the server could not handle that message (the error is logged)"
log = logging.getLogger(__name__)
DEVICE_COOKIE = "cardroom_device"
"""A browser that logged in to an account before: its attempts skip that name's back-off."""


class LoginRequired(Exception):
    pass


def create_app(room: Room, secure_cookies: bool = False) -> FastAPI:
    """`secure_cookies`: the room is served over HTTPS (directly or behind a TLS proxy), so its
    cookies are sent over TLS only and browsers are told to keep to HTTPS."""

    async def cross_site(conn: HTTPConnection) -> None:
        """Before every route: a form must carry its token, a table socket must come from a
        page of this room."""
        if isinstance(conn, Request):
            reason = await csrf.form_refusal(conn)
            if reason is not None:
                raise PermissionDenied(reason)
        elif csrf.foreign_origin(conn):
            await run_in_threadpool(room.refused, None, "table.connect", csrf.REFUSED_ORIGIN,
                                    {"client": client_of(conn),
                                     "origin": conn.headers.get("origin", "")[:200]})
            raise WebSocketException(WS_1008_POLICY_VIOLATION, csrf.REFUSED_ORIGIN)

    app = FastAPI(title="cardroom", docs_url=None, redoc_url=None, openapi_url=None,
                  dependencies=[Depends(cross_site)])
    app.add_middleware(SecurityHeaders, tls=secure_cookies)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    templates.env.filters["money"] = format_money
    templates.env.filters["game_name"] = lambda game: TITLES.get(game, game)
    templates.env.filters["room_time"] = room_time
    templates.env.filters["card_name"] = card_words
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    hub = Hub()
    app.state.room, app.state.hub = room, hub

    def client_of(request: HTTPConnection) -> str:
        return request.client.host if request.client else "?"

    def viewer(request: Request) -> Account:
        with room.storage.read() as conn:
            return acc.session_account(conn, request.cookies.get(COOKIE))

    def set_cookie(resp: Response, name: str, value: str, max_age: int | None = None) -> None:
        resp.set_cookie(name, value, httponly=True, samesite="strict", secure=secure_cookies,
                        max_age=max_age)

    def page(request: Request, name: str, who: Account | None, status: int = 200,
             **ctx: Any) -> HTMLResponse:
        """A rendered page; its forms carry the CSRF token (and a browser without its CSRF
        cookie gets one)."""
        key = request.cookies.get(csrf.CSRF_COOKIE)
        fresh = None if key else csrf.new_browser_key()
        token = csrf.form_token(key or fresh or "", request.cookies.get(COOKIE))
        resp = templates.TemplateResponse(request, name, {"who": who, "Permission": Permission,
                                                          "csrf": token, **ctx},
                                          status_code=status)
        if fresh:
            set_cookie(resp, csrf.CSRF_COOKIE, fresh)
        return resp

    @app.exception_handler(AuthError)
    async def _auth(request: Request, exc: AuthError) -> Response:
        if request.cookies.get(COOKIE):
            room.refused(None, f"page {request.url.path}", str(exc), {"client":
                                                                     client_of(request)})
        return RedirectResponse("/login", status_code=303)

    @app.exception_handler(PermissionDenied)
    async def _denied(request: Request, exc: PermissionDenied) -> Response:
        who = None
        with contextlib.suppress(AuthError):
            who = viewer(request)
        room.refused(who, f"page {request.url.path}", str(exc))
        return page(request, "error.html", who, 403, message=str(exc))

    def error_page(request: Request, status: int, message: str) -> Response:
        """A plain sentence on a page (JSON `{"error": ...}` for a .json path)."""
        if request.url.path.endswith(".json"):
            return Response(json.dumps({"error": message}), status_code=status,
                            media_type="application/json")
        who = None
        with contextlib.suppress(AuthError):
            who = viewer(request)
        return page(request, "error.html", who, status, message=message)

    @app.exception_handler(NotFound)
    async def _not_found(request: Request, exc: NotFound) -> Response:
        """No such hand, table or account: a 404 with the reason."""
        return error_page(request, 404, str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        """Any other HTTP error as a page with a way back (never FastAPI's JSON)."""
        words = {404: "There is no page at this address.",
                 405: "That page cannot be used this way."}
        return error_page(request, exc.status_code,
                          words.get(exc.status_code, "The request could not be served."))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        """An id out of range or not a number is a 404 like any id that names nothing; a form
        with a field missing or malformed is a 400 that says so (never FastAPI's raw JSON)."""
        missing = path_not_found(exc.errors())
        if missing is not None:
            return error_page(request, 404, missing)
        return error_page(request, 400, "the request was incomplete or malformed: nothing "
                          "was changed")

    # first run, log in and out ---------------------------------------------------------------
    def has_accounts() -> bool:
        with room.storage.read() as conn:
            return acc.count_accounts(conn) > 0

    def logged_in(request: Request, account: Account, to: str = "/lobby") -> Response:
        with room.storage.unit() as conn:
            token = acc.open_session(conn, account)
            device = acc.trust_device(conn, account, request.cookies.get(DEVICE_COOKIE))
            audit.append(conn, account.username, "login", {})
        resp = RedirectResponse(to, status_code=303)
        set_cookie(resp, COOKIE, token, int(acc.SESSION_LIFETIME.total_seconds()))
        if device:
            set_cookie(resp, DEVICE_COOKIE, device, int(acc.DEVICE_LIFETIME.total_seconds()))
        return resp

    @app.get("/", response_model=None)
    def index(request: Request) -> Response:
        if not has_accounts():
            return RedirectResponse("/setup", status_code=303)
        viewer(request)
        return RedirectResponse("/lobby", status_code=303)

    @app.get("/setup", response_model=None)
    def setup_form(request: Request) -> Response:
        if has_accounts():
            return RedirectResponse("/login", status_code=303)
        return page(request, "setup.html", None)

    @app.post("/setup", response_model=None)
    def setup(request: Request, username: str = Form(...), password: str = Form(...)
              ) -> Response:
        try:
            with room.storage.unit() as conn:
                if acc.count_accounts(conn):
                    return RedirectResponse("/login", status_code=303)
                owner = acc.create_account(conn, username, password, Role.OWNER)
                audit.append(conn, owner.username, "setup.owner", {})
        except CardroomError as exc:
            return page(request, "setup.html", None, 400, error=str(exc))
        return logged_in(request, owner)

    @app.get("/login", response_class=HTMLResponse)
    def login_form(request: Request) -> HTMLResponse:
        return page(request, "login.html", None)

    @app.post("/login", response_model=None)
    def login(request: Request, username: str = Form(...), password: str = Form(...)
              ) -> Response:
        try:
            account = acc.authenticate(room.storage, username, password, client_of(request),
                                       request.cookies.get(DEVICE_COOKIE))
        except AuthError as exc:
            code = 429 if "too many" in str(exc) else 401
            return page(request, "login.html", None, code, error=str(exc))
        return logged_in(request, account)

    @app.post("/logout", response_model=None)
    async def logout(request: Request) -> Response:
        token = request.cookies.get(COOKIE)
        if token:
            with room.storage.unit() as conn:
                acc.close_session(conn, token)
            await hub.close_session(token)
        resp = RedirectResponse("/login", status_code=303)
        resp.delete_cookie(COOKIE, secure=secure_cookies, httponly=True, samesite="strict")
        return resp

    @app.get("/register", response_class=HTMLResponse)
    def register_form(request: Request) -> HTMLResponse:
        return page(request, "register.html", None)

    @app.post("/register", response_model=None)
    def register(request: Request, username: str = Form(...), password: str = Form(...)
                 ) -> Response:
        try:
            account = acc.register_player(room.storage, username, password, client_of(request))
        except CardroomError as exc:
            code = 429 if "too many" in str(exc) else 400
            return page(request, "register.html", None, code, error=str(exc))
        return logged_in(request, account)

    # lobby and cashier -----------------------------------------------------------------------
    def jackpot_posted() -> int | None:
        pool = room.pools.get(DEFAULT_POOL)
        return pool.posted if pool else None

    @app.get("/lobby", response_class=HTMLResponse)
    def lobby(request: Request) -> HTMLResponse:
        who = viewer(request)
        with room.storage.read() as conn:
            rows = list_tables(conn)
        live = {t: room.tables[t] for t in room.tables}
        return page(request, "lobby.html", who, tables=rows, live=live,
                    wallet=room.wallet(who), jackpot=jackpot_posted())

    @app.get("/cashier", response_class=HTMLResponse)
    def cashier(request: Request, message: str = "", error: str = "") -> HTMLResponse:
        who = viewer(request)
        who.require(Permission.CASHIER)
        return page(request, "cashier.html", who, wallet=room.wallet(who),
                    key=secrets.token_urlsafe(12), message=message, error=error)

    @app.post("/cashier/{op}", response_model=None)
    def cashier_op(request: Request, op: str, amount: str = Form(...), key: str = Form(...)
                   ) -> Response:
        who = viewer(request)
        try:
            cents = parse_money(amount)
            with room.storage.unit() as conn:
                if op == "buy":
                    buy_chips(conn, who, cents, key)
                elif op == "cashout":
                    cash_out(conn, who, cents, key)
                else:
                    raise CardroomError(f"unknown cashier operation {op!r}")
        except PermissionDenied:
            raise
        except CardroomError as exc:
            room.refused(who, f"cashier.{op}"[:60], str(exc))
            return page(request, "cashier.html", who, 400, wallet=room.wallet(who),
                        key=secrets.token_urlsafe(12), error=str(exc))
        return RedirectResponse("/cashier?message=done", status_code=303)

    # tables -------------------------------------------------------------------------------
    @app.get("/tables/{table_id}", response_class=HTMLResponse)
    def table_page(request: Request, table_id: RowId) -> HTMLResponse:
        who = viewer(request)
        live = room.table(table_id)
        return page(request, f"table_{live.game}.html", who, table=live,
                    wallet=room.wallet(who))

    @app.get("/tables/{table_id}/rules", response_class=HTMLResponse)
    def table_rules(request: Request, table_id: RowId) -> HTMLResponse:
        """The table's posted rules (WAC 230-15-060): public, no log-in needed."""
        who = None
        with contextlib.suppress(AuthError):
            who = viewer(request)
        with room.storage.read() as conn:
            row = next((t for t in list_tables(conn) if t.id == table_id), None)
        if row is None:
            raise NotFound(f"no table {table_id}")
        pool = room.pools.get(DEFAULT_POOL)
        return page(request, "posted_rules.html", who,
                    posted=posted_rules(row, pool.posted if pool is not None else None))

    @app.get("/cards/{code}.svg")
    def card_image(code: str) -> Response:
        if code == "back":
            svg = back_svg()
        else:
            if not code.isdigit() or not 0 <= int(code) < 52:
                return Response("no such card", status_code=404)
            svg = card_svg(Card.from_code(int(code)))
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=86400"})

    def session_of(token: str | None) -> Account:
        with room.storage.read() as conn:
            return acc.session_account(conn, token)

    @app.websocket("/ws/tables/{table_ref}")
    async def table_socket(ws: WebSocket, table_ref: str) -> None:
        """Any table reference is accepted at the handshake, so that one that names no table
        (`/ws/tables/x`) is told so in a message, like every other refusal."""
        await ws.accept()
        table_id = row_id(table_ref) or 0
        try:
            who = await hub.blocking(session_of, ws.cookies.get(COOKIE))
            if not table_id:
                raise NotFound(f"no open table {table_ref[:40]}")
            room.table(table_id)
        except CardroomError as exc:
            room.refused(None, "table.connect", str(exc), {"table": table_id or table_ref[:40],
                                                           "client": client_of(ws)})
            await ws.send_text(dumps({"type": "error", "message": str(exc)}))
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
                if frame["type"] == "websocket.disconnect":
                    break
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
                        await hub.blocking(session_of, ws.cookies.get(COOKIE))
                        checked = time.monotonic()
                    await hub.act(room, who, table_id, msg, refusals)
                except AuthError as exc:
                    await hub.blocking(room.refused, who, "table.message", str(exc),
                                       {"table": table_id})
                    await ws.send_text(dumps({"type": "error", "message": str(exc)}))
                    await ws.close(code=4401)
                    break
                except CardroomError as exc:  # refused, audited, nothing changed
                    reply: dict[str, Any] = {"type": "error", "message": str(exc)}
                    if isinstance(msg, dict) and isinstance(msg.get("key"), str):
                        reply["key"] = msg["key"][:MAX_KEY]
                    await ws.send_text(dumps(reply))
                except Exception:  # a defect, not the client's fault: logged, answered
                    log.exception("table %s: a message from %s failed", table_id, who.username)
                    await hub.blocking(refusals.refused, "table.message", INTERNAL_ERROR)
                    await ws.send_text(dumps({"type": "error", "message": INTERNAL_ERROR}))
        except (WebSocketDisconnect, RuntimeError):  # the client left, or we closed it
            pass
        finally:
            hub.sockets[table_id].pop(ws, None)
            await hub.blocking(refusals.flush)

    # records ------------------------------------------------------------------------------
    @app.get("/history", response_class=HTMLResponse)
    def history(request: Request, all: bool = False) -> HTMLResponse:
        who = viewer(request)
        rows = room.history(who, mine=not all, limit=50)
        return page(request, "history.html", who, hands=rows, all=all, zone=zone_name())

    @app.get("/hands/{hand_id}", response_class=HTMLResponse)
    def hand(request: Request, hand_id: RowId) -> HTMLResponse:
        who = viewer(request)
        replay = room.recall(who, hand_id)
        return page(request, "hand.html", who, replay=replay, record=replay.record,
                    **recall_page(replay))

    @app.get("/hands/{hand_id}/history.json", response_model=None)
    def hand_history_file(request: Request, hand_id: RowId) -> Response:
        """The hand's history in the shared format, for `cardroom replay FILE`."""
        who = viewer(request)
        try:
            document = history_of(room.recall(who, hand_id).record).to_json()
        except (NotFound, PermissionDenied):
            raise
        except CardroomError as exc:  # an open hand, or a record of an older format
            return Response(json.dumps({"error": str(exc)}), status_code=400,
                            media_type="application/json")
        return Response(json.dumps(document, indent=1), media_type="application/json",
                        headers={"Content-Disposition":
                                 f'attachment; filename="hand-{hand_id}.json"'})

    # floor, staff and audit -------------------------------------------------------------------
    @app.get("/floor", response_class=HTMLResponse)
    def floor(request: Request, error: str = "", message: str = "") -> HTMLResponse:
        who = viewer(request)
        if not (who.may(Permission.VOID) or who.may(Permission.OPEN_TABLES)):
            raise PermissionDenied(f"refused: a {who.role.value} may not use the floor page")
        with room.storage.read() as conn:
            rows = [table_summary(t, room.tables.get(t.id)) for t in list_tables(conn)]
            hands_open = open_hands(conn)
            held = acc.held_names(conn) if who.may(Permission.MANAGE_STAFF) else []
        pool = room.pools.get(DEFAULT_POOL)
        return page(request, "floor.html", who, tables=rows, games=GAMES,
                    irregularities=IRREGULARITIES,
                    roles=[r.value for r in Role], open_hands=hands_open, error=error,
                    message=message, jackpot=pool, held=held,
                    jackpot_warning=None if pool is None else break_even_warning(pool))

    @app.get("/floor/tables.json", response_model=None)
    def floor_tables(request: Request) -> Response:
        """The floor page's live rows (its script polls them)."""
        who = viewer(request)
        if not (who.may(Permission.VOID) or who.may(Permission.OPEN_TABLES)):
            raise PermissionDenied(f"refused: a {who.role.value} may not use the floor page")
        with room.storage.read() as conn:
            rows = [table_summary(t, room.tables.get(t.id)) for t in list_tables(conn)]
        return Response(json.dumps(rows), media_type="application/json",
                        headers={"Cache-Control": "no-store"})

    @app.post("/floor/irregularity", response_model=None)
    async def floor_irregularity(request: Request, table_id: int = Form(...),
                                 kind: str = Form(...), reason: str = Form(...),
                                 seat: str = Form("")) -> Response:
        """The floor's irregularity buttons: the table protocol's `irregularity` message."""
        who = viewer(request)
        try:
            if seat.strip() and not seat.strip().isdigit():
                raise CardroomError("choose a seat by its number, or none for the whole deal")
            await hub.act(room, who, table_id, {
                "type": "irregularity", "kind": kind, "reason": reason.strip()[:200],
                "seat": int(seat) if seat.strip() else None})
        except PermissionDenied:
            raise
        except CardroomError as exc:
            return floor_back(error=str(exc))
        return floor_back(message=f"{IRREGULARITIES.get(kind, 'irregularity')} recorded; "
                          "the hands it voids have their wagers back")

    def floor_back(message: str = "", error: str = "") -> Response:
        from urllib.parse import urlencode
        return RedirectResponse("/floor?" + urlencode({"message": message, "error": error}),
                                status_code=303)

    @app.post("/floor/tables", response_model=None)
    def floor_create(request: Request, name: str = Form(...), game: str = Form(...)
                     ) -> Response:
        who = viewer(request)
        try:
            room.create_table(who, name, game)
        except PermissionDenied:
            raise
        except CardroomError as exc:
            room.refused(who, "table.create", str(exc))
            return floor_back(error=str(exc))
        return floor_back(message=f"table {name} opened")

    @app.post("/floor/void", response_model=None)
    async def floor_void(request: Request, table_id: int = Form(...), reason: str = Form(...)
                         ) -> Response:
        who = viewer(request)
        try:
            await hub.act(room, who, table_id, {"type": "void", "reason": reason})
        except PermissionDenied:
            raise
        except CardroomError as exc:
            return floor_back(error=str(exc))
        return floor_back(message="hand voided; wagers returned")

    @app.post("/floor/jackpot/post", response_model=None)
    def jackpot_post(request: Request) -> Response:
        who = viewer(request)
        pool = room.pools.get(DEFAULT_POOL)
        if pool is None:
            return floor_back(error="no jackpot pool yet")
        with room.storage.unit() as conn:
            post_daily(conn, who, DEFAULT_POOL, pool, datetime.now(UTC).date())
        return floor_back(message=f"jackpot posted at {format_money(pool.posted)}")

    def jackpot_page(request: Request, who: Account, status: int = 200, message: str = "",
                     error: str = "") -> HTMLResponse:
        pool = room.pools.get(DEFAULT_POOL)
        with room.storage.read() as conn:
            held = ledger.balance(conn, ledger.jackpot(DEFAULT_POOL))
            report = [e for e in audit.entries(conn, newest_first=True)
                      if e.action in ("jackpot.post", "jackpot.adjust", "jackpot.seed")][:100]
            fees = fees_collected(conn)[:100]
            names = {t.id: t.name for t in list_tables(conn)}
        return page(request, "jackpot.html", who, status, pool_name=DEFAULT_POOL, pool=pool,
                    held=held, report=report, fees=fees, table_names=names,
                    key=secrets.token_urlsafe(12),
                    message=message, error=error)

    @app.get("/floor/jackpot", response_class=HTMLResponse)
    def jackpot_view(request: Request, message: str = "") -> HTMLResponse:
        """The pool, its daily posting report, and the two-person adjustment form."""
        who = viewer(request)
        if not (who.may(Permission.ADJUST_JACKPOT) or who.may(Permission.READ_ALL)):
            raise PermissionDenied(f"refused: a {who.role.value} may not see the jackpot page")
        return jackpot_page(request, who, message=message)

    @app.post("/floor/jackpot/adjust", response_model=None)
    def jackpot_adjust(request: Request, direction: str = Form(...), amount: str = Form(...),
                       reason: str = Form(...), second: str = Form(...),
                       second_password: str = Form(...), key: str = Form(...)) -> Response:
        """The second approver confirms with their own password, on the same form."""
        who = viewer(request)
        who.require(Permission.ADJUST_JACKPOT)
        try:
            pool = room.pools.get(DEFAULT_POOL)
            if pool is None:
                raise CardroomError("no jackpot pool yet")
            if direction not in ("add", "remove"):
                raise CardroomError("choose to add to or take from the meter")
            cents = parse_money(amount) * (1 if direction == "add" else -1)
            try:
                other = acc.authenticate(room.storage, second, second_password,
                                         client_of(request))
            except AuthError as exc:
                raise CardroomError(f"second approver: {exc}") from None
            with room.storage.unit() as conn:
                adjust_jackpot(conn, who, other, DEFAULT_POOL, pool, cents, reason.strip(),
                               key[:60])
        except PermissionDenied as exc:
            room.refused(who, "jackpot.adjust", str(exc))
            return jackpot_page(request, who, 403, error=str(exc))
        except CardroomError as exc:
            room.refused(who, "jackpot.adjust", str(exc))
            return jackpot_page(request, who, 400, error=str(exc))
        return RedirectResponse("/floor/jackpot?message=adjusted", status_code=303)

    @app.post("/floor/staff", response_model=None)
    def staff(request: Request, username: str = Form(...), password: str = Form(...),
              role: str = Form(...)) -> Response:
        who = viewer(request)
        who.require(Permission.MANAGE_STAFF)
        try:
            with room.storage.unit() as conn:
                made = acc.create_account(conn, username, password, Role(role))
                audit.append(conn, who.username, "account.create",
                             {"username": made.username, "role": made.role.value})
        except (CardroomError, ValueError) as exc:
            return floor_back(error=str(exc))
        return floor_back(message=f"{made.role.value} {made.username} created")

    @app.post("/floor/unlock", response_model=None)
    def unlock(request: Request, username: str = Form(...)) -> Response:
        """The owner lets a name that is backing off log in again at once."""
        who = viewer(request)
        try:
            with room.storage.unit() as conn:
                acc.unlock(conn, who, username)
        except PermissionDenied:
            raise
        except CardroomError as exc:
            return floor_back(error=str(exc))
        return floor_back(message=f"{username.strip().lower()} may log in again")

    audit_seen = AuditProgress()

    @app.get("/audit", response_class=HTMLResponse)
    def audit_page(request: Request) -> HTMLResponse:
        """The log, newest first, a page at a time and filtered; the chain checked from where
        the last check ended (the whole of it on request, or when nothing was checked yet)."""
        who = viewer(request)
        who.require(Permission.READ_ALL)
        q = request.query_params
        try:
            wanted, before = audit_filter(q), page_start(q.get("before"))
        except ValueError as exc:
            wanted, before, error = audit.Filter(), None, str(exc)
        else:
            error = ""
        full = q.get("verify") == "full"
        with room.storage.snapshot() as conn:
            report = audit_seen.check(conn, room.storage.audit_key, full)
            shown = audit.find(conn, wanted, before, AUDIT_PAGE)
            names = {t.id: t.name for t in list_tables(conn)}
        older = shown[-1].seq if len(shown) == AUDIT_PAGE else None
        return page(request, "audit.html", who, 400 if error else 200, report=report,
                    entries=shown, wanted=wanted, older=older, paged=before is not None,
                    last_full=audit_seen.last_full, error=error, table_names=names,
                    fields=lambda e: detail_fields(e, names),
                    query={k: v for k, v in q.items() if k not in ("before", "verify")})

    return app
