"""Exact analysis of depleted shoes (the compiled enumeration over value x suit) and the
progressive's break-even top award, checked against the reference enumerator, a card-by-card
walk of the coup engine, and closed-form combinatorics (Super-9 rules: 10, 125 and 250 for 1,
the top award paid from the meter)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from cardroom.analysis.baccarat import analyze, count_coups, progressive_break_even_cents
from cardroom.analysis.baccarat_depleted import DepletedShoe, composition_after, full_composition
from cardroom.analysis.removal import RemovalError
from cardroom.cards import Card, Rank, Suit, parse_cards
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.wagers import ProgressiveAward

from .engine_walk import assert_same_as_walk, walk_engine

FOR_ONE = {ProgressiveAward.ONE_SUITED_NINE: 10, ProgressiveAward.BOTH_SUITED_NINE: 125,
           ProgressiveAward.BOTH_SUITED_ACE_EIGHT: 250}
"""Super-9 progressive: "10 for 1", "125 for 1", "250 for 1" (the rules document)."""


@pytest.mark.parametrize("decks", [8, 6, 1])
def test_kernel_equals_the_reference_enumerator_on_full_shoes(decks: int) -> None:
    reference = count_coups(decks)
    fast = DepletedShoe().counts(full_composition(decks), decks)
    assert fast == reference


def lopsided_shoe() -> list[Card]:
    """Two suited A-8 pairs in spades, one in hearts, kings and nines: every progressive award
    can happen, and the suits are not alike."""
    s, h, c = Suit.SPADES, Suit.HEARTS, Suit.CLUBS
    return [Card(Rank.ACE, s), Card(Rank.ACE, s), Card(Rank.EIGHT, s), Card(Rank.EIGHT, s),
            Card(Rank.ACE, h), Card(Rank.EIGHT, h), Card(Rank.KING, s), Card(Rank.NINE, c),
            Card(Rank.KING, h), Card(Rank.NINE, s)]


def composition_of(cards: list[Card]) -> np.ndarray:
    comp = np.zeros((10, 4), dtype=np.int64)
    for card in cards:
        assert card.suit is not None
        comp[0 if card.rank >= Rank.TEN else int(card.rank), int(card.suit)] += 1
    return comp


def test_kernel_equals_an_engine_walk_on_a_shoe_with_unlike_suits() -> None:
    cards = lopsided_shoe()
    fast = DepletedShoe().counts(composition_of(cards))
    assert_same_as_walk(fast, cards)
    assert fast.progressive()[ProgressiveAward.JACKPOT] > 0


def test_break_even_top_award_by_an_engine_walk() -> None:
    """Expected return of a lone $1 bettor: sum of for-1 awards x P + P(top) x J/100 = 1."""
    cards = lopsided_shoe()
    _, other = walk_engine(cards)
    total = math.perm(len(cards), 6)
    fixed = sum(Fraction(m * other[a], total) for a, m in FOR_ONE.items())
    expected = (1 - fixed) / Fraction(other[ProgressiveAward.JACKPOT], total) * 100
    assert progressive_break_even_cents(DepletedShoe().counts(composition_of(cards))) == expected


def test_break_even_on_eight_decks_by_combinatorics() -> None:
    """P(top award) = 4 suits x 2 x 2 orders x (8x7 aces)(8x7 eights) / 416.415.414.413, and the
    lone bettor's expected return at the break-even top award is exactly 100%."""
    report = analyze(BaccaratRules())
    w = report.wager("progressive")
    p_top = Fraction(4 * 2 * 2 * 56 * 56, 416 * 415 * 414 * 413)
    assert w.probability("jackpot") == p_top
    be = w.break_even_jackpot_cents
    assert be is not None
    ret = sum(m * w.probability(a.name.lower()) for a, m in FOR_ONE.items()) + p_top * be / 100
    assert ret == 1
    js = next(x for x in report.to_json()["wagers"] if x["name"] == "progressive")  # type: ignore[attr-defined]
    assert js["break_even_jackpot_cents"] == math.ceil(be)
    assert Fraction(js["break_even_jackpot_cents_exact"]) == be
    # no break-even is stated for a wager that has no top award
    assert "break_even_jackpot_cents" not in report.to_json()["wagers"][0]  # type: ignore[index]


def test_a_shoe_without_aces_has_no_top_award_and_no_break_even() -> None:
    rules = BaccaratRules()
    aces = parse_cards(" ".join(f"A{s}" for s in "cdhs" for _ in range(8)))
    depleted = analyze(rules, counts=DepletedShoe().counts(composition_after(8, aces), 8))
    progressive = depleted.wager("progressive")
    assert progressive.probability("jackpot") == 0
    assert progressive.probability("both_suited_ace_eight") == 0
    assert progressive.break_even_jackpot_cents is None
    assert depleted.wager("player_9").claimed_edge_percent is None
    assert depleted.counts.total == math.perm(416 - 32, 6)


@pytest.mark.parametrize("cards, message", [
    ("As " * 9, "cannot remove 9 x As: a 8-deck baccarat shoe holds only 8"),
    ("JK", "there is no joker in a baccarat shoe"),
])
def test_impossible_removals_are_refused(cards: str, message: str) -> None:
    with pytest.raises(RemovalError) as err:
        composition_after(8, parse_cards(cards))
    assert str(err.value) == message
