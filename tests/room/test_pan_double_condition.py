"""Double condition at a Pan table in the room (house rules, double condition play): offered
only where the table's house rules allow it, chosen when sitting with twice the minimum
buy-in, double antes kept apart in the tops, the books balanced as the hand is played."""

from __future__ import annotations

import pytest

from cardroom.errors import CardroomError
from cardroom.room.money import ledger
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.shoe import SeededRandom

from .pan_play import (
    CHIP,
    books,
    check_books,
    false_out_carries_the_tops,
    pan,
    say,
    simple_move,
)
from .rooms import pan_room as make_room


@pytest.fixture(autouse=True)
def _doubling_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """WAC 230-15-135(4) prohibits doubling of conditions: double condition play is a departure
    that only a profile allowing it admits (the tribal example; docs/compliance.md)."""
    monkeypatch.setenv("CARDROOM_PROFILE", "tribal-compact-example")


def test_pan_room_straight_condition_table_refuses_a_doubles_seat(storage: Storage) -> None:
    """House rules: "We play straight condition PAN": the default table offers no doubles."""
    room, p, t = make_room(storage)
    with pytest.raises(CardroomError, match="straight condition only"):
        room.act(p["alice"], t, {"type": "sit", "buy_in": 40 * CHIP, "doubles": True,
                                 "key": "s"})
    assert not pan(room, t).seated


def test_pan_room_doubles_need_twice_the_buy_in_and_ante_double(storage: Storage) -> None:
    """Double condition play: "Players desiring to play double condition must have twice the
    minimum buy-in" (40 chips); "All doubles players must ante double. Double antes will be
    kept separate": two doubles players and one singles player put 3 chips in the tops and 2
    in the double tops, 5 chips in the table's tops account."""
    room, p, _ = make_room(storage)
    t = room.create_table(p["olivia"], "Pan doubles", "pan",
                          {"allow_double_condition": True}).table_id
    with pytest.raises(CardroomError, match="at least 40 chips"):
        room.act(p["alice"], t, {"type": "sit", "buy_in": 20 * CHIP, "doubles": True,
                                 "key": "a0"})
    assert not pan(room, t).seated
    room.act(p["alice"], t, {"type": "sit", "buy_in": 40 * CHIP, "doubles": True, "key": "a"})
    room.act(p["bob"], t, {"type": "sit", "buy_in": 40 * CHIP, "doubles": True, "key": "b"})
    room.act(p["carol"], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "c"})
    snap = pan(room, t).snapshot(p["alice"])
    assert snap["rules"]["double_condition"]
    assert [x["doubles"] for x in snap["players"]] == [True, True, False]
    room.act(p["alice"], t, {"type": "deal"})
    live = pan(room, t)
    hand = live.engine.hand
    assert hand is not None
    assert [s.doubles for s in hand.seats.values()] == [True, True, False]
    assert sum(hand.double_contrib.values()) == 2 and sum(hand.single_contrib.values()) == 3
    check_books(room, t)
    for _ in range(12):        # a few turns: every chip moved is posted as it moves
        if pan(room, t).hand_id is None:
            break  # the hand is over (all but one passed, or one went out): settled
        for who in (p["alice"], p["bob"], p["carol"]):
            legal = pan(room, t).snapshot(who)["play"]["legal"]
            mine = [c for c in legal if not c.startswith(("force", "foul", "offer"))]
            if mine:
                say(room, who, t, simple_move(mine))
                check_books(room, t)
                break
    b = books(storage, t)
    stacks = [b[ledger.stack(t, a)] for a in (p["alice"].id, p["bob"].id, p["carol"].id)]
    assert sum(stacks) + b["tops"] == 100 * CHIP


def test_pan_room_all_doubles_floor_moves_the_game_to_the_next_condition(
        storage: Storage) -> None:
    """"If all players are playing doubles, at the discretion of the floorman, the game may be
    changed to the next higher condition": only the floor, only when every player plays
    doubles; the chip is then worth twice as much, stacks keep their value, everyone plays
    single condition and no doubles are offered ("No condition bigger than Double condition").
    The change is kept in the table's house rules (a restart keeps it)."""
    room, p, _ = make_room(storage)
    t = room.create_table(p["olivia"], "Pan doubles", "pan",
                          {"allow_double_condition": True}).table_id
    room.act(p["alice"], t, {"type": "sit", "buy_in": 40 * CHIP, "doubles": True, "key": "a"})
    room.act(p["bob"], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "b"})
    with pytest.raises(CardroomError, match="every player at the table plays double"):
        room.act(p["fiona"], t, {"type": "raise_condition"})
    room.act(p["bob"], t, {"type": "leave", "key": "bl"})
    room.act(p["bob"], t, {"type": "sit", "buy_in": 40 * CHIP, "doubles": True, "key": "b2"})
    with pytest.raises(CardroomError):
        room.act(p["alice"], t, {"type": "raise_condition"})   # not the floor
    room.act(p["fiona"], t, {"type": "raise_condition"})
    live = pan(room, t)
    assert live.chip == 2 * CHIP and not live.rules.allow_double_condition
    assert not live.engine.doubles
    with pytest.raises(CardroomError, match="straight condition only"):
        room.act(p["carol"], t, {"type": "sit", "buy_in": 80 * CHIP, "doubles": True,
                                 "key": "c"})
    room.act(p["alice"], t, {"type": "deal"})
    hand = live.engine.hand
    assert hand is not None
    # 40 dollars: 20 chips of $2, less the top
    assert [s.chips for s in hand.seats.values()] == [19, 19]
    assert books(storage, t)["tops"] == 2 * 2 * CHIP
    again = Room(storage, SeededRandom(4))
    again.start()
    assert pan(again, t).chip == 2 * CHIP


def test_wac_230_15_135_the_next_condition_stops_at_the_ten_dollar_chip(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """WAC 230-15-135(4) caps a Pan chip at $10: a $10 table's next condition ($20 a chip) is
    refused, the section named, and the table keeps its rules."""
    room, p, _ = make_room(storage)
    t = room.create_table(p["olivia"], "Pan tens", "pan",
                          {"allow_double_condition": True, "chip_cents": 1000}).table_id
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 40 * 1000, "doubles": True, "key": who})
    with pytest.raises(CardroomError, match=r"chip_cents = \$20\.00 is refused under "
                                            r"the compact's Pan limits"):
        room.act(p["fiona"], t, {"type": "raise_condition"})
    assert pan(room, t).chip == 1000 and pan(room, t).rules.allow_double_condition


def test_pan_room_doubles_and_carried_double_tops_survive_a_restart(storage: Storage) -> None:
    """Double condition across a restart: the choice made when sitting is kept with the seat,
    and tops a redeal carries over (foul rule 6: "the Tops remain and the hand is redealt")
    come back as they were, the double tops still apart ("Double antes will be kept separate
    and awarded to winning doubles players only")."""
    room, p, _ = make_room(storage)
    t = room.create_table(p["olivia"], "Pan doubles", "pan",
                          {"allow_double_condition": True}).table_id
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 40 * CHIP, "doubles": True, "key": who})
    again = Room(storage, SeededRandom(4))
    again.start()
    live = pan(again, t)
    assert live.engine.doubles == {p["alice"].id, p["bob"].id}
    assert [x["doubles"] for x in live.snapshot(p["alice"])["players"]] == [True, True]
    again.act(p["alice"], t, {"type": "deal"})
    hand = live.engine.hand
    assert hand is not None and [s.doubles for s in hand.seats.values()] == [True, True]
    false_out_carries_the_tops(again, p, t)  # foul rule 3F then 6
    assert hand.tops_carry == (2, 2)
    assert books(storage, t)["tops"] == 4 * CHIP
    third = Room(storage, SeededRandom(5))
    third.start()
    assert pan(third, t).engine.carried == (2, 2)
    third.act(p["bob"], t, {"type": "deal"})
    redealt = pan(third, t).engine.hand
    assert redealt is not None
    # 38 chips each, under twice the buy-in: the redeal is played single condition, the
    # carried double tops still kept apart
    assert [s.doubles for s in redealt.seats.values()] == [False, False]
    assert (redealt.tops_single, redealt.tops_double) == (2 + 2, 2)
