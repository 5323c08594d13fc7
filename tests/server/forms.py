"""The one way tests send a form as a browser does: with the CSRF token its page carries; and
the one log-in."""

from __future__ import annotations

import re
from typing import Any

import httpx
from fastapi.testclient import TestClient

from cardroom.room.room import Room
from cardroom.server.app import create_app

PW = "correct horse"
"""Every test account's password."""
_TOKEN = re.compile(r'name="csrf" value="([0-9a-f]+)"')


def csrf_token(client: TestClient, page: str = "/login") -> str:
    """The token in `page`'s forms for this client's cookies (fetching it sets the browser
    cookie the token is keyed by). Fetch it again after a log-in or log-out."""
    found = _TOKEN.search(client.get(page).text)
    assert found, f"no CSRF token in {page}"
    return found.group(1)


class FormClient(TestClient):
    """A test client whose posts carry a fresh CSRF token unless the data names one."""

    def post(self, url: httpx.URL | str, *, data: Any = None,  # type: ignore[override]
             **kwargs: Any) -> httpx.Response:
        form = dict(data or {})
        form.setdefault("csrf", csrf_token(self))
        return super().post(url, data=form, **kwargs)


def log_in(client: TestClient, name: str, password: str = PW) -> None:
    """Log `client` in as `name` through the log-in form (a 303 to the lobby)."""
    r = client.post("/login", data={"username": name, "password": password},
                    follow_redirects=False)
    assert r.status_code == 303, r.text


def logged_in(room: Room, name: str) -> FormClient:
    """A new browser on `room`, logged in as `name`."""
    client = FormClient(create_app(room))
    log_in(client, name)
    return client
