"""A Pai Gow table in the room (SQLite and PostgreSQL): wagers, setting hands or the house way,
the dealer's hand set the house way and shown only at settlement, player banking (the house
banks at least every other hand; a bank that cannot cover is refused), the dragon hand,
settlement with commission through the ledger, hidden hands, the floor's void, restart.
Amounts are worked out here from the rules (even money less 5%; a player-banker pays 5% of the
bank's net win), not read from the code under test."""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.cards import parse_card, parse_cards
from cardroom.errors import CardroomError
from cardroom.games.pai_gow.evaluate import describe
from cardroom.games.pai_gow.settings import all_settings
from cardroom.room.money import hands, ledger
from cardroom.room.people.accounts import Account
from cardroom.room.play import pai_gow_live
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.shoe import SeededRandom

from .people import IDENTITY_KEY
from .rooms import books, playing_table, set_all, view
from .rooms import pai_gow_room as make_room


def expected_net(outcome: str, wager: int) -> int:
    """Rules clause 10: even money less 5% commission, a push returns the wager."""
    return {"win": wager - -(-wager // 20), "push": 0, "loss": -wager}[outcome]


def test_pai_gow_clause_8_to_10_house_banked_hand_settles_through_the_ledger(
        storage: Storage) -> None:
    room, p, t = make_room(storage)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "a"})
    room.act(p["bob"], t, {"type": "sit", "buy_in": 20_000, "key": "b"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "ba"})
    room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 3_000}, "key": "bb"})
    room.act(p["bob"], t, {"type": "deal"})
    # hidden: each player sees only their own seven cards; nobody sees the dealer's
    for who, seat in (("alice", 1), ("bob", 2)):
        spots = {s["spot"]: s for s in view(room, t, p[who])["spots"]}
        assert set(spots) == {0, 1, 2}
        assert [k for k, s in spots.items() if s["cards"] is not None] == [seat]
        assert len(spots[seat]["cards"]) == 7
    assert all(s["cards"] is None for s in view(room, t, p["fiona"])["spots"])
    set_all(room, t, [p["alice"]], manual=True)
    assert view(room, t, p["bob"])["spots"][1]["set"] is True  # alice has set: public
    assert view(room, t, p["bob"])["spots"][1]["setting"] is None  # how: hidden
    set_all(room, t, [p["bob"]])
    last = view(room, t, p["alice"])["last"]
    spots = {s["spot"]: s for s in last["spots"]}
    assert spots[0]["house_way"] is True and spots[0]["banker"] is True  # clause 8
    assert len(spots[0]["setting"]["front"]) == 2 and len(spots[0]["setting"]["back"]) == 5
    assert spots[2]["house_way"] is True
    net_a = expected_net(spots[1]["outcome"], 1_000)
    net_b = expected_net(spots[2]["outcome"], 3_000)
    assert (spots[1]["net"], spots[2]["net"]) == (net_a, net_b)
    bal = books(storage)
    assert bal[ledger.stack(t, p["alice"].id)] == 20_000 + net_a
    assert bal[ledger.stack(t, p["bob"].id)] == 20_000 + net_b
    commission = sum(-(-w // 20) for o, w in ((spots[1]["outcome"], 1_000),
                                                (spots[2]["outcome"], 3_000)) if o == "win")
    assert bal.get(ledger.HOUSE_COMMISSION, 0) == commission
    assert bal.get(ledger.tray(t), 0) == -(net_a + net_b + commission)
    assert bal.get(ledger.wagers(t), 0) == 0
    with storage.read() as conn:
        record = hands.hand_record(conn, last["hand"])
    assert record["game"] == "pai-gow" and len(record["pack"]) == 53
    assert [a["type"] for a in record["actions"]] == ["wager", "wager", "deal", "set",
                                                      "house_way"]


def play_hand(room: Room, t: int, p: dict[str, Account], bets: dict[str, int],
              key: str) -> dict[str, Any]:
    for name, amount in bets.items():
        room.act(p[name], t, {"type": "bet", "bets": {"wager": amount}, "key": key + name})
    room.act(p["fiona"], t, {"type": "deal"})
    set_all(room, t, [p["alice"], p["bob"]])
    last: dict[str, Any] = view(room, t, p["alice"])["last"]
    return last


def test_pai_gow_banking_every_other_hand_and_cover(storage: Storage) -> None:
    room, p, t = make_room(storage, seed=9)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 30_000, "key": "a"})
    room.act(p["bob"], t, {"type": "sit", "buy_in": 1_500, "key": "b"})
    play_hand(room, t, p, {"alice": 2_000, "bob": 1_000}, "h1")
    # bob cannot cover alice's wager plus the dealer's (his own last wager, clause: banking)
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 2_000}, "key": "h2a"})
    before = books(storage)
    refusal = view(room, t, p["bob"])["you"]["bank_refusal"]
    assert refusal and "cannot cover" in refusal
    with pytest.raises(CardroomError, match="cannot cover"):
        room.act(p["bob"], t, {"type": "bank", "key": "bk"})
    assert books(storage) == before
    # alice takes the bank: her wager comes back; the dealer wagers her last wager (2,000)
    room.act(p["alice"], t, {"type": "bank", "key": "abank"})
    stack_a = books(storage)[ledger.stack(t, p["alice"].id)]
    room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "h2b"})
    with pytest.raises(CardroomError, match="does not wager"):
        room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "no"})
    stack_b = books(storage)[ledger.stack(t, p["bob"].id)]
    room.act(p["bob"], t, {"type": "deal"})
    set_all(room, t, [p["alice"], p["bob"]])
    last = view(room, t, p["bob"])["last"]
    spots = {s["spot"]: s for s in last["spots"]}
    assert last["banker_spot"] == 1 and spots[1]["banker"] and spots[0]["wager"] == 2_000
    bank_net = sum({"win": -s["wager"], "loss": s["wager"], "push": 0}[s["outcome"]]
                   for k, s in spots.items() if k != 1)
    bank_commission = -(-bank_net // 20) if bank_net > 0 else 0
    assert last["banker_commission"] == bank_commission
    bal = books(storage)
    assert bal[ledger.stack(t, p["alice"].id)] == stack_a + bank_net - bank_commission
    assert bal[ledger.stack(t, p["bob"].id)] == stack_b + 1_000 + expected_net(
        spots[2]["outcome"], 1_000)
    # the house banks at least every other hand
    with pytest.raises(CardroomError, match="every other hand"):
        room.act(p["alice"], t, {"type": "bank", "key": "again"})


def test_pai_gow_bank_taken_once_and_never_from_the_banker(storage: Storage) -> None:
    """Banking clause (one "Banker" button a hand): a second `bank` by the banker, with a new
    key, is refused and audited as a refusal (one `table.bank` entry, not two); another
    player cannot take the bank from the player-banker; nothing changes."""
    room, p, t = make_room(storage, seed=9)
    for name in ("alice", "bob"):
        room.act(p[name], t, {"type": "sit", "buy_in": 30_000, "key": name})
    play_hand(room, t, p, {"alice": 2_000, "bob": 1_000}, "h1")
    room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "h2b"})
    room.act(p["alice"], t, {"type": "bank", "key": "bank-1"})
    before = books(storage)
    with pytest.raises(CardroomError, match="already hold the bank"):
        room.act(p["alice"], t, {"type": "bank", "key": "bank-2"})
    with pytest.raises(CardroomError, match="seat 1 holds the bank"):
        room.act(p["bob"], t, {"type": "bank", "key": "bank-3"})
    assert books(storage) == before
    assert view(room, t, p["bob"])["banker"]["spot"] == 1
    with storage.read() as conn:
        log = list(audit.entries(conn))
    assert [e.action for e in log].count("table.bank") == 1
    assert [e.data["action"] for e in log[-2:]] == ["table.bank", "table.bank"]
    assert all(e.action == "refused" for e in log[-2:])


def test_pai_gow_dragon_hand_house_rule(storage: Storage) -> None:
    room, p, t = make_room(storage, seed=5)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "a"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "w"})
    with pytest.raises(CardroomError, match="does not allow dragon"):
        room.act(p["alice"], t, {"type": "dragon", "amount": 1_000, "key": "d"})
    # a table that allows the dragon hand, set by the player
    live = playing_table(room, p["olivia"], "Dragon", "pai-gow", {"dragon_hand": "player-sets"})
    d = live.table_id
    room.act(p["bob"], d, {"type": "sit", "buy_in": 20_000, "key": "b"})
    room.act(p["alice"], d, {"type": "sit", "buy_in": 20_000, "key": "a"})
    with pytest.raises(CardroomError, match="only a player with a wager"):
        room.act(p["alice"], d, {"type": "dragon", "amount": 1_000, "key": "d0"})
    assert not view(room, d, p["alice"])["you"]["may_dragon"]  # offered as the engine lists
    room.act(p["alice"], d, {"type": "bet", "bets": {"wager": 1_000}, "key": "w"})
    assert view(room, d, p["alice"])["you"]["may_dragon"]  # its legal actions (issue 24)
    room.act(p["alice"], d, {"type": "dragon", "amount": 2_000, "key": "d1"})
    room.act(p["bob"], d, {"type": "bet", "bets": {"wager": 500}, "key": "w"})
    assert not view(room, d, p["bob"])["you"]["may_dragon"]  # clause 7: one a hand
    assert books(storage)[ledger.wagers(d)] == 3_500
    room.act(p["alice"], d, {"type": "deal"})
    seen = {who: [s["spot"] for s in view(room, d, p[who])["spots"] if s["cards"]]
            for who in ("alice", "bob")}
    assert seen == {"alice": [2, 3], "bob": [1]}  # seats: bob 1, alice 2; dragon at spot 3
    assert view(room, d, p["alice"])["you"]["to_set"] == [2, 3]
    with pytest.raises(CardroomError, match="not your hand"):
        room.act(p["bob"], d, {"type": "house_way", "spot": 3})
    set_all(room, d, [p["alice"], p["bob"]], manual=True)
    spots = {s["spot"]: s for s in view(room, d, p["bob"])["last"]["spots"]}
    assert spots[3]["wager"] == 2_000 and spots[3]["name"] == "dragon (alice)"
    bal = books(storage)
    assert bal[ledger.stack(d, p["alice"].id)] == 20_000 + expected_net(
        spots[2]["outcome"], 1_000) + expected_net(spots[3]["outcome"], 2_000)


def test_pai_gow_refusals_change_nothing_and_void_returns_every_wager(
        storage: Storage) -> None:
    room, p, t = make_room(storage, rules={"foul_policy": "refuse"})
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "a"})
    room.act(p["bob"], t, {"type": "sit", "buy_in": 20_000, "key": "b"})
    with pytest.raises(CardroomError, match="outside the table limits"):
        room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 100}, "key": "x"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "w"})
    room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "w"})
    with pytest.raises(CardroomError, match="already have a wager"):
        room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "w2"})
    with pytest.raises(CardroomError, match="no hand to set now"):
        room.act(p["alice"], t, {"type": "house_way"})
    room.act(p["alice"], t, {"type": "deal"})
    before, snap = books(storage), view(room, t, p["alice"])
    mine = next(s for s in snap["spots"] if s["spot"] == 1)
    cards = [parse_card(c["text"]) for c in mine["cards"]]
    fouls = [s for s in all_settings(cards) if s.is_foul]
    for who, msg, match in [
        (p["alice"], {"type": "house_way", "spot": 2}, "not your hand"),
        (p["alice"], {"type": "set", "front": ["As"]}, "two different cards"),
        (p["alice"], {"type": "set", "front": "As Kd"}, "the front hand must be two cards"),
        (p["alice"], {"type": "bank", "key": "k"}, "before the deal"),
        (p["alice"], {"type": "leave", "key": "l"}, "in play"),
        (p["bob"], {"type": "shuffle"}, "unknown action"),
    ] + ([(p["alice"], {"type": "set", "front": [str(c) for c in fouls[0].front]},
           "foul setting refused")] if fouls else []):
        with pytest.raises(CardroomError, match=match):
            room.act(who, t, msg)
    assert books(storage) == before and view(room, t, p["alice"]) == snap
    room.act(p["alice"], t, {"type": "house_way"})
    room.act(p["fiona"], t, {"type": "void", "reason": "deck found short"})
    bal = books(storage)
    assert bal[ledger.stack(t, p["alice"].id)] == 20_000
    assert bal[ledger.stack(t, p["bob"].id)] == 20_000
    assert bal.get(ledger.wagers(t), 0) == 0
    snap = view(room, t, p["bob"])
    assert snap["spots"] == [] and snap["last"]["voided"] and snap["last"]["by"] == "fiona"
    # a fresh hand plays after the void
    last = play_hand(room, t, p, {"alice": 1_000}, "n")
    assert last["spots"][1]["name"] == "alice"


def test_pai_gow_restart_resumes_the_open_hand_and_keeps_the_seats(storage: Storage) -> None:
    """Issue 25: the hand in play goes on after a restart (tests/room/test_resume.py shows
    its cards and settings): the seats and stacks as they were, bob sets his hand and it
    settles, and the next hand plays."""
    room, p, t = make_room(storage)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "a"})
    room.act(p["bob"], t, {"type": "sit", "buy_in": 20_000, "key": "b"})
    room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "w"})
    room.act(p["bob"], t, {"type": "deal"})
    again = Room(storage, SeededRandom(1), identity=IDENTITY_KEY)
    assert again.start() == []
    snap = again.table(t).snapshot(p["alice"])
    assert [(x["seat"], x["name"], x["stack"]) for x in snap["players"]] == [
        (1, "alice", 20_000), (2, "bob", 19_000)]
    set_all(again, t, [p["bob"]])
    assert view(again, t, p["bob"])["last"]["spots"][1]["name"] == "bob"
    last = play_hand(again, t, p, {"bob": 1_000}, "r")
    assert last["spots"][1]["name"] == "bob"


def test_pai_gow_a_hand_whose_only_stake_is_a_bank_is_voided_without_a_transfer(
        storage: Storage) -> None:
    """A player who takes the bank takes her wager back (banking clause): a hand voided then
    holds a stake record with nothing in it, so the void returns nothing and posts no
    transaction (the ledger refuses one that moves no money), and the hand is voided."""
    room, p, t = make_room(storage, seed=9)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 30_000, "key": "a"})
    room.act(p["bob"], t, {"type": "sit", "buy_in": 30_000, "key": "b"})
    play_hand(room, t, p, {"alice": 2_000, "bob": 1_000}, "h1")
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 2_000}, "key": "h2a"})
    room.act(p["alice"], t, {"type": "bank", "key": "abank"})
    hand_id = room.table(t).hand_id
    before = books(storage)
    room.act(p["fiona"], t, {"type": "void", "reason": "the dealer dropped the deck"})
    assert books(storage) == before
    with storage.read() as conn:
        assert hands.hand_record(conn, hand_id)["status"] == "voided"


def test_a_hands_setting_choices_are_worked_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every update of a Pai Gow table shows a player whose hand is unset its 21 ways to set
    it (`pai_gow_live.choices`, 42 hands scored): worked out once a hand, the same each time,
    and each the setting's own (its front pair, its two hands named, foul or not)."""
    pai_gow_live.choices.cache_clear()
    scored: list[int] = []
    monkeypatch.setattr(pai_gow_live, "all_settings",
                        lambda cards, wheel: scored.append(1) or all_settings(cards, wheel))
    seven = tuple(parse_cards("As Kd JK 9c 7h 5s 2d"))
    first = pai_gow_live.choices(seven, False)
    assert pai_gow_live.choices(seven, False) == first and scored == [1]
    assert len(first) == 21
    for made, setting in zip(first, all_settings(seven, False), strict=True):
        assert (made.front, made.high, made.low, made.foul) == (
            [str(c) for c in setting.front], describe(setting.back_score),
            describe(setting.front_score), setting.is_foul)
    pai_gow_live.choices(seven, True)  # the wheel's rank is part of what it depends on
    assert scored == [1, 1]
