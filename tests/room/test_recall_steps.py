"""The recall page's steps (`room.recall.recall_steps`): every game's hand, action by action,
with the money each step moved and every stack after it; Pan's whole table after each step,
its unseen stock only counted; seats counted from 1 as people count them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardroom.history import HIDDEN_CARD
from cardroom.money import format_money
from cardroom.room.play.recall import final_cards, people_seats, recall_steps, replay

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
EXAMPLES = sorted(FIXTURES.glob("*/*.json"))


def record_of(path: Path) -> dict[str, object]:
    return {**json.loads(path.read_text()), "hand": 7, "status": "settled"}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_action_is_a_step_ending_on_the_recorded_stacks(path: Path) -> None:
    record = record_of(path)
    r = replay(record)
    assert r.ok
    steps = recall_steps(r)
    assert [s["number"] for s in steps] == list(range(1, len(record["actions"]) + 1))
    result = record["result"]
    assert isinstance(result, dict)
    unit = (record.get("setup") or {}).get("unit", "chips")
    want = [format_money(c) if unit == "cents" else f"{c} chip{'s' if c != 1 else ''}"
            for c in result["chips"]]
    assert steps[-1]["stacks"] == want
    moved = sum(len(s["moved"]) for s in steps)
    assert r.report is not None and moved == len(r.report.movements)
    text = json.dumps(steps)
    assert HIDDEN_CARD not in text and "seat 0" not in text


def test_pan_steps_draw_the_whole_table_and_count_the_stock() -> None:
    """A Pan step's board: each seat's hand and spreads, the drawn card, the discard; the
    stock is a number of cards (its unseen cards never named)."""
    record = record_of(FIXTURES / "pan" / "going-out.json")
    steps = recall_steps(replay(record))
    assert all(s["board"] is not None for s in steps)
    last = steps[-1]["board"]
    assert isinstance(last["stock"], int)
    assert any(seat["melds"] for seat in last["seats"])
    melded = [c["text"] for seat in last["seats"] for m in seat["melds"] for c in m]
    assert melded and all(isinstance(c, str) and c != HIDDEN_CARD for c in melded)


def test_seats_are_counted_from_one_for_people() -> None:
    """Baccarat's places count 1, 2, ...; Pai Gow and Super Pan 9 keep the table's seat."""
    bac = people_seats(record_of(FIXTURES / "baccarat" / "coup-player-natural.json"))
    assert [s["number"] for s in bac] == [1, 2]
    pg = people_seats(record_of(FIXTURES / "pai_gow" / "hand-win-and-push.json"))
    assert [s["number"] for s in pg] == [2, 5]


def test_final_cards_of_baccarat_and_pai_gow() -> None:
    bac = final_cards(record_of(FIXTURES / "baccarat" / "coup-player-natural.json"))
    assert [[c["text"] for c in h["cards"]] for h in bac] == [["9h", "Kd"], ["2c", "5s"]]
    pg = final_cards(record_of(FIXTURES / "pai_gow" / "hand-win-and-push.json"))
    assert pg[2]["name"] == "ann, low hand" and [c["text"] for c in pg[2]["cards"]] == \
        ["Td", "Ad"]
