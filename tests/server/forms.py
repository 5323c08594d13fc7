"""The one way tests send a form as a browser does: with the CSRF token its page carries."""

from __future__ import annotations

import re
from typing import Any

import httpx
from fastapi.testclient import TestClient

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
