"""Golden exhaustive check: every 6- and 7-card hand of the 53-card deck (rules clause 1: one
deck with one joker) classified by its best five-card hand (clause 2: the joker is an ace or
completes a straight, flush or straight flush), against published counts.

Expected figures, not from this code:
* 53-card deck, 7 cards, C(53,7) = 154,143,080 hands: B. Alspach, "7-Card Poker Hands with
  Joker" (2003, people.math.sfu.ca/~alspach/comp40), derived there by hand-counting.
* 52-card deck (the hands without the joker), 7 cards and 6 cards: the standard tables (for
  example Alspach, "Pai Gow Poker Computations", comp38, tables 1 and 2).
Five aces, C(48,2) = 1,128, is also derived in docs/pai-gow.md. About 6 s per wheel rule on
two cores (the benchmark runs the slower direct best-of-21 evaluation for the same counts).
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt
import pytest

from cardroom.analysis.pai_gow_counts import (
    JOKER,
    seven_card_counts,
    six_card_counts,
    six_card_table,
)
from cardroom.games.pai_gow.evaluate import Category
from cardroom.games.pai_gow.kernels import eval5_codes

C = Category
SEVEN_53 = {C.FIVE_ACES: 1_128, C.STRAIGHT_FLUSH: 210_964, C.FOUR_OF_A_KIND: 307_472,
            C.FULL_HOUSE: 4_188_528, C.FLUSH: 6_172_088, C.STRAIGHT: 11_236_028,
            C.THREE_OF_A_KIND: 7_470_676, C.TWO_PAIR: 35_553_816, C.PAIR: 64_221_960,
            C.HIGH_CARD: 24_780_420}
SEVEN_52 = {C.FIVE_ACES: 0, C.STRAIGHT_FLUSH: 41_584, C.FOUR_OF_A_KIND: 224_848,
            C.FULL_HOUSE: 3_473_184, C.FLUSH: 4_047_644, C.STRAIGHT: 6_180_020,
            C.THREE_OF_A_KIND: 6_461_620, C.TWO_PAIR: 31_433_400, C.PAIR: 58_627_800,
            C.HIGH_CARD: 23_294_460}
SIX_52 = {C.FIVE_ACES: 0, C.STRAIGHT_FLUSH: 1_844, C.FOUR_OF_A_KIND: 14_664,
          C.FULL_HOUSE: 165_984, C.FLUSH: 205_792, C.STRAIGHT: 361_620,
          C.THREE_OF_A_KIND: 732_160, C.TWO_PAIR: 2_532_816, C.PAIR: 9_730_740,
          C.HIGH_CARD: 6_612_900}


def _as_dict(counts: npt.NDArray[np.int64]) -> dict[Category, int]:
    return {c: int(counts[c]) for c in Category}


def test_published_tables_add_up() -> None:
    assert sum(SEVEN_53.values()) == comb(53, 7)
    assert sum(SEVEN_52.values()) == comb(52, 7)
    assert sum(SIX_52.values()) == comb(52, 6)
    assert SEVEN_53[C.FIVE_ACES] == comb(48, 2)  # four aces, the joker, any two others


@pytest.fixture(scope="module")
def table6() -> npt.NDArray[np.int8]:
    return six_card_table(0)


def test_fast_path_is_the_best_of_all_21_five_card_subsets(
        table6: npt.NDArray[np.int8]) -> None:
    """A seven-card hand's category through the six-card table equals the best category of
    its 21 five-card subsets, on random hands (the joker in a third of them)."""
    rng = random.Random(3)
    for _ in range(3_000):
        if rng.random() < 1 / 3:
            hand = sorted([*rng.sample(range(JOKER), 6), JOKER])
        else:
            hand = sorted(rng.sample(range(53), 7))
        direct = max(eval5_codes(*five, 0) >> 20 for five in combinations(hand, 5))
        via6 = max(int(table6[sum(comb(c, i + 1) for i, c in enumerate(six))])
                   for six in combinations(hand, 6))
        assert via6 == direct


def test_six_card_hands_of_the_52_natural_cards(table6: npt.NDArray[np.int8]) -> None:
    assert _as_dict(six_card_counts(table6, with_joker=False)) == SIX_52
    assert int(six_card_counts(table6, with_joker=True).sum()) == comb(53, 6)


@pytest.mark.parametrize("wheel", [0, 1])
def test_all_154143080_seven_card_hands_by_category(wheel: int,
                                                    table6: npt.NDArray[np.int8]) -> None:
    """Clause 2's house-rule wheel rank moves straights within their category, never across:
    the counts are the same under both rules."""
    per_top_card = seven_card_counts(wheel, table6 if wheel == 0 else None)
    assert _as_dict(per_top_card.sum(axis=0)) == SEVEN_53
    assert _as_dict(per_top_card[:JOKER].sum(axis=0)) == SEVEN_52  # hands without the joker
