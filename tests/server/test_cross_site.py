"""Cross-site requests and the web side of accounts (issue 9): every state-changing form needs
its CSRF token, a foreign `Origin` is refused on forms and on the table socket handshake,
every response carries the security headers, `--secure-cookies` marks the cookies Secure, the
room's own names cannot be registered and registration backs off."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from room.people import player
from room.storage_fixture import migrated_engine
from sqlalchemy import func, select
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import (
    accounts,
    jackpot_pools,
    ledger_transactions,
    room_tables,
    sessions,
)
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.server import registrar
from cardroom.server.app import COOKIE, create_app
from cardroom.server.csrf import CSRF_COOKIE
from cardroom.server.routes import ROUTERS
from cardroom.shoe import SeededRandom

from .forms import PW, FormClient, csrf_token, log_in
from .serve_process import served

FORMS: dict[str, dict[str, str]] = {
    "/setup": {"username": "eve", "password": PW},
    "/login": {"username": "olga", "password": PW},
    "/register": {"username": "eve", "password": PW},
    "/logout": {},
    "/cashier/buy": {"amount": "100", "key": "k1"},
    "/floor/tables": {"name": "Forged", "game": "baccarat"},
    "/floor/void": {"table_id": "1", "reason": "forged"},
    "/floor/irregularity": {"table_id": "1", "kind": "misdeal", "reason": "forged"},
    "/floor/act-for": {"table_id": "1"},
    "/floor/jackpot/post": {},
    "/floor/jackpot/adjust": {"direction": "add", "amount": "10", "reason": "x", "second": "fred",
                              "key": "k2"},
    "/floor/staff": {"username": "mallory", "password": PW, "role": "owner"},
    "/floor/unlock": {"username": "alice"},
    "/floor/jackpot/settings": {"pool": "super9", "seed": "3000", "contribution": "25",
                                "reserve_rate": "0", "reserve_limit": "0", "reason": "x",
                                "second": "fred"},
    "/floor/jackpot/deposit": {"pool": "super9", "amount": "1", "deposited_on": "2026-01-02",
                               "deposited_by": "fred", "reference": "slip 1"},
    "/floor/jackpot/hits/1/verify": {"note": "x", "second": "fred"},
    "/floor/jackpot/hits/1/surveillance": {"note": "x"},
    "/floor/jackpot/hits/1/pay": {},
    "/floor/surveillance/1/verify": {"note": "x"},
    "/floor/surveillance/1/refuse": {"note": "x"},
    "/cage/sell": {"player": "alice", "amount": "100", "key": "k3"},
    "/cage/redeem": {"player": "alice", "amount": "100", "key": "k4"},
    "/cage/find": {"name": "alice"},
    "/cage/patrons": {"legal_name": "Eve Forger", "address": "x", "born": "1980-01-01",
                      "document_kind": "passport", "document_number": "X1",
                      "document_issuer": "x", "document_expires": "2099-01-01"},
    "/cage/patrons/walk-in": {"patron_id": "1"},
    "/cage/patrons/link": {"patron_id": "1", "player": "alice"},
    "/cage/fill": {"table_id": "1", "amount": "100", "dealer": "fred",
                   "floor": "fred"},
    "/cage/credit": {"table_id": "1", "amount": "100", "dealer": "fred", "floor": "fred"},
    "/cage/count": {"table_id": "1", "day": "2026-11-23", "cash": "1", "second": "fred"},
    "/cage/cash-count": {"amount": "1"},
    "/exclusions/enrol": {"patron": "1", "years": "1"},
    "/exclusions/forwarded": {"entry": "1"},
    "/exclusions/notified": {"breach": "1"},
    "/exclusions/confiscate": {"username": "alice"},
    "/exclusions/sweep": {},
    "/cage/checks/returned": {"check_id": "1", "reason": "forged"},
    "/cage/checks/settle": {"check_id": "1", "how": "repaid"},
    "/floor/inventory/open": {"table_id": "1", "counted": "0", "dealer": "fred"},
    "/floor/inventory/close": {"table_id": "1", "counted": "0", "dealer": "fred"},
    "/floor/inventory/void": {"series": "fill", "number": "1", "reason": "forged"},
    "/floor/inventory/drop": {"table_id": "1", "player": "alice", "amount": "10",
                              "key": "k5"},
    "/staff/hire": {"username": "mallory", "password": PW, "role": "owner"},
    "/staff/role": {"username": "fred", "role": "owner"},
    "/staff/lock": {"username": "fred", "reason": "forged"},
    "/staff/reinstate": {"username": "fred"},
    "/signatures/1/accept": {},
    "/signatures/1/decline": {"reason": "forged"},
    "/signatures/1/withdraw": {},
    "/staff/unlock": {"username": "alice"},
    "/cage/flag": {"player_name": "alice", "note": "forged"},
    "/compliance/alerts/scan": {"day": "2026-11-23"},
    "/compliance/cases/open": {"narrative": "forged", "player_name": "alice"},
    "/compliance/cases/1/note": {"text": "forged"},
    "/compliance/cases/1/evidence": {"kind": "hand", "ref": "1"},
    "/compliance/cases/1/decide": {"decision": "filed", "text": "BSA-1"},
    "/compliance/ctr/1/file": {"reference": "forged"},
}
ROUTE_OF = {"/cashier/buy": "/cashier/{op}",
            "/compliance/ctr/1/file": "/compliance/ctr/{report_id}/file",
            **{f"/floor/jackpot/hits/1/{a}": f"/floor/jackpot/hits/{{hit_id}}/{a}"
               for a in ("verify", "surveillance", "pay")},
            **{f"/floor/surveillance/1/{a}": f"/floor/surveillance/{{held_id}}/{a}"
               for a in ("verify", "refuse")},
            **{f"/signatures/1/{a}": f"/signatures/{{approval_id}}/{a}"
               for a in ("accept", "decline", "withdraw")},
            **{f"/compliance/cases/1/{a}": f"/compliance/cases/{{case_id}}/{a}"
               for a in ("note", "evidence", "decide")}}
"""The route of each form above posted to a path with a parameter."""


@pytest.fixture
def room(tmp_path: Path) -> Room:
    """SQLite only: nothing here depends on the database (the back-off's storage is tested on
    both in tests/room/test_login_backoff.py)."""
    engine = migrated_engine(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    r = Room(Storage(engine), SeededRandom(3), settings=SELF_SERVICE)
    r.start()
    return r


@pytest.fixture
def owner(room: Room) -> FormClient:
    with room.storage.unit() as conn:
        create_account(conn, "olga", PW, Role.OWNER)
        create_account(conn, "fred", PW, Role.FLOOR)
    client = FormClient(create_app(room))
    log_in(client, "olga")
    return client


def state(room: Room) -> tuple[int, ...]:
    """What a forged form could change: audit entries other than refusals, ledger
    transactions, accounts, sessions, tables, jackpot postings."""
    with room.storage.read() as conn:
        entries = sum(e.action != "refused" for e in audit.entries(conn))
        counts = [conn.execute(select(func.count()).select_from(t)).scalar_one()
                  for t in (ledger_transactions, accounts, sessions, room_tables)]
        posted = conn.execute(select(jackpot_pools.c.posted_on)).all()
    return (entries, *counts, len([p for p in posted if p[0] is not None]))


def test_every_state_changing_route_is_in_the_forgery_list() -> None:
    """A new POST route must join FORMS, so that the test below covers it (the app serves the
    routers of `ROUTERS`: FastAPI lists an included router's routes there, not in
    `app.routes`)."""
    posts = {r.path for router in ROUTERS for r in router.routes
             if "POST" in getattr(r, "methods", ())}
    assert posts == {ROUTE_OF.get(path, path) for path in FORMS}


@pytest.mark.parametrize("path", sorted(FORMS))
def test_a_form_without_its_token_changes_nothing(room: Room, owner: FormClient,
                                                  path: str) -> None:
    before = state(room)
    r = TestClient.post(owner, path, data=FORMS[path], follow_redirects=False)
    assert r.status_code == 403 and "reload the page" in r.text
    forged = {**FORMS[path], "csrf": "0" * 64}
    r = TestClient.post(owner, path, data=forged, follow_redirects=False)
    assert r.status_code == 403
    assert state(room) == before
    assert owner.get("/lobby", follow_redirects=False).status_code == 200  # still logged in
    with room.storage.read() as conn:
        refusals = [e for e in audit.entries(conn) if e.action == "refused"]
    assert refusals[-1].data["action"] == f"page {path}"


def test_a_token_is_bound_to_its_browser_and_session(room: Room, owner: FormClient
                                                     ) -> None:
    """Another browser's token, or the owner's token from before log-in, is refused."""
    stranger = FormClient(create_app(room))
    theirs = csrf_token(stranger)
    r = TestClient.post(owner, "/floor/tables", data={**FORMS["/floor/tables"], "csrf": theirs},
                        follow_redirects=False)
    assert r.status_code == 403
    anonymous = FormClient(create_app(room))
    before_login = csrf_token(anonymous)
    log_in(anonymous, "olga")
    r = TestClient.post(anonymous, "/floor/tables",
                        data={**FORMS["/floor/tables"], "csrf": before_login},
                        follow_redirects=False)
    assert r.status_code == 403
    r = anonymous.post("/floor/tables", data=FORMS["/floor/tables"], follow_redirects=False)
    assert r.status_code == 303


def test_a_foreign_origin_is_refused_even_with_a_token(room: Room, owner: FormClient
                                                       ) -> None:
    r = owner.post("/floor/tables", data=FORMS["/floor/tables"], follow_redirects=False,
                   headers={"origin": "https://evil.example"})
    assert r.status_code == 403 and "another site" in r.text
    r = owner.post("/floor/tables", data=FORMS["/floor/tables"], follow_redirects=False,
                   headers={"origin": "http://testserver"})
    assert r.status_code == 303


def test_table_socket_refuses_a_foreign_origin(room: Room, owner: FormClient
                                               ) -> None:
    owner.post("/floor/tables", data=FORMS["/floor/tables"])
    table = next(iter(room.tables))
    with pytest.raises(WebSocketDisconnect), \
            owner.websocket_connect(f"/ws/tables/{table}",
                                    headers={"origin": "https://evil.example"}) as ws:
        ws.receive_json()
    with room.storage.read() as conn:
        refusal = [e for e in audit.entries(conn) if e.action == "refused"][-1]
    assert refusal.data["origin"] == "https://evil.example"
    with owner.websocket_connect(f"/ws/tables/{table}",
                                 headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] != "error"


@pytest.mark.parametrize("path", ["/login", "/static/style.css", "/cards/back.svg",
                                  "/hands/999", "/no-such-page"])
def test_security_headers_on_every_response(room: Room, owner: FormClient,
                                            path: str) -> None:
    h = owner.get(path).headers
    csp = dict(part.strip().split(" ", 1) for part in h["content-security-policy"].split(";"))
    assert csp["script-src"] == "'self'" and csp["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in h["content-security-policy"]
    assert h["x-frame-options"] == "DENY" and h["x-content-type-options"] == "nosniff"
    assert h["referrer-policy"] == "same-origin"
    assert "strict-transport-security" not in h


def test_the_served_room_sends_no_server_banner(tmp_path: Path) -> None:
    """Issue 26: every response of `cardroom serve` said `server: uvicorn`. It names no
    software now: pages, files, errors, a refused method."""
    with served(str(tmp_path / "room.sqlite3")) as base:
        replies = [httpx.get(base + path) for path in ("/login", "/static/style.css",
                                                        "/no-such-page", "/hands/1")]
        replies.append(httpx.delete(base + "/login"))
    assert [r.status_code for r in replies] == [200, 200, 404, 303, 405]
    assert all("server" not in r.headers for r in replies)


def test_secure_cookies_mark_every_cookie_and_send_hsts(room: Room) -> None:
    with room.storage.unit() as conn:
        create_account(conn, "olga", PW, Role.OWNER)
    client = FormClient(create_app(room, secure_cookies=True), base_url="https://testserver")
    first = client.get("/login")
    assert "secure" in first.headers["set-cookie"].lower()
    assert first.headers["strict-transport-security"].startswith("max-age=")
    r = client.post("/login", data={"username": "olga", "password": PW},
                    follow_redirects=False)
    cookies = r.headers.get_list("set-cookie")
    assert {c.split("=", 1)[0] for c in cookies} == {COOKIE, "cardroom_device"}
    assert all("secure" in c.lower() and "httponly" in c.lower() for c in cookies)
    assert CSRF_COOKIE in client.cookies


def test_serve_passes_secure_cookies(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import uvicorn

    from cardroom.cli import app as cli

    served: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn.Server, "run",  # serve builds its app and would listen forever
                        lambda server, sockets=None: served.update(app=server.config.app))
    monkeypatch.setattr("cardroom.cli.room.listen", lambda host, port: None)
    result = CliRunner().invoke(cli, ["serve", "--secure-cookies", "--database",
                                      str(tmp_path / "room.sqlite3")])
    assert result.exit_code == 0, result.output
    headers = TestClient(served["app"], base_url="https://testserver").get("/login").headers
    assert "secure" in headers["set-cookie"].lower() and "strict-transport-security" in headers


@pytest.mark.parametrize("name", ["dealer", "house", "recovery", "anonymous", "owner"])
def test_the_rooms_own_names_cannot_be_registered(room: Room, name: str) -> None:
    client = FormClient(create_app(room))
    r = client.post("/register", data={"username": name, "password": PW},
                    follow_redirects=False)
    assert r.status_code == 400 and "reserved for the room" in r.text


def test_weak_password_is_refused_with_a_sentence(room: Room) -> None:
    client = FormClient(create_app(room))
    r = client.post("/register", data={"username": "alice", "password": "password"},
                    follow_redirects=False)
    assert r.status_code == 400 and "A password needs 10 to 200 characters" in r.text
    r = client.post("/register", data={"username": "alice", "password": "password1234"},
                    follow_redirects=False)
    assert r.status_code == 400 and "too easy to guess" in r.text


def test_register_backs_off_per_client(room: Room) -> None:
    """A browser that keeps no device id is counted by its address (issue 23: per device
    otherwise, tests/server/test_registration_devices.py)."""
    client = FormClient(create_app(room))
    codes = []
    for i in range(5):
        client.cookies.delete(COOKIE)
        client.cookies.delete(registrar.COOKIE)
        codes.append(client.post("/register", data={"username": f"player{i}", "password": PW},
                                 follow_redirects=False).status_code)
    assert codes == [303, 303, 303, 429, 429]


def test_owner_unlocks_from_the_floor_page(room: Room, owner: FormClient
                                           ) -> None:
    with room.storage.unit() as conn:
        player(conn, "alice", PW)
    phone = FormClient(create_app(room))  # alice's own browser, logged in before
    log_in(phone, "alice")
    phone.post("/logout")
    stranger = FormClient(create_app(room))
    for _ in range(6):
        stranger.post("/login", data={"username": "alice", "password": "wrong guess"})
    assert stranger.post("/login", data={"username": "alice", "password": PW}).status_code == 429
    log_in(phone, "alice")  # her device cookie keeps her out of the name's back-off
    page = owner.get("/floor").text
    assert 'id="held"' in page and "<td>alice</td>" in page
    r = owner.post("/floor/unlock", data={"username": "alice"})
    assert "Alice may log in again" in r.text and "No name is held back" in r.text
    # the stranger's own address is still backing off; alice from her own address gets in
    alice = FormClient(create_app(room), client=("10.0.0.8", 50000))
    log_in(alice, "alice")
