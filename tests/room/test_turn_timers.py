"""Issue 23, action timers: at Super Pan 9 and Pan a turn lasts the house rules'
`turn_seconds`; when it runs out the default action is taken for the player (Super Pan 9 rule
6: stand; Pan: pass at the declaration (rule 9), else draw and discard the drawn card),
through the engine like any action, audited, and in the hand's history (which replays); after
`misses_to_sit_out` misses in a row the player sits out (no Pan hand is dealt to them, a
Super Pan 9 wager brings them back); misses and sitting out survive a restart. The tables'
clock is the test's (no sleeping)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from cardroom.errors import CardroomError, RulesError
from cardroom.games.pan.rules import PanRules
from cardroom.games.super_pan_9 import SuperPan9Rules
from cardroom.history import HandHistory, replay
from cardroom.houserules import build_rules
from cardroom.room.money import hands
from cardroom.room.play import recall
from cardroom.room.play.recall import history_of
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import audit_log
from cardroom.shoe import SeededRandom

from .pan_play import CHIP, pan
from .people import IDENTITY_KEY
from .rooms import pan_room, start_round, super_pan_9_room, view


class Clock:
    """A table's clock that the test moves on, from the real time when it was made (a
    deadline the room keeps is compared with the real clock after a restart)."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def timed(room: Room, t: int) -> Clock:
    clock = Clock()
    room.table(t).clock = clock
    return clock


def audits(storage: Storage, action: str) -> list[tuple[str, dict[str, Any]]]:
    with storage.read() as conn:
        return [(r.actor, json.loads(r.detail)) for r in conn.execute(
            select(audit_log.c.actor, audit_log.c.detail)
            .where(audit_log.c.action == action).order_by(audit_log.c.seq))]


def replays(storage: Storage, hand_id: int) -> HandHistory:
    with storage.read() as conn:
        doc = history_of(hands.hand_record(conn, hand_id)).to_json()
    history = HandHistory.from_json(doc)
    assert replay(history).ok
    return history


def recalled(storage: Storage, hand_id: int) -> list[str]:
    """The settled hand's steps as the floor's recall page words them."""
    with storage.read() as conn:
        record = hands.hand_record(conn, hand_id)
    return [step["words"] for step in recall.recall_steps(recall.replay(record))]


def test_house_rules_bound_the_turn_timer() -> None:
    """The timer's settings are house rules, checked where house rules load."""
    assert SuperPan9Rules().turn_seconds == 60 and PanRules().misses_to_sit_out == 2
    assert "turn_seconds" not in PanRules().model_dump()  # default rules dump as before
    assert build_rules(PanRules, {"turn_seconds": 30}).model_dump()["turn_seconds"] == 30
    for bad in ({"turn_seconds": 5}, {"turn_seconds": 601}, {"misses_to_sit_out": 0}):
        with pytest.raises(RulesError):
            build_rules(SuperPan9Rules, bad)


def test_super_pan_9_rule_6_a_seat_that_does_not_act_in_time_stands(storage: Storage) -> None:
    """Rule 6: "they may choose to draw one additional card or stand": the seat in turn has
    `turn_seconds`; when they run out the seat stands (by "timer", audited), the next seat's
    turn is timed afresh, and the settled round's history (the stand among its actions)
    replays; it says the timer took the stand, not alice, and so does the floor's recall
    (a dispute turns on it), bob's own stand told as his."""
    room, p, t = super_pan_9_room(storage, rules={"turn_seconds": 20})
    assert t is not None
    clock = timed(room, t)
    start_round(room, p, t)
    live = room.table(t)
    hand_id = live.hand_id
    assert hand_id is not None
    turn = view(room, t, p["bob"])["hand"]["turn"]
    assert (turn["name"], turn["seat"], turn["seconds_left"]) == ("alice", 1, 20)
    with storage.read() as conn:  # the deadline is in the open hand's record
        assert hands.open_record(conn, hand_id)["turn"]["account"] == p["alice"].id
    clock.wait(19.5)
    assert room.timed_out() == [] and not room.time_out(t)
    assert view(room, t, None)["hand"]["turn"]["seconds_left"] == 1
    clock.wait(0.5)
    assert room.timed_out() == [t] and room.time_out(t)
    alice = next(s for s in view(room, t, p["alice"])["round"]["seats"] if s["seat"] == 1)
    assert alice["acted"] and len(alice["cards"]) == 3  # stood: no fourth card
    turn = view(room, t, None)["hand"]["turn"]
    assert (turn["name"], turn["seconds_left"]) == ("bob", 20)
    assert audits(storage, "hand.stand") == [
        ("timer", {"table": t, "hand": hand_id, "seat": 1})]
    [(actor, detail)] = audits(storage, "hand.timeout")
    assert actor == "timer" and detail["account"] == p["alice"].id and detail["misses"] == 1
    assert detail["action"] == "stand"
    room.act(p["bob"], t, {"type": "stand"})
    assert live.hand_id is None and live.turn is None
    history = replays(storage, hand_id)
    assert [a["type"] for a in history.actions if a.get("seat") == 1][-1] == "stand"
    assert live.misses == {p["alice"].id: 1}
    stands = [i for i, a in enumerate(history.actions) if a["type"] == "stand"]
    with storage.read() as conn:
        taken = history_of(hands.hand_record(conn, hand_id)).to_json()["taken_for"]
    assert taken == [{"action": stands[0], "by": "timer", "seconds": 20}]
    words = recalled(storage, hand_id)
    assert words[stands[0]] == "alice: stand (taken by the turn timer: no action in 20 s)"
    assert words[stands[1]] == "bob: stand"


def test_super_pan_9_misses_in_a_row_sit_out_until_a_wager(storage: Storage) -> None:
    """After `misses_to_sit_out` timed-out turns in a row the player sits out (the page says
    so); a wager brings them back (only wagers are dealt in at Super Pan 9), as does `back`;
    acting on one's own turn in time starts the count again."""
    room, p, t = super_pan_9_room(storage, rules={"misses_to_sit_out": 2})
    assert t is not None
    clock = timed(room, t)
    live = room.table(t)

    def next_round(key: str) -> None:
        room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": f"a{key}"})
        room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": f"b{key}"})
        room.act(p["bob"], t, {"type": "deal"})

    start_round(room, p, t)
    clock.wait(60)
    room.time_out(t)  # alice: 1 miss
    room.act(p["bob"], t, {"type": "draw"})
    next_round("2")  # a wager is not a turn: alice's misses stand
    assert live.misses == {p["alice"].id: 1}
    clock.wait(60)
    room.time_out(t)  # alice: 2 misses in a row, she sits out
    clock.wait(60)
    room.time_out(t)  # bob: 1
    assert live.misses == {p["alice"].id: 2, p["bob"].id: 1}
    assert live.away == {p["alice"].id}
    assert view(room, t, p["alice"])["you"]["sitting_out"] is True
    assert view(room, t, p["bob"])["you"]["sitting_out"] is False
    next_round("3")  # alice wagers: back
    assert live.away == set() and p["alice"].id not in live.misses
    room.act(p["alice"], t, {"type": "stand"})
    clock.wait(60)
    room.time_out(t)  # bob: 2 in a row
    assert live.away == {p["bob"].id}
    assert [d["account"] for _, d in audits(storage, "table.sit-out")] == [
        p["alice"].id, p["bob"].id]
    room.act(p["bob"], t, {"type": "back"})
    assert live.away == set() and live.misses == {}
    with pytest.raises(CardroomError, match="not sitting out"):
        room.act(p["bob"], t, {"type": "back"})


def test_pan_a_turn_that_runs_out_is_played_by_default(storage: Storage) -> None:
    """Pan: a player who does not declare in time passes (rule 9: "Players are required to
    declare play or pass in order"); in play, one who does not act draws and discards the
    drawn card. Each step is the engine's own action, audited by "timer", and the settled
    hand (a house bot at the table goes out in the end) replays with them; the floor's
    recall tells each step the timer took as the timer's, those the players took as theirs."""
    room, p, t = pan_room(storage)
    assert t is not None
    clock = timed(room, t)
    for who in ("alice", "bob", "carol"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["alice"], t, {"type": "bot", "key": "b"})
    room.act(p["fiona"], t, {"type": "deal"})
    live = pan(room, t)
    hand_id = live.hand_id
    assert hand_id is not None
    people = {p[n].id for n in ("alice", "bob", "carol")}
    playing: list[str] = []
    walked = ""
    while len(playing) + bool(walked) < 3:  # two declare play themselves, one walked away
        name = live.snapshot(None)["hand"]["turn"]["name"]
        if len(playing) < 2:
            playing.append(name)
            room.act(p[name], t, {"type": "pan", "command": "play", "seq": live.seq})
        else:
            walked = name
            clock.wait(60)
            assert room.time_out(t)
    for _ in range(400):
        if live.hand_id is None:
            break
        assert live.snapshot(None)["hand"]["turn"]["name"] in playing
        clock.wait(60)
        assert room.time_out(t)
    assert live.hand_id is None
    timeouts = audits(storage, "hand.timeout")
    assert timeouts[0][1]["action"] == "pass" and timeouts[0][1]["account"] == p[walked].id
    assert {d["action"] for _, d in timeouts[1:]} <= {"draw, discard", "take_tops"}
    assert "draw, discard" in {d["action"] for _, d in timeouts[1:]}
    mine = [(a, d["action"]) for a, d in audits(storage, "pan.action")]
    assert [a for a, _ in mine] == playing + ["timer"] * (len(mine) - 2)
    history = replays(storage, hand_id)
    by_people = [a["type"] for a in history.actions
                 if a.get("seat") is not None
                 and history.seats[a["seat"]].get("account") in people]
    assert by_people.count("declare") == 3 and "draw" in by_people
    assert set(by_people) <= {"declare", "draw", "discard", "take_tops"}
    words = recalled(storage, hand_id)
    timer = " (taken by the turn timer: no action in 60 s)"
    declared = [w for w in words if ": declare" in w and w.split(":")[0] in {*playing, walked}]
    assert sorted(declared) == sorted([f"{n}: declare" for n in playing]
                                      + [f"{walked}: declare{timer}"]), declared
    played = [w for w in words if w.split(":")[0] in playing and ": declare" not in w]
    assert played and all(w.endswith(timer) for w in played), played


def test_pan_players_who_sit_out_are_not_dealt_in_and_a_restart_keeps_it(
        storage: Storage) -> None:
    """After the house rules' misses a Pan player sits out: the next hand is dealt without
    them until they say they are back; a restart mid-turn resumes the hand (issue 25) with
    the awaited turn's deadline as it was, keeps every player's misses and sitting out, and
    the next hand's turn is timed afresh."""
    room, p, t = pan_room(storage, rules={"misses_to_sit_out": 1, "turn_seconds": 30})
    assert t is not None
    clock = timed(room, t)
    for who in ("alice", "bob", "carol"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["fiona"], t, {"type": "deal"})
    live = pan(room, t)
    awaited = live.snapshot(None)["hand"]["turn"]["name"]
    clock.wait(30)
    assert room.time_out(t)
    assert live.away == {p[awaited].id}
    assert view(room, t, p[awaited])["you"]["sitting_out"] is True
    # the server stops mid-turn and starts again
    deadline = live.turn.deadline if live.turn else None
    assert deadline is not None and live.hand_id is not None
    hand_id, turn = live.hand_id, live.turn
    again = Room(storage, SeededRandom(5), identity=IDENTITY_KEY)
    assert again.start() == []
    live2 = pan(again, t)
    assert live2.away == {p[awaited].id} and live2.misses == {p[awaited].id: 1}
    assert live2.hand_id == hand_id and live2.turn is not None
    assert (live2.turn.account, live2.turn.deadline) == (turn.account, turn.deadline)
    again.act(p["fiona"], t, {"type": "void", "reason": "the floor starts afresh"})
    clock2 = timed(again, t)
    again.act(p["fiona"], t, {"type": "deal"})
    assert p[awaited].id not in live2.engine.accounts.values() and len(live2.engine.accounts) == 2
    turn = live2.snapshot(None)["hand"]["turn"]
    assert turn["seconds_left"] == 30
    clock2.wait(10)
    assert live2.snapshot(None)["hand"]["turn"]["seconds_left"] == 20
    again.act(p["fiona"], t, {"type": "void", "reason": "test"})
    again.act(p[awaited], t, {"type": "back"})
    again.act(p["fiona"], t, {"type": "deal"})
    assert p[awaited].id in live2.engine.accounts.values() and len(live2.engine.accounts) == 3


def test_the_dealer_and_the_floor_act_for_a_player_who_walked_away(storage: Storage) -> None:
    """Issue 23: a dealer or the floor takes the timer's default for the player the hand
    waits for, before the time runs out (Super Pan 9: stand, rule 6; Pan: pass at the
    declaration, rule 9), audited by them and counted as the player's miss; a player may not,
    nor anyone when no decision is awaited."""
    room, p, t = super_pan_9_room(storage)
    assert t is not None
    timed(room, t)
    with pytest.raises(CardroomError, match="no player's decision"):
        room.act(p["dan"], t, {"type": "act_for"})
    start_round(room, p, t)
    with pytest.raises(CardroomError, match="only a dealer or the floor"):
        room.act(p["bob"], t, {"type": "act_for"})
    room.act(p["dan"], t, {"type": "act_for"})
    live = room.table(t)
    assert live.engine.seats[1].acted and len(live.engine.seats[1].cards) == 3
    assert audits(storage, "hand.stand")[0][0] == "dan"
    assert [(a, d["action"]) for a, d in audits(storage, "hand.timeout")] == [("dan", "stand")]
    assert live.misses == {p["alice"].id: 1}
    assert view(room, t, None)["hand"]["turn"]["name"] == "bob"
    hand_id = live.hand_id
    assert hand_id is not None
    room.act(p["bob"], t, {"type": "stand"})
    assert "alice: stand (taken for the player by dan)" in recalled(storage, hand_id)



def test_the_floor_plays_the_pan_default_for_a_player_who_walked_away(
        storage: Storage) -> None:
    """Pan: the floor's `act_for` is the timer's default (a declaration not made: pass, rule
    9), audited by the floor and told in the table's log."""
    room, p, t = pan_room(storage)
    assert t is not None
    timed(room, t)
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["fiona"], t, {"type": "deal"})
    awaited = pan(room, t).snapshot(None)["hand"]["turn"]["name"]
    room.act(p["fiona"], t, {"type": "act_for"})
    [(actor, detail)] = audits(storage, "hand.timeout")
    assert (actor, detail["action"], detail["account"]) == ("fiona", "pass", p[awaited].id)
    assert f"fiona plays the default for {awaited}: pass" in pan(room, t).log
