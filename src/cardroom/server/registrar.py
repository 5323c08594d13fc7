"""The registration device cookie (issue 23: "the limit is per device"): a browser that opens
the registration form is given a random id signed by the server (`cardroom_registrar`,
HttpOnly, SameSite=Strict), and the accounts it opens are counted against that id
(`accounts.REGISTRATIONS`), so phones sharing the room's Wi-Fi address do not hold each other
back. A client cannot make up ids of its own (the HMAC), and every account opened from one
address still counts in the address's backstop (`accounts.REGISTRATIONS_PER_ADDRESS`), as one
with no valid cookie counts in the address's own bucket: a flood that throws its cookies away
is held as before. The key is drawn when the app starts (`app.state.registrar_key`); after a
restart a browser's old cookie is not valid, and it is given a new one."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import cast

from fastapi.responses import Response
from starlette.requests import HTTPConnection

from cardroom.server.deps import set_cookie

COOKIE = "cardroom_registrar"
LIFETIME_S = 90 * 24 * 3600
"""As long as a trusted log-in device's cookie."""


def _key(conn: HTTPConnection) -> bytes:
    return cast(bytes, conn.app.state.registrar_key)


def _mac(key: bytes, device: str) -> str:
    return hmac.new(key, b"registrar|" + device.encode(), hashlib.sha256).hexdigest()[:32]


def device_of(conn: HTTPConnection) -> str | None:
    """The browser's device id, when its cookie carries one this server signed."""
    value = conn.cookies.get(COOKIE, "")
    device, _, mac = value.partition(".")
    if not device or len(value) > 100:
        return None
    return device if hmac.compare_digest(mac, _mac(_key(conn), device)) else None


def give_device(conn: HTTPConnection, resp: Response) -> None:
    """Give the browser a device id of its own, unless it holds a valid one."""
    if device_of(conn) is None:
        device = secrets.token_urlsafe(16)
        set_cookie(conn, resp, COOKIE, f"{device}.{_mac(_key(conn), device)}", LIFETIME_S)
