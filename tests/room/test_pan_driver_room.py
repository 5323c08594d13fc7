"""A Pan table in the room plays through the one Pan table driver (`games.pan.driver`,
issue 20): the same seeded table gives the same hand through the room as through the bare
driver; the room's void is the engine's `void`; a bot answers an offer to split the tops."""

from __future__ import annotations

import copy

from cardroom.engine import Voided
from cardroom.games.pan.bots import Bot, SoundBot
from cardroom.games.pan.cards import pan_pack
from cardroom.games.pan.commands import parse_command
from cardroom.games.pan.driver import PanTable
from cardroom.room.storage.db import Storage
from cardroom.shoe import fisher_yates

from .pan_play import (
    CHIP,
    alice_and_bob_dealt,
    alice_and_bots,
    books,
    pan,
    say,
    simple_move,
)
from .rooms import pan_room


def test_pan_room_plays_a_hand_as_the_bare_driver_does(storage: Storage) -> None:
    """Alice and two house bots: the room's hand (every event, and the pack it leaves for
    the next hand) is the bare `PanTable`'s, dealt from the same seeded source with the same
    decisions: the room adds the books and the views, nothing to the play."""
    room, p, t = pan_room(storage)
    alice = p["alice"]
    live = alice_and_bots(room, alice, t, 2)
    twin = copy.deepcopy(live.source)
    room.act(alice, t, {"type": "deal"})
    hand = live.engine.hand
    assert hand is not None
    said: list[str] = []
    for _ in range(300):
        if live.hand_id is None:
            break
        legal = live.snapshot(alice)["play"]["legal"]
        said.append(simple_move([x for x in legal if not x.startswith(("force", "foul",
                                                                          "offer"))]))
        say(room, alice, t, said[-1])
    assert live.hand_id is None and len(said) > 3

    table = PanTable(twin)
    dealer = twin.randbelow(3)
    bare = table.deal(live.rules, dict(zip(hand.ring, hand.specs, strict=True)),
                      hand.ring[dealer], fisher_yates(pan_pack(live.rules), twin))
    bots: dict[int, Bot | None] = {seat: SoundBot() if a < 0 else None
                                   for seat, a in live.engine.accounts.items()}
    me = live.engine.seat_of(alice.id)
    table.play(bots)
    for text in said:
        table.act(me, parse_command(bare, text), bots)
        table.play(bots)
    assert bare.events == hand.events and bare.phase is hand.phase
    assert table.next_pack == live.engine.next_pack and table.carried == live.engine.carried


def test_pan_room_void_is_the_engines_void(storage: Storage) -> None:
    """Issue 20, "Pan's void not calling the engine's void": the floor's void goes through
    the engine protocol's `void`, whose `Voided` event closes the hand's log; the stacks are
    back in the engine and in the books, and the next pack is made."""
    room, p, t = pan_room(storage)
    hand = alice_and_bob_dealt(room, p, t)
    live = pan(room, t)
    room.act(p["fiona"], t, {"type": "void", "reason": "cards exposed in the deal"})
    assert isinstance(hand.events[-1], Voided)
    assert hand.events[-1].reason == "voided by fiona: cards exposed in the deal"
    assert [s.chips for s in hand.seats.values()] == [20, 20] and hand.end_reason is not None
    assert live.engine.hand is None and live.engine.next_pack is not None
    assert books(storage, t)["tops"] == 0


def test_pan_room_a_bot_answers_an_offer_to_split_the_tops(storage: Storage) -> None:
    """House pays rule 2 at the room's table: Alice offers the house bot to split the tops;
    the bot answers at once (before, the offer waited for an answer no one would give)."""
    room, p, t = pan_room(storage)
    alice = p["alice"]
    live = alice_and_bots(room, alice, t, 1)
    room.act(alice, t, {"type": "deal"})
    for _ in range(20):
        legal = live.snapshot(alice)["play"]["legal"]
        if "offer split" in legal:
            break
        say(room, alice, t, simple_move(legal))
    say(room, alice, t, "offer split")
    # the sound bot agrees: Alice has as many cards melded as he has (none)
    assert live.hand_id is None and live.last is not None
    assert live.last.model_dump()["reason"] == "tops split"
    assert live.log[-1] == "hand over: tops split"
    b = books(storage, t)
    assert b["tops"] == 0 and set(b.values()) == {0, 20 * CHIP}
