"""Hand records in the project's shared hand-history format (`cardroom.history`): the room
writes every baccarat coup in it, recall replays it through the engine, and `cardroom replay
FILE` replays a history exported from the room. Expected amounts come from the Mini-Baccarat
pay rules (a Player bet pays even money, a tie pushes it), not from the code under test."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cardroom.cards import parse_card
from cardroom.cli import app
from cardroom.games.baccarat.coup import hand_total
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.history import FORMAT, HandHistory, replay
from cardroom.room.money import hands
from cardroom.room.play.recall import history_of
from cardroom.room.storage.db import Storage

from .rooms import baccarat_room as make_room
from .rooms import tid


def coup(pack: list[str], bets: dict[str, int], chips: int = 10_000) -> HandHistory:
    return HandHistory(game="baccarat", rules=BaccaratRules().model_dump(mode="json"),
                       seats=[{"seat": 0, "name": "ann", "chips": chips}], pack=pack,
                       setup={"unit": "cents", "shoe": {"commitment": "x"},
                              "jackpot": {"meter": 250_000, "posted": 250_000,
                                          "seeded_total": 250_000}},
                       actions=[{"type": "bet", "seat": 0, "bets": bets}, {"type": "deal"}])


def test_baccarat_history_replays_a_player_natural() -> None:
    """Player 9s+Kd = 9 against banker 2c+3h = 5: a natural, no third card; even money."""
    report = replay(coup(["9s", "2c", "Kd", "3h"], {"player": 1_000}))
    assert report.ok and report.actions_applied == 2
    assert report.final_chips == [11_000] and report.unit == "cents"
    assert report.outcome.startswith("player wins 9-5")


def test_baccarat_history_refuses_too_few_cards_and_a_wrong_result() -> None:
    short = replay(coup(["2s", "2c", "Kd", "3h"], {"player": 1_000}))  # player must draw
    assert not short.ok and short.failure is not None and short.failure.index == 1
    assert "run out" in short.failure.message
    wrong = coup(["9s", "2c", "Kd", "3h"], {"player": 1_000})
    wrong.result = {"chips": [12_000]}
    assert replay(wrong).result_matches is False
    over = replay(coup(["9s", "2c", "Kd", "3h"], {"player": 20_000}))
    assert over.failure is not None and "exceed" in over.failure.message


def test_room_writes_baccarat_hands_in_the_shared_format(storage: Storage,
                                                          tmp_path: Path) -> None:
    room, p, _ = make_room(storage)
    t = tid(room)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 1_000}, "key": "b"})
    room.act(p["alice"], t, {"type": "deal"})
    [mine] = room.history(p["alice"]).rows
    with storage.read() as conn:
        record = hands.hand_record(conn, mine["id"])
        document = history_of(record).to_json()
    assert record["format"] == FORMAT and record["game"] == "baccarat"
    h = history_of(record)
    shoe = room.table(t).engine.shoe  # type: ignore[attr-defined]
    assert h.setup["shoe"]["commitment"] == shoe.commitment
    dealt = [str(c) for c in shoe.order[len(shoe.burned):shoe.position]]
    assert h.pack == dealt  # the coup's cards, in order; nothing of the rest of the shoe
    assert h.seats == [{"seat": 0, "name": "alice", "chips": 20_000, "account": p["alice"].id}]
    player = tuple(parse_card(c) for c in h.result["player"])  # type: ignore[index]
    banker = tuple(parse_card(c) for c in h.result["banker"])  # type: ignore[index]
    pt, bt = hand_total(player), hand_total(banker)
    expected = 21_000 if pt > bt else 20_000 if pt == bt else 19_000
    assert h.result is not None and h.result["chips"] == [expected]
    assert room.recall(p["alice"], mine["id"]).ok
    assert room.recall(p["audrey"], mine["id"]).ok
    # exported, it replays with `cardroom replay FILE`
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(document))
    run = CliRunner().invoke(app, ["replay", str(path), "--json"])
    assert run.exit_code == 0, run.output
    out = json.loads(run.output)
    assert out["ok"] and out["game"] == "baccarat" and out["result_matches"] is True
    assert out["settlement"][0]["after"] == expected
    # a tampered card no longer replays to the record
    document["pack"][0], document["pack"][1] = document["pack"][1], document["pack"][0]
    if document["pack"][0] != document["pack"][1]:
        path.write_text(json.dumps(document))
        assert CliRunner().invoke(app, ["replay", str(path)]).exit_code == 1
