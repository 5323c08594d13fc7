"""A Mini-Baccarat table in the room: money through the ledger, refusals, voids, recovery,
recall. Expected amounts come from the Mini-Baccarat pay rules (even money on Player, a tie
pushes a Player bet), not from the code under test."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import update

from cardroom.cards import parse_card
from cardroom.errors import CardroomError
from cardroom.games.baccarat.coup import hand_total
from cardroom.room.books.cashier import buy_chips, cash_out
from cardroom.room.money import hands, ledger
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import PermissionDenied
from cardroom.room.storage.schema import hands as hands_table
from cardroom.room.storage.settings import SELF_SERVICE
from cardroom.shoe import SeededRandom

from .people import IDENTITY_KEY
from .rooms import baccarat_room as make_room
from .rooms import tid


def state(room: Room, who: Account) -> dict[str, Any]:
    return room.table(tid(room)).snapshot(who)


def test_cashier_buy_and_cash_out_balanced(storage: Storage) -> None:
    _room, p, _ = make_room(storage)
    with storage.unit() as conn:
        cash_out(conn, SELF_SERVICE, p["alice"], 40_000, "out1")
        cash_out(conn, SELF_SERVICE, p["alice"], 40_000, "out1")  # retried: applied once
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.wallet(p["alice"].id)) == 60_000
        assert ledger.trial_balance(conn).ok
    with pytest.raises(CardroomError, match="not enough"), storage.unit() as conn:
        cash_out(conn, SELF_SERVICE, p["alice"], 60_001, "out2")
    with pytest.raises(PermissionDenied), storage.unit() as conn:
        buy_chips(conn, SELF_SERVICE, p["audrey"], 100, "x")


def test_player_bet_settles_at_even_money(storage: Storage) -> None:
    room, p, _ = make_room(storage)
    t = tid(room)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s1"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 1_000}, "key": "b1"})
    assert state(room, p["alice"])["seats"][0]["stack"] == 19_000
    room.act(p["alice"], t, {"type": "deal"})
    last = state(room, p["alice"])["last"]
    player = tuple(parse_card(c["text"]) for c in last["player"])
    banker = tuple(parse_card(c["text"]) for c in last["banker"])
    pt, bt = hand_total(player), hand_total(banker)
    expected = 20_000 + (1_000 if pt > bt else 0 if pt == bt else -1_000)
    assert state(room, p["alice"])["seats"][0]["stack"] == expected
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.stack(t, p["alice"].id)) == expected
        assert ledger.balance(conn, ledger.wagers(t)) == 0
        assert ledger.balance(conn, ledger.tray(t)) == 20_000 - expected
        assert ledger.trial_balance(conn).ok
        assert audit.verify(conn).ok


def test_banker_bets_pay_commission_in_the_ledger(storage: Storage) -> None:
    room, p, _ = make_room(storage, seed=3)
    t = tid(room)
    room.act(p["bob"], t, {"type": "sit", "buy_in": 50_000, "key": "s"})
    for i in range(12):
        room.act(p["bob"], t, {"type": "bet", "bets": {"banker": 2_000}, "key": f"b{i}"})
        room.act(p["bob"], t, {"type": "deal"})
    with storage.read() as conn:
        commission = ledger.balance(conn, ledger.HOUSE_COMMISSION)
        records = [hands.hand_record(conn, h["id"]) for h in hands.find_hands(
            conn, None, hands.HandFilter(), room.settings.clock).rows]
        assert ledger.trial_balance(conn).ok
    wins = sum(r["result"]["settlements"][0]["outcome"] == "win" for r in records)
    assert commission == wins * 100  # 5% of $20.00 per winning Banker bet


def test_retried_bet_is_applied_once(storage: Storage) -> None:
    room, p, _ = make_room(storage)
    t = tid(room)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s1"})
    msg = {"type": "bet", "bets": {"player": 1_000}, "key": "same"}
    room.act(p["alice"], t, msg)
    room.act(p["alice"], t, msg)
    assert state(room, p["alice"])["seats"][0]["stack"] == 19_000


@pytest.mark.parametrize("msg, reason", [
    ({"type": "bet", "bets": {"player": 30_000}, "key": "k"}, "exceed the balance"),
    ({"type": "bet", "bets": {"player": 100}, "key": "k"}, "table limits"),
    ({"type": "bet", "bets": {"player": 1_000, "banker": 1_000}, "key": "k"}, "not both"),
    ({"type": "bet", "bets": {"player": 10.5}, "key": "k"}, "a bet is not an amount of money"),
    ({"type": "bet", "bets": {"dragon": 500}, "key": "k"}, "unknown wager"),
    ({"type": "bet", "bets": {"player": 500}}, "the request's reference must be a text"),
    ({"type": "deal"}, "may deal"),
    ({"type": "jump"}, "unknown action"),
    (["not", "an", "object"], "it is not a table request"),
])
def test_refusals_change_nothing_and_are_audited(storage: Storage, msg: object,
                                                 reason: str) -> None:
    room, p, _ = make_room(storage)
    t = tid(room)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s1"})
    before = state(room, p["alice"])
    with storage.read() as conn:
        books = ledger.balances(conn)
    with pytest.raises(CardroomError, match=reason):
        room.act(p["alice"], t, msg)
    assert state(room, p["alice"]) == before
    with storage.read() as conn:
        assert ledger.balances(conn) == books
        last = list(audit.entries(conn))[-1]
    assert last.action == "refused" and last.actor == "alice" and reason.split()[0] in \
        last.data["reason"]


def test_unseated_and_auditor_may_not_play(storage: Storage) -> None:
    room, p, _ = make_room(storage)
    t = tid(room)
    with pytest.raises(CardroomError, match="not seated"):
        room.act(p["bob"], t, {"type": "bet", "bets": {"player": 500}, "key": "k"})
    with pytest.raises(PermissionDenied):
        room.act(p["audrey"], t, {"type": "sit", "buy_in": 500, "key": "k"})
    with pytest.raises(CardroomError, match="no open table"):
        room.act(p["bob"], 999, {"type": "deal"})


def test_floor_voids_a_hand_and_wagers_return(storage: Storage) -> None:
    room, p, _ = make_room(storage)
    t = tid(room)
    for name in ("alice", "bob"):
        room.act(p[name], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
        room.act(p[name], t, {"type": "bet", "bets": {"banker": 5_000, "tie": 500},
                              "key": "b"})
    with pytest.raises(PermissionDenied):
        room.act(p["alice"], t, {"type": "void", "reason": "I changed my mind"})
    hand_id = room.table(t).hand_id
    room.act(p["fiona"], t, {"type": "void", "reason": "card exposed by the dealer"})
    snap = state(room, p["alice"])
    assert [s["stack"] for s in snap["seats"]] == [20_000, 20_000]
    assert snap["last"]["voided"] and not snap["hand"]["open"]
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.wagers(t)) == 0
        rec = hands.hand_record(conn, hand_id or 0)
        entry = [e for e in audit.entries(conn) if e.action == "hand.void"][-1]
        assert ledger.trial_balance(conn).ok
    assert rec["status"] == "voided" and rec["voided_by"] == "fiona"
    assert entry.actor == "fiona" and entry.data["reason"] == "card exposed by the dealer"


def test_crash_mid_hand_resumes_on_restart(storage: Storage) -> None:
    """Issue 25: killed before the deal, the coup's wagers are down again after the restart
    (nothing voided) and it is dealt and settled."""
    room, p, _ = make_room(storage)
    t = tid(room)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 5_000}, "key": "b"})
    del room  # killed before the deal
    again = Room(storage, SeededRandom(1), identity=IDENTITY_KEY)
    assert again.start() == []
    snap = again.table(t).snapshot(p["alice"])
    assert snap["seats"][0]["stack"] == 15_000 and snap["hand"]["open"]
    assert snap["seats"][0]["bets"] == {"player": 5_000}
    with storage.read() as conn:
        assert ledger.trial_balance(conn).ok
        assert ledger.balance(conn, ledger.wagers(t)) == 5_000
    again.act(p["alice"], t, {"type": "deal"})
    last = again.table(t).snapshot(p["alice"])["last"]
    assert [s["stake"] for s in last["settlements"]] == [5_000]
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.wagers(t)) == 0


def test_progressive_contribution_goes_to_the_pool(storage: Storage) -> None:
    """Super-9: at least 20 cents of every $1 jackpot wager goes to the meter."""
    room, p, _ = make_room(storage)
    t = tid(room)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 500, "progressive": 100},
                             "key": "b"})
    room.act(p["alice"], t, {"type": "deal"})
    snap = state(room, p["alice"])
    with storage.read() as conn:
        held = ledger.balance(conn, ledger.jackpot("super9"))
    assert snap["jackpot"]["meter"] == held == 250_000 + 20


def test_recall_replays_and_guards(storage: Storage) -> None:
    room, p, _ = make_room(storage)
    t = tid(room)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 500, "player_9": 100},
                             "key": "b"})
    room.act(p["alice"], t, {"type": "deal"})
    [mine] = room.history(p["alice"]).rows
    assert room.recall(p["alice"], mine["id"]).ok
    assert room.recall(p["audrey"], mine["id"]).ok
    with pytest.raises(PermissionDenied):
        room.recall(p["bob"], mine["id"])
    with storage.read() as conn:
        rec = hands.hand_record(conn, mine["id"])
    rec["result"]["settlements"][0]["won"] += 100
    import json
    with storage.unit() as conn:
        conn.execute(update(hands_table).where(hands_table.c.id == mine["id"])
                     .values(history=json.dumps(rec)))
    bad = room.recall(p["audrey"], mine["id"])
    assert not bad.ok and "differs from what the history replays as" in bad.problems[0]


def test_snapshot_never_holds_the_shoe_order(storage: Storage) -> None:
    room, p, _ = make_room(storage)
    t = tid(room)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 500}, "key": "b"})
    room.act(p["alice"], t, {"type": "deal"})
    import json
    text = json.dumps(state(room, p["bob"]))
    shoe = room.table(t).engine.shoe  # type: ignore[attr-defined]
    dealt = {str(c) for c in shoe.order[:shoe.position]}
    shown = {c["text"] for side in ("player", "banker") for c in
             state(room, p["bob"])["last"][side]}
    assert shown <= dealt and len(text) < 5_000
