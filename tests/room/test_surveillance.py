"""WAC 230-15-320(4): surveillance verifies any winning wager, jackpot or bonus payout over
the profile's figure ($3,000 in Washington) before it is paid. The digest's example: $300 on
Banker 9 with a suited nine at 12 to 1 pays $3,600 (a table on pay table 2, bonus maximum
$300). The payout waits in the table's held account; the rest of the hand settles and the
table deals on; a person with the surveillance duty verifies it (paid to the winner's wallet)
or refuses it (the wager void). On SQLite and PostgreSQL."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cardroom.cards import parse_cards
from cardroom.errors import CardroomError
from cardroom.room.books import table_books
from cardroom.room.books.operations_report import games_report
from cardroom.room.compliance import surveillance
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account
from cardroom.room.room import Room
from cardroom.room.storage.audit import entries
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import PermissionDenied
from cardroom.room.storage.settings import GamblingClock

from .rooms import (
    CAGE_CAST,
    CAST,
    Role,
    books,
    make_room,
    pai_gow_room,
    refused_count,
    rig_coup,
    set_all,
    start_round,
    state_profile_with,
    super_pan_9_room,
    view,
)

BONUS_TABLE = {"paytable": 2, "bonus_max_cents": 30_000}
"""Pay table 2 pays a suited Banker 9 at 12 to 1; the bonus maximum is the state's $300 cap."""
SUITED_NINE = parse_cards("2c 4s 3d 5s")
"""Player 2-3 (five), banker 4-5 of spades: a suited natural nine, banker wins."""
STAKE, WIN = 30_000, 360_000


def banker_nine(storage: Storage, bonus: int = STAKE
                ) -> tuple[Room, dict[str, Account], int, dict[str, int]]:
    """Alice sits with $1,000 and bets $5 on the banker and `bonus` on Banker 9; the coup
    deals a suited banker nine. Returns the room, its people, the table and the books before
    the coup."""
    room, p, t = make_room(storage, "baccarat", seed=3, table="High 1", rules=BONUS_TABLE,
                           cast=(*CAST, ("audrey", Role.AUDITOR), ("dan", Role.DEALER)))
    assert t is not None
    room.act(p["alice"], t, {"type": "sit", "buy_in": 100_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"banker": 500, "banker_9": bonus},
                             "key": "b"})
    before = books(storage)
    rig_coup(room, t, SUITED_NINE)
    room.act(p["alice"], t, {"type": "deal"})
    return room, p, t, before


def queue(storage: Storage) -> list[surveillance.Held]:
    with storage.read() as conn:
        return surveillance.waiting(conn)


def actions(storage: Storage, prefix: str) -> list[dict[str, object]]:
    with storage.read() as conn:
        return [e.data for e in entries(conn) if e.action.startswith(prefix)]


def test_wac_230_15_320_4_banker_nine_3600_is_held_then_paid_on_verification(
        storage: Storage) -> None:
    """$300 on Banker 9, a suited nine at 12 to 1: the $3,600 win (over $3,000) waits. The
    banker wager settles at once; the bonus's stake and win sit in the table's held account,
    not in alice's stack; the floor verifies and the $3,900 goes to alice's wallet."""
    room, p, t, before = banker_nine(storage)
    [held] = queue(storage)
    assert (held.winner, held.payout.wager, held.payout.stake, held.payout.won) == (
        "alice", "banker_9", STAKE, WIN)
    after = books(storage)
    banker_win = 500 - 25  # $5 banker win less its 5% commission
    assert after[ledger.held(t)] == STAKE + WIN
    assert after[ledger.stack(t, p["alice"].id)] == before[ledger.stack(t, p["alice"].id)] \
        + 500 + banker_win
    assert room.table(t).stacks[p["alice"].id] == after[ledger.stack(t, p["alice"].id)]
    wallet = after[ledger.wallet(p["alice"].id)]
    done = room.decide_payout(p["fiona"], held.id, "camera 3, 21:04: suited nine, $3,600",
                              verified=True)
    assert (done.status, done.decided_by) == ("paid", "fiona")
    paid = books(storage)
    assert paid[ledger.held(t)] == 0
    assert paid[ledger.wallet(p["alice"].id)] == wallet + STAKE + WIN
    assert queue(storage) == []
    [audited] = actions(storage, "payout.verify")
    assert audited["held"] == held.id and audited["returned"] == STAKE + WIN
    assert room.recall(p["olivia"], held.hand_id).ok  # the record replays as dealt


def test_wac_230_15_320_4_the_tray_pays_the_win_at_the_settlement(storage: Storage) -> None:
    """The held win leaves the tray when the hand settles (it is cut out and set aside), so
    the tray's books are the tray's chips; only the winner's side waits."""
    _, _, t, before = banker_nine(storage)
    after = books(storage)
    assert after[ledger.tray(t)] - before.get(ledger.tray(t), 0) == -(WIN + 500)
    assert after[ledger.HOUSE_COMMISSION] - before.get(ledger.HOUSE_COMMISSION, 0) == 25


def test_wac_230_15_320_4_exactly_3000_is_paid_at_once(storage: Storage) -> None:
    """Over, not at: $250 on a suited Banker 9 at 12 to 1 wins $3,000.00 exactly and is paid
    with the hand; nothing waits."""
    room, p, t, before = banker_nine(storage, bonus=25_000)
    assert queue(storage) == []
    after = books(storage)
    assert after.get(ledger.held(t), 0) == 0
    assert after[ledger.stack(t, p["alice"].id)] - before[ledger.stack(t, p["alice"].id)] \
        == 500 + 475 + 25_000 + 300_000
    assert "awaiting_verification" not in room.table(t).snapshot(p["alice"])["last"]


def test_wac_230_15_320_4_a_refusal_voids_the_wager(storage: Storage) -> None:
    """Surveillance finds the payout wrong: the wager is void. Its stake goes to alice's
    wallet, the win back to the tray; the refusal is audited with its note."""
    room, p, t, _ = banker_nine(storage)
    [held] = queue(storage)
    after = books(storage)
    done = room.decide_payout(p["audrey"], held.id, "camera 3: the bonus was placed late",
                              verified=False)
    assert (done.status, done.decided_by, done.note) == (
        "refused", "audrey", "camera 3: the bonus was placed late")
    end = books(storage)
    assert end[ledger.held(t)] == 0
    assert end[ledger.wallet(p["alice"].id)] == after[ledger.wallet(p["alice"].id)] + STAKE
    assert end[ledger.tray(t)] == after[ledger.tray(t)] + WIN
    [audited] = actions(storage, "payout.refuse")
    assert audited["note"] == "camera 3: the bonus was placed late"
    with pytest.raises(CardroomError, match="already refused"):
        room.decide_payout(p["fiona"], held.id, "again", verified=True)


def test_wac_230_15_320_4_only_the_surveillance_duty_decides_and_with_a_note(
        storage: Storage) -> None:
    """A dealer or a player (the winner included) may not verify; a verification needs a note
    of what surveillance saw. Each refusal changes nothing and is audited."""
    room, p, _, _ = banker_nine(storage)
    [held] = queue(storage)
    seen = refused_count(storage)
    for who in ("dan", "alice", "bob"):
        with pytest.raises(PermissionDenied, match="may not record a surveillance check"):
            room.decide_payout(p[who], held.id, "looks fine", verified=True)
    with pytest.raises(CardroomError, match="write what surveillance saw"):
        room.decide_payout(p["fiona"], held.id, "  ", verified=True)
    assert refused_count(storage) == seen + 4
    assert [h.id for h in queue(storage)] == [held.id]
    [audited] = actions(storage, "payout.held")
    assert audited["won"] == WIN and audited["wager"] == "banker_9"


def test_wac_230_15_320_4_the_table_says_awaiting_verification_and_no_figure(
        storage: Storage) -> None:
    """The winner and the table see that the payout awaits verification: the fact only,
    never the surveillance figure; the table deals on; once verified the table no longer
    says it waits."""
    room, p, t, _ = banker_nine(storage)
    for viewer in (p["alice"], p["bob"], None):
        snap = room.table(t).snapshot(viewer)
        assert snap["last"]["awaiting_verification"] == [{"name": "alice",
                                                          "wager": "banker_9"}]
        text = json.dumps(snap)
        assert "300000" not in text and "3,000" not in text and "threshold" not in text
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 500}, "key": "next"})
    room.act(p["alice"], t, {"type": "deal"})  # the table goes on dealing
    assert "awaiting_verification" not in room.table(t).snapshot(None)["last"]
    [held] = queue(storage)
    room.decide_payout(p["fiona"], held.id, "camera 3", verified=True)
    assert books(storage)[ledger.held(t)] == 0


def test_wac_230_15_320_4_verifying_clears_the_tables_notice(storage: Storage) -> None:
    room, p, t, _ = banker_nine(storage)
    [held] = queue(storage)
    room.decide_payout(p["fiona"], held.id, "camera 3", verified=True)
    assert room.table(t).snapshot(None)["last"]["awaiting_verification"] == []


def test_wac_230_15_320_4_a_day_with_a_held_payout_reconciles(storage: Storage) -> None:
    """A gambling day whose table paid a held $3,600: the tray opened, filled, played and
    closed on the books' count; the games report reconciles with the ledger, the books
    balance, with the payout still held and after it is paid."""
    clock = GamblingClock()
    room, p, t = make_room(storage, "baccarat", seed=7, table="High 1", rules=BONUS_TABLE,
                           cast=CAGE_CAST, buyers=(), opened=False)
    assert t is not None
    room.operate(p["fiona"], "table.open",
                 lambda c: table_books.open_table(c, t, p["dan"], p["fiona"], 0))
    room.operate(p["cathy"], "table.fill", lambda c: table_books.fill(
        c, t, p["cathy"], p["dan"], p["fiona"], 500_000))
    room.operate(p["dan"], "table.drop", lambda c: table_books.drop_buy_in(
        c, p["dan"], t, p["alice"], 50_000, "d1"))
    room.act(p["alice"], t, {"type": "sit", "buy_in": 50_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"banker": 500, "banker_9": STAKE},
                             "key": "b"})
    rig_coup(room, t, SUITED_NINE)
    room.act(p["alice"], t, {"type": "deal"})
    tray = books(storage)[ledger.tray(t)]
    room.operate(p["fiona"], "table.close", lambda c: table_books.close_table(
        c, t, p["dan"], p["fiona"], tray))
    day = clock.day_of(datetime.now(UTC))
    with storage.read() as conn:
        [line] = games_report(conn, clock, day).lines
    assert line.reconciled and line.win == tray - 500_000 + 50_000 == -(WIN + 500)
    assert line.commission == 25 and line.hands == 1
    assert books(storage)[ledger.held(t)] == STAKE + WIN
    [held] = queue(storage)
    room.decide_payout(p["gus"], held.id, "camera 1", verified=True)
    with storage.read() as conn:
        assert games_report(conn, clock, day).reconciled
    assert books(storage)[ledger.held(t)] == 0


def one_cent_profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The law is data: a profile whose surveillance figure is one cent holds every win."""
    low = state_profile_with(tmp_path, "[[surveillance.periods]]\ncents = 300000",
                             "[[surveillance.periods]]\ncents = 1")
    monkeypatch.setenv("CARDROOM_PROFILE", str(low))


def held_wins(storage: Storage, t: int) -> dict[int, surveillance.Held]:
    with storage.read() as conn:
        return {h.account_id: h for h in surveillance.waiting(conn) if h.table_id == t}


def test_wac_230_15_320_4_super_pan_9_goes_through_the_same_hold(
        storage: Storage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Super Pan 9 settles through the same `close_hand`: under a one-cent figure every
    winning seat's payout (its wager and tie wager, one settlement) is held, and the stack
    keeps only what was not held."""
    one_cent_profile(tmp_path, monkeypatch)
    room, p, t = super_pan_9_room(storage)
    assert t is not None
    start_round(room, p, t)
    room.act(p["alice"], t, {"type": "stand"})
    room.act(p["bob"], t, {"type": "stand"})
    last = view(room, t, None)["last"]
    winners = {s["account"]: s for s in last["settlements"] if s["net"] > 0}
    held = held_wins(storage, t)
    assert winners and set(held) == set(winners)
    bal = books(storage)
    for aid, s in winners.items():
        assert held[aid].payout.won == s["net"] + s["commission"] + s["tie_commission"]
        assert held[aid].payout.returned == s["returned"]
        assert bal[ledger.stack(t, aid)] == 20_000 - s["wager"] - s["tie_wager"]
    assert bal[ledger.held(t)] == sum(s["returned"] for s in winners.values())
    assert [a["name"] for a in last["awaiting_verification"]] == [
        s["name"] for s in winners.values()]


def test_wac_230_15_320_4_pai_gow_goes_through_the_same_hold(
        storage: Storage, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pai Gow too: a winning wager's payout is held (its win net of commission with the
    stake), a losing or pushed one settles at once."""
    one_cent_profile(tmp_path, monkeypatch)
    room, p, t = pai_gow_room(storage)
    assert t is not None
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "a"})
    room.act(p["bob"], t, {"type": "sit", "buy_in": 20_000, "key": "b"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"wager": 1_000}, "key": "ba"})
    room.act(p["bob"], t, {"type": "bet", "bets": {"wager": 3_000}, "key": "bb"})
    room.act(p["bob"], t, {"type": "deal"})
    set_all(room, t, [p["alice"], p["bob"]])
    held = held_wins(storage, t)
    spots = {s["spot"]: s for s in view(room, t, None)["last"]["spots"]}
    bal = books(storage)
    for who, spot in (("alice", 1), ("bob", 2)):
        aid, s = p[who].id, spots[spot]
        if s["net"] > 0:
            assert held[aid].payout.won == s["net"] + s["commission"]
            assert bal[ledger.stack(t, aid)] == 20_000 - s["wager"]
        else:
            assert aid not in held
            assert bal[ledger.stack(t, aid)] == 20_000 + s["net"]
    assert held and bal[ledger.held(t)] == sum(h.payout.returned for h in held.values())
    for h in held.values():
        room.decide_payout(p["fiona"], h.id, "camera 2", verified=True)
    assert books(storage).get(ledger.held(t), 0) == 0
