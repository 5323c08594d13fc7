"""House ways as data: rules clause 8 and the two posted ways of pai-gow-house-ways.md."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fixture_files import FIXTURES

from cardroom.cards import Card, parse_cards
from cardroom.errors import RulesError
from cardroom.games.pai_gow.houseway import (
    CLASSES,
    classify,
    house_way,
    load_house_way,
    pairing_rank,
    parse_house_way,
    set_hand,
)
from cardroom.games.pai_gow.houseway_kernel import compile_house_way, house_way_batch
from cardroom.games.pai_gow.settings import setting_at

CASES: list[dict[str, Any]] = tomllib.loads(
    (FIXTURES / "pai_gow" / "house_way_cases.toml").read_text())["case"]
PARAMS = [
    pytest.param(way, case, id=f"{way}:{case['rule'][:60]}")
    for case in CASES for way in case["ways"]
]
RANKS = {"A": 14, "K": 13, "Q": 12, "J": 11, "T": 10}


def _ranks(text: str) -> list[int]:
    return sorted((RANKS.get(t, 0) or int(t) for t in text.split()), reverse=True)


@pytest.mark.parametrize(("way_name", "case"), PARAMS)
def test_rule_8_house_way_table(way_name: str, case: dict[str, Any]) -> None:
    way = house_way(way_name)
    hand = parse_cards(case["hand"])
    decision = set_hand(hand, way)
    front = decision.setting.front
    if "front" in case:
        assert set(front) == set(parse_cards(case["front"])), decision.rule
    else:
        assert sorted((pairing_rank(c) for c in front), reverse=True) == _ranks(
            case["front_ranks"]), decision.rule
    assert not decision.setting.is_foul
    # the compiled kernel sets the same hand the same way
    codes = np.array([[c.code for c in hand]], dtype=np.int64)
    assert house_way_batch(codes, compile_house_way(way), 0)[0] == decision.index


def _sample_hands(seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    hands = [rng.sample(range(53), 7) for _ in range(250)]
    for _ in range(250):  # few ranks: many pairs, trips, quads, full houses, five aces
        ranks = rng.sample(range(13), 4)
        pool = [r * 4 + s for r in ranks for s in range(4)] + [52]
        hands.append(rng.sample(pool, 7))
    return hands


@pytest.mark.parametrize("way_name", ["trump-plaza", "ballys"])
@pytest.mark.parametrize("wheel", [0, 1])
def test_kernel_agrees_with_interpreter_and_never_fouls(way_name: str, wheel: int) -> None:
    way = house_way(way_name)
    hands = _sample_hands(7 + wheel)
    got = house_way_batch(np.array(hands, dtype=np.int64), compile_house_way(way), wheel)
    for row, index in zip(hands, got, strict=True):
        cards = [Card.from_code(c) for c in row]
        decision = set_hand(cards, way, bool(wheel))
        assert decision.index == index, (row, decision.rule)
        assert not setting_at(cards, int(index), bool(wheel)).is_foul


def _way_data(name: str = "trump-plaza") -> dict[str, Any]:
    base = Path(__file__).parents[2] / "src/cardroom/games/pai_gow/data" / f"{name}.toml"
    return tomllib.loads(base.read_text())


def test_both_ways_built_in_and_selectable_by_name() -> None:
    assert house_way("trump-plaza").title.startswith("Trump Plaza")
    assert house_way("ballys").title.startswith("Bally")
    with pytest.raises(RulesError, match="unknown house way"):
        house_way("golden-nugget")


def test_a_card_room_can_load_its_own_way(tmp_path: Path) -> None:
    text = (Path(__file__).parents[2] / "src/cardroom/games/pai_gow/data/ballys.toml").read_text()
    own = tmp_path / "our-way.toml"
    own.write_text(text.replace('name = "ballys"', 'name = "our-way"'))
    way = load_house_way(own)
    assert way.name == "our-way"
    assert house_way(str(own)).name == "our-way"


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["rules"].update({"no-pair": "maximise-front"}), "unknown rule"),
        (lambda d: d["rules"].update({"seven-card-sweep": "x"}), "unknown rule"),
        (lambda d: d["rules"]["two-pair"].pop("low-high"), "gap: no two-pair rule"),
        (lambda d: d["rules"]["four-of-a-kind"].pop("7-10"), r"gap: four of a kind"),
        (lambda d: d["rules"].pop("three-pair"), "gap: no rule for 'three-pair'"),
        (lambda d: d["pair-classes"].update({"high": "J-Q"}), "gap: pair-classes"),
        (lambda d: d["rules"].update({"full-house": "split-unless-pair 2"}), "takes 3"),
        (lambda d: d["rules"]["two-pair"].update({"low-low": "split-unless-single X"}),
         "not a rank"),
    ],
)
def test_bad_house_way_files_are_refused_clearly(mutate: Any, message: str) -> None:
    data = _way_data()
    mutate(data)
    with pytest.raises(RulesError, match=message):
        parse_house_way(data, "test-way")


def _hands_of_every_class(seed: int, per_class: int) -> dict[str, list[list[int]]]:
    """`per_class` seeded seven-card hands of each hand class the house way tells apart (rules
    clause 8), drawn from pools that make each class common: the whole deck, a few ranks with
    the joker, runs of consecutive ranks (straights in every class) and one or two suits
    (flushes)."""
    rng = random.Random(seed)
    found: dict[str, list[list[int]]] = {c: [] for c in CLASSES}
    pools: list[list[int]] = []
    while any(len(v) < per_class for v in found.values()):
        if not pools:
            pools.append(list(range(53)))
            ranks = rng.sample(range(13), rng.randint(2, 5))
            pools.append([r * 4 + s for r in ranks for s in range(4)] + [52])
            low = rng.randint(0, 12)  # rank indices, the ace 0: runs wrap to T-J-Q-K-A
            pools.append([(r % 13) * 4 + s for r in range(low, low + 6) for s in range(4)]
                         + [52])
            suits = rng.sample(range(4), 2)
            pools.append([r * 4 + s for r in range(13) for s in suits] + [52])
            pools.append([0, 1, 2, 3, 52, *rng.sample(range(4, 52), 6)])  # aces and the joker
        pool = pools.pop()
        hand = rng.sample(pool, 7)
        hand_class, _ = classify([Card.from_code(c) for c in hand])
        if len(found[hand_class]) < per_class:
            found[hand_class].append(hand)
    return found


@pytest.mark.parametrize("way_name", ["trump-plaza", "ballys"])
@pytest.mark.parametrize("wheel", [0, 1])
def test_kernel_equals_the_rule_on_every_hand_class(way_name: str, wheel: int) -> None:
    """Rule 8's house way is data read by two interpreters, `houseway.set_hand` (the rule, for
    people and the live table) and `houseway_kernel` (numba, for the simulations): on 150
    seeded hands of every hand class each way tells apart, the two choose the same setting, and
    the straight rule is reached."""
    way = house_way(way_name)
    rules_seen = set()
    for hand_class, hands in _hands_of_every_class(11 + wheel, 150).items():
        got = house_way_batch(np.array(hands, dtype=np.int64), compile_house_way(way), wheel)
        for row, index in zip(hands, got, strict=True):
            decision = set_hand([Card.from_code(c) for c in row], way, bool(wheel))
            assert decision.index == index, (hand_class, row, decision.rule)
            rules_seen.add(decision.rule)
    assert "straights: max-front" in rules_seen
