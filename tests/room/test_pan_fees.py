"""Fees at a Pan table (WAC 230-15-070 to -085): collected as the house rules say (per hand
before the deal, per period of time by the table's clock, or a rake of the tops), each one a
balanced ledger transaction into the table's own fee account, audited; a player who cannot
pay is not dealt in. Expected amounts come from the house rules and the Pan rules (one chip to
the tops per player), not from the code under test."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pan.helpers import stacked_pack

from cardroom.errors import CardroomError
from cardroom.room.money import ledger
from cardroom.room.money.pan_fees import fees_collected
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage

from .pan_play import CHIP, pan, play_out, say
from .rooms import pan_room as make_room

ONE_CHIP_BUY_IN = {"buy_in_chips": 1, "modifications": [{
    "id": "one-chip-buy-in", "clause": "Pan: the buy-in is 20 chips",
    "description": "a buy-in of one chip, for the fee tests", "settings": ["buy_in_chips"]}]}


def fee_table(storage: Storage, fee: dict[str, Any], extra: dict[str, Any] | None = None
              ) -> tuple[Room, dict[str, Account], int]:
    room, people, _ = make_room(storage)
    live = room.create_table(people["olivia"], "Pan fees", "pan", {"fee": fee, **(extra or {})})
    return room, people, live.table_id


def fees_held(storage: Storage, t: int) -> int:
    with storage.read() as conn:
        assert ledger.trial_balance(conn).ok
        return ledger.balance(conn, ledger.fees("pan", t))


def fee_audits(storage: Storage) -> list[dict[str, Any]]:
    with storage.read() as conn:
        return [e.data for e in audit.entries(conn) if e.action == "fee.collected"]


def test_wac_230_15_080_per_hand_fee_from_each_player_before_the_deal(storage: Storage
                                                                     ) -> None:
    room, p, t = fee_table(storage, {"kind": "hand", "cents": 100})
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["alice"], t, {"type": "bot", "key": "b"})
    room.act(p["alice"], t, {"type": "deal"})
    hand = pan(room, t).engine.hand
    assert hand is not None
    # the fee was taken before the first card: each player came to the hand with 19 chips
    # (the bot, the house's own chips, pays no fee)
    assert sorted(s.start_chips for s in hand.seats.values()) == [19, 19, 20]
    assert fees_held(storage, t) == 200
    assert sorted((d["account"], d["kind"], d["cents"]) for d in fee_audits(storage)) == [
        (p["alice"].id, "hand", 100), (p["bob"].id, "hand", 100)]
    with storage.read() as conn:
        books = ledger.balances(conn, f"stack:{t}:")
        tops = ledger.balance(conn, ledger.wagers(t))
    assert sum(books.values()) + tops + 200 == 60 * CHIP  # nothing made or lost


def test_a_player_who_cannot_pay_the_fee_is_not_dealt_in(storage: Storage) -> None:
    room, p, t = fee_table(storage, {"kind": "hand", "cents": 100}, ONE_CHIP_BUY_IN)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 1 * CHIP, "key": "s"})
    room.act(p["bob"], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    with pytest.raises(CardroomError) as err:  # alice's one chip is the tops, not the fee
        room.act(p["bob"], t, {"type": "deal"})
    assert "alice cannot pay the table's fee and is not dealt in" in str(err.value)
    assert fees_held(storage, t) == 0 and pan(room, t).hand_id is None
    room.act(p["bob"], t, {"type": "bot", "key": "b"})
    room.act(p["bob"], t, {"type": "deal"})
    live = pan(room, t)
    playing = live.engine.accounts.values()
    assert p["alice"].id not in playing and p["bob"].id in playing
    assert "alice cannot pay the table's fee and is not dealt in" in live.log
    assert fees_held(storage, t) == 100
    assert live.stacks[p["alice"].id] == 1 * CHIP


def test_wac_230_15_080_time_fee_each_period_by_the_table_clock(storage: Storage) -> None:
    """$5 every 30 minutes ($10 an hour): due at the first deal of each period."""
    room, p, t = fee_table(storage, {"kind": "time", "cents": 500, "every_minutes": 30})
    now = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)
    pan(room, t).clock = lambda: now
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})

    def hand_at(minutes: int) -> int:
        nonlocal now
        now = datetime(2026, 11, 23, 18, 0, tzinfo=UTC) + timedelta(minutes=minutes)
        room.act(p["alice"], t, {"type": "deal"})
        room.act(p["fiona"], t, {"type": "void", "reason": "fee test"})
        return fees_held(storage, t)

    assert hand_at(0) == 1_000
    assert hand_at(10) == 1_000  # within the period paid for
    assert hand_at(29) == 1_000
    assert hand_at(30) == 2_000  # a new period: both pay again
    assert hand_at(45) == 2_000
    assert hand_at(60) == 3_000
    assert [d["kind"] for d in fee_audits(storage)] == ["time"] * 6
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.stack(t, p["alice"].id)) == 20 * CHIP - 1_500


GO_OUT = "Ac 2c 3c 4h 4h 4h 5d 6d 7d Qd"
"""Ten cards that go out after one draw (three melds and two lay-offs)."""


def go_for_out(room: Room, people: list[Account], t: int) -> None:
    """Each player, on their turn, plays and goes out as fast as they may."""
    for _ in range(60):
        live = pan(room, t)
        if live.hand_id is None:
            return
        acting = live.engine.accounts[live.snapshot(None)["play"]["to_act"]]
        who = next(w for w in people if w.id == acting)
        legal = [c for c in live.snapshot(who)["play"]["legal"]
                 if c != "change" and not c.startswith(("offer", "foul"))]
        say(room, who, t, next(c for first in ("out", "meld", "lay", "play", "draw")
                               for c in legal if c.startswith(first)))
    raise AssertionError("the hand did not finish")


def test_wac_230_15_080_rake_of_the_tops_from_the_winner(storage: Storage) -> None:
    """A 10% rake of the hand's wagers, the tops (one chip from each of the two players, no
    pass forfeit by default): 20 cents from the player who collects them, after the hand."""
    room, p, t = fee_table(storage, {"kind": "rake", "rate": "10%"})
    live = pan(room, t)
    live.new_pack = lambda rules, source: stacked_pack([GO_OUT, GO_OUT], "Jd")
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["alice"], t, {"type": "deal"})
    assert fees_held(storage, t) == 0  # nothing before the hand
    go_for_out(room, [p["alice"], p["bob"]], t)
    hand = live.engine.hand
    assert hand is not None and hand.winner is not None and hand.end_reason == "went out"
    winner = live.engine.accounts[hand.winner]
    assert fees_held(storage, t) == 20
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.stack(t, winner)) == \
            hand.seats[hand.winner].chips * CHIP - 20
    assert live.stacks[winner] == hand.seats[hand.winner].chips * CHIP - 20
    assert [(d["account"], d["kind"], d["cents"]) for d in fee_audits(storage)] == [
        (winner, "rake", 20)]
    lines = fees_collected_now(storage)
    assert [(line.table_id, line.kind, line.cents, line.count) for line in lines] == [
        (t, "rake", 20, 1)]
    assert f"{live.name_of(winner)} pays the rake of $0.20" in live.log


def test_house_bots_pay_no_rake(storage: Storage) -> None:
    """A house bot's chips are the house's own: a bot that wins pays no rake (here, with
    this room's seed, a bot goes out against a plain player)."""
    room, p, t = fee_table(storage, {"kind": "rake", "rate": "10%"})
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    for k in ("b1", "b2"):
        room.act(p["alice"], t, {"type": "bot", "key": k})
    room.act(p["alice"], t, {"type": "deal"})
    play_out(room, [p["alice"]], t)
    hand = pan(room, t).engine.hand
    assert hand is not None and hand.winner is not None
    assert pan(room, t).engine.accounts[hand.winner] < 0
    assert fees_held(storage, t) == 0 and fee_audits(storage) == []


def fees_collected_now(storage: Storage) -> list[Any]:
    with storage.read() as conn:
        return fees_collected(conn)


def test_no_fee_table_collects_nothing(storage: Storage) -> None:
    room, p, t = make_room(storage)
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["alice"], t, {"type": "deal"})
    assert fees_held(storage, t) == 0 and fee_audits(storage) == []


def test_wac_230_15_080_time_fee_periods_survive_a_restart(storage: Storage) -> None:
    """The periods paid for are stored with the deal: a server restart within a paid period
    charges nothing more (no double charge), and the next period is charged (none skipped)."""
    room, p, t = fee_table(storage, {"kind": "time", "cents": 500, "every_minutes": 30})
    start = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)
    pan(room, t).clock = lambda: start
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["alice"], t, {"type": "deal"})
    assert fees_held(storage, t) == 1_000
    del room  # the server stops with the hand in play; a room started without its identity
    # key cannot resume it (issue 25): the restart voids it

    def restarted_deal_at(minutes: int) -> int:
        again = Room(storage)
        again.start()
        pan(again, t).clock = lambda: start + timedelta(minutes=minutes)
        again.act(p["alice"], t, {"type": "deal"})
        again.act(p["fiona"], t, {"type": "void", "reason": "restart test"})
        return fees_held(storage, t)

    assert restarted_deal_at(10) == 1_000  # within the period paid before the restart
    assert restarted_deal_at(30) == 2_000  # the next period, after another restart
    assert restarted_deal_at(59) == 2_000
