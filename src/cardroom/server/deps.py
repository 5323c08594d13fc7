"""The dependencies every router shares, as FastAPI `Depends` (docs/server.md, "Adding a page").

A route names what it needs in its signature and FastAPI supplies it per request:

- `RoomDep` (the room, `app.state.room`), `HubDep` (the table sockets), `Client` (the client's
  address);
- `Viewer` (the logged-in account: without a valid session the `AuthError` handler redirects to
  `/login`), `MaybeViewer` (the account or None, for public pages);
- `require(Permission.X)` (the account, refused with a 403 page and an audit entry unless it
  may X), used as `who: Annotated[Account, require(Permission.X)]`;
- `Render` (a `Page`: a template rendered with the account, the CSRF token of its forms and the
  `Permission` names, and the message or refusal a form left for the page in its signed
  flash, never one from the query string; `Page.error` is the error page).

The app sets `app.state.room`, `hub`, `templates` and `secure_cookies` (`create_app`).
"""

from __future__ import annotations

import contextlib
import json
from datetime import date
from typing import Annotated, Any, cast

from fastapi import Depends, Request
from fastapi.params import Depends as DependsParam
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.requests import HTTPConnection

from cardroom.errors import CardroomError
from cardroom.room.people import accounts as acc
from cardroom.room.people import approvals
from cardroom.room.people.accounts import Account, Permission, Role
from cardroom.room.room import Room
from cardroom.room.storage.errors import AuthError, PermissionDenied
from cardroom.server import csrf, flash
from cardroom.server.hub import COOKIE, Hub


def room_of(conn: HTTPConnection) -> Room:
    return cast(Room, conn.app.state.room)


def hub_of(conn: HTTPConnection) -> Hub:
    return cast(Hub, conn.app.state.hub)


def client_of(conn: HTTPConnection) -> str:
    """The client's address, for the audit log and the log-in limits."""
    return conn.client.host if conn.client else "?"


RoomDep = Annotated[Room, Depends(room_of)]
HubDep = Annotated[Hub, Depends(hub_of)]
Client = Annotated[str, Depends(client_of)]


def session_of(room: Room, token: str | None) -> Account:
    """The account of a session token, or `AuthError` (none, expired, logged out)."""
    with room.storage.read() as conn:
        return acc.session_account(conn, token)


def viewer(request: Request) -> Account:
    """The logged-in account; `AuthError` (redirected to `/login`) without one."""
    return session_of(room_of(request), request.cookies.get(COOKIE))


def maybe_viewer(request: Request) -> Account | None:
    """The logged-in account, or None: for pages anyone may read."""
    with contextlib.suppress(AuthError):
        return viewer(request)
    return None


Viewer = Annotated[Account, Depends(viewer)]
MaybeViewer = Annotated[Account | None, Depends(maybe_viewer)]


def require(*permissions: Permission, to: str | None = None) -> DependsParam:
    """A dependency giving the logged-in account when it holds one of `permissions`, else
    `PermissionDenied` ("Sorry: an auditor may not use the cashier.", or "... may not {to}."
    when `to` names the page): `who: Annotated[Account, require(Permission.CASHIER)]`."""

    def allowed(who: Viewer) -> Account:
        if not any(who.may(p) for p in permissions):
            if to is not None:
                raise PermissionDenied(acc.refusal(who.role, to))
            who.require(permissions[0])
        return who

    return cast(DependsParam, Depends(allowed))


def secure_cookies(conn: HTTPConnection) -> bool:
    """The room is served over HTTPS: its cookies are sent over TLS only."""
    return bool(conn.app.state.secure_cookies)


def set_cookie(conn: HTTPConnection, resp: Response, name: str, value: str,
               max_age: int | None = None) -> None:
    """An HttpOnly, SameSite=Strict cookie (Secure when the room is served over HTTPS)."""
    resp.set_cookie(name, value, httponly=True, samesite="strict",
                    secure=secure_cookies(conn), max_age=max_age)


class Page:
    """Renders the request's pages: `page("lobby.html", who, tables=rows)`."""

    def __init__(self, request: Request) -> None:
        self.request = request

    def __call__(self, name: str, who: Account | None, status: int = 200,
                 **ctx: Any) -> HTMLResponse:
        """A rendered page; its forms carry the CSRF token (and a browser without its CSRF
        cookie gets one); the message or error a form's redirect left for it (`flash`) is
        shown here once, unless the route says its own."""
        request = self.request
        said = flash.waiting(request)
        resp = self._render(name, who, status, {**said, **ctx})
        if said:
            resp.delete_cookie(flash.COOKIE, httponly=True, samesite="strict",
                               secure=secure_cookies(request))
        return resp

    def part(self, name: str, who: Account, **ctx: Any) -> HTMLResponse:
        """A part of a page that its script fetches to redraw (the floor's cards): its forms
        carry the CSRF token; the flash is left for the page itself."""
        return self._render(name, who, 200, ctx)

    def _render(self, name: str, who: Account | None, status: int, ctx: dict[str, Any]
                ) -> HTMLResponse:
        request = self.request
        templates = cast(Jinja2Templates, request.app.state.templates)
        key = request.cookies.get(csrf.CSRF_COOKIE)
        fresh = None if key else csrf.new_browser_key()
        token = csrf.form_token(key or fresh or "", request.cookies.get(COOKIE))
        resp = templates.TemplateResponse(request, name, {
            "who": who, "Permission": Permission, "csrf": token,
            "signatures_waiting": self.signatures_waiting(who), **ctx}, status_code=status)
        if fresh:
            set_cookie(request, resp, csrf.CSRF_COOKIE, fresh)
        return resp

    def signatures_waiting(self, who: Account | None) -> int | None:
        """How many requests wait for a member of staff's signature (the menu's count); None
        for a player or a visitor."""
        if who is None or who.role is Role.PLAYER:
            return None
        with room_of(self.request).storage.read() as conn:
            return approvals.count_waiting(conn, who)

    def error(self, status: int, message: str) -> Response:
        """A plain sentence on a page (JSON `{"error": ...}` for a .json path)."""
        if self.request.url.path.endswith(".json"):
            return Response(json.dumps({"error": message}), status_code=status,
                            media_type="application/json")
        return self("error.html", maybe_viewer(self.request), status, problem=message)


Render = Annotated[Page, Depends(Page)]


def form_day(text: str, what: str) -> date:
    """A date a person wrote on a form; CardroomError naming `what` it should be ("'9/1' is
    not a gambling day: write it as YYYY-MM-DD")."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise CardroomError(f"{text.strip()[:20]!r} is not {what}: write it as YYYY-MM-DD"
                            ) from None


def sentence(text: object) -> str:
    """A room message as a person reads it: "there is no table 5" -> "There is no table 5."
    (the pages' filter; `sentence` in table-client.js does the same at the tables)."""
    t = str(text or "").strip()
    if not t:
        return ""
    t = t[0].upper() + t[1:]
    return t if t[-1] in ".!?)" else t + "."
