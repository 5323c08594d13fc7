"""First run, log in and out, registration, the lobby and the card images."""

from __future__ import annotations

from fastapi import APIRouter, Form, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.engine import Connection

from cardroom.cards import Card
from cardroom.digits import whole_number
from cardroom.errors import CardroomError
from cardroom.room.books import table_books
from cardroom.room.compliance import exclusions
from cardroom.room.money.jackpot import DEFAULT_POOL
from cardroom.room.people import accounts as acc
from cardroom.room.people.accounts import Account, Role
from cardroom.room.play.tables import TableRow, list_tables, seated_count
from cardroom.room.room import Room, table_classes
from cardroom.room.storage import audit
from cardroom.room.storage.errors import AuthError, Throttled
from cardroom.room.views.lobby_view import Seating, lobby_table, seating, state_of
from cardroom.server import password_work, registrar
from cardroom.server.cards_svg import back_svg, card_svg
from cardroom.server.deps import (
    Client,
    HubDep,
    Page,
    Render,
    RoomDep,
    Viewer,
    secure_cookies,
    set_cookie,
    viewer,
)
from cardroom.server.hub import COOKIE

DEVICE_COOKIE = "cardroom_device"
"""A browser that logged in to an account before: its attempts skip that name's back-off."""

router = APIRouter()


def has_accounts(room: Room) -> bool:
    with room.storage.read() as conn:
        return acc.count_accounts(conn) > 0


LANDING: dict[Role, str] = {
    Role.PLAYER: "/lobby", Role.CASHIER: "/cage", Role.FLOOR: "/floor",
    Role.DEALER: "/floor/inventory", Role.COMPLIANCE: "/compliance/cases",
    Role.OWNER: "/home", Role.AUDITOR: "/home"}
"""Where each role lands after logging in (and at `/`): a player in the lobby, the staff on
their own page (the dealer on the table inventories they sign; the owner and the auditor,
whose work spans the room, on the list of their pages)."""


def logged_in(request: Request, room: Room, account: Account) -> Response:
    """A new session for `account`, sent to its own page (`LANDING`)."""
    to = LANDING[account.role]
    with room.storage.unit() as conn:
        token = acc.open_session(conn, account)
        device = acc.trust_device(conn, account, request.cookies.get(DEVICE_COOKIE))
        audit.append(conn, account.username, "login", {})
    resp = RedirectResponse(to, status_code=303)
    set_cookie(request, resp, COOKIE, token, int(acc.SESSION_LIFETIME.total_seconds()))
    if device:
        set_cookie(request, resp, DEVICE_COOKIE, device,
                   int(acc.DEVICE_LIFETIME.total_seconds()))
    return resp


def refused(page: Page, template: str, exc: CardroomError, status: int) -> HTMLResponse:
    """The form again with the reason: `status`, or 429 when the name or address is backing
    off."""
    return page(template, None, 429 if isinstance(exc, Throttled) else status, error=str(exc))


@router.get("/", response_model=None)
def index(request: Request, room: RoomDep) -> Response:
    if not has_accounts(room):
        return RedirectResponse("/setup", status_code=303)
    return RedirectResponse(LANDING[viewer(request).role], status_code=303)


@router.get("/home", response_class=HTMLResponse)
def home(who: Viewer, page: Render) -> HTMLResponse:
    """The pages an account may open, as a list (where the owner and the auditor land)."""
    return page("home.html", who)


@router.get("/setup", response_model=None)
def setup_form(room: RoomDep, page: Render) -> Response:
    if has_accounts(room):
        return RedirectResponse("/login", status_code=303)
    return page("setup.html", None)


def _first_owner(room: Room, made: acc.NewCredentials) -> Account | None:
    """The owner's account, unless another first run opened an account meanwhile."""
    with room.storage.unit() as conn:
        if acc.count_accounts(conn):
            return None
        return acc.insert_account(conn, made, Role.OWNER, action="setup.owner")


@router.post("/setup", response_model=None)
async def setup(request: Request, room: RoomDep, page: Render, username: str = Form(...),
                password: str = Form(...)) -> Response:
    """The password is judged and hashed before the write transaction, never in it."""
    if await run_in_threadpool(has_accounts, room):
        return RedirectResponse("/login", status_code=303)
    try:
        made = await password_work.new_credentials(username, password)
        owner = await run_in_threadpool(_first_owner, room, made)
    except CardroomError as exc:
        return page("setup.html", None, 400, error=str(exc))
    if owner is None:
        return RedirectResponse("/login", status_code=303)
    return await run_in_threadpool(logged_in, request, room, owner)


@router.get("/login", response_class=HTMLResponse)
def login_form(page: Render) -> HTMLResponse:
    return page("login.html", None)


@router.post("/login", response_model=None)
def login(request: Request, room: RoomDep, page: Render, client: Client,
          username: str = Form(...), password: str = Form(...)) -> Response:
    try:
        account = acc.authenticate(room.storage, username, password, client,
                                   request.cookies.get(DEVICE_COOKIE))
    except AuthError as exc:
        return refused(page, "login.html", exc, 401)
    return logged_in(request, room, account)


@router.post("/logout", response_model=None)
async def logout(request: Request, room: RoomDep, hub: HubDep) -> Response:
    token = request.cookies.get(COOKIE)
    if token:
        with room.storage.unit() as conn:
            acc.close_session(conn, token)
        await hub.close_session(token)
    resp = RedirectResponse("/login", status_code=303)
    resp.delete_cookie(COOKIE, secure=secure_cookies(request), httponly=True,
                       samesite="strict")
    return resp


@router.get("/register", response_class=HTMLResponse)
def register_form(request: Request, page: Render) -> HTMLResponse:
    """The form, and a device id for the browser (`registrar`): its registrations count
    apart from other browsers at the same address."""
    resp = page("register.html", None)
    registrar.give_device(request, resp)
    return resp


@router.post("/register", response_model=None)
async def register(request: Request, room: RoomDep, page: Render, client: Client,
                   username: str = Form(...), password: str = Form(...),
                   legal_name: str = Form(""), date_of_birth: str = Form("")) -> Response:
    """The browser's back-off (its device cookie's, or its address's without one) and the
    address's backstop decide first; the name and date of birth given are checked
    against the self-exclusion list (RCW 9.46.071); the password is judged and hashed in the
    password threads, outside the write transaction, which then only counts and writes the
    account."""
    device = registrar.device_of(request)
    try:
        await run_in_threadpool(acc.registration_allowed, room.storage, client, device)
        await run_in_threadpool(exclusions.refuse_registration, room.storage, legal_name[:200],
                                date_of_birth[:20])
        made = await password_work.new_credentials(username, password)
        account = await run_in_threadpool(acc.register_player, room.storage, made, client,
                                          device)
    except CardroomError as exc:
        return refused(page, "register.html", exc, 400)
    resp = await run_in_threadpool(logged_in, request, room, account)
    registrar.give_device(request, resp)
    return resp


@router.get("/lobby", response_class=HTMLResponse)
def lobby(room: RoomDep, who: Viewer, page: Render) -> HTMLResponse:
    """Every table: its state, limits, seats free and least buy-in (`room.lobby_view`)."""
    room.load_new_tables()  # tables opened from the CLI since the server started
    with room.storage.read() as conn:
        rows = []
        for t in list_tables(conn):
            seats = seating_of(conn, room, t)
            rows.append(lobby_table(t, seats, state_of(
                seats, t.id in room.closed, table_books.last_closer(conn, t.id) is not None)))
    pool = room.pools.get(DEFAULT_POOL)
    return page("lobby.html", who, tables=rows, wallet=room.wallet(who),
                jackpot=pool.posted if pool else None)


def seating_of(conn: Connection, room: Room, row: TableRow) -> Seating:
    """A table's seating: its live table's here; one another process of the room holds
    (`Room.holder`), from the books: its game's seats and the people seated there."""
    live = room.tables.get(row.id)
    table = table_classes().get(row.game)
    if live is not None or room.holder is None or table is None or row.status != "open":
        return seating(live)
    return table.max_seats, seated_count(conn, row.id)


@router.get("/cards/{code}.svg")
def card_image(code: str) -> Response:
    if code == "back":
        svg = back_svg()
    else:
        number = whole_number(code)
        if number is None or not 0 <= number <= 52:  # 52: the joker
            return Response("no such card", status_code=404)
        svg = card_svg(Card.from_code(number))
    return Response(svg, media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})
