"""What a form says after it is sent (issue 23, "Messages from the URL"): the one message or
refusal, carried to the page the form redirects to in a cookie the server signs, and shown
there once.

A page never takes its banner from the query string: a link such as
`/cage?message=Manager+approved...` shows nothing, because anyone can write a link but only
the server can sign a flash. The cookie (`cardroom_flash`, HttpOnly, SameSite=Strict, Secure
over TLS) is sealed with an HMAC under a key the app draws at start (`app.state.flash_key`),
names the path it is for, and is deleted by the page that shows it; a flash left over when
the app restarts is dropped, never shown."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from typing import cast

from fastapi.responses import RedirectResponse
from starlette.requests import HTTPConnection
from starlette.types import Receive, Scope, Send

COOKIE = "cardroom_flash"


def seal(key: bytes, said: dict[str, str]) -> str:
    """The cookie's value: the flash as base64 JSON and its HMAC-SHA256 under `key`."""
    body = base64.urlsafe_b64encode(json.dumps(said, separators=(",", ":")).encode()).decode()
    return body + "." + hmac.new(key, body.encode(), hashlib.sha256).hexdigest()


def contents(value: str) -> dict[str, str]:
    """What a sealed value says, unchecked (what a test reads off a redirect); `opened`
    checks the seal."""
    try:
        said = json.loads(base64.urlsafe_b64decode(value.partition(".")[0].encode()))
    except (ValueError, binascii.Error):
        return {}
    if not isinstance(said, dict):
        return {}
    return {k: v for k, v in said.items() if isinstance(k, str) and isinstance(v, str)}


def opened(key: bytes, value: str | None) -> dict[str, str]:
    """The flash in a cookie when its seal is the server's; {} for none, or a forged one."""
    if not value:
        return {}
    body, _, mac = value.partition(".")
    expected = hmac.new(key, body.encode(), hashlib.sha256).hexdigest()
    return contents(value) if hmac.compare_digest(mac, expected) else {}


class Flash(RedirectResponse):
    """A 303 back to `path`, whose page will say `message` (what was done) or `error` (why
    it was refused) once: `return Flash("/cage", message="sold $250.00 of chips")`."""

    def __init__(self, path: str, message: str = "", error: str = "", **fill: str) -> None:
        """`fill`: form values the page shows filled in (the cage's player after a patron is
        recorded), carried in the same sealed flash, never in the address."""
        super().__init__(path, status_code=303)
        self.said = {**fill, "to": path.partition("?")[0], "message": message, "error": error}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        state = scope["app"].state
        self.set_cookie(COOKIE, seal(cast(bytes, state.flash_key), self.said), httponly=True,
                        samesite="strict", secure=bool(state.secure_cookies))
        await super().__call__(scope, receive, send)


def waiting(conn: HTTPConnection) -> dict[str, str]:
    """The message and error waiting for this page, and the form values it fills in ({} when
    none is, or the flash is for another page or not sealed by this server)."""
    said = opened(cast(bytes, conn.app.state.flash_key), conn.cookies.get(COOKIE))
    if said.pop("to", None) != conn.url.path:
        return {}
    return {"message": "", "error": "", **said}
