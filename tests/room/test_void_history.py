"""Issue 6: a voided hand (floor void or crash recovery) leaves a shared-format history whose
last action is `void` (who, why), every stack as before, no card, and it replays."""

from __future__ import annotations

import pytest

from cardroom.history import HandHistory, HistoryError, replay
from cardroom.room.money import hands
from cardroom.room.play.recall import history_of
from cardroom.room.play.recall import replay as recall
from cardroom.room.play.resume import NOT_RESUMED
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.shoe import SeededRandom

from .rooms import baccarat_room, pai_gow_room, start_round, super_pan_9_room, tid, unseal


def _check(storage: Storage, hand_id: int, by: str, reason: str, stacks: list[int]) -> None:
    with storage.read() as conn:
        record = hands.hand_record(conn, hand_id)
        doc = history_of(hands.hand_record(conn, hand_id)).to_json()
    assert record["status"] == "voided" and doc["pack"] == []
    assert doc["actions"][-1]["type"] == "void"
    assert (doc["actions"][-1]["by"], doc["actions"][-1]["reason"]) == (by, reason)
    report = replay(HandHistory.from_json(doc))
    assert report.ok and report.final_chips == report.start_chips == stacks
    assert report.movements == [] and "voided" in report.outcome
    assert recall(record).ok


def test_baccarat_floor_void_leaves_a_history(storage: Storage) -> None:
    room, p, _ = baccarat_room(storage)
    t = tid(room)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"banker": 5_000}, "key": "b"})
    hand_id = room.table(t).hand_id
    room.act(p["fiona"], t, {"type": "void", "reason": "card exposed"})
    _check(storage, hand_id or 0, "fiona", "card exposed", [20_000])


def test_super_pan_9_recovery_void_leaves_a_history_without_cards(storage: Storage) -> None:
    room, p, t = super_pan_9_room(storage)
    start_round(room, p, t)
    hand_id = room.table(t).hand_id  # type: ignore[attr-defined]
    unseal(storage, t)  # a hand the restart cannot resume (issue 25) is voided
    Room(storage, SeededRandom(2)).start()
    _check(storage, hand_id, "recovery", NOT_RESUMED, [20_000, 20_000])


def test_pai_gow_recovery_void_leaves_a_history_without_cards(storage: Storage) -> None:
    room, p, t = pai_gow_room(storage)
    room.act(p["bob"], t, {"type": "sit", "buy_in": 20_000, "key": "b"})
    room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "w"})
    room.act(p["bob"], t, {"type": "deal"})
    hand_id = room.table(t).hand_id  # type: ignore[attr-defined]
    unseal(storage, t)  # a hand the restart cannot resume (issue 25) is voided
    Room(storage, SeededRandom(1)).start()
    _check(storage, hand_id, "recovery", NOT_RESUMED, [20_000])


@pytest.mark.parametrize("game", ["baccarat", "super-pan-9", "pai-gow"])
def test_replay_refuses_a_void_that_is_not_last_or_shows_cards(game: str) -> None:
    from cardroom.games.baccarat.rules import BaccaratRules
    from cardroom.games.pai_gow.rules import PaiGowRules
    from cardroom.games.super_pan_9.rules import SuperPan9Rules
    rules = {"baccarat": BaccaratRules, "super-pan-9": SuperPan9Rules,
             "pai-gow": PaiGowRules}[game]().model_dump(mode="json")
    void = {"type": "void", "by": "floor", "reason": "x"}
    base = {"format": "cardroom.hand-history", "version": 1, "game": game, "rules": rules,
            "seats": [{"seat": 1, "name": "a", "chips": 100}], "pack": [], "actions": [void],
            "setup": {"jackpot": {"meter": 250_000, "posted": 250_000}}}
    assert replay(HandHistory.from_json(base)).ok
    twice = HandHistory.from_json({**base, "actions": [void, void]})
    assert not replay(twice).ok
    shown = HandHistory.from_json({**base, "pack": ["As"]})
    if game == "pai-gow":  # one card is not the 53-card deck: refused before any action
        with pytest.raises(HistoryError, match="not the Pai Gow deck"):
            replay(shown)
    else:
        assert not replay(shown).ok
