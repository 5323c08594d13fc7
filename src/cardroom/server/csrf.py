"""Cross-site request forgery: a token in every form, checked on every state-changing request,
and the `Origin` of forms and table sockets checked against the room's own host.

The token is an HMAC keyed by a random per-browser cookie (`cardroom_csrf`, HttpOnly,
SameSite=Strict) over the session cookie: another site can read neither cookie, so it cannot
write the token, and a log-in or log-out changes it. Forms before log-in (log in, register,
first run) are covered the same way, keyed by the browser cookie alone. SameSite=Strict on the
session cookie stays as a second line.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request

from cardroom.server.hub import COOKIE

CSRF_COOKIE = "cardroom_csrf"
FIELD = "csrf"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
REFUSED_FORM = ("refused: this form is out of date or was sent from another site; go back, "
                "reload the page and try again")
REFUSED_ORIGIN = "refused: this connection came from another site"


def new_browser_key() -> str:
    return secrets.token_urlsafe(32)


def form_token(browser_key: str, session: str | None) -> str:
    """The token that the forms of a page carry, for this browser and session."""
    return hmac.new(browser_key.encode(), b"cardroom form|" + (session or "").encode(),
                    hashlib.sha256).hexdigest()


def foreign_origin(conn: HTTPConnection) -> bool:
    """True when the browser says the request comes from a page of another origin. No
    `Origin` (a non-browser client, or an older browser's same-origin form) is not foreign;
    the token still decides for forms."""
    origin = conn.headers.get("origin")
    if origin is None:
        return False
    return urlsplit(origin).netloc.lower() != conn.headers.get("host", "").lower()


async def form_refusal(request: Request) -> str | None:
    """Why a state-changing request is refused (another site's origin, a missing or wrong
    token), or None to let it through."""
    if request.method in SAFE_METHODS:
        return None
    if foreign_origin(request):
        return REFUSED_ORIGIN
    key = request.cookies.get(CSRF_COOKIE)
    sent = (await request.form()).get(FIELD)
    if not key or not isinstance(sent, str):
        return REFUSED_FORM
    expected = form_token(key, request.cookies.get(COOKIE))
    return None if hmac.compare_digest(sent, expected) else REFUSED_FORM
