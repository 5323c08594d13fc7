"""A Pan table driven by typed actions only (what the web page's buttons send): the snapshot
lists the legal actions with button labels, a whole hand is played with them against bots,
the table log tells every player's action (bots' draws, melds and discards included), the
result holds the winner's spreads and every payment, and refusals name players, never a seat
counted from 0."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cardroom.errors import CardroomError
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage

from .pan_play import CHIP, alice_and_bots, pan
from .rooms import pan_room as make_room


def press(room: Room, who: Account, t: int, action: dict[str, Any]) -> None:
    """What a button does: send the offered action back, less its label."""
    typed = {k: v for k, v in action.items() if k not in ("label", "choose")}
    room.act(who, t, {"type": "pan", "action": typed, "seq": pan(room, t).seq})


def choose(actions: list[dict[str, Any]]) -> dict[str, Any]:
    """A plain player: plays, draws, melds what the drawn card makes, discards."""
    by = {a["kind"]: a for a in reversed(actions) if not a["choose"]}
    for kind in ("play", "take", "draw", "meld", "lay_off", "discard"):
        if kind in by:
            return by[kind]
    calm = [a for a in actions if not a["choose"] and a["kind"] not in ("call_foul", "foul_self",
                                                                        "force_back")]
    return calm[0] if calm else actions[0]


def test_a_hand_against_bots_played_with_typed_actions_only(storage: Storage) -> None:
    """Reference: a turn, 1-5: every step of alice's turns is a button the snapshot offered;
    the log tells the bots' turns too; the end shows every payment."""
    room, p, t = make_room(storage)
    alice = p["alice"]
    room.act(alice, t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    for k in ("b1", "b2"):
        room.act(alice, t, {"type": "bot", "key": k})
    room.act(alice, t, {"type": "deal"})
    live = pan(room, t)
    pressed: set[str] = set()
    for _ in range(400):
        if live.hand_id is None:
            break
        snap = live.snapshot(alice)
        actions = snap["play"]["actions"]
        assert all(a["label"] and "_" not in a["label"] for a in actions)
        if not actions:
            raise AssertionError("the hand waits for alice but offers her nothing")
        a = choose(actions)
        pressed.add(a["kind"])
        press(room, alice, t, a)
    else:
        raise AssertionError("the hand did not finish")
    assert {"play", "discard"} <= pressed or "pass" in pressed or "take_tops" in pressed
    snap = live.snapshot(alice)
    last = snap["last"]
    assert last["winner"] and last["payments"]
    assert all(" pays " in line for line in last["payments"])
    log = " | ".join(snap["log"])
    assert re.search(r"bot-\d (draws|takes|plays|passes)", log)
    assert not re.search(r"\bseat \d", log)


def test_refusals_name_the_player_not_a_seat_index(storage: Storage) -> None:
    """An engine refusal reaches the player with names: "bot-2", never "seat 1"."""
    room, p, t = make_room(storage)
    alice = p["alice"]
    live = alice_and_bots(room, alice, t, 1)
    room.act(alice, t, {"type": "deal"})
    hand = live.engine.hand
    assert hand is not None
    me = live.engine.seat_of(alice.id)
    other = next(s for s in hand.seats if s != me)
    with pytest.raises(CardroomError) as err:
        room.act(alice, t, {"type": "pan", "seq": live.seq,
                            "action": {"kind": "force_back", "seat": other}})
    assert not re.search(r"\bseat \d", str(err.value))
    with pytest.raises(CardroomError, match="not a Pan action"):
        room.act(alice, t, {"type": "pan", "seq": live.seq, "action": {"kind": "fly"}})
