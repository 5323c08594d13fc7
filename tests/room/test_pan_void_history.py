"""Issue 20, "every floor action of every game is in the history and replays": a Pan hand
the floor voids (or the restart after a crash voids) has a shared-format history, in chips,
with its house bots; it is in the players' history, recalls, and `cardroom replay FILE`
exits 0 on it; the tops a redeal carried into it stay for the next hand."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from sqlalchemy import delete

from cardroom.history import HandHistory, replay
from cardroom.room.money import hands, ledger
from cardroom.room.play.recall import history_of, recall_page
from cardroom.room.play.resume import NOT_RESUMED
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import seats
from cardroom.shoe import SeededRandom

from .pan_play import (
    CHIP,
    alice_and_bob_dealt,
    alice_and_bots,
    books,
    false_out_carries_the_tops,
    pan,
)
from .rooms import pan_room, unseal


def replay_file(tmp_path: Path, document: dict[str, object]) -> subprocess.CompletedProcess[str]:
    """`cardroom replay FILE` through the installed console script."""
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return subprocess.run([str(Path(sys.executable).parent / "cardroom"), "replay", str(path)],
                          capture_output=True, text=True, timeout=120, check=False)


def test_pan_floor_void_carried_tops_are_in_the_history_and_replay(
        storage: Storage, tmp_path: Path) -> None:
    """Pan foul rule 6 ("the Tops remain and the hand is redealt"): alice and bob's first hand
    ends in a false declaration of going out, 2 chips of tops carried. The redealt hand is
    voided by the floor (rule 6, "Floorman's decision is final"): its history names the 2
    carried tops, kept for the next hand (`tops_carry_out`), every stack as before the hand
    in whole chips; it is in alice's history, recalls as matching, and the exported file
    replays through `cardroom replay` with exit 0. The carried tops stay in the table's tops
    account, in the engine and after a restart."""
    room, p, t = pan_room(storage)
    alice_and_bob_dealt(room, p, t)
    false_out_carries_the_tops(room, p, t)
    room = Room(storage, SeededRandom(5))  # the carried tops come back from the books
    room.start()
    live = pan(room, t)
    assert live.engine.carried == (2, 0)
    stacks = {n: books(storage, t)[ledger.stack(t, p[n].id)] for n in ("alice", "bob")}

    room.act(p["bob"], t, {"type": "deal"})
    voided = live.hand_id
    assert voided is not None and live.engine.hand is not None
    assert live.engine.hand.carried_tops == (2, 0)
    room.act(p["fiona"], t, {"type": "void", "reason": "cards exposed in the deal"})
    assert live.engine.carried == (2, 0) and books(storage, t)["tops"] == 2 * CHIP

    with storage.read() as conn:
        document = history_of(hands.hand_record(conn, voided)).to_json()
    assert document["game"] == "pan" and document["pack"] == []
    assert document["setup"]["carried_tops"] == [2, 0]
    assert document["setup"]["tops_carry_out"] == [2, 0]
    assert document["setup"]["unit"] == "chips"
    assert document["actions"][-1]["type"] == "void"
    assert document["actions"][-1]["by"] == "fiona"
    assert {s["name"]: s["chips"] for s in document["seats"]} == {
        n: stacks[n] // CHIP for n in ("alice", "bob")}
    assert document["result"]["chips"] == [s["chips"] for s in document["seats"]]
    assert (voided, "voided") in [(h["id"], h["status"])
                                  for h in room.history(p["alice"]).rows]

    recalled = room.recall(p["alice"], voided)
    assert recalled.ok, recalled.problems
    page = recall_page(recalled)
    assert [s["net"] for s in page["seats"]] == ["0 chips", "0 chips"]
    assert "the floor voids the hand" in page["steps"][-1]["words"]
    run = replay_file(tmp_path, document)
    assert run.returncode == 0, run.stdout + run.stderr

    again = Room(storage, SeededRandom(8))
    again.start()
    assert pan(again, t).engine.carried == (2, 0)


def test_pan_recovery_void_with_a_bot_has_a_history_that_replays(
        storage: Storage, tmp_path: Path) -> None:
    """A crash mid-hand whose record cannot be resumed (issue 25; here none was sealed, as
    in books from before hands were sealed): the restart voids it ("recovery"). Alice played it
    against a house bot (a negative account with no username): the history names the bot
    "bot-2" with no account, Alice with hers, each at the table seat it sat in; the stacks
    are as before the hand; the file replays (exit 0)."""
    room, p, t = pan_room(storage)
    alice = p["alice"]
    live = alice_and_bots(room, alice, t, 1)
    room.act(alice, t, {"type": "deal"})
    hand_id = live.hand_id
    assert hand_id is not None
    unseal(storage, t)
    again = Room(storage, SeededRandom(9))
    assert again.start() == [hand_id]
    with storage.read() as conn:
        document = history_of(hands.hand_record(conn, hand_id)).to_json()
    assert [(s["name"], s["account"], s["table_seat"], s["chips"])
            for s in document["seats"]] == [("alice", alice.id, 1, 20), ("bot-2", None, 2, 20)]
    assert document["actions"] == [{"type": "void", "by": "recovery",
                                    "reason": NOT_RESUMED,
                                    "returned": [{"seat": 0, "name": "alice", "chips": 1},
                                                 {"seat": 1, "name": "bot-2", "chips": 1}]}]
    recalled = again.recall(alice, hand_id)
    assert recalled.ok, recalled.problems
    run = replay_file(tmp_path, document)
    assert run.returncode == 0, run.stdout + run.stderr


def test_pan_recovery_void_writes_a_player_whose_seat_row_is_gone(storage: Storage) -> None:
    """A player of the hand whose seat row is no longer there (the books still hold his
    stack): the hand cannot be resumed (issue 25: its record does not agree with the table),
    so the restart voids it; the player is written with no table seat, the room still starts
    and the history still replays."""
    room, p, t = pan_room(storage)
    alice_and_bob_dealt(room, p, t)
    hand_id = pan(room, t).hand_id
    assert hand_id is not None
    with storage.unit() as conn:
        conn.execute(delete(seats).where(seats.c.account_id == p["bob"].id))
    again = Room(storage, SeededRandom(9))
    assert again.start() == [hand_id]
    with storage.read() as conn:
        document = history_of(hands.hand_record(conn, hand_id)).to_json()
    assert [(s["name"], s["table_seat"]) for s in document["seats"]] == [
        ("bob", None), ("alice", 1)]
    assert replay(HandHistory.from_json(document)).ok
