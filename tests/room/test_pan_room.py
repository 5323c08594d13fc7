"""A Pan table in the room: chips through the ledger as the engine moves them, bots filling
seats, decisions checked by the engine (out of turn, stale or repeated: refused, nothing
changes), per-viewer snapshots, void and restart, the hand's history replayed on recall.
Expected amounts come from the Pan rules (one chip to the tops per player; chips only move
between players and the tops), not from the code under test."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from cardroom.errors import CardroomError
from cardroom.history import FORMAT
from cardroom.room.books import operations_report
from cardroom.room.money import hands, ledger
from cardroom.room.play.recall import recall_page
from cardroom.room.room import Room
from cardroom.room.storage.db import Storage
from cardroom.room.storage.settings import GamblingClock
from cardroom.shoe import SeededRandom

from .pan_play import CHIP, books, pan, play_out, say
from .people import IDENTITY_KEY
from .rooms import pan_room as make_room


def test_pan_hand_with_bots_settles_through_the_ledger(storage: Storage) -> None:
    """Tops: one chip from each player (Pan: Tops and declarations); every chip the engine
    moves is posted as it moves, so stacks plus tops stay what the players bought in."""
    room, p, t = make_room(storage)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    for k in ("b1", "b2"):
        room.act(p["alice"], t, {"type": "bot", "key": k})
    with storage.read() as conn:
        # the bots' buy-ins, from the house's account of its players at this table
        assert ledger.balance(conn, ledger.house_players(t)) == -40 * CHIP
    room.act(p["alice"], t, {"type": "deal"})
    live = pan(room, t)
    hand = live.engine.hand
    assert hand is not None
    b = books(storage, t)
    # right after the deal (bots may already have paid conditions): the tops took one chip
    # each, and stacks plus the tops are the 60 chips bought in
    assert sum(b.values()) == 60 * CHIP
    assert [s.chips for s in hand.seats.values()] == [
        b[ledger.stack(t, a)] // CHIP for a in live.engine.accounts.values()]
    hand_id = live.hand_id
    play_out(room, [p["alice"]], t)
    b = books(storage, t)
    assert sum(b.values()) == 60 * CHIP
    snap = live.snapshot(p["alice"])
    assert snap["last"]["hand"] == hand_id and snap["play"] is None
    assert {x["name"]: x["stack"] for x in snap["players"]} == {
        live.name_of(int(k.rsplit(":", 1)[1])): v for k, v in b.items() if k != "tops"}
    with storage.read() as conn:
        record = hands.hand_record(conn, hand_id or 0)
    assert record["format"] == FORMAT and record["game"] == "pan"
    assert [s["chips"] for s in record["seats"]] == [20, 20, 20]
    assert record["result"]["chips"] == [b[ledger.stack(t, a)] // CHIP
                                         for a in live.engine.accounts.values()]
    assert room.recall(p["alice"], hand_id or 0).ok
    assert room.recall(p["audrey"], hand_id or 0).ok
    with pytest.raises(CardroomError):
        room.recall(p["bob"], hand_id or 0)


def test_each_viewer_sees_only_their_own_hand(storage: Storage) -> None:
    room, p, t = make_room(storage)
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["alice"], t, {"type": "bot", "key": "b"})
    room.act(p["bob"], t, {"type": "deal"})
    live = pan(room, t)
    hand = live.engine.hand
    assert hand is not None
    for who in ("alice", "bob"):
        snap = live.snapshot(p[who])
        me = live.engine.seat_of(p[who].id)
        for s in snap["play"]["seats"]:
            if s["seat"] == me:
                assert [c["text"] for c in s["hand"]] == [str(c) for c in hand.seats[me].hand]
            else:
                assert s["hand"] is None and s["hand_count"] == len(hand.seats[s["seat"]].hand)
    text = json.dumps(live.snapshot(p["carol"]))  # watching, not playing
    assert all(s["hand"] is None for s in live.snapshot(p["carol"])["play"]["seats"])
    stock = {str(c) for c in hand.stock} - {str(c) for s in hand.seats.values() for c in s.hand}
    assert not any(f'"text": "{c}"' in text for c in stock)


def test_out_of_turn_stale_and_repeated_actions_change_nothing(storage: Storage) -> None:
    room, p, t = make_room(storage)
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["alice"], t, {"type": "bot", "key": "b"})
    room.act(p["alice"], t, {"type": "deal"})
    live = pan(room, t)
    hand = live.engine.hand
    assert hand is not None
    to_act = live.snapshot(None)["play"]["to_act"]
    waiting = next(w for w in ("alice", "bob")
                   if live.engine.seat_of(p[w].id) != to_act)
    acting = "bob" if waiting == "alice" else "alice"
    before = (json.dumps(live.snapshot(p[waiting])), books(storage, t))
    seq = live.seq
    for msg, why in [({"type": "pan", "command": "play", "seq": seq}, "declar"),
                     ({"type": "pan", "command": "draw", "seq": seq}, "no turn now"),
                     ({"type": "pan", "command": "play", "seq": seq - 1}, "stale"),
                     ({"type": "pan", "command": "play"}, "which moment of the game"),
                     ({"type": "pan", "command": "discard ,,", "seq": seq}, "name the cards")]:
        with pytest.raises(CardroomError, match=why):
            room.act(p[waiting], t, msg)
    with pytest.raises(CardroomError, match="not playing"):
        room.act(p["carol"], t, {"type": "pan", "command": "play", "seq": seq})
    with pytest.raises(CardroomError, match="in play"):
        room.act(p["alice"], t, {"type": "leave", "key": "l"})
    assert (json.dumps(live.snapshot(p[waiting])), books(storage, t)) == before
    msg = {"type": "pan", "command": "play", "seq": seq}
    room.act(p[acting], t, msg)
    after = books(storage, t)
    with pytest.raises(CardroomError, match="stale"):
        room.act(p[acting], t, msg)  # the same message again: applied once
    assert books(storage, t) == after


def test_void_and_restart_put_every_stack_back(storage: Storage) -> None:
    room, p, t = make_room(storage)
    for who in ("alice", "bob"):
        room.act(p[who], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    room.act(p["alice"], t, {"type": "deal"})
    start = books(storage, t)
    assert start["tops"] == 2 * CHIP
    live = pan(room, t)
    to_act = live.snapshot(None)["play"]["to_act"]
    first = p["alice"] if live.engine.accounts[to_act] == p["alice"].id else p["bob"]
    say(room, first, t, "play")
    with pytest.raises(CardroomError):
        room.act(p["alice"], t, {"type": "void", "reason": "no"})
    room.act(p["fiona"], t, {"type": "void", "reason": "misdeal"})
    b = books(storage, t)
    assert b["tops"] == 0 and b[ledger.stack(t, p["alice"].id)] == 20 * CHIP
    assert live.snapshot(p["alice"])["last"]["voided"]
    # a crash mid-hand: the restart resumes it (issue 25), the books as they were; the
    # floor's void after it puts the stacks back
    room.act(p["bob"], t, {"type": "deal"})
    dealt = books(storage, t)
    again = Room(storage, SeededRandom(9), identity=IDENTITY_KEY)
    assert again.start() == []
    live2 = pan(again, t)
    assert live2.hand_id is not None and books(storage, t) == dealt
    again.act(p["fiona"], t, {"type": "void", "reason": "the server stopped"})
    b = books(storage, t)
    assert b["tops"] == 0 and b[ledger.stack(t, p["bob"].id)] == 20 * CHIP
    assert live2.hand_id is None and live2.stacks[p["bob"].id] == 20 * CHIP
    again.act(p["bob"], t, {"type": "deal"})
    assert pan(again, t).hand_id is not None


def test_buy_in_is_whole_chips_and_a_bot_needs_a_seat(storage: Storage) -> None:
    room, p, t = make_room(storage)
    with pytest.raises(CardroomError, match="whole chips"):
        room.act(p["alice"], t, {"type": "sit", "buy_in": 20 * CHIP + 50, "key": "s"})
    with pytest.raises(CardroomError, match="seated player"):
        room.act(p["alice"], t, {"type": "bot", "key": "b"})
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    with pytest.raises(CardroomError, match="needs 2 players"):
        room.act(p["alice"], t, {"type": "deal"})
    with pytest.raises(CardroomError, match="no wagers"):
        room.act(p["alice"], t, {"type": "bet", "bets": {}, "key": "x"})
    room.act(p["alice"], t, {"type": "bot", "key": "b"})
    room.act(p["alice"], t, {"type": "leave", "key": "l"})  # the last player: bots go too
    b = books(storage, t)
    assert all(v == 0 for v in b.values())
    assert pan(room, t).snapshot(None)["players"] == []


def test_cli_opens_a_pan_table_with_house_rules(tmp_path: Any) -> None:
    from typer.testing import CliRunner

    from cardroom.cli import app

    rules = tmp_path / "pan.toml"
    rules.write_text("chip_cents = 25\nbuy_in_chips = 40\n[[modifications]]\nid = \"buy-in-40\"\n"
                     "clause = \"buy-in 20 chips\"\ndescription = \"a 40-chip buy-in\"\n"
                     "settings = [\"buy_in_chips\"]\n")
    db = str(tmp_path / "room.sqlite3")
    run = CliRunner().invoke(app, ["tables", "create", "Pan 25c", "--game", "pan", "--rules",
                                   str(rules), "--database", db, "--json"])
    assert run.exit_code == 0, run.output
    assert json.loads(run.output)["game"] == "pan"
    room = Room.open(db)
    live = pan(room, json.loads(run.output)["id"])
    assert live.chip == 25 and live.snapshot(None)["rules"]["buy_in_chips"] == 40
    bad = CliRunner().invoke(app, ["tables", "create", "Pan X", "--game", "pan", "--database",
                                   db, "--rules", str(tmp_path / "none.toml")])
    assert bad.exit_code != 0


def test_pan_recall_shows_a_player_what_he_saw_and_the_auditor_everything(
        storage: Storage) -> None:
    """Issue 20 (records): a player's recall of a Pan hand shows, at every step, his own hand
    and no opponent's concealed hand (their count only; the table's snapshot rule, Pan
    foul rule 5B: other hands show only when played face up); the auditor's shows every hand.
    The table's log names the hand by its one number (issue 20, hand numbers)."""
    room, p, t = make_room(storage)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    for k in ("b1", "b2"):
        room.act(p["alice"], t, {"type": "bot", "key": k})
    room.act(p["alice"], t, {"type": "deal"})
    hand_id = pan(room, t).hand_id or 0
    # issue 20: the table's log names the hand by its one number, the table's count labelled
    assert f"Hand {hand_id} (table's hand 1): " in " ".join(
        pan(room, t).snapshot(p["alice"])["log"])
    play_out(room, [p["alice"]], t)
    mine = recall_page(room.recall(p["alice"], hand_id))["boards"]
    everything = recall_page(room.recall(p["audrey"], hand_id))["boards"]
    assert mine and len(mine) == len(everything)
    with storage.read() as conn:
        seats = hands.hand_record(conn, hand_id)["seats"]
    me = next(i for i, s in enumerate(seats) if s["account"] == p["alice"].id)
    for seen, whole in zip(mine, everything, strict=True):
        for i, (s, w) in enumerate(zip(seen["seats"], whole["seats"], strict=True)):
            assert w["hand"] is not None and s["hand_count"] == len(w["hand"])
            assert s["melds"] == w["melds"]
            assert (s["hand"] == w["hand"]) if i == me else s["hand"] is None


def test_house_players_stake_is_the_houses_own_account_and_their_result_is_reported(
        storage: Storage) -> None:
    """Issue 23, "Pan's house players keep what they win off the books" (docs/compliance.md,
    "House players at Pan"): a house bot is a proposition player, its buy-in from the table's
    own `house:players:<table>`, and what the house players won from the person at the table
    is a figure of the games report for the table and the day (and its shift), equal to what
    the people lost (Pan takes no fee here, and chips only move between players)."""
    room, p, t = make_room(storage)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20 * CHIP, "key": "s"})
    for k in ("b1", "b2"):
        room.act(p["alice"], t, {"type": "bot", "key": k})
    for _ in range(3):
        room.act(p["alice"], t, {"type": "deal"})
        play_out(room, [p["alice"]], t)
    with storage.read() as conn:
        stacks = ledger.balances(conn, f"stack:{t}:")
        people = stacks[ledger.stack(t, p["alice"].id)]
        tops = ledger.balance(conn, ledger.wagers(t))
        assert ledger.balance(conn, ledger.HOUSE_BANK) == 0
        assert ledger.balance(conn, ledger.house_players(t)) == -40 * CHIP
        clock = GamblingClock()
        report = operations_report.games_report(conn, clock, clock.day_of(datetime.now(UTC)))
    (line,) = [x for x in report.lines if x.table_id == t]
    won = sum(v for k, v in stacks.items() if k.startswith(f"stack:{t}:-")) - 40 * CHIP
    assert line.house_players == won == 20 * CHIP - people - tops
    assert line.hands == 3 and report.total.house_players == won
    (shift,) = [x for lines in report.shifts.values() for x in lines if x.table_id == t]
    assert (shift.house_players, shift.hands) == (won, 3)
    room.act(p["alice"], t, {"type": "leave", "key": "la"})  # the bots leave with the last
    with storage.read() as conn:  # their chips back to the house's account of them
        assert ledger.balance(conn, ledger.house_players(t)) == won
