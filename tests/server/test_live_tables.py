"""A table opened with `cardroom tables create` while the server runs goes live without a
restart: listed in the lobby with its Join link and joined over the WebSocket (issue 12)."""

from __future__ import annotations

import json

from room.people import player
from room.rooms import open_for_play
from typer.testing import CliRunner

import cardroom.cli  # noqa: F401  (registers every command)
from cardroom.cli import app
from cardroom.room.books.cashier import buy_chips
from cardroom.room.room import Room
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.server.app import create_app

from .forms import PW, FormClient, cookie_of, log_in


def test_a_table_created_from_the_cli_is_joined_without_a_restart(db_url: str) -> None:
    room = Room.open(db_url)  # the running server's room
    with room.storage.unit() as conn:
        alice = player(conn, "alice", PW)
        buy_chips(conn, SELF_SERVICE, alice, 50_000, "k")
    client = FormClient(create_app(room))
    log_in(client, "alice")
    assert room.tables == {}
    r = CliRunner().invoke(app, ["tables", "create", "Late Mini", "--database", db_url,
                                 "--json"])
    assert r.exit_code == 0, r.output
    table_id = json.loads(r.output)["id"]
    listed = client.get("/lobby").text  # listed, but not to join before its opener
    assert "Late Mini" in listed and "Not opened yet" in listed
    assert f'href="/tables/{table_id}" aria-label="Join Late Mini">Join' not in listed
    open_for_play(room, table_id)  # WAC 230-15-495: its opener before play
    assert f'href="/tables/{table_id}" aria-label="Join Late Mini">Join' in \
        client.get("/lobby").text
    with FormClient(create_app(room)) as sockets, \
            sockets.websocket_connect(f"/ws/tables/{table_id}",
                                      headers=cookie_of(client)) as ws:
        state = ws.receive_json()
        assert state["type"] == "state" and state["table"]["name"] == "Late Mini"
        ws.send_json({"type": "sit", "buy_in": 10_000, "key": "s"})
        assert ws.receive_json()["you"]["seated"]
        ws.send_json({"type": "bet", "bets": {"banker": 1_000}, "key": "b"})
        ws.receive_json()
        ws.send_json({"type": "deal"})
        assert ws.receive_json()["last"]["hand"] is not None


def test_a_table_created_from_the_cli_is_found_on_first_join(db_url: str) -> None:
    """No lobby visit first: the WebSocket's own look-up loads the table."""
    room = Room.open(db_url)
    with room.storage.unit() as conn:
        player(conn, "alice", PW)
    client = FormClient(create_app(room))
    log_in(client, "alice")
    r = CliRunner().invoke(app, ["tables", "create", "Pan 9 late", "--game", "super-pan-9",
                                 "--database", db_url, "--json"])
    table_id = json.loads(r.output)["id"]
    open_for_play(room, table_id)
    with FormClient(create_app(room)) as sockets, \
            sockets.websocket_connect(f"/ws/tables/{table_id}",
                                      headers=cookie_of(client)) as ws:
        assert ws.receive_json()["game"] == "super-pan-9"
    assert table_id in room.tables
