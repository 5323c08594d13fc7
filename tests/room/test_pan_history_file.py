"""Hidden information stays hidden in the records (issue 20, "Pan recall shows a player every
opponent's concealed hand"; docs/security.md): a settled Pan hand's history file names every
card dealt, the other players' concealed hands too, so it is the staff's ('read every
record'); its player recalls the hand as he saw it and is told why the file is not his."""

from __future__ import annotations

from server.forms import FormClient, log_in

from cardroom.history import HIDDEN_CARD, HandHistory, replay
from cardroom.room.storage.db import Storage
from cardroom.server.app import create_app

from .pan_play import alice_and_bots, pan, play_out
from .rooms import pan_room

WITHHELD = "only the floor or the auditor may download it"


def test_a_pan_players_history_file_is_withheld_the_auditors_replays(storage: Storage) -> None:
    """Alice plays a hand against a house bot to its end. The bot's concealed cards are in
    the history's pack; Alice's recall page offers no download and says why, her request
    for the file is refused with that sentence (403); the auditor's file replays."""
    room, p, t = pan_room(storage)
    alice_and_bots(room, p["alice"], t, 1)
    room.act(p["alice"], t, {"type": "deal"})
    hand_id = pan(room, t).hand_id
    play_out(room, [p["alice"]], t)
    alice, audrey = FormClient(create_app(room)), FormClient(create_app(room))
    log_in(alice, "alice")
    log_in(audrey, "audrey")
    page = alice.get(f"/hands/{hand_id}")
    assert page.status_code == 200 and "the result matches" in page.text
    assert WITHHELD in page.text and "history.json" not in page.text
    refused = alice.get(f"/hands/{hand_id}/history.json")
    assert refused.status_code == 403 and WITHHELD in refused.text
    assert "history.json" in audrey.get(f"/hands/{hand_id}").text
    doc = audrey.get(f"/hands/{hand_id}/history.json").json()
    assert sum(c != HIDDEN_CARD for c in doc["pack"]) >= 2 * 10  # both dealt hands named
    assert replay(HandHistory.from_json(doc)).ok
