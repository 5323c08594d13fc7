"""The dealer's and the floorman's part at a Pan table in the room (house Pan rules 4 and 6),
played out through the room and the engine."""

from __future__ import annotations

import pytest

from cardroom.errors import CardroomError
from cardroom.room.money import hands
from cardroom.room.storage.db import Storage

from .pan_play import CHIP, books, pan, play_out, say, simple_move
from .rooms import pan_room as make_room


def test_pan_room_pan_rule_4_the_dealer_directs_action_no_hand_waits_on_no_one(
        storage: Storage) -> None:
    """Pan rule 4: "The dealer is responsible for directing action at a reasonable pace":
    after every decision the room plays the bots' turns and the dealer's own steps at once,
    so a hand in play always names the one person whose decision is due, and that person
    has a decision to make."""
    room, p, t = make_room(storage)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    for key in ("b1", "b2"):
        room.act(p["alice"], t, {"type": "bot", "key": key})
    room.act(p["alice"], t, {"type": "deal"})
    for _ in range(300):
        live = pan(room, t)
        if live.hand_id is None:
            break
        play = live.snapshot(p["alice"])["play"]
        to_act = play["to_act"]
        assert to_act is not None
        assert not next(s for s in play["seats"] if s["seat"] == to_act)["bot"]
        assert live.engine.accounts[to_act] == p["alice"].id
        mine = [x for x in play["legal"] if not x.startswith(("force", "foul", "offer"))]
        assert mine, f"alice is to act with nothing to do ({play['phase']})"
        say(room, p["alice"], t, simple_move(mine))
    assert pan(room, t).hand_id is None and pan(room, t).last is not None


def test_pan_room_pan_rule_6_the_floormans_decision_is_final(storage: Storage) -> None:
    """Pan rule 6: "Floorman's decision is final in all cases": a hand the floor voids stays
    void (no second ruling on it, no player decision on it), every stack is back as before
    the hand, and the record keeps who ruled and why."""
    room, p, t = make_room(storage)
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["alice"], t, {"type": "deal"})
    live = pan(room, t)
    hand_id, seq = live.hand_id, live.seq
    assert hand_id is not None
    room.act(p["fiona"], t, {"type": "void", "reason": "cards exposed in the deal"})
    with pytest.raises(CardroomError, match="no hand is in progress"):
        room.act(p["fiona"], t, {"type": "void", "reason": "again"})
    with pytest.raises(CardroomError):
        room.act(p["alice"], t, {"type": "pan", "command": "play", "seq": live.seq})
    with pytest.raises(CardroomError):
        room.act(p["bob"], t, {"type": "pan", "command": "play", "seq": seq})
    b = books(storage, t)
    assert b["tops"] == 0 and set(b.values()) == {0, 20 * CHIP}
    with storage.read() as conn:
        record = hands.hand_record(conn, hand_id)
    assert record["status"] == "voided"
    assert record["voided_by"] == "fiona" and record["reason"] == "cards exposed in the deal"


def test_pan_room_winner_is_first_hand_when_a_player_sits_down_between(
        storage: Storage) -> None:
    """Reference, seating and rotation: "The winner of a hand is first hand for the next
    one; the player on the winner's left deals." Alice (seat 1), Bob (seat 2) and a bot (seat
    3) sit; Bob leaves and Alice plays a hand against the bot, which goes out: Alice, on its
    left, would deal the next hand. Bob sits down again, in seat 2, now between Alice and the
    bot: the bot is still first hand, and Bob, on its left, deals."""
    room, p, t = make_room(storage)
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["alice"], t, {"type": "bot", "key": "b1"})
    room.act(p["bob"], t, {"type": "leave", "key": "l"})
    room.act(p["alice"], t, {"type": "deal"})
    play_out(room, [p["alice"]], t)
    g = pan(room, t).engine
    hand = g.hand
    assert hand is not None and hand.winner is not None
    assert list(hand.ring) == [1, 3] and hand.winner == 3
    bot = g.accounts[hand.winner]
    room.act(p["bob"], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s2"})
    room.act(p["alice"], t, {"type": "deal"})
    g = pan(room, t).engine
    nxt = g.hand
    assert nxt is not None and list(nxt.ring) == [1, 2, 3]
    assert g.accounts[nxt.first_hand] == bot
    assert g.accounts[nxt.dealer] == p["bob"].id
