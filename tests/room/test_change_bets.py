"""Issue 13: a player changes or withdraws the wagers placed on a hand until the deal
(`{"type": "change_bets", "bets": {...}, "key": K}`; `"bets": {}` withdraws them). Chips go
back to the player's table stack, the ledger stays balanced, the change is audited as a bet
(with the wagers it replaced), and once the cards are out the wagers can no longer change.
Baccarat, Super Pan 9 and Pai Gow, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select

from cardroom.errors import CardroomError
from cardroom.room.money import hands, ledger
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import audit_log

from .rooms import baccarat_room, pai_gow_room, playing_table, super_pan_9_room

MakeRoom = Callable[..., tuple[Room, dict[str, Account], int | None]]

GAMES: dict[str, tuple[MakeRoom, dict[str, int], dict[str, int]]] = {
    "baccarat": (baccarat_room, {"banker": 1_000}, {"player": 2_500, "tie": 500}),
    "super-pan-9": (super_pan_9_room, {"wager": 1_000}, {"wager": 2_500, "tie": 500}),
    "pai-gow": (pai_gow_room, {"wager": 1_000}, {"wager": 3_000}),
}
BUY_IN = 20_000


def books(storage: Storage) -> dict[str, int]:
    with storage.read() as conn:
        assert ledger.trial_balance(conn).ok
        assert audit.verify(conn).ok
        return ledger.balances(conn)


def stack(room: Room, t: int, who: Account) -> int:
    with room.storage.read() as conn:
        return ledger.balance(conn, ledger.stack(t, who.id))


def table_wagers(room: Room, t: int) -> int:
    with room.storage.read() as conn:
        return ledger.balance(conn, ledger.wagers(t))


def bets_audited(room: Room) -> list[dict[str, Any]]:
    import json

    with room.storage.read() as conn:
        return [json.loads(r.detail) for r in conn.execute(
            select(audit_log.c.detail).where(audit_log.c.action == "table.bet")
            .order_by(audit_log.c.seq))]


def seated(storage: Storage, game: str) -> tuple[Room, dict[str, Account], int]:
    make, first, _ = GAMES[game]
    room, p, t = make(storage)
    assert t is not None
    room.act(p["alice"], t, {"type": "sit", "buy_in": BUY_IN, "key": "sa"})
    room.act(p["alice"], t, {"type": "bet", "bets": first, "key": "b1"})
    return room, p, t


@pytest.mark.parametrize("game", GAMES)
def test_a_wager_is_replaced_before_the_deal(storage: Storage, game: str) -> None:
    """The new wagers stand instead of the old ones: the stack gets the old total back and
    pays the new one, the open hand's record (what a void or a restart returns) holds the new
    wagers, and the audit log has the change as a bet naming what it replaced."""
    room, p, t = seated(storage, game)
    _, first, second = GAMES[game]
    assert stack(room, t, p["alice"]) == BUY_IN - sum(first.values())
    room.act(p["alice"], t, {"type": "change_bets", "bets": second, "key": "c1"})
    assert stack(room, t, p["alice"]) == BUY_IN - sum(second.values())
    assert table_wagers(room, t) == sum(second.values())
    live = room.table(t)
    assert live.stacks[p["alice"].id] == BUY_IN - sum(second.values())
    assert live.hand_id is not None
    with storage.read() as conn:
        assert hands.open_wagers(conn, live.hand_id)[p["alice"].id] == second
    change = bets_audited(room)[-1]
    assert change["bets"] == second and change["replaces"] == first
    books(storage)


@pytest.mark.parametrize("game", GAMES)
def test_no_wagers_withdraws_them_and_the_chips_come_back(storage: Storage,
                                                          game: str) -> None:
    """`"bets": {}` takes every wager back: the whole buy-in is in front of the player again,
    nothing is left in the table's wagers, and nothing can be dealt."""
    room, p, t = seated(storage, game)
    room.act(p["alice"], t, {"type": "change_bets", "bets": {}, "key": "c1"})
    assert stack(room, t, p["alice"]) == BUY_IN
    assert table_wagers(room, t) == 0
    assert room.table(t).stacks[p["alice"].id] == BUY_IN
    assert bets_audited(room)[-1]["bets"] == {}
    before = books(storage)
    with pytest.raises(CardroomError):
        room.act(p["alice"], t, {"type": "deal"})
    assert books(storage) == before
    # the player may wager again on the same hand, and leave once nothing is in play
    room.act(p["alice"], t, {"type": "bet", "bets": GAMES[game][1], "key": "b2"})
    room.act(p["alice"], t, {"type": "change_bets", "bets": {}, "key": "c2"})
    room.act(p["alice"], t, {"type": "leave", "key": "l"})
    assert books(storage)[ledger.wallet(p["alice"].id)] == 100_000


@pytest.mark.parametrize("game", GAMES)
def test_a_retried_change_is_applied_once(storage: Storage, game: str) -> None:
    room, p, t = seated(storage, game)
    msg = {"type": "change_bets", "bets": GAMES[game][2], "key": "same"}
    room.act(p["alice"], t, msg)
    once = books(storage)
    room.act(p["alice"], t, msg)
    assert books(storage) == once
    assert room.table(t).stacks[p["alice"].id] == BUY_IN - sum(GAMES[game][2].values())


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_change_changes_nothing(storage: Storage, game: str) -> None:
    """Without a wager, with wagers the rules refuse, or by someone not seated: refused,
    and the books, the stacks and the engine's wagers are as they were."""
    room, p, t = seated(storage, game)
    live = room.table(t)
    before, stacks = books(storage), dict(live.stacks)
    seen = live.snapshot(p["alice"])
    refused = [
        (p["bob"], {"type": "change_bets", "bets": {}, "key": "x"}),  # not seated
        (p["alice"], {"type": "change_bets", "bets": {"wager": -5, "banker": 10},
                      "key": "y"}),  # unreadable
        (p["alice"], {"type": "change_bets", "bets": {next(iter(GAMES[game][1])): 10 ** 7},
                      "key": "z"}),  # beyond the stack and the limits
    ]
    for who, msg in refused:
        with pytest.raises(CardroomError):
            room.act(who, t, msg)
        assert books(storage) == before and live.stacks == stacks
        assert live.snapshot(p["alice"]) == seen
    room.act(p["bob"], t, {"type": "sit", "buy_in": BUY_IN, "key": "sb"})
    with pytest.raises(CardroomError, match="no wager on this hand"):
        room.act(p["bob"], t, {"type": "change_bets", "bets": GAMES[game][1], "key": "w"})


@pytest.mark.parametrize("game", ["super-pan-9", "pai-gow"])
def test_after_the_deal_wagers_no_longer_change(storage: Storage, game: str) -> None:
    """Once the cards are out the wager stands (a baccarat deal settles the coup at once)."""
    room, p, t = seated(storage, game)
    room.act(p["alice"], t, {"type": "deal"})
    before = books(storage)
    with pytest.raises(CardroomError, match="the cards are dealt"):
        room.act(p["alice"], t, {"type": "change_bets", "bets": {}, "key": "late"})
    assert books(storage) == before


def test_baccarat_coup_settles_the_changed_wagers(storage: Storage) -> None:
    """The hand's history shows the wagers as changed, and the coup settles them."""
    room, p, t = seated(storage, "baccarat")
    room.act(p["alice"], t, {"type": "change_bets", "bets": {"player": 2_500}, "key": "c"})
    live = room.table(t)
    hand_id = live.hand_id
    assert hand_id is not None
    room.act(p["alice"], t, {"type": "deal"})
    with storage.read() as conn:
        record = hands.hand_record(conn, hand_id)
    assert [a for a in record["actions"] if a["type"] == "bet"] == [
        {"type": "bet", "seat": 0, "bets": {"player": 2_500}}]
    assert record["seats"][0]["chips"] == BUY_IN
    assert [s["stake"] for s in record["result"]["settlements"]] == [2_500]
    books(storage)


def test_a_pai_gow_change_takes_back_the_dragon_hand_with_the_wager(storage: Storage) -> None:
    """The dragon hand is bought beside a wager (WSGC Pai Gow, dragon hand house rule): taking
    the wager back before the deal takes the dragon hand back too, and its chips come home;
    the player may then buy them again, as the table page does after a change."""
    room, p, _ = pai_gow_room(storage)
    d = playing_table(room, p["olivia"], "Dragon", "pai-gow",
                          {"dragon_hand": "player-sets"}).table_id
    alice = p["alice"]
    room.act(alice, d, {"type": "sit", "buy_in": BUY_IN, "key": "s"})
    room.act(alice, d, {"type": "bet", "bets": {"wager": 2_500}, "key": "w"})
    room.act(alice, d, {"type": "dragon", "amount": 2_500, "key": "d"})
    assert table_wagers(room, d) == 5_000 and stack(room, d, alice) == BUY_IN - 5_000
    room.act(alice, d, {"type": "change_bets", "bets": {"wager": 500}, "key": "c"})
    assert table_wagers(room, d) == 500 and stack(room, d, alice) == BUY_IN - 500
    room.act(alice, d, {"type": "dragon", "amount": 1_000, "key": "d2"})
    assert table_wagers(room, d) == 1_500
    room.act(alice, d, {"type": "change_bets", "bets": {}, "key": "c2"})
    assert table_wagers(room, d) == 0 and stack(room, d, alice) == BUY_IN
    books(storage)


def test_the_open_record_has_one_field_set_by_the_database_and_the_rest_kept(
        storage: Storage) -> None:
    """`hands.set_in_open_record` (every wager and turn deadline, issue 25) sets one field of
    the open hand's record in one statement on either database (PostgreSQL's `jsonb_set`,
    SQLite's `json_set`): a nested field and a top-level one, each value as JSON, the other
    players' wagers and the rest of the record as they were."""
    room, p, t = seated(storage, "baccarat")
    room.act(p["bob"], t, {"type": "sit", "buy_in": BUY_IN, "key": "sb"})
    room.act(p["bob"], t, {"type": "bet", "bets": {"banker": 700}, "key": "bb"})
    hand = room.table(t).hand_id
    assert hand is not None
    with storage.unit() as conn:
        before = hands.open_record(conn, hand)
        hands.set_in_open_record(conn, hand, ("wagers", str(p["alice"].id)), {"tie": 100})
        hands.set_in_open_record(conn, hand, ("turn",), {"seat": 2, "ends": None})
    with storage.read() as conn:
        after = hands.open_record(conn, hand)
    assert after["wagers"] == {**before["wagers"], str(p["alice"].id): {"tie": 100}}
    assert after["wagers"][str(p["bob"].id)] == {"banker": 700}
    assert after["turn"] == {"seat": 2, "ends": None}
    assert {k: v for k, v in after.items() if k not in ("wagers", "turn")} == {
        k: v for k, v in before.items() if k not in ("wagers", "turn")}
