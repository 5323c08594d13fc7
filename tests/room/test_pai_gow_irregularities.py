"""Pai Gow irregularities recorded by the floor over `act` (SQLite and PostgreSQL), applied
by the engine per house rules `exposed_card` and `wrong_card_count`: a misdeal redeals the same
wagers with no money moving; a void hand gets its wager back and a dead hand loses it, in the
one balanced settlement; players are refused with nothing changed; hidden cards stay hidden."""

from __future__ import annotations

import json

import pytest

from cardroom.errors import CardroomError
from cardroom.room.money import hands, ledger
from cardroom.room.play import recall
from cardroom.room.play.recall import history_of
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage

from .rooms import books, set_all, view
from .rooms import pai_gow_room as make_room


def start(room: object, p: dict[str, object], t: int) -> None:
    for who, key in (("alice", "a"), ("bob", "b")):
        room.act(p[who], t, {"type": "sit", "buy_in": 20_000, "key": key})  # type: ignore
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "ba"})  # type: ignore
    room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 3_000}, "key": "bb"})  # type: ignore
    room.act(p["bob"], t, {"type": "deal"})  # type: ignore


def audited(storage: Storage) -> list[audit.AuditEntry]:
    with storage.read() as conn:
        return [e for e in audit.entries(conn) if e.action == "hand.irregularity"]


def test_pai_gow_irregularities_misdeal_redeals_the_same_wagers(storage: Storage) -> None:
    """Irregularities (misdeals): the hands are collected, the wagers stand, a redeal."""
    room, p, t = make_room(storage)
    start(room, p, t)
    bal = books(storage)
    room.act(p["fiona"], t, {"type": "irregularity", "kind": "misdeal", "reason": "box jam"})
    assert books(storage) == bal  # the wagers stand: no money moves
    [entry] = audited(storage)
    assert entry.actor == "fiona" and "box jam" in str(entry.detail)
    assert view(room, t, p["alice"])["phase"] == "betting"
    room.act(p["fiona"], t, {"type": "deal"})
    set_all(room, t, [p["alice"], p["bob"]])
    last = view(room, t, p["alice"])["last"]
    with storage.read() as conn:
        record = hands.hand_record(conn, last["hand"])
    assert record["irregularities"][0]["kind"] == "misdeal"
    assert [a["type"] for a in record["actions"]].count("deal") == 1  # the redeal only
    assert books(storage).get(ledger.wagers(t), 0) == 0


@pytest.mark.parametrize(("policy", "returned"), [("void-hand", 1_000), ("hand-loses", 0)])
def test_pai_gow_irregularities_wrong_card_count_per_house_rule(
        storage: Storage, policy: str, returned: int) -> None:
    """Irregularities (incorrect number of cards): house rule void (wager back) or dead."""
    room, p, t = make_room(storage, rules={"wrong_card_count": policy})
    start(room, p, t)
    room.act(p["fiona"], t, {"type": "irregularity", "kind": "wrong-card-count", "spot": 1,
                             "count": 6, "reason": "six cards at spot 1"})
    assert view(room, t, p["alice"])["you"]["to_set"] == []
    set_all(room, t, [p["bob"]])
    bal = books(storage)
    assert bal[ledger.stack(t, p["alice"].id)] == 19_000 + returned
    assert bal.get(ledger.wagers(t), 0) == 0


def test_pai_gow_irregularities_refused_for_players_changes_nothing(storage: Storage) -> None:
    room, p, t = make_room(storage)
    start(room, p, t)
    bal, snap = books(storage), view(room, t, p["bob"])
    mine = next(s for s in view(room, t, p["alice"])["spots"] if s["spot"] == 1)["cards"]
    for who, msg in [("alice", {"kind": "misdeal", "reason": "bad hand"}),
                     ("fiona", {"kind": "misdeal", "reason": " "}),
                     ("fiona", {"kind": "wrong-card-count", "spot": 1, "count": 7,
                                "reason": "x"}),
                     ("fiona", {"kind": "exposed-card", "spot": 1, "card": "Xx",
                                "reason": "x"})]:
        with pytest.raises(CardroomError):
            room.act(p[who], t, {"type": "irregularity", **msg})
    assert books(storage) == bal and view(room, t, p["bob"]) == snap
    assert not audited(storage)
    # alice's cards never reach bob's view
    assert not any(json.dumps(c) in json.dumps(snap) for c in mine)


@pytest.mark.parametrize("rules", [{"wrong_card_count": "void-hand"},
                                   {"wrong_card_count": "hand-loses"}])
def test_pai_gow_irregularities_wrong_card_count_is_in_the_history_and_replays(
        storage: Storage, rules: dict[str, str]) -> None:
    """Issue 20 (records): a hand the floor takes out of play is an action of the history,
    so the replay settles as the table did (before: the replay settled the hand as played)."""
    room, p, t = make_room(storage, rules=rules)
    start(room, p, t)
    room.act(p["fiona"], t, {"type": "irregularity", "kind": "wrong-card-count", "spot": 1,
                             "count": 6, "reason": "six cards at spot 1"})
    set_all(room, t, [p["bob"]])
    hand = view(room, t, p["bob"])["last"]["hand"]
    with storage.read() as conn:
        record = hands.hand_record(conn, hand)
        document = history_of(hands.hand_record(conn, hand)).to_json()
    assert {"type": "card_count", "spot": 1, "count": 6} in document["actions"]
    assert document["irregularities"][0]["reason"] == "six cards at spot 1"
    replayed = recall.replay(record)
    assert replayed.ok, replayed.problems


def test_pai_gow_irregularities_exposed_card_that_plays_replays(storage: Storage) -> None:
    """Issue 20 (records): a card the dealer exposes that plays (house rule `hand-plays`) is
    an action of the history; the hand replays to the recorded result."""
    room, p, t = make_room(storage, rules={"exposed_card": "hand-plays"})
    start(room, p, t)
    mine = next(s for s in view(room, t, p["alice"])["spots"] if s["spot"] == 1)["cards"]
    room.act(p["fiona"], t, {"type": "irregularity", "kind": "exposed-card", "spot": 1,
                             "card": mine[0]["text"], "reason": "flashed"})
    set_all(room, t, [p["alice"], p["bob"]])
    hand = view(room, t, p["bob"])["last"]["hand"]
    with storage.read() as conn:
        record = hands.hand_record(conn, hand)
    assert {"type": "expose", "spot": 1, "card": mine[0]["text"], "by_dealer": True} in \
        record["actions"]
    assert recall.replay(record).ok
