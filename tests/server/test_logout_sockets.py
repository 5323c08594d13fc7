"""Logging out closes the table sockets opened with that session, and only those."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from cardroom.room.accounts import Role, create_account
from cardroom.room.db import Storage
from cardroom.room.room import Room
from cardroom.server.app import create_app
from cardroom.shoe import SeededRandom

from .forms import PW, FormClient


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
