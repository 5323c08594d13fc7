"""Hand evaluation: rules clauses 1-2 of pai-gow-poker.wsgc.txt and the reference digest."""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import numpy as np
import pytest

from cardroom.cards import Card, parse_cards
from cardroom.games.pai_gow.evaluate import (
    CATEGORY_SHIFT,
    Category,
    category_of,
    evaluate2,
    evaluate5,
)
from cardroom.games.pai_gow.kernels import count_categories_5, eval2_codes, eval5_batch
from cardroom.shoe import ShoeSpec

SPEC = ShoeSpec(packs=1, jokers=1)


def e5(text: str, wheel_second: bool = False) -> int:
    return evaluate5(parse_cards(text), wheel_second)


def test_rule_1_one_deck_with_one_joker_is_53_cards() -> None:
    cards = SPEC.cards()
    assert len(cards) == 53 == SPEC.size
    assert sum(c.is_joker for c in cards) == 1


def test_rule_2_five_aces_is_the_highest_hand() -> None:
    five_aces = e5("As Ah Ad Ac JK")
    royal = e5("As Ks Qs Js Ts")
    assert category_of(five_aces) is Category.FIVE_ACES
    assert five_aces > royal


def test_rule_2_joker_is_an_ace_for_pairs() -> None:
    assert category_of(e5("As Kd 7c 4h JK")) is Category.PAIR
    assert e5("As Kd 7c 4h JK") > e5("Kh Kd 7c 4h Qs")  # aces beat kings
    # The joker is only an ace: with kings it makes no four of a kind.
    assert category_of(e5("Ks Kd Kc 4h JK")) is Category.THREE_OF_A_KIND


def test_rule_2_joker_completes_a_straight_flush_or_straight_flush() -> None:
    assert category_of(e5("9s Th Jd Qc JK")) is Category.STRAIGHT
    assert e5("9s Th Jd Qc JK") == e5("9s Th Jd Qc Kh")  # the joker is the king, not the 8
    assert category_of(e5("2s 7s 9s Js JK")) is Category.FLUSH
    assert category_of(e5("5h 6h 8h 9h JK")) is Category.STRAIGHT_FLUSH
    assert category_of(e5("Ts Js Qs Ks JK")) is Category.STRAIGHT_FLUSH


def test_joker_in_a_flush_is_the_highest_card_of_the_suit_missing() -> None:
    """Decision (documented): the joker stands for a card the flush lacks, the highest one."""
    assert e5("As 7s 5s 2s JK") == e5("As Ks 7s 5s 2s")
    assert e5("Ks 7s 5s 2s JK") == e5("As Ks 7s 5s 2s")


def test_rule_2_wheel_is_the_lowest_straight_by_default() -> None:
    wheel = e5("Ah 2s 3d 4c 5h")
    assert wheel < e5("2h 3s 4d 5c 6h")
    # The joker with 2-3-4-5 then makes the six-high straight.
    assert e5("2s 3d 4c 5h JK") == e5("2h 3s 4d 5c 6h")


def test_rule_2_exception_wheel_second_highest_when_house_rule_says_so() -> None:
    wheel = e5("Ah 2s 3d 4c 5h", True)
    assert e5("9h Ts Jd Qc Kh", True) < wheel < e5("Ah Ks Qd Jc Th", True)
    assert e5("2s 3d 4c 5h JK", True) == wheel  # the joker is the ace of that wheel
    sf_wheel = e5("Ah 2h 3h 4h 5h", True)
    assert e5("9h Th Jh Qh Kh", True) < sf_wheel < e5("Ah Kh Qh Jh Th", True)


def test_two_card_hands_pair_or_high_cards_joker_is_an_ace() -> None:
    assert evaluate2(parse_cards("JK Ks")) == evaluate2(parse_cards("Ah Ks"))
    assert evaluate2(parse_cards("JK As")) > evaluate2(parse_cards("Kh Ks"))
    assert evaluate2(parse_cards("2h 2s")) > evaluate2(parse_cards("Ah Ks"))
    assert evaluate2(parse_cards("Ah 7s")) > evaluate2(parse_cards("Ah 6s"))


def test_five_card_hands_outrank_two_card_hands_of_the_same_cards_and_more() -> None:
    """The back must outrank the front: A-K-9-5-3 outranks A-K; a pair with kickers its pair."""
    assert e5("JK Kd 9c 5h 3s") > evaluate2(parse_cards("As Kh"))
    assert e5("7s 7d Kc 5h 3s") > evaluate2(parse_cards("7h 7c"))
    assert e5("Qs Td 9c 5h 3s") < evaluate2(parse_cards("As 2h"))


def expected_category_counts() -> list[int]:
    """Counts of best five-card hands in the 53-card deck, by combinatorial reasoning.

    No joker (C(52,5) = 2,598,960): the textbook counts.
    With the joker (C(52,4) = 270,725 sets of four natural cards), by the four cards' ranks:
    * four of a kind (13): aces -> five aces (1); else four of a kind with an ace (12).
    * three of a kind + one (13*4*12*4 = 2,496): trips of aces -> four aces (4*12*4 = 192);
      an ace single -> full house (12*4*4 = 192); else trips (12*4*11*4 = 2,112).
    * two pair (C(13,2)*36 = 2,808): one pair aces -> full house (12*36 = 432); else two pair.
    * pair + two singles (13*6*C(12,2)*16 = 82,368): pair of aces -> trips (6*66*16 = 6,336);
      an ace single -> two pair (12*6*11*16 = 12,672); else a pair (12*6*C(11,2)*16 = 63,360).
    * four ranks (C(13,4)*256 = 183,040): 41 rank sets fill a straight with one card (10
      windows x 5 subsets = 50, less the 9 runs of four lying in two windows); 4 of the 256
      suit patterns are one suit. Straight flush 41*4; flush (715-41)*4; straight 41*252;
      otherwise a pair of aces if an ace is held (C(12,3) - 8 = 212 rank sets) or high card.
    """
    hi_ace_sets = comb(12, 3) - 8
    no_joker = [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40, 0]
    with_joker = [
        (715 - 41 - hi_ace_sets) * 252,  # high card
        12 * 6 * comb(11, 2) * 16 + hi_ace_sets * 252,  # pair
        (comb(13, 2) - 12) * 36 + 12 * 6 * 11 * 16,  # two pair
        12 * 4 * 11 * 4 + 6 * comb(12, 2) * 16,  # three of a kind
        41 * 252,  # straight
        (715 - 41) * 4,  # flush
        12 * 4 * 4 + 12 * 36,  # full house
        12 + 4 * 12 * 4,  # four of a kind
        41 * 4,  # straight flush
        1,  # five aces
    ]
    assert sum(with_joker) == comb(52, 4)
    return [a + b for a, b in zip(no_joker, with_joker, strict=True)]


@pytest.mark.parametrize("wheel", [0, 1])
def test_golden_all_2869685_five_card_hands_by_category(wheel: int) -> None:
    counts = count_categories_5(wheel).tolist()
    assert sum(counts) == comb(53, 5) == 2_869_685
    assert counts == expected_category_counts()


@pytest.mark.parametrize("wheel", [False, True])
def test_kernel_agrees_exactly_with_reference_evaluator(wheel: bool) -> None:
    rng = random.Random(20260401 + wheel)
    hands = [rng.sample(range(53), 5) for _ in range(1500)]
    hands += [[*rng.sample(range(52), 4), 52] for _ in range(1500)]  # joker-heavy
    hands += [[0, 4, 8, 12, 52], [0, 1, 2, 3, 52], [0, 48, 44, 40, 36], [48, 44, 40, 36, 52]]
    codes = np.array(hands, dtype=np.uint8)
    got = eval5_batch(codes, int(wheel))
    for row, score in zip(hands, got, strict=True):
        assert evaluate5([Card.from_code(c) for c in row], wheel) == score, row
    for a, b in [(0, 52), (52, 50), (4, 5), (8, 30)]:
        assert eval2_codes(a, b) == evaluate2([Card.from_code(a), Card.from_code(b)])


@pytest.mark.parametrize("wheel", [0, 1])
def test_kernel_equals_the_rule_in_every_category_and_on_every_two_card_hand(wheel: int) -> None:
    """Rules clause 2, written twice (`evaluate` for people, `kernels` for numba): the fast
    path scores all C(53,5) hands, and 300 seeded hands of each of the ten categories (every
    five-aces hand there is: one) are scored again by the rule; every two-card hand (rules
    clause 3's front, C(53,2) of them) is compared outright."""
    everything = np.array(list(combinations(range(53), 5)), dtype=np.uint8)
    scores = eval5_batch(everything, wheel)
    categories = scores >> CATEGORY_SHIFT
    rng = np.random.default_rng(20261126 + wheel)
    for category in Category:
        rows = np.flatnonzero(categories == category)
        assert rows.size, category  # every category occurs in the deck
        for i in rng.choice(rows, size=min(300, rows.size), replace=False):
            cards = [Card.from_code(int(c)) for c in everything[i]]
            assert evaluate5(cards, bool(wheel)) == scores[i], (category, everything[i])
    for a, b in combinations(range(53), 2):
        assert eval2_codes(a, b) == evaluate2([Card.from_code(a), Card.from_code(b)]), (a, b)
