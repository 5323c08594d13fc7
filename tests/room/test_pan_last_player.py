"""Foul rule 5 at a Pan table in the room: a person left alone after fouls is not put face up
for him; he offers a settlement to the foul hands (5A: made only when every foul hand asked
agrees) or plays the hand out face up (5B). Rule 2: the player who called his own hand foul
pays the settlement he agreed to. The chips follow in the ledger."""

from __future__ import annotations

import pytest

from cardroom.errors import CardroomError
from cardroom.room.money import ledger
from cardroom.room.storage.db import Storage

from .pan_play import CHIP, alone_after_a_foul, books, check_books, pan, say


def test_pan_room_foul_rule_5_the_one_left_chooses_and_is_not_put_face_up(
        storage: Storage) -> None:
    """Foul rule 5: "the remaining player has the option of (A) a negotiated settlement ...
    or (B) playing his hand to completion face up": the room waits for his choice."""
    room, p, t, me, _him = alone_after_a_foul(storage)
    snap = pan(room, t).snapshot(p["alice"])["play"]
    assert snap["phase"] == "last-player" and snap["to_act"] == me
    assert "face up" in snap["legal"] and any(c.startswith("settle") for c in snap["legal"])
    assert pan(room, t).snapshot(p["bob"])["play"]["legal"] == []
    say(room, p["alice"], t, "face up")
    live = pan(room, t)
    hand = live.engine.hand
    assert hand is not None and hand.face_up and hand.phase.value == "playing"
    # 5B: his hand is now on view to every viewer, Bob included
    seats = live.snapshot(p["bob"])["play"]["seats"]
    assert next(s for s in seats if s["seat"] == me)["hand"] is not None
    check_books(room, t)


def test_pan_room_foul_rule_5a_settlement_needs_the_foul_players_agreement(
        storage: Storage) -> None:
    """Foul rule 5A: "a negotiated settlement, mutually satisfactory to all parties": Alice's
    offer moves nothing until Bob accepts; a declined offer leaves her the same choice;
    accepted, Bob pays what he agreed (rule 2: a self-declared foul still pays) and Alice
    takes the tops, posted in the ledger."""
    room, p, t, _me, him = alone_after_a_foul(storage)
    before = books(storage, t)
    alice, bob = ledger.stack(t, p["alice"].id), ledger.stack(t, p["bob"].id)
    say(room, p["alice"], t, f"settle {him} 3")
    assert books(storage, t) == before
    bob_view = pan(room, t).snapshot(p["bob"])["play"]
    assert bob_view["settlement"] == [{"seat": him, "name": "bob", "chips": 3,
                                       "agreed": False}]
    assert bob_view["legal"] == ["accept settlement", "decline settlement"]
    with pytest.raises(CardroomError, match="no settlement offer waits"):
        say(room, p["alice"], t, "accept settlement")       # her own offer
    say(room, p["bob"], t, "decline settlement")
    assert pan(room, t).snapshot(p["alice"])["play"]["phase"] == "last-player"
    assert pan(room, t).snapshot(p["bob"])["play"]["settlement"] is None
    with pytest.raises(CardroomError, match="no settlement offer waits"):
        say(room, p["bob"], t, "accept settlement")
    with pytest.raises(CardroomError):
        say(room, p["alice"], t, f"settle {him} 999")       # more than his chips
    say(room, p["alice"], t, f"settle {him} 3")
    say(room, p["bob"], t, "accept settlement")
    live = pan(room, t)
    assert live.hand_id is None and live.last is not None
    after = books(storage, t)
    # the tops (one chip each) go to Alice, and Bob's 3 chips
    assert after["tops"] == 0
    assert after[alice] - before[alice] == 3 * CHIP + before["tops"]
    assert before[bob] - after[bob] == 3 * CHIP
