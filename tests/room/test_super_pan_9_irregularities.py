"""Super Pan 9 irregularities recorded by a dealer or the floor over `act` (SQLite and
PostgreSQL): the engine applies the house `irregularity_policy`; the voided hands' wagers come
back in one balanced transaction, the audit log says who and why, players are refused with
nothing changed, and no hidden card shows. Amounts follow from the wagers placed here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select

from cardroom.errors import CardroomError
from cardroom.room.money import hands, ledger
from cardroom.room.play import recall
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.schema import hands as hands_table
from cardroom.room.storage.schema import ledger_transactions as transactions
from cardroom.shoe import verify_commitment

from .rooms import books, refused_count, seat_view, start_round, view
from .rooms import super_pan_9_room as make_room


def tx_count(storage: Storage) -> int:
    with storage.read() as conn:
        return int(conn.execute(select(func.count()).select_from(transactions)).scalar_one())


def entries(storage: Storage, action: str) -> list[audit.AuditEntry]:
    with storage.read() as conn:
        return [e for e in audit.entries(conn) if e.action == action]


def test_super_pan_9_irregularity_misdeal_voids_the_round_and_returns_every_wager(
        storage: Storage) -> None:
    """Internal controls: a misdeal voids every hand and returns every wager."""
    room, p, t = make_room(storage)
    start_round(room, p, t)
    before = tx_count(storage)
    room.act(p["dan"], t, {"type": "irregularity", "kind": "misdeal",
                              "reason": "card flashed on the deal"})
    bal = books(storage)
    assert bal[ledger.stack(t, p["alice"].id)] == 20_000
    assert bal[ledger.stack(t, p["bob"].id)] == 20_000
    assert bal.get(ledger.wagers(t), 0) == 0
    assert tx_count(storage) == before + 1  # one transaction returns all 3,100 cents
    [entry] = entries(storage, "hand.irregularity")
    detail = json.loads(entry.detail) if isinstance(entry.detail, str) else entry.detail
    assert entry.actor == "dan" and "card flashed on the deal" in str(detail)
    assert "misdeal" in str(detail)
    snap = view(room, t, p["bob"])
    assert snap["round"] is None and snap["last"]["voided"] is True
    assert "cards" not in json.dumps(snap["last"])  # nothing of the voided deal shows
    with storage.read() as conn:
        status = conn.execute(select(hands_table.c.status)).scalar_one()
    assert status == "voided"
    # the table plays on
    room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "again"})
    room.act(p["bob"], t, {"type": "deal"})


def test_super_pan_9_irregularity_exposed_card_voids_only_that_hand(storage: Storage) -> None:
    """House policy void-and-return: only the affected seat's hand is void; the rest play."""
    room, p, t = make_room(storage)
    start_round(room, p, t)  # alice seat 1: 1,000 + tie 100; bob seat 2: 2,000
    room.act(p["fiona"], t, {"type": "irregularity", "kind": "exposed-card", "seat": 1,
                             "reason": "dealer exposed a card"})
    bal = books(storage)
    assert bal[ledger.stack(t, p["alice"].id)] == 20_000
    assert bal[ledger.wagers(t)] == 2_000  # bob's wager still in play
    snap = view(room, t, p["bob"])
    own = [c["text"] for c in seat_view(view(room, t, p["alice"]), 1)["cards"]]
    assert len(own) == 3 and not any(x in json.dumps(seat_view(snap, 1)) for x in own)
    assert snap["round"]["to_act"] == 2
    room.act(p["bob"], t, {"type": "stand"})
    bal = books(storage)
    assert bal[ledger.stack(t, p["alice"].id)] == 20_000  # nothing more moves for alice
    assert bal.get(ledger.wagers(t), 0) == 0
    last = view(room, t, p["bob"])["last"]
    by_seat = {s["seat"]: s for s in last["settlements"]}
    assert by_seat[1]["outcome"] == "void" and by_seat[1]["net"] == 0
    with storage.read() as conn:
        status = conn.execute(select(hands_table.c.status)).scalar_one()
    assert status == "settled"


def test_super_pan_9_irregularity_refused_for_players_changes_nothing(storage: Storage) -> None:
    room, p, t = make_room(storage)
    start_round(room, p, t)
    bal, refused = books(storage), refused_count(storage)
    snap = view(room, t, p["alice"])
    for who, msg in [("alice", {"kind": "misdeal", "reason": "I lost"}),
                     ("dan", {"kind": "misdeal", "seat": 1, "reason": "x"}),
                     ("dan", {"kind": "bogus", "reason": "x"}),
                     ("dan", {"kind": "wrong-card-count", "seat": 5, "reason": "x"})]:
        with pytest.raises(CardroomError):
            room.act(p[who], t, {"type": "irregularity", **msg})
    assert books(storage) == bal
    assert refused_count(storage) == refused + 4
    assert view(room, t, p["alice"]) == snap
    assert not entries(storage, "hand.irregularity")


def test_super_pan_9_irregularity_void_round_policy_voids_every_hand(storage: Storage) -> None:
    """Void-round policy: the irregularity voids every hand whatever the seat."""
    room, p, t = make_room(storage, rules={"irregularity_policy": "void-round"})
    start_round(room, p, t)
    room.act(p["dan"], t, {"type": "irregularity", "kind": "wrong-card-count", "seat": 2,
                              "reason": "four cards"})
    bal = books(storage)
    assert bal[ledger.stack(t, p["alice"].id)] == 20_000
    assert bal[ledger.stack(t, p["bob"].id)] == 20_000
    assert view(room, t, p["bob"])["last"]["voided"] is True


def test_super_pan_9_irregularity_on_one_seat_is_in_the_history_and_replays(
        storage: Storage, tmp_path: Path) -> None:
    """Issue 20 (records): every floor action is in the history and replays. Exposed card on
    seat 1 (alice's $11 back), bob stands: the history holds the irregularity as an action and
    under `irregularities`, the recall replays it to the recorded stacks, and `cardroom
    replay` on the exported history exits 0."""
    room, p, t = make_room(storage)
    start_round(room, p, t)
    room.act(p["fiona"], t, {"type": "irregularity", "kind": "exposed-card", "seat": 1,
                             "reason": "dealer exposed a card"})
    room.act(p["bob"], t, {"type": "stand"})
    hand = view(room, t, p["bob"])["last"]["hand"]
    with storage.read() as conn:
        record = hands.hand_record(conn, hand)
        document = recall.history_of(record).to_json()
    [floor] = [a for a in document["actions"] if a["type"] == "irregularity"]
    assert floor["kind"] == "exposed-card" and floor["seat"] == 1
    assert "dealer exposed a card" in floor["reason"]
    assert document["irregularities"][0]["by"] == "fiona"
    replayed = recall.replay(record)
    assert replayed.ok, replayed.problems
    assert replayed.report is not None
    assert replayed.report.final_chips[0] == 20_000  # alice: her wager and tie bet back
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    run = subprocess.run([str(Path(sys.executable).parent / "cardroom"), "replay", str(path)],
                         capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


@pytest.mark.parametrize("ending", ["misdeal", "floor void"])
def test_super_pan_9_retired_shoe_is_published_when_the_next_round_is_voided(
        storage: Storage, ending: str) -> None:
    """Issue 26: the shoe retired at the deal of a new shoe's first round is published in that
    round's history, also when the round is voided (a misdeal, the floor's void): players can
    check the old shoe against the commitment they were shown."""
    room, p, t = make_room(storage)
    start_round(room, p, t)
    live = room.table(t)
    old = live.engine.shoe
    assert old is not None
    promised = old.commitment
    room.act(p["alice"], t, {"type": "stand"})
    room.act(p["bob"], t, {"type": "stand"})
    old.cut_index = old.position  # the cut card is reached: the next deal shuffles a new shoe
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "b2"})
    room.act(p["alice"], t, {"type": "deal"})
    hand = live.hand_id
    assert hand is not None and live.engine.shoe is not old
    if ending == "misdeal":
        room.act(p["dan"], t, {"type": "irregularity", "kind": "misdeal", "reason": "flash"})
    else:
        room.act(p["fiona"], t, {"type": "void", "reason": "the table was bumped"})
    with storage.read() as conn:
        record = hands.hand_record(conn, hand)
    assert record["status"] == "voided"
    retired = record["setup"]["shoe"]["retired"]
    assert retired["commitment"] == promised
    assert verify_commitment(retired["commitment"], retired["salt"], retired["order"])
    assert recall.replay(record).ok
