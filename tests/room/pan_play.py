"""Playing a Pan table in the room, as the room's Pan tests do: the table's engine, its books
(stacks and tops, checked balanced), a decision by name, a plain player's move, and a hand
played out with the books checked after every step."""

from __future__ import annotations

from typing import Any

from cardroom.games.pan.engine import PanHand
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account
from cardroom.room.play.pan_live import PanLive
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage

from .rooms import pan_room

CHIP = 100
"""The default house rules: a chip is $1."""


def pan(room: Room, t: int) -> PanLive:
    live = room.table(t)
    assert isinstance(live, PanLive)
    return live


def books(storage: Storage, t: int) -> dict[str, int]:
    with storage.read() as conn:
        assert ledger.trial_balance(conn).ok
        return ledger.balances(conn, f"stack:{t}:") | {"tops": ledger.balance(
            conn, ledger.wagers(t))}


def say(room: Room, who: Account, t: int, command: str) -> dict[str, Any]:
    snap = pan(room, t).snapshot(who)
    room.act(who, t, {"type": "pan", "command": command, "seq": snap["seq"]})
    return pan(room, t).snapshot(who)


def alice_and_bots(room: Room, alice: Account, t: int, bots: int) -> PanLive:
    """Alice sits down with 20 chips and seats `bots` house bots; nothing is dealt yet."""
    room.act(alice, t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    for i in range(bots):
        room.act(alice, t, {"type": "bot", "key": f"b{i + 1}"})
    return pan(room, t)


def simple_move(legal: list[str]) -> str:
    """A plain player: plays, draws, discards the drawn card or the first card it may."""
    for first in ("play", "draw"):
        if first in legal:
            return first
    discards = [c for c in legal if c.startswith("discard")]
    return discards[0] if discards else legal[0]


def check_books(room: Room, t: int) -> None:
    """After every step the ledger holds what the engine says: conditions, tops and outs are
    posted as they are paid, not at the end of the hand."""
    live = pan(room, t)
    b = books(room.storage, t)
    hand = live.engine.hand
    assert hand is not None
    for seat, a in live.engine.accounts.items():
        assert b[ledger.stack(t, a)] == hand.seats[seat].chips * CHIP
    if hand.phase.value != "complete":
        assert b["tops"] == (hand.tops_single + hand.tops_double) * CHIP


def play_out(room: Room, people: list[Account], t: int, limit: int = 400) -> None:
    for _ in range(limit):
        if pan(room, t).hand_id is None:
            return
        for who in people:
            legal = pan(room, t).snapshot(who)["play"]["legal"]
            mine = [c for c in legal if not c.startswith(("force", "foul"))]
            if mine:
                say(room, who, t, simple_move(mine))
                check_books(room, t)
                break
        else:
            raise AssertionError("nobody may act but the hand is not over")
    raise AssertionError("the hand did not finish")


def alice_and_bob_dealt(room: Room, p: dict[str, Account], t: int) -> PanHand:
    """Alice and Bob sit down with 20 chips each and Alice deals: the hand in play."""
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["alice"], t, {"type": "deal"})
    hand = pan(room, t).engine.hand
    assert hand is not None
    return hand


def false_out_carries_the_tops(room: Room, p: dict[str, Account], t: int) -> PanHand:
    """Alice and Bob's hand in play: each plays or draws for a few turns, then the player in
    turn falsely declares out and the other throws in and calls the foul (foul rules 3F and
    6: the tops carry to the redeal). No table message makes one: the engine is driven, and
    the room posts and closes the hand as after any step. Returns the hand."""
    live = pan(room, t)
    hand = live.engine.hand
    assert hand is not None
    for _ in range(4):
        for who in (p["alice"], p["bob"]):
            legal = live.snapshot(who)["play"]["legal"]
            if "play" in legal or "draw" in legal:
                say(room, who, t, "play" if "play" in legal else "draw")
    assert hand.turn_started and hand.current is not None
    liar = hand.current
    other = next(seat for seat in hand.seats if seat != liar)
    hand.declare_out(liar)
    hand.throw_in(other)
    hand.call_foul(other, liar)
    assert live.hand_id is not None
    with room.storage.unit() as conn:
        live._sync(conn, live.hand_id)
        live._finish(conn)
    return hand


def alone_after_a_foul(storage: Storage) -> tuple[Room, dict[str, Account], int, int, int]:
    """Alice and Bob play; Bob declares his own hand foul (rule 2) at his first chance:
    Alice is the one player left. Returns the room, the people, the table, and the hand
    seats of Alice and Bob."""
    room, p, t = pan_room(storage)
    alice_and_bob_dealt(room, p, t)
    live = pan(room, t)
    for _ in range(40):
        bob = pan(room, t).snapshot(p["bob"])["play"]
        if "foul self" in bob["legal"]:
            say(room, p["bob"], t, "foul self")
            break
        for who in (p["alice"], p["bob"]):
            legal = pan(room, t).snapshot(who)["play"]["legal"]
            mine = [c for c in legal if c in ("play", "draw") or c.startswith("discard")]
            if mine:
                say(room, who, t, mine[0])
                break
    me, him = (live.engine.seat_of(p[x].id) for x in ("alice", "bob"))
    return room, p, t, me, him
