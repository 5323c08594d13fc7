"""Issue 6: a floor-voided hand's `/hands/<id>/history.json` is its shared-format history,
ending in the `void` action, and it replays with every wager returned."""

from __future__ import annotations

from cardroom.history import HandHistory, replay
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.server.app import create_app

from .forms import FormClient, log_in, setup_table


def fund(room: Room, who: Account, cents: int) -> None:
    """`who` buys `cents` of chips at the cage."""
    with room.storage.unit() as conn:
        ledger.post(conn, f"seed-{who.username}", "buy-chips",
                    [(ledger.HOUSE_CAGE, -cents), (ledger.wallet(who.id), cents)], actor="t")


def floor_voids(room: Room, t: int, reader: str) -> FormClient:
    """Fiona voids the hand in play at table `t` ("misdeal") with the floor's form; then
    `reader` logs in: their client."""
    floor = FormClient(create_app(room))
    log_in(floor, "fiona")
    floor.post("/floor/void", data={"table_id": t, "reason": "misdeal"})
    client = FormClient(create_app(room))
    log_in(client, reader)
    return client


def test_voided_hand_serves_its_history_file(room: Room) -> None:
    ctx = setup_table(room)
    t, alice = ctx["table"], ctx["people"]["alice"]
    fund(room, alice, 50_000)
    room.act(alice, t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(alice, t, {"type": "bet", "bets": {"player": 5_000}, "key": "b"})
    hand_id = room.table(t).hand_id  # type: ignore[attr-defined]
    auditor = floor_voids(room, t, "audrey")
    r = auditor.get(f"/hands/{hand_id}/history.json")
    assert r.status_code == 200
    doc = r.json()
    assert doc["actions"][-1] == {**doc["actions"][-1], "type": "void", "by": "fiona",
                                  "reason": "misdeal"}
    assert doc["pack"] == [] and doc["result"]["chips"] == [20_000]
    assert replay(HandHistory.from_json(doc)).ok
    page = auditor.get(f"/hands/{hand_id}").text
    assert "Voided by fiona: misdeal" in page and "every wager returned" in page


def test_voided_pan_hand_recalls_for_its_player_and_serves_its_history_file(
        room: Room) -> None:
    """Issue 20: a Pan hand the floor voids is in its player's history; his recall page and
    his history file show it (in chips, every stack back), and no card: a void's history
    names none, so no opponent's concealed hand is shown."""
    ctx = setup_table(room)
    people = ctx["people"]
    t = room.create_table(people["olivia"], "Pan 1", "pan").table_id
    for name in ("alice", "bob"):
        fund(room, people[name], 5_000)
        room.act(people[name], t, {"type": "sit", "buy_in": 2_000, "key": "s"})
    room.act(people["alice"], t, {"type": "deal"})
    hand_id = room.table(t).hand_id  # type: ignore[attr-defined]
    alice = floor_voids(room, t, "alice")
    assert f"/hands/{hand_id}" in alice.get("/history").text
    page = alice.get(f"/hands/{hand_id}")
    assert page.status_code == 200
    assert "Voided by fiona: misdeal" in page.text
    assert "Replayed from its history: every wager returned" in page.text
    doc = alice.get(f"/hands/{hand_id}/history.json").json()
    assert doc["game"] == "pan" and doc["pack"] == []
    assert doc["result"]["chips"] == [20, 20]
    assert replay(HandHistory.from_json(doc)).ok
