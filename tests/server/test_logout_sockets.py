"""Logging out closes the table sockets opened with that session, and only those; a lock-out
or a change of role closes every table socket of that account at once (issue 26)."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.server.app import create_app
from cardroom.shoe import SeededRandom

from .forms import PW, FormClient, log_in, said, seated_player


def test_logout_closes_that_sessions_table_sockets(storage: Storage) -> None:
    room = Room(storage, SeededRandom(5))
    room.start()
    with storage.unit() as conn:
        owner = create_account(conn, "olga", PW, Role.OWNER)
        create_account(conn, "alice", PW, Role.PLAYER)
    room.create_table(owner, "Pan 1", "pan")
    app = create_app(room)
    phone, laptop = FormClient(app), FormClient(app)
    for c in (phone, laptop):
        assert c.post("/login", data={"username": "alice", "password": PW},
                      follow_redirects=False).status_code == 303
    with phone.websocket_connect("/ws/tables/1") as ws_phone, \
            laptop.websocket_connect("/ws/tables/1") as ws_laptop:
        assert ws_phone.receive_json()["type"] == "state"
        assert ws_laptop.receive_json()["type"] == "state"
        phone.post("/logout", follow_redirects=False)
        assert ws_phone.receive_json() == {"type": "error", "message": "logged out"}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws_phone.receive_json()
        assert closed.value.code == 4401
        ws_laptop.send_json({"type": "pan", "command": "play", "seq": 0})
        assert "no hand" in ws_laptop.receive_json()["message"]  # still connected


@pytest.mark.parametrize(("path", "form", "message"), [
    ("/staff/role", {"role": "dealer"}, "your role has changed: please log in again"),
    ("/staff/lock", {"reason": "left the room"}, "your account is locked out")])
def test_a_demoted_or_locked_out_floor_socket_cannot_void_after_the_change(
        storage: Storage, path: str, form: dict[str, str], message: str) -> None:
    """Issue 26: a floor supervisor demoted to dealer (or locked out) voided a hand from the
    socket opened before the change; the socket now closes at once, the hand stands."""
    room = Room(storage, SeededRandom(5))
    room.start()
    alice, table = seated_player(room, ("fred", Role.FLOOR))
    room.act(alice, table, {"type": "bet", "bets": {"banker": 1_000}, "key": "b"})
    app = create_app(room)
    olga, fred = FormClient(app), FormClient(app)
    log_in(olga, "olga")
    log_in(fred, "fred")
    with fred.websocket_connect(f"/ws/tables/{table}") as ws:
        assert ws.receive_json()["you"]["may_void"]
        r = olga.post(path, data={"username": "fred", **form}, follow_redirects=False)
        assert "error" not in said(r)
        ws.send_json({"type": "void", "reason": "after the change"})
        assert ws.receive_json() == {"type": "error", "message": message}
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    with storage.read() as conn:  # the void never reached the table
        assert not [e for e in audit.entries(conn) if e.actor == "fred" and "void" in str(e.data)]
