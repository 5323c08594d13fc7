"""The engine protocol's history functions (`cardroom.engine.history_actions`,
`history_pack`) give exactly the ``actions`` and ``pack`` the room writes for Super Pan 9 and
Pai Gow hands (docs/hand-history.md): every hand settled below is checked at the moment the
room records it, with the engine's event log as it stands then. The hands cover wagers and the
Tie Bet, draws and stands, the dealer's draw, an irregularity voiding one seat, player banking,
the dragon hand, settings by the player and by the house way, and a misdeal's redeal."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.engine import history_actions, history_pack
from cardroom.room.money import hands
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage

from .rooms import pai_gow_room, playing_table, super_pan_9_room

Checked = list[tuple[dict[str, Any], list[dict[str, Any]], list[str]]]


def watch(monkeypatch: pytest.MonkeyPatch, room: Room) -> Checked:
    """Every history the room records, beside what the engine's log derives at that moment."""
    seen: Checked = []
    record = hands.close_settled

    def close_settled(conn: Any, hand_id: int, history: dict[str, Any]) -> None:
        live = next(t for t in room.tables.values() if getattr(t, "hand_id", None) == hand_id)
        events = live.engine.events  # type: ignore[attr-defined]
        seen.append((history, history_actions(events), history_pack(events)))
        record(conn, hand_id, history)

    monkeypatch.setattr(hands, "close_settled", close_settled)
    return seen


def same(seen: Checked, hands_played: int) -> None:
    assert len(seen) == hands_played
    for history, actions, pack in seen:
        assert actions == history["actions"]
        assert pack == history["pack"]


def test_super_pan_9_history_actions_and_pack_come_from_the_event_log(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    room, p, t = super_pan_9_room(storage, seed=4)
    assert t is not None
    seen = watch(monkeypatch, room)
    a, b, dan = p["alice"], p["bob"], p["dan"]
    room.act(a, t, {"type": "sit", "buy_in": 20_000, "key": "sa"})
    room.act(b, t, {"type": "sit", "buy_in": 20_000, "key": "sb"})
    for n, (first, second) in enumerate((("draw", "stand"), ("stand", "draw"),
                                         ("stand", "stand"), ("draw", "draw"))):
        room.act(a, t, {"type": "bet", "bets": {"wager": 1_000, "tie": 100}, "key": f"a{n}"})
        room.act(b, t, {"type": "bet", "bets": {"wager": 2_000}, "key": f"b{n}"})
        room.act(a, t, {"type": "deal"})
        room.act(a, t, {"type": first})
        room.act(b, t, {"type": second})
    # an irregularity voids alice's hand; bob plays on and the round settles
    room.act(a, t, {"type": "bet", "bets": {"wager": 1_000}, "key": "a9"})
    room.act(b, t, {"type": "bet", "bets": {"wager": 2_000}, "key": "b9"})
    room.act(a, t, {"type": "deal"})
    room.act(dan, t, {"type": "irregularity", "kind": "exposed-card", "seat": 1,
                      "reason": "card flashed"})
    room.act(b, t, {"type": "draw"})
    same(seen, 5)
    assert any(act["type"] == "dealer_draw" for h, _, _ in seen for act in h["actions"])


def set_hands(room: Room, t: int, people: list[Account], how: str) -> None:
    for who in people:
        for spot in room.table(t).snapshot(who)["you"]["to_set"]:
            if how == "house_way":
                room.act(who, t, {"type": "house_way", "spot": spot})
                continue
            mine = next(s for s in room.table(t).snapshot(who)["spots"] if s["spot"] == spot)
            cards = [c["text"] for c in mine["cards"]]
            # the two lowest-ranked cards in front: legal or not, the house rule decides
            room.act(who, t, {"type": "set", "spot": spot, "front": cards[-2:]})


def test_pai_gow_history_actions_and_pack_come_from_the_event_log(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    room, p, t = pai_gow_room(storage, seed=9, rules={"foul_policy": "reset-house-way"})
    assert t is not None
    seen = watch(monkeypatch, room)
    a, b, fiona = p["alice"], p["bob"], p["fiona"]
    room.act(a, t, {"type": "sit", "buy_in": 30_000, "key": "a"})
    room.act(b, t, {"type": "sit", "buy_in": 30_000, "key": "b"})
    # hand 1: both wager, set by hand (a foul reset to the house way is a "set" too)
    room.act(a, t, {"type": "bet", "bets": {"wager": 2_000}, "key": "1a"})
    room.act(b, t, {"type": "bet", "bets": {"wager": 1_000}, "key": "1b"})
    room.act(fiona, t, {"type": "deal"})
    set_hands(room, t, [a, b], "set")
    # hand 2: alice banks, a misdeal, the redeal, the house way
    room.act(b, t, {"type": "bet", "bets": {"wager": 1_000}, "key": "2b"})
    room.act(a, t, {"type": "bank", "key": "2bank"})
    room.act(fiona, t, {"type": "deal"})
    room.act(fiona, t, {"type": "irregularity", "kind": "misdeal", "reason": "box jam"})
    room.act(fiona, t, {"type": "deal"})
    set_hands(room, t, [a, b], "house_way")
    same(seen, 2)
    assert [x["type"] for x in seen[1][0]["actions"]] == ["wager", "bank", "deal",
                                                          "house_way", "house_way"]


def test_pai_gow_dragon_hand_history_comes_from_the_event_log(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    room, p, _ = pai_gow_room(storage, seed=5)
    seen = watch(monkeypatch, room)
    a, b = p["alice"], p["bob"]
    for policy, how in (("player-sets", "set"), ("house-way", "house_way")):
        d = playing_table(room, p["olivia"], f"Dragon {policy}", "pai-gow",
                              {"dragon_hand": policy}).table_id
        room.act(b, d, {"type": "sit", "buy_in": 20_000, "key": "b"})
        room.act(a, d, {"type": "sit", "buy_in": 20_000, "key": "a"})
        room.act(a, d, {"type": "bet", "bets": {"wager": 1_000}, "key": "w"})
        room.act(a, d, {"type": "dragon", "amount": 2_000, "key": "d1"})
        room.act(b, d, {"type": "bet", "bets": {"wager": 500}, "key": "w"})
        room.act(a, d, {"type": "deal"})
        set_hands(room, d, [a, b], how)
    same(seen, 2)
    assert all(any(x["type"] == "dragon" for x in h["actions"]) for h, _, _ in seen)
