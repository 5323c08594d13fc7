"""Issue 25, tables that outlive their process: a hand in play when the server stops is
resumed at the next start from its committed actions, exactly where it was (the same cards
to come in the same order, the same bets, the same turn and the same deadline), then played
to its end with the books balanced and the audit chain whole. A hand whose sealed record does
not replay is voided as before (every wager back). Each test drops the room without closing
anything (as a killed process would) and starts a new room on the same database, on SQLite
and on PostgreSQL (`storage_fixture`)."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, update
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.room.money import hands, ledger
from cardroom.room.people.accounts import Account
from cardroom.room.play import resume
from cardroom.room.play.baccarat_live import BaccaratLive
from cardroom.room.play.pai_gow_live import PaiGowLive
from cardroom.room.play.resume import NOT_RESUMED, lock, unlock
from cardroom.room.play.super_pan_9_live import SuperPan9Live
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import audit_log, sealed_tables, seats
from cardroom.shoe import SeededRandom

from .pan_play import alice_and_bots, pan, play_out, say
from .people import IDENTITY_KEY
from .rooms import (
    baccarat_room,
    books,
    pai_gow_room,
    pan_room,
    set_all,
    start_round,
    super_pan_9_room,
    view,
)


def restarted(storage: Storage, seed: int = 99) -> tuple[Room, list[int]]:
    """A new room on the same database, as `cardroom serve` starts after a kill (its own
    random source: nothing of the old process is reused); the hands its start voided."""
    room = Room(storage, SeededRandom(seed), identity=IDENTITY_KEY)
    return room, room.start()


def audited(storage: Storage, action: str) -> list[dict[str, Any]]:
    with storage.read() as conn:
        return [json.loads(d) for d in conn.execute(
            select(audit_log.c.detail).where(audit_log.c.action == action)
            .order_by(audit_log.c.seq)).scalars()]


def test_baccarat_wagers_and_the_shoe_survive_a_restart(storage: Storage) -> None:
    """A coup in play is its wagers: after a restart they are down again, and the coup is
    dealt from the same shoe at the same place (the cards the stopped server would have
    dealt: player, banker, player, banker)."""
    room, p, t = baccarat_room(storage)
    assert t is not None
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20_000, "key": f"s{who}"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 500}, "key": "b1"})
    room.act(p["alice"], t, {"type": "deal"})  # the first coup shuffles the shoe
    room.act(p["alice"], t, {"type": "bet", "bets": {"banker": 1_000, "tie": 100},
                             "key": "b2"})
    room.act(p["bob"], t, {"type": "bet", "bets": {"player": 2_000}, "key": "b3"})
    old = room.table(t)
    assert isinstance(old, BaccaratLive) and old.engine.shoe is not None
    shoe = old.engine.shoe
    coming = shoe.order[shoe.position:shoe.position + 4]
    hand_id, bets = old.hand_id, dict(old.engine.bets)
    del room, old  # killed: nothing closed

    again, voided = restarted(storage)
    assert voided == []
    live = again.table(t)
    assert isinstance(live, BaccaratLive) and live.engine.shoe is not None
    assert live.hand_id == hand_id and live.engine.bets == bets
    assert live.engine.shoe.position == shoe.position
    assert live.engine.shoe.commitment == shoe.commitment
    assert view(again, t, p["bob"])["seats"][1]["bets"] == {"player": 2_000}
    assert audited(storage, "hand.resumed") == [{"hand": hand_id, "table": t}]
    again.act(p["bob"], t, {"type": "deal"})
    last = view(again, t, p["alice"])["last"]
    assert [c["text"] for c in last["player"][:2]] == [str(coming[0]), str(coming[2])]
    assert [c["text"] for c in last["banker"][:2]] == [str(coming[1]), str(coming[3])]
    bal = books(storage)  # the ledger balanced, the audit chain whole
    assert bal.get(ledger.wagers(t), 0) == 0
    with storage.read() as conn:
        assert hands.hand_record(conn, hand_id or 0)["status"] == "settled"
        assert again.recall(p["olivia"], hand_id or 0).ok


def sealed_shoe(storage: Storage, table_id: int) -> str:
    with storage.read() as conn:
        return str(conn.execute(select(sealed_tables.c.shoe)
                                .where(sealed_tables.c.table_id == table_id)).scalar_one())


def test_a_bet_keeps_the_sealed_shoe_and_a_deal_seals_it_anew(storage: Storage) -> None:
    """The sealed row's shoe is the shoe the table deals next. A bet does not move it: its
    sealed text stays as it was (not written out and encrypted again at every action); a
    deal moves it and seals it anew, at its new position."""
    room, p, t = baccarat_room(storage)
    assert t is not None
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 500}, "key": "b1"})
    room.act(p["alice"], t, {"type": "deal"})  # the first coup shuffles the shoe
    dealt = sealed_shoe(storage, t)
    room.act(p["alice"], t, {"type": "bet", "bets": {"banker": 500}, "key": "b2"})
    assert sealed_shoe(storage, t) == dealt
    room.act(p["alice"], t, {"type": "deal"})
    live = room.table(t)
    assert isinstance(live, BaccaratLive) and live.engine.shoe is not None
    moved = sealed_shoe(storage, t)
    assert moved != dealt
    assert unlock(IDENTITY_KEY, moved, t)["position"] == live.engine.shoe.position
    assert unlock(IDENTITY_KEY, dealt, t)["position"] < live.engine.shoe.position


def test_a_deal_that_fails_after_its_seal_leaves_the_sealed_shoe_as_committed(
        storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal refused after it sealed the moved shoe (in its transaction, rolled back) puts
    the table back as it was, with what it remembers of its last seal: the bet after it
    keeps the committed shoe, and a restart deals the very cards the table would have."""
    room, p, t = baccarat_room(storage)
    assert t is not None
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20_000, "key": f"s{who}"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 500}, "key": "b1"})
    room.act(p["alice"], t, {"type": "deal"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 500}, "key": "b2"})
    committed = sealed_shoe(storage, t)
    sealing = resume.seal

    def seal_then_fail(conn: Connection, live: Any, key: Any) -> None:
        sealing(conn, live, key)
        raise CardroomError("the deal fails after its seal")

    monkeypatch.setattr(resume, "seal", seal_then_fail)
    with pytest.raises(CardroomError, match="fails after its seal"):
        room.act(p["alice"], t, {"type": "deal"})
    monkeypatch.setattr(resume, "seal", sealing)
    room.act(p["bob"], t, {"type": "bet", "bets": {"banker": 500}, "key": "b3"})
    assert sealed_shoe(storage, t) == committed
    live = room.table(t)
    assert isinstance(live, BaccaratLive) and live.engine.shoe is not None
    shoe = live.engine.shoe
    coming = shoe.order[shoe.position:shoe.position + 4]
    del room, live

    again, voided = restarted(storage)
    assert voided == []
    again.act(p["alice"], t, {"type": "deal"})
    last = view(again, t, p["alice"])["last"]
    assert [c["text"] for c in last["player"][:2]] == [str(coming[0]), str(coming[2])]
    assert [c["text"] for c in last["banker"][:2]] == [str(coming[1]), str(coming[3])]
    books(storage)


def test_super_pan_9_round_resumes_with_its_cards_turn_and_deadline(storage: Storage) -> None:
    """A dealt round after a restart: the same cards in every hand, the same seat to act
    with the same deadline (rule 6), and the next card drawn is the one the shoe held next."""
    room, p, t = super_pan_9_room(storage)
    assert t is not None
    start_round(room, p, t)
    old = room.table(t)
    assert isinstance(old, SuperPan9Live) and old.engine.shoe is not None and old.turn
    seen = {who: view(room, t, p[who])["round"] for who in ("alice", "bob")}
    coming = old.engine.shoe.order[old.engine.shoe.position]
    hand_id, turn, seats = old.hand_id, old.turn, old.engine.seats
    del room, old

    again, voided = restarted(storage)
    assert voided == []
    live = again.table(t)
    assert isinstance(live, SuperPan9Live) and live.hand_id == hand_id
    assert live.turn is not None
    assert (live.turn.account, live.turn.deadline) == (turn.account, turn.deadline)
    assert {who: view(again, t, p[who])["round"] for who in ("alice", "bob")} == seen
    assert {s: h.cards for s, h in live.engine.seats.items()} == \
        {s: h.cards for s, h in seats.items()}
    again.act(p["alice"], t, {"type": "draw"})
    assert live.engine.seats[1].cards[-1] == coming
    again.act(p["bob"], t, {"type": "stand"})
    last = view(again, t, p["bob"])["last"]
    assert [s["name"] for s in last["settlements"]] == ["alice", "bob"]
    bal = books(storage)
    assert bal.get(ledger.wagers(t), 0) == 0
    assert bal[ledger.stack(t, p["alice"].id)] + bal[ledger.stack(t, p["bob"].id)] + \
        bal.get(ledger.tray(t), 0) + bal.get(ledger.HOUSE_COMMISSION, 0) == 40_000
    assert again.recall(p["olivia"], hand_id or 0).ok


def test_a_turn_that_ran_out_while_the_room_was_down_takes_its_default(
        storage: Storage) -> None:
    """Issue 23, timers survive a restart: a deadline that passed while the server was down
    is taken at the start as the timer takes it (Super Pan 9: the player stands), audited
    as `hand.timeout` by the timer."""
    room, p, t = super_pan_9_room(storage)
    assert t is not None
    long_ago = datetime.now(UTC) - timedelta(hours=1)
    room.table(t).clock = lambda: long_ago
    start_round(room, p, t)
    del room

    again, voided = restarted(storage)
    assert voided == []
    live = again.table(t)
    assert isinstance(live, SuperPan9Live)
    assert live.engine.seats[1].acted and len(live.engine.seats[1].cards) == 3
    timeouts = audited(storage, "hand.timeout")
    assert [(d["account"], d["action"]) for d in timeouts] == [(p["alice"].id, "stand")]
    assert live.turn is not None and live.turn.account == p["bob"].id
    again.act(p["bob"], t, {"type": "stand"})
    assert books(storage).get(ledger.wagers(t), 0) == 0


def test_pai_gow_hand_resumes_with_the_same_hands_and_settings(storage: Storage) -> None:
    """A dealt Pai Gow hand, one player's hand set: after a restart every spot holds the
    same seven cards, the setting stands, and the other player sets hers to settle."""
    room, p, t = pai_gow_room(storage)
    assert t is not None
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20_000, "key": f"s{who}"})
        room.act(p[who], t, {"type": "bet", "bets": {"wager": 1_000}, "key": f"b{who}"})
    room.act(p["bob"], t, {"type": "deal"})
    set_all(room, t, [p["alice"]])
    old = room.table(t)
    assert isinstance(old, PaiGowLive)
    hand_id, dealt, cards = old.hand_id, old.dealt, dict(old.engine.hands)
    settings = {s: h.setting for s, h in old.engine.settings.items()}
    seen = view(room, t, p["bob"])
    del room, old

    again, voided = restarted(storage)
    assert voided == []
    live = again.table(t)
    assert isinstance(live, PaiGowLive) and live.hand_id == hand_id and live.dealt == dealt
    assert live.engine.hands == cards
    assert {s: h.setting for s, h in live.engine.settings.items()} == settings
    assert view(again, t, p["bob"])["spots"] == seen["spots"]
    set_all(again, t, [p["bob"]])
    assert live.hand_id is None and view(again, t, p["bob"])["last"]["hand"] == hand_id
    assert books(storage).get(ledger.wagers(t), 0) == 0
    assert again.recall(p["olivia"], hand_id or 0).ok


def test_pan_hand_resumes_with_its_stock_turn_deadline_and_books(storage: Storage) -> None:
    """A Pan hand some turns in (alice and two house bots): after a restart the stock holds
    the same cards in the same order, every hand and spread is as it was, the same player is
    to act with the same deadline and `seq`; the hand plays out with the books in step after
    every move."""
    room, p, t = pan_room(storage)
    assert t is not None
    alice_and_bots(room, p["alice"], t, 2)
    room.act(p["alice"], t, {"type": "deal"})
    people = [p["alice"]]
    for _ in range(6):  # a few of alice's decisions, the bots playing between them
        legal = pan(room, t).snapshot(p["alice"])["play"]["legal"]
        mine = [c for c in legal if c in ("play", "pass", "draw") or c.startswith("discard")]
        if pan(room, t).hand_id is None or not mine:
            break
        say(room, p["alice"], t, mine[0])
    old = pan(room, t)
    hand = old.engine.hand
    assert hand is not None and old.turn is not None
    seen = {who.username: old.snapshot(who) for who in people}
    stock, hand_id, turn = list(hand.stock), old.hand_id, old.turn
    del room, old, hand

    again, voided = restarted(storage)
    assert voided == []
    live = pan(again, t)
    hand = live.engine.hand
    assert hand is not None and live.hand_id == hand_id
    assert list(hand.stock) == stock
    assert live.turn is not None
    assert (live.turn.account, live.turn.deadline) == (turn.account, turn.deadline)
    for who in people:
        now = live.snapshot(who)
        assert now["play"] == seen[who.username]["play"] and now["seq"] == \
            seen[who.username]["seq"]
        assert now["players"] == seen[who.username]["players"]
    play_out(again, people, t)
    with storage.read() as conn:
        assert hands.hand_record(conn, hand_id or 0)["status"] == "settled"
    assert books(storage)
    assert again.recall(p["olivia"], hand_id or 0).ok


def corrupt(storage: Storage, t: int, change: Any) -> None:
    """Change the table's sealed hand (opened and sealed again with the room's key)."""
    with storage.unit() as conn:
        row = conn.execute(select(sealed_tables.c.hand)
                           .where(sealed_tables.c.table_id == t)).scalar_one()
        data = unlock(IDENTITY_KEY, row, t)
        change(data)
        conn.execute(update(sealed_tables).where(sealed_tables.c.table_id == t)
                     .values(hand=lock(IDENTITY_KEY, data, t)))


def stacks(storage: Storage, t: int, who: list[Account]) -> list[int]:
    with storage.read() as conn:
        return [ledger.balance(conn, ledger.stack(t, a.id)) for a in who]


def test_a_hand_whose_record_does_not_replay_is_voided_as_before(storage: Storage) -> None:
    """A sealed record that the game's engine refuses (here a Super Pan 9 draw recorded for
    a seat not in turn) cannot be resumed: the hand is voided as before, every wager back,
    the reason audited; the next round deals from a fresh shoe (the cards of the voided
    round were seen)."""
    room, p, t = super_pan_9_room(storage)
    assert t is not None
    start_round(room, p, t)
    hand_id = room.table(t).hand_id
    del room

    def bob_draws_first(data: dict[str, Any]) -> None:
        data["history"]["actions"].append({"type": "draw", "seat": 2})

    corrupt(storage, t, bob_draws_first)
    again, voided = restarted(storage)
    assert voided == [hand_id]
    assert stacks(storage, t, [p["alice"], p["bob"]]) == [20_000, 20_000]
    with storage.read() as conn:
        record = hands.hand_record(conn, hand_id or 0)
    assert record["status"] == "voided" and record["voided_by"] == "recovery"
    assert record["reason"] == NOT_RESUMED
    why = audited(storage, "hand.not-resumed")
    assert [(d["hand"], d["table"]) for d in why] == [(hand_id, t)]
    assert why[0]["why"].startswith("action 3 (draw) is refused on replay")  # 2 wagers, deal
    assert audited(storage, "room.recovered")[-1] == {"voided": [hand_id], "resumed": []}
    live = again.table(t)
    assert live.hand_id is None and live.engine.shoe is None
    books(storage)
    again.act(p["bob"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "again"})
    again.act(p["bob"], t, {"type": "deal"})
    again.act(p["bob"], t, {"type": "stand"})
    assert books(storage).get(ledger.wagers(t), 0) == 0


def test_a_record_that_disagrees_with_the_ledger_is_voided(storage: Storage) -> None:
    """A Pai Gow record whose wager is not the one the ledger took from the stack (a record
    tampered with, or written by another version) is not resumed: voided, the ledger's
    wager returned."""
    room, p, t = pai_gow_room(storage)
    assert t is not None
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "b"})
    room.act(p["alice"], t, {"type": "deal"})
    hand_id = room.table(t).hand_id
    del room

    def richer(data: dict[str, Any]) -> None:
        data["before"] = {k: v + 500 for k, v in data["before"].items()}
        for seat in data["history"]["seats"]:
            seat["chips"] += 500

    corrupt(storage, t, richer)
    _, voided = restarted(storage)
    assert voided == [hand_id]
    assert stacks(storage, t, [p["alice"]]) == [20_000]
    books(storage)


def test_the_sealed_record_tells_no_card_without_the_key(storage: Storage) -> None:
    """Hidden information (docs/security.md): the sealed row holds the shoe still to come and
    the hands dealt, encrypted under the room's identity key (a file apart from the books):
    no card of the shoe's order, of any hand or of the salt is in it in clear, the row of one
    table does not open as another's, and a room started without the key cannot resume the
    hand: it is voided as before."""
    room, p, t = super_pan_9_room(storage)
    assert t is not None
    start_round(room, p, t)
    live = room.table(t)
    assert isinstance(live, SuperPan9Live) and live.engine.shoe is not None
    hand_id, salt = live.hand_id, live.engine.shoe.salt.hex()
    dealt = [str(c) for h in live.engine.seats.values() for c in h.cards]
    with storage.read() as conn:
        row = conn.execute(select(sealed_tables).where(sealed_tables.c.table_id == t)).one()
    for stored in (row.shoe, row.hand):
        assert stored.startswith("sealed:v1:") and salt not in stored
        assert not any(f'"{card}"' in stored for card in dealt)
        assert "order" not in stored and "pack" not in stored
    with pytest.raises(CardroomError, match="does not open"):
        unlock(IDENTITY_KEY, row.hand, t + 1)
    assert unlock(IDENTITY_KEY, row.shoe, t)["salt"] == salt
    del room, live

    keyless = Room(storage, SeededRandom(5))  # no identity key
    assert keyless.start() == [hand_id]
    assert stacks(storage, t, [p["alice"], p["bob"]]) == [20_000, 20_000]
    assert "identity key" in audited(storage, "hand.not-resumed")[0]["why"]
    books(storage)


@pytest.mark.parametrize("holders", [(), ("10.0.0.1:8001", "10.0.0.2:8001")],
                         ids=["one process", "two processes"])
def test_an_older_sealed_record_put_back_is_not_resumed(storage: Storage,
                                                         holders: tuple[str, ...]) -> None:
    """Someone who can write the books but holds no key puts back an earlier sealed record of
    the same hand (before bob stood): replayed, it would deal bob's turn again. The audit
    log (chained, MACed) says the hand moved on after it: the hand is voided, not rolled
    back. With two processes (issue 25's writer chains) the hand is dealt by one (its chain)
    and moved on by the table's next holder, on a chain whose numbers are far lower."""
    room, p, t = super_pan_9_room(storage)
    assert t is not None
    if holders:
        storage.write_as(holders[0])
    start_round(room, p, t)
    with storage.read() as conn:
        earlier = conn.execute(select(sealed_tables).where(sealed_tables.c.table_id == t)).one()
    if holders:
        storage.write_as(holders[1])  # the table's next holder
    room.act(p["alice"], t, {"type": "stand"})
    hand_id = room.table(t).hand_id
    del room
    with storage.unit() as conn:
        conn.execute(update(sealed_tables).where(sealed_tables.c.table_id == t)
                     .values(hand=earlier.hand, shoe=earlier.shoe))
    _, voided = restarted(storage)
    assert voided == [hand_id]
    why = audited(storage, "hand.not-resumed")[0]["why"]
    assert "older than the hand's audit log (hand.stand came after it)" in why
    assert stacks(storage, t, [p["alice"], p["bob"]]) == [20_000, 20_000]
    books(storage)


def test_a_seat_row_without_its_number_is_refused_at_a_restart(storage: Storage) -> None:
    """A seat row is "N:name" (`live_table.seat_text`); the unnumbered row an older baccarat
    table wrote is no longer read as the first free seat: the table refuses to open on it,
    naming the row, rather than seat a player where they never sat."""
    room, p, t = baccarat_room(storage)
    assert t is not None
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s1"})
    with storage.unit() as conn:
        assert conn.execute(select(seats.c.seat).where(seats.c.table_id == t)).scalar_one() \
            == "1:alice"
        conn.execute(update(seats).where(seats.c.table_id == t).values(seat="alice"))
    del room
    with pytest.raises(CardroomError, match="unreadable seat record 'alice'"):
        restarted(storage)


def test_a_hand_moved_on_by_the_next_process_resumes_from_its_record(storage: Storage
                                                                     ) -> None:
    """The latest record, sealed on the next holder's chain, is not taken for an older one
    because the first process's chain has entries about the hand with higher numbers."""
    room, p, t = super_pan_9_room(storage)
    assert t is not None
    storage.write_as("10.0.0.1:8001")
    start_round(room, p, t)
    storage.write_as("10.0.0.2:8001")
    room.act(p["alice"], t, {"type": "stand"})
    hand_id = room.table(t).hand_id
    del room
    _, voided = restarted(storage)
    assert voided == []
    assert audited(storage, "hand.resumed")[0]["hand"] == hand_id
    books(storage)


def test_sealed_records_share_a_derived_key_only_for_a_bounded_number_of_writes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The sealing key is derived from the identity key with a random salt, stored in each
    record (docs/security.md): one salt serves `KEY_USES` records, each under its own random
    nonce, then a fresh one is drawn. Every record opens, whichever salt sealed it, and only
    at its own table."""
    monkeypatch.setattr(resume, "KEY_USES", 2)
    monkeypatch.setattr(resume, "_SEALING", {})
    stored = [lock(IDENTITY_KEY, {"n": i, 7: "a key that is not text"}, 3) for i in range(5)]
    raw = [base64.b64decode(s.removeprefix(resume.SEALED)) for s in stored]
    salts = [r[:resume.SALT_BYTES] for r in raw]
    nonces = {r[resume.SALT_BYTES:resume.SALT_BYTES + resume.NONCE_BYTES] for r in raw}
    assert salts[0] == salts[1] != salts[2] == salts[3] != salts[4] != salts[0]
    assert len(nonces) == 5
    assert [unlock(IDENTITY_KEY, s, 3) for s in stored] == [
        {"n": i, "7": "a key that is not text"} for i in range(5)]
    with pytest.raises(CardroomError, match="does not open"):
        unlock(IDENTITY_KEY, stored[0], 4)
