"""A Super Pan 9 table in the room (SQLite and PostgreSQL): wagers through the engine's checks,
decisions in seat order, the dealer's turn, settlement as one balanced transaction, hidden
cards, refusals that change nothing, the floor's void, restart. Expected amounts are worked out
here from the WSGC rules (card values, even money less 5%, Tie Bet 8 to 1), not read from the
code under test."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from cardroom.errors import CardroomError
from cardroom.room.money import hands, ledger
from cardroom.room.play.super_pan_9_live import SuperPan9Live
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import hands as hands_table
from cardroom.shoe import SeededRandom

from .people import IDENTITY_KEY
from .rooms import books, refused_count, start_round, view
from .rooms import super_pan_9_room as make_room

VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "J": 0, "Q": 0, "K": 0}
"""Rule 2, written out independently of the engine."""


def total(cards: list[dict[str, Any]]) -> int:
    """Rule 5: the last digit of the sum of the card values."""
    return sum(VALUES[c["text"][:-1]] for c in cards) % 10


def expected_net(player: int, dealer: int, wager: int, tie: int) -> int:
    """Rule 4 (closer to 9 wins), rule 8 (even money less 5% commission), rule 9 (Tie Bet
    8 to 1, the main wager pushes)."""
    if player > dealer:
        return wager - wager // 20 - tie
    if player < dealer:
        return -wager - tie
    return 8 * tie


def test_super_pan_9_rules_4_to_9_a_round_settles_in_one_balanced_transaction(
        storage: Storage) -> None:
    room, p, t = make_room(storage)
    start_round(room, p, t)
    assert view(room, t, p["alice"])["players"][0]["stack"] == 18_900
    room.act(p["alice"], t, {"type": "draw"})
    room.act(p["bob"], t, {"type": "stand"})
    last = view(room, t, p["bob"])["last"]
    dealer = last["dealer"]["cards"]
    assert len(dealer) == (4 if total(dealer[:3]) <= 5 else 3)  # rule 7
    d = total(dealer)
    assert last["dealer_total"] == d
    by_seat = {s["seat"]: s for s in last["seats"]}
    assert len(by_seat[1]["cards"]) == 4 and len(by_seat[2]["cards"]) == 3  # rule 6
    a, b = total(by_seat[1]["cards"]), total(by_seat[2]["cards"])
    net_a, net_b = expected_net(a, d, 1_000, 100), expected_net(b, d, 2_000, 0)
    bal = books(storage)
    assert bal[ledger.stack(t, p["alice"].id)] == 20_000 + net_a
    assert bal[ledger.stack(t, p["bob"].id)] == 20_000 + net_b
    assert bal.get(ledger.wagers(t), 0) == 0
    commission = (50 if a > d else 0) + (100 if b > d else 0)
    assert bal.get(ledger.HOUSE_COMMISSION, 0) == commission
    assert bal.get(ledger.tray(t), 0) == -(net_a + net_b + commission)
    with storage.read() as conn:
        settle = list(conn.execute(select(hands_table.c.history, hands_table.c.status)))
    assert settle[0].status == "settled"


def test_super_pan_9_hidden_cards_show_only_as_the_rules_reveal_them(storage: Storage) -> None:
    room, p, t = make_room(storage)
    start_round(room, p, t)
    for who in ("alice", "bob", "fiona", "dan"):
        snap = view(room, t, p[who])
        assert snap["round"]["dealer"]["cards"] is None  # face down until the reveal
        assert snap["round"]["dealer"]["card_count"] == 3
        for s in snap["round"]["seats"]:
            mine = snap["you"]["seat"] == s["seat"]
            assert (s["cards"] is not None) == mine, (who, s)
    assert view(room, t, None)["round"]["seats"][0]["cards"] is None
    text = str(view(room, t, p["bob"]))
    live = room.table(t)
    assert isinstance(live, SuperPan9Live)
    for c in live.engine.seats[1].cards + live.engine.dealer_cards:
        assert f"'text': '{c}'" not in text or c in live.engine.seats[2].cards


def test_super_pan_9_rule_6_seats_act_in_order_and_refusals_change_nothing(
        storage: Storage) -> None:
    room, p, t = make_room(storage)
    start_round(room, p, t)
    before, refusals = books(storage), refused_count(storage)
    snap = view(room, t, p["bob"])
    for who, msg, match in [
        (p["bob"], {"type": "draw"}, "seat 1's turn"),
        (p["dan"], {"type": "draw"}, "never draw"),
        (p["alice"], {"type": "split"}, "unknown action"),
        (p["alice"], {"type": "bet", "bets": {"wager": 1_000}, "key": "late"}, "closed"),
        (p["alice"], {"type": "leave", "key": "l"}, "in play"),
        (p["alice"], {"type": "deal"}, "phase"),
    ]:
        with pytest.raises(CardroomError, match=match):
            room.act(who, t, msg)
    assert books(storage) == before and view(room, t, p["bob"]) == snap
    assert refused_count(storage) == refusals + 6
    room.act(p["alice"], t, {"type": "stand"})
    with pytest.raises(CardroomError, match="already"):
        room.act(p["alice"], t, {"type": "draw"})
    room.act(p["dan"], t, {"type": "stand"})  # the dealer stands bob, who does not act
    assert view(room, t, p["bob"])["last"]["settlements"][1]["total"] is not None


def test_super_pan_9_wagers_go_through_the_engine_checks(storage: Storage) -> None:
    room, p, t = make_room(storage, rules={"tie_bet_offered": False, "min_wager_cents": 500})
    room.act(p["alice"], t, {"type": "sit", "buy_in": 1_000, "key": "s"})
    before = books(storage)
    for bets, match in [({"wager": 400}, "outside the table limits"),
                        ({"wager": 500, "tie": 100}, "does not offer the Tie Bet"),
                        ({"wager": 5_000}, "cannot cover"),
                        ({"wager": 5.5}, "the wager is not an amount of money"),
                        ({"main": 500}, "the table could not read that request")]:
        with pytest.raises(CardroomError, match=match):
            room.act(p["alice"], t, {"type": "bet", "bets": bets, "key": "x"})
    with pytest.raises(CardroomError, match="not seated"):
        room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 500}, "key": "y"})
    assert books(storage) == before
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 500}, "key": "k"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 500}, "key": "k"})  # retried
    assert books(storage)[ledger.wagers(t)] == 500


def test_super_pan_9_floor_void_returns_every_wager_and_logs_who_and_why(
        storage: Storage) -> None:
    room, p, t = make_room(storage)
    start_round(room, p, t)
    room.act(p["alice"], t, {"type": "draw"})
    with pytest.raises(CardroomError):
        room.act(p["dan"], t, {"type": "void", "reason": "no"})  # a dealer may not void
    room.act(p["fiona"], t, {"type": "void", "reason": "cards dropped"})
    bal = books(storage)
    assert bal[ledger.stack(t, p["alice"].id)] == 20_000
    assert bal[ledger.stack(t, p["bob"].id)] == 20_000
    assert bal.get(ledger.wagers(t), 0) == 0
    snap = view(room, t, p["bob"])
    assert snap["last"] == {"hand": snap["last"]["hand"], "number": 1, "voided": True,
                            "reason": "cards dropped", "by": "fiona"}
    assert snap["round"] is None  # nothing of the voided deal is shown
    with storage.read() as conn:
        entry = next(e for e in audit.entries(conn) if e.action == "hand.void")
    assert entry.actor == "fiona" and "cards dropped" in entry.detail
    # the table plays on
    room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "again"})
    room.act(p["bob"], t, {"type": "deal"})
    room.act(p["bob"], t, {"type": "stand"})
    assert view(room, t, p["bob"])["last"]["settlements"][0]["name"] == "bob"


def test_super_pan_9_restart_resumes_the_open_round_and_keeps_the_seats(
        storage: Storage) -> None:
    """Issue 25: the round in play goes on after a restart (tests/room/test_resume.py shows
    its cards and turn); the seats and the stacks not in play are as they were, and a
    player leaves once it settles."""
    room, p, t = make_room(storage)
    start_round(room, p, t)
    again = Room(storage, SeededRandom(2), identity=IDENTITY_KEY)
    assert again.start() == []  # resumed, nothing voided
    snap = again.table(t).snapshot(p["bob"])
    assert [(x["seat"], x["name"], x["stack"]) for x in snap["players"]] == [
        (1, "alice", 20_000 - 1_100), (2, "bob", 20_000 - 2_000)]
    assert books(storage)[ledger.wagers(t)] == 3_100
    with pytest.raises(CardroomError, match="chips in play"):
        again.act(p["bob"], t, {"type": "leave", "key": "early"})
    again.act(p["alice"], t, {"type": "stand"})
    again.act(p["bob"], t, {"type": "stand"})
    assert books(storage).get(ledger.wagers(t), 0) == 0
    again.act(p["bob"], t, {"type": "leave", "key": "bye"})
    assert books(storage)[ledger.wallet(p["bob"].id)] == \
        100_000 + view(again, t, p["bob"])["last"]["settlements"][1]["net"]


def test_super_pan_9_history_is_the_shared_format_with_the_cards_dealt(
        storage: Storage) -> None:
    room, p, t = make_room(storage, seed=4)
    start_round(room, p, t)
    room.act(p["alice"], t, {"type": "stand"})
    room.act(p["bob"], t, {"type": "draw"})
    last = view(room, t, p["alice"])["last"]
    with storage.read() as conn:
        record = hands.hand_record(conn, last["hand"])
    assert record["format"] == "cardroom.hand-history" and record["game"] == "super-pan-9"
    seats = {s["seat"]: [c["text"] for c in s["cards"]] for s in last["seats"]}
    dealer = [c["text"] for c in last["dealer"]["cards"]]
    # rule 5: three rounds of one card to each seat then the dealer, then the draws
    first = [x for i in range(3) for x in (seats[1][i], seats[2][i], dealer[i])]
    assert record["pack"] == [*first, seats[2][3], *dealer[3:]]
    assert [a["type"] for a in record["actions"]][:5] == ["wager", "wager", "deal", "stand",
                                                          "draw"]
    assert record["result"]["chips"] == [20_000 + last["settlements"][0]["net"],
                                         20_000 + last["settlements"][1]["net"]]
