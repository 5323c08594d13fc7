"""Recall and history export for hands of every game: players recall their own hands, the
auditor any; a missing hand is a 404, a record without a shared-format history a 400, never
a 500."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from room.people import person
from room.rooms import playing_table
from sqlalchemy import insert

from cardroom.history import HandHistory, replay
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Role
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import hands as hands_table
from cardroom.server.app import create_app
from cardroom.shoe import SeededRandom

from .forms import PW, FormClient, log_in


@pytest.fixture
def room(storage: Storage) -> Room:
    r = Room(storage, SeededRandom(5))
    r.start()
    return r


def people(room: Room) -> dict[str, Account]:
    with room.storage.unit() as conn:
        out = {n: person(conn, n, PW, r) for n, r in [
            ("olivia", Role.OWNER), ("alice", Role.PLAYER), ("bob", Role.PLAYER),
            ("audrey", Role.AUDITOR)]}
        for n in ("alice", "bob"):
            ledger.post(conn, f"seed-{n}", "buy-chips", [
                (ledger.HOUSE_CAGE, -100_000), (ledger.wallet(out[n].id), 100_000)], actor="t")
    return out


def play_super_pan_9(room: Room, p: dict[str, Account]) -> int:
    t = playing_table(room, p["olivia"], "SP9", "super-pan-9").table_id
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "b"})
    room.act(p["alice"], t, {"type": "deal"})
    room.act(p["alice"], t, {"type": "stand"})
    last = room.table(t).snapshot(p["alice"])["last"]
    assert last is not None
    return int(last["hand"])


def play_pai_gow(room: Room, p: dict[str, Account]) -> int:
    t = playing_table(room, p["olivia"], "PG", "pai-gow").table_id
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "b"})
    room.act(p["alice"], t, {"type": "deal"})
    room.act(p["alice"], t, {"type": "house_way"})
    last = room.table(t).snapshot(p["alice"])["last"]
    assert last is not None
    return int(last["hand"])


@pytest.mark.parametrize("game", ["super-pan-9", "pai-gow"])
def test_room_hands_of_every_game_recall_and_export_for_cardroom_replay(
        room: Room, game: str) -> None:
    p = people(room)
    hand_id = (play_super_pan_9 if game == "super-pan-9" else play_pai_gow)(room, p)
    rec = room.recall(p["alice"], hand_id)
    assert rec.ok and rec.report is not None and rec.report.game == game, rec.problems
    alice, bob, audrey = (FormClient(create_app(room)) for _ in range(3))
    log_in(alice, "alice")
    log_in(bob, "bob")
    log_in(audrey, "audrey")
    assert "the result matches" in alice.get(f"/hands/{hand_id}").text
    assert bob.get(f"/hands/{hand_id}").status_code == 403
    assert bob.get(f"/hands/{hand_id}/history.json").status_code == 403
    assert audrey.get(f"/hands/{hand_id}").status_code == 200
    r = audrey.get(f"/hands/{hand_id}/history.json")
    assert r.status_code == 200
    report = replay(HandHistory.from_json(r.json()))
    assert report.ok and report.game == game


def test_a_missing_hand_is_a_404_and_a_record_without_history_a_400(room: Room) -> None:
    t = playing_table(room, people(room)["olivia"], "Mini", "baccarat").table_id
    with room.storage.unit() as conn:
        old = conn.execute(insert(hands_table).values(
            table_id=t, number=1, status="settled", opened_at=datetime.now(UTC),
            history=json.dumps({"format": "cardroom-hand-history/1", "game": "pai-gow"}))
            .returning(hands_table.c.id)).scalar_one()
    audrey = FormClient(create_app(room), raise_server_exceptions=False)
    log_in(audrey, "audrey")
    missing = audrey.get("/hands/9999")
    assert missing.status_code == 404 and "There is no hand 9999." in missing.text
    missing_json = audrey.get("/hands/9999/history.json")
    assert missing_json.status_code == 404
    assert missing_json.json() == {"error": "there is no hand 9999"}
    page = audrey.get(f"/hands/{old}")
    assert page.status_code == 200 and "recorded in an older format" in page.text
    legacy = audrey.get(f"/hands/{old}/history.json")
    assert legacy.status_code == 400 and "older format" in legacy.json()["error"]

