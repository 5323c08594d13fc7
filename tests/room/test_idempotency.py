"""Idempotency keys (docs/server.md, "Money"): the same key with the same request is a retry,
applied once and answered as applied; the same key with a different request is refused with a
clear error and changes nothing. Checked for a wager at every banked game, the Pai Gow dragon
hand, a cashier movement and a jackpot adjustment, on SQLite and PostgreSQL."""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

from cardroom.room.books.cashier import buy_chips, cash_out
from cardroom.room.money import ledger
from cardroom.room.money.jackpot import DEFAULT_POOL
from cardroom.room.money.jackpot import adjust as adjust_jackpot
from cardroom.room.people.accounts import Role
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import IdempotencyConflict
from cardroom.room.storage.settings import SELF_SERVICE

from . import rooms
from .rooms import playing_table

make_room = partial(rooms.make_room, seed=4, buyers=("alice",), key="first",
                    cast=(("olivia", Role.OWNER), ("alice", Role.PLAYER), ("fred", Role.FLOOR),
                          ("fiona", Role.FLOOR)))


def books(storage: Storage) -> tuple[dict[str, int], int]:
    with storage.read() as conn:
        assert ledger.trial_balance(conn).ok
        return ledger.balances(conn), len(list(audit.entries(conn)))


def refused_reasons(storage: Storage) -> list[str]:
    with storage.read() as conn:
        return [e.data["reason"] for e in audit.entries(conn) if e.action == "refused"]


@pytest.mark.parametrize(("game", "first", "other"), [
    ("baccarat", {"banker": 1_000}, {"player": 1_000}),  # same money, another wager
    ("baccarat", {"banker": 1_000}, {"banker": 2_000}),
    ("super-pan-9", {"wager": 1_000}, {"wager": 1_500}),
    ("super-pan-9", {"wager": 1_000, "tie": 0}, {"wager": 900, "tie": 100}),
    ("pai-gow", {"wager": 1_000}, {"wager": 2_000}),
])
def test_a_bet_key_reused_for_another_bet_is_refused(storage: Storage, game: str,
                                                     first: dict[str, int],
                                                     other: dict[str, int]) -> None:
    room, p, _ = make_room(storage)
    t = playing_table(room, p["olivia"], "T", game).table_id
    alice = p["alice"]
    room.act(alice, t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(alice, t, {"type": "bet", "bets": first, "key": "b1"})
    snapshot = room.table(t).snapshot(alice)
    before, _ = books(storage)
    room.act(alice, t, {"type": "bet", "bets": first, "key": "b1"})  # a retry: answered
    with pytest.raises(IdempotencyConflict, match="already used for a different request"):
        room.act(alice, t, {"type": "bet", "bets": other, "key": "b1"})
    assert books(storage)[0] == before and room.table(t).snapshot(alice) == snapshot
    assert "already used for a different request" in refused_reasons(storage)[-1]


def test_a_dragon_key_reused_for_another_amount_is_refused(storage: Storage) -> None:
    room, p, _ = make_room(storage)
    live = playing_table(room, p["olivia"], "T", "pai-gow", {"dragon_hand": "house-way"})
    t, alice = live.table_id, p["alice"]
    room.act(alice, t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(alice, t, {"type": "bet", "bets": {"wager": 1_000}, "key": "b"})
    room.act(alice, t, {"type": "dragon", "amount": 500, "key": "d"})
    before, _ = books(storage)
    room.act(alice, t, {"type": "dragon", "amount": 500, "key": "d"})
    with pytest.raises(IdempotencyConflict):
        room.act(alice, t, {"type": "dragon", "amount": 700, "key": "d"})
    assert books(storage)[0] == before


def test_a_cashier_key_is_one_request(storage: Storage) -> None:
    """A key that bought chips cannot buy another amount, nor cash out."""
    _, p, _ = make_room(storage)
    alice = p["alice"]
    with storage.unit() as conn:
        buy_chips(conn, SELF_SERVICE, alice, 5_000, "k")
    before = books(storage)
    with storage.unit() as conn:
        assert buy_chips(conn, SELF_SERVICE, alice, 5_000, "k").replayed
    for move, amount in ((buy_chips, 6_000), (cash_out, 5_000)):
        with pytest.raises(IdempotencyConflict), storage.unit() as conn:
            move(conn, SELF_SERVICE, alice, amount, "k")
    assert books(storage) == before


def test_a_jackpot_adjustment_key_reused_for_another_adjustment_is_refused(
        storage: Storage) -> None:
    room, p, _ = make_room(storage)
    playing_table(room, p["olivia"], "Mini", "baccarat")  # seeds the pool
    pool = room.pools[DEFAULT_POOL]

    def adjust(amount: int, reason: str = "meter misread") -> None:
        with storage.unit() as conn:
            adjust_jackpot(conn, p["fred"], p["fiona"], DEFAULT_POOL, pool, amount, reason, "k")

    adjust(1_000)
    meter, before = pool.meter, books(storage)
    adjust(1_000)  # the same form again: applied once
    for amount, reason in ((5_000, "meter misread"), (1_000, "another reason")):
        with pytest.raises(IdempotencyConflict):
            adjust(amount, reason)
    assert pool.meter == meter and books(storage) == before


def test_old_entries_fingerprint_is_unchanged(storage: Storage) -> None:
    """Transactions posted without a stated request keep their fingerprint of kind and
    entries, so a retry of one made before requests were fingerprinted is still a retry."""
    entries: list[tuple[str, int]] = [(ledger.HOUSE_CAGE, -700), (ledger.wallet(9), 700)]
    with storage.unit() as conn:
        first = ledger.post(conn, "old", "buy", entries, actor="t")
        request: dict[str, Any] = {"amount": 700}
        ledger.post(conn, "new", "buy", entries, actor="t", request=request)
    with storage.unit() as conn:
        assert ledger.post(conn, "old", "buy", entries, actor="t").tx_id == first.tx_id
        assert ledger.replayed(conn, "new", "buy", request)
        with pytest.raises(IdempotencyConflict):
            ledger.replayed(conn, "new", "buy", {"amount": 800})
