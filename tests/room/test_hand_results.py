"""Issue 23, the player's hand history: each player's row of a closed Pan hand keeps the chips
they paid in and the hand's net result for them, in cents. Expected from the Pan rules and
the hand's own record: every player pays one chip to the tops at the deal ("Tops and
declarations"), and a player's result is their chips at the end less their chips at the deal
(the history's `result.chips` and `seats`)."""

from __future__ import annotations

from cardroom.room.money import hands
from cardroom.room.storage.db import Storage

from .pan_play import CHIP, pan, play_out
from .rooms import pan_room as make_room


def test_a_pan_player_s_history_row_keeps_what_they_paid_in_and_their_net(storage: Storage
                                                                           ) -> None:
    room, p, t = make_room(storage)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    for k in ("b1", "b2"):
        room.act(p["alice"], t, {"type": "bot", "key": k})
    room.act(p["alice"], t, {"type": "deal"})
    hand_id = pan(room, t).hand_id
    assert hand_id is not None
    assert room.history(p["alice"]).rows[0]["net"] is None  # in play: nothing yet
    play_out(room, [p["alice"]], t)
    with storage.read() as conn:
        record = hands.hand_record(conn, hand_id)
    [row] = room.history(p["alice"]).rows
    seat = next(i for i, s in enumerate(record["seats"]) if s["name"] == "alice")
    assert row["net"] == (record["result"]["chips"][seat] - record["seats"][seat]["chips"]) * CHIP
    assert row["wagered"] >= CHIP  # the tops at least
    assert row["wagered"] + row["net"] >= 0  # what she took back is never less than nothing
