"""Issue 24, "a new game in two edits": High Card, a one-card game against the house, written
in this one folder and registered by the test alone (`conftest.py`), no existing file edited,
passes the conformance suite, replays its hand histories, plays a live table over the
WebSocket and posts its rules. Expected figures are worked out from the cards by hand."""

from __future__ import annotations

import copy
from typing import Any

from conformance_checks import play_checked, void_checked
from room.rooms import make_room
from server.forms import FormClient, cookie_of, log_in

from cardroom import registry
from cardroom.history import HandHistory, replay
from cardroom.room.money import hands, ledger
from cardroom.room.play import recall
from cardroom.room.play.protocol_state import check_state
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.server.app import create_app

from .conformance import HighCard
from .engine import WAGER

RANKS = "23456789TJQKA"
"""Aces high (the game's rule 3)."""


def test_the_registry_lists_it_while_the_test_runs() -> None:
    assert registry.game("high-card").title == "High Card"
    assert registry.names()[-1] == "high-card"


def test_conformance_suite() -> None:
    game = HighCard()
    play_checked(game)
    void_checked(game)


HAND: dict[str, Any] = HandHistory(
    game="high-card", rules={}, setup={"unit": "cents"},
    seats=[{"seat": 1, "name": "ann", "chips": 1_000}, {"seat": 2, "name": "bo", "chips": 1_000}],
    pack=["Ks", "9d", "Qh"],
    actions=[{"type": "wager", "seat": 1, "amount": 200},
             {"type": "wager", "seat": 2, "amount": 300}, {"type": "deal"}],
    result={"chips": [1_200, 700]}).to_json()
"""Seat 1's king beats the house's queen (+200), seat 2's nine loses to it (-300)."""


def test_a_recorded_hand_replays_through_the_engine() -> None:
    report = replay(HandHistory.from_json(HAND))
    assert report.ok and report.final_chips == [1_200, 700]
    assert report.outcome == "house Qh; seat 1 Ks wins, seat 2 9d loses"


def test_a_tampered_hand_is_refused_at_its_first_illegal_action() -> None:
    tampered = copy.deepcopy(HAND)
    tampered["actions"][1]["amount"] = 99  # under the table's $1.00 minimum (rule 1)
    report = replay(HandHistory.from_json(tampered))
    assert not report.ok and report.failure is not None
    assert (report.failure.index, report.failure.rule) == (1, WAGER)
    assert report.actions_applied == 1


def net_of(card: str, house: str, wager: int) -> int:
    mine, theirs = RANKS.index(card[0]), RANKS.index(house[0])
    return wager if mine > theirs else -wager if mine < theirs else 0


def test_a_live_table_over_the_websocket(storage: Storage) -> None:
    room, _, table = make_room(storage, "high-card", seed=5, table="High 1")
    alice = FormClient(create_app(room))
    log_in(alice, "alice")
    with FormClient(create_app(room)) as sockets, \
            sockets.websocket_connect(f"/ws/tables/{table}", headers=cookie_of(alice)) as ws:
        first = ws.receive_json()
        assert first["game"] == "high-card" and not first["you"]["seated"]
        ws.send_json({"type": "sit", "buy_in": 5_000, "key": "s"})
        assert ws.receive_json()["you"]["seated"]
        ws.send_json({"type": "bet", "bets": {"wager": 99}, "key": "low"})
        assert "between the table's minimum and maximum" in ws.receive_json()["message"]
        ws.send_json({"type": "bet", "bets": {"wager": "lots"}, "key": "odd"})
        assert "the wager is not an amount of money" in ws.receive_json()["message"]
        ws.send_json({"type": "draw"})
        assert "unknown action" in ws.receive_json()["message"]
        ws.send_json({"type": "bet", "bets": {"wager": 1_000}, "key": "b"})
        assert ws.receive_json()["wagers"] == {"1": 1_000}
        ws.send_json({"type": "deal"})
        done = ws.receive_json()
    check_state(done)
    last = done["last"]
    (row,) = last["seats"]
    net = net_of(row["card"]["text"], last["house"]["text"], 1_000)
    assert row["net"] == net and done["players"][0]["stack"] == 5_000 + net
    with room.storage.read() as conn:
        record = hands.hand_record(conn, last["hand"])
        assert ledger.trial_balance(conn).ok and audit.verify(conn).ok
    report = replay(recall.history_of(record))
    assert report.ok and report.final_chips == [5_000 + net]


def test_the_posted_rules_page(storage: Storage) -> None:
    room, _, table = make_room(storage, "high-card", seed=5, table="High 1")
    page = FormClient(create_app(room)).get(f"/tables/{table}/rules")
    assert page.status_code == 200
    assert "High Card" in page.text and "$1.00 to $100.00" in page.text
    assert "Questions and disputes" in page.text
