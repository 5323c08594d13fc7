"""What changed, to the live pages (`cardroom.server.changes`, `/ws/changes`): within one
process (SQLite, or one PostgreSQL process: no link, nothing sent to the database) a form of
the floor and a table's action are told to every open change socket by topic alone; the
topics a notification may carry, the forms' topics and the listener's connection string.
Across processes: `test_changes_across.py`."""

from __future__ import annotations

import asyncio

import pytest
from starlette.websockets import WebSocketDisconnect

from cardroom.room.room import Room
from cardroom.server.app import create_app
from cardroom.server.changes import TOPIC, Changes, channel_of, conninfo, form_topics
from cardroom.server.hub import Hub
from server.forms import FormClient, log_in, said, seated_player


def test_a_form_and_a_table_action_are_told_to_the_change_sockets_of_the_process(
        room: Room) -> None:
    _, table = seated_player(room)
    app = create_app(room)
    alice, olga = FormClient(app), FormClient(app)
    log_in(alice, "alice")
    log_in(olga, "olga")
    with alice.websocket_connect("/ws/changes") as changes:
        r = olga.post("/floor/tables", data={"name": "Mini 2", "game": "baccarat"},
                      follow_redirects=False)
        assert said(r) == {"message": "table Mini 2 added"}
        assert changes.receive_json() == {"type": "changed", "what": ["lobby"]}
        with alice.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.receive_json()
            ws.send_json({"type": "bet", "bets": {"player": 500}, "key": "b"})
            assert ws.receive_json()["hand"]["open"]
        assert changes.receive_json() == {"type": "changed", "what": [f"table {table}"]}
    assert app.state.hub.changes.outbox == set()  # one process: nothing to send


def test_a_seat_taken_or_left_is_told_as_a_table_and_a_cage_change(room: Room) -> None:
    """Issue 25, "every page ... updates (... cage)": a sit buys in from the player's chips
    at the cage and a leave cashes out to them, so both name the `cage` beside the table
    (the chips at the cage on the player's pages follow); a bet names only the table."""
    alice, table = seated_player(room)
    hub = Hub()

    async def told(msg: dict[str, object]) -> list[str]:
        async with hub.changes.subscribe() as sub:
            await hub.act(room, alice, table, msg)
            return sorted(await sub.next())

    assert asyncio.run(told({"type": "leave", "key": "l"})) == ["cage", f"table {table}"]
    assert asyncio.run(told({"type": "sit", "buy_in": 10_000, "key": "s2"})) == \
        ["cage", f"table {table}"]
    assert asyncio.run(told({"type": "bet", "bets": {"player": 500}, "key": "b"})) == \
        [f"table {table}"]


def test_the_change_socket_needs_a_session(room: Room) -> None:
    seated_player(room)
    with FormClient(create_app(room)).websocket_connect("/ws/changes") as ws:
        assert ws.receive_json()["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4401


def test_changes_are_merged_for_a_page_and_sent_on_only_with_a_link() -> None:
    async def run() -> tuple[set[str], set[str]]:
        changes = Changes()
        async with changes.subscribe() as page:
            changes.changed("table 3")
            changes.changed("jackpot", "table 3")
            first = await page.next()
            assert changes.outbox == set()
            changes.linked = True
            changes.changed("cage")
            return first, {*changes.take_outbox(), *await page.next()}

    assert asyncio.run(run()) == ({"table 3", "jackpot"}, {"cage"})


@pytest.mark.parametrize(("topic", "taken"), [
    ("table 7", True), ("lobby", True), ("jackpot", True), ("cage", True), ("room", True),
    ("table 0", False), ("table 07", False), ("table x", False), ("As Kd", False),
    ("lobby ", False), ("table 1234567890123", False)])
def test_only_known_topics_are_heard(topic: str, taken: bool) -> None:
    assert bool(TOPIC.fullmatch(topic)) is taken


def test_the_forms_topics_and_the_listeners_connection() -> None:
    # issue 25: a fill or credit voided, or signed into the books, moves the cage too; a
    # signature may move a meter (a two-person adjustment)
    assert [form_topics(p) for p in (
        "/floor/jackpot/post", "/floor/void", "/floor/inventory/void", "/cage/sell",
        "/cashier/buy", "/signatures/3/accept", "/login")] == [
        ("jackpot",), ("lobby",), ("lobby", "cage"), ("cage",), ("cage",),
        ("lobby", "cage", "jackpot"), ()]
    info = conninfo("postgresql+psycopg://u:pw@db:5433/room?options=-csearch_path%3Dr1"
                    "&connect_timeout=2")
    assert "password=pw" in info and "options=-csearch_path=r1" in info
    assert "connect_timeout=2" in info and "keepalives_idle=10" in info
    assert channel_of("r1") == "cardroom.r1" and len(channel_of("x" * 80)) == 63
