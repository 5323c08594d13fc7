"""Issue 6: a floor-voided hand's `/hands/<id>/history.json` is its shared-format history,
ending in the `void` action, and it replays with every wager returned."""

from __future__ import annotations

from cardroom.history import HandHistory, replay
from cardroom.room import ledger
from cardroom.room.room import Room
from cardroom.server.app import create_app

from .forms import FormClient, log_in, setup_table


def test_voided_hand_serves_its_history_file(room: Room) -> None:
    ctx = setup_table(room)
    t, alice = ctx["table"], ctx["people"]["alice"]
    with room.storage.unit() as conn:
        ledger.post(conn, "seed-alice", "buy-chips", [(ledger.HOUSE_CAGE, -50_000),
                                                      (ledger.wallet(alice.id), 50_000)],
                    actor="t")
    room.act(alice, t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(alice, t, {"type": "bet", "bets": {"player": 5_000}, "key": "b"})
    hand_id = room.table(t).hand_id  # type: ignore[attr-defined]
    floor = FormClient(create_app(room))
    log_in(floor, "fiona")
    floor.post("/floor/void", data={"table_id": t, "reason": "misdeal"})
    auditor = FormClient(create_app(room))
    log_in(auditor, "audrey")
    r = auditor.get(f"/hands/{hand_id}/history.json")
    assert r.status_code == 200
    doc = r.json()
    assert doc["actions"][-1] == {**doc["actions"][-1], "type": "void", "by": "fiona",
                                  "reason": "misdeal"}
    assert doc["pack"] == [] and doc["result"]["chips"] == [20_000]
    assert replay(HandHistory.from_json(doc)).ok
    page = auditor.get(f"/hands/{hand_id}").text
    assert "Voided by fiona: misdeal" in page and "every wager returned" in page
