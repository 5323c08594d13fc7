"""The one way tests send a form as a browser does: with the CSRF token its page carries; the
one log-in and its session cookie for a socket; and the baccarat tables the page tests share."""

from __future__ import annotations

import re
from typing import Any

import httpx
from fastapi.testclient import TestClient
from room.people import person, player
from room.rooms import playing_table

from cardroom.room.books.cashier import buy_chips
from cardroom.room.people.accounts import Account, Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.server import flash
from cardroom.server.app import COOKIE, create_app

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


def said(r: httpx.Response) -> dict[str, str]:
    """The message or error a form's redirect leaves for its page (the signed flash cookie,
    read unchecked; the page checks the seal): the ones not empty."""
    value = r.cookies.get(flash.COOKIE)
    assert r.status_code == 303 and value, "the form did not redirect with a flash"
    return {k: v for k, v in flash.contents(value).items() if k != "to" and v}


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


def cookie_of(client: TestClient) -> dict[str, str]:
    """The header that carries `client`'s session to a WebSocket opened by another client."""
    return {"cookie": f"{COOKIE}={client.cookies[COOKIE]}"}


def setup_table(room: Room) -> dict[str, Any]:
    """The owner (olivia), two players, a floor person and the auditor, and a baccarat table
    ("Mini 1"): the people by name and the table's id."""
    with room.storage.unit() as conn:
        people = {n: person(conn, n, PW, r) for n, r in [
            ("olivia", Role.OWNER), ("alice", Role.PLAYER), ("bob", Role.PLAYER),
            ("fiona", Role.FLOOR), ("audrey", Role.AUDITOR)]}
    live = playing_table(room, people["olivia"], "Mini 1", "baccarat")
    return {"people": people, "table": live.table_id}


def seated_player(room: Room, *staff: tuple[str, Role]) -> tuple[Account, int]:
    """The owner (olga), the `staff` named, and alice seated with $100 at a baccarat table
    ("Mini 1"): alice and the table's id."""
    with room.storage.unit() as conn:
        owner = create_account(conn, "olga", PW, Role.OWNER)
        for name, role in staff:
            person(conn, name, PW, role)
        alice = player(conn, "alice", PW)
        buy_chips(conn, SELF_SERVICE, alice, 50_000, "chips")
    table = playing_table(room, owner, "Mini 1", "baccarat").table_id
    room.act(alice, table, {"type": "sit", "buy_in": 10_000, "key": "s"})
    return alice, table


_ACCEPT = re.compile(r'id="accept-(\d+)"')


def cosigned(room: Room, asked: httpx.Response, *signers: str | FormClient
             ) -> httpx.Response:
    """Issue 23: a second signature is given on the signer's own session. After `asked` (the
    redirect of a form that asks for signatures), each of `signers` (a name: a new browser
    logged in as them; or their own client) accepts the newest request waiting for them on
    their signatures page. The last acceptance's redirect, or `asked` itself when the form was
    refused (nothing waits then)."""
    assert asked.status_code != 200, "post the asking form with follow_redirects=False"
    if asked.status_code != 303 or "error" in said(asked):
        return asked
    r = asked
    for signer in signers:
        client = logged_in(room, signer) if isinstance(signer, str) else signer
        waiting = _ACCEPT.findall(client.get("/signatures").text)
        assert waiting, "nothing waits for this signer's signature"
        r = client.post(f"/signatures/{max(map(int, waiting))}/accept",
                        follow_redirects=False)
    return r
