"""Exact Mini-Baccarat and Super-9 math, checked against the published figures
(../shared/reference/published-figures.md) and against a card-by-card walk of the coup
engine over every ordering of small shoes."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from cardroom.analysis.baccarat import (
    CoupCounts,
    agrees_to_stated_precision,
    analyze,
    count_coups,
    count_coups_of,
)
from cardroom.cards import Card, Rank, Suit
from cardroom.games.baccarat.coup import Hand
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.wagers import ProgressiveAward
from cardroom.houserules import build_what_if_rules

from .engine_walk import assert_same_as_walk


@pytest.fixture(scope="module")
def eight() -> CoupCounts:
    return count_coups(8)


def test_published_8_deck_sequence_counts(eight: CoupCounts) -> None:
    assert eight.total == 416 * 415 * 414 * 413 * 412 * 411 == 4_998_398_275_503_360
    assert eight.banker_wins == 2_292_252_566_437_888
    assert eight.player_wins == 2_230_518_282_592_256
    assert eight.ties == 475_627_426_473_216
    assert eight.by_totals[9][9] == 55_146_054_060_032


def test_published_8_deck_probabilities(eight: CoupCounts) -> None:
    assert round(eight.banker_wins / eight.total, 15) == 0.458597422632763
    assert round(eight.player_wins / eight.total, 15) == 0.446246609343597
    assert round(eight.ties / eight.total, 15) == 0.095155968023640


def pct(edge: Fraction) -> float:
    return round(float(edge) * 100, 4)


def test_published_8_deck_house_edges() -> None:
    report = analyze(BaccaratRules())
    assert pct(report.wager("banker").house_edge) == 1.0579
    assert pct(report.wager("player").house_edge) == 1.2351
    assert pct(report.wager("tie").house_edge) == 14.3596
    nine = build_what_if_rules(BaccaratRules, {"tie_pays": 9})
    assert pct(analyze(nine).wager("tie").house_edge) == 4.8440


def test_published_6_deck_house_edges() -> None:
    report = analyze(BaccaratRules(decks=6, jackpot=False))
    assert pct(report.wager("banker").house_edge) == 1.0558
    assert pct(report.wager("player").house_edge) == 1.2374
    assert pct(report.wager("tie").house_edge) == 14.4382


def test_jackpot_count_by_hand_combinatorics(eight: CoupCounts) -> None:
    """Same-suited A-8 on both sides: 4 suits x 2 orders per hand x (8 x 7) aces x (8 x 7)
    eights, every continuation of the remaining 412 cards counted."""
    jackpot = 4 * 2 * 2 * (8 * 7) * (8 * 7) * 412 * 411
    other_suits = 4 * 3 * 2 * 2 * (8 * 8) * (8 * 8) * 412 * 411
    assert eight.both_suited_ace_eight_same_suit == jackpot
    assert eight.both_suited_ace_eight_other_suits == other_suits


@pytest.mark.parametrize("hand", [Hand.PLAYER, Hand.BANKER])
def test_super_9_nines_split_into_two_and_three_card_nines(eight: CoupCounts,
                                                           hand: Hand) -> None:
    """Player-9 / Banker-9 (Super-9: "it does not matter if it is a two card total of 9 or three
    card total of 9 however for suited 9 payouts all cards ... must be suited"): a hand's nines
    split by how they are made. A two-card nine is a natural and stands, so it is the final
    hand whatever the other hand holds: the ordered value pairs totalling 9 (0-9 and 9-0 with
    128 x 32 cards each, 1-8 ... 8-1 with 32 x 32 each: 16,384), all in one suit 4 x (2 x 32 x
    8 + 8 x 8 x 8) = 4,096 of them, times the 414 x 413 x 412 x 411 continuations. The
    three-card nines are the rest of the wager's nines."""
    rest = 414 * 413 * 412 * 411
    split = eight.nines(hand)
    assert split["two-card suited"] == 4_096 * rest
    assert split["two-card plain"] == (16_384 - 4_096) * rest
    total = eight.count(player_total=9) if hand is Hand.PLAYER else eight.count(banker_total=9)
    suited = eight.player_suited_nine if hand is Hand.PLAYER else eight.banker_suited_nine
    assert split["three-card suited"] == suited - 4_096 * rest
    assert sum(split.values()) == total and min(split.values()) > 0


def test_a_wager_edge_is_minus_its_expected_net_and_probabilities_sum_to_one() -> None:
    report = analyze(BaccaratRules(paytable=2))
    for w in report.wagers:
        assert sum(o.count for o in w.outcomes) == w.total
    p9 = report.wager("player_9")
    assert p9.house_edge == -(11 * p9.probability("suited nine") + 5 * p9.probability("nine")
                              - p9.probability("lose"))


def test_progressive_edge_definition() -> None:
    """1 - expected fixed awards - contribution - P(top award) x seed, per $1."""
    report = analyze(BaccaratRules())
    w = report.wager("progressive")
    fixed = (10 * w.probability("one_suited_nine") + 125 * w.probability("both_suited_nine")
             + 250 * w.probability("both_suited_ace_eight"))
    assert w.house_edge == 1 - fixed - Fraction(1, 5) - w.probability("jackpot") * 2500


def test_designer_claims_are_printed_and_the_wrong_ones_marked() -> None:
    """The Player-9 claims (4.13%, 1.52%) and the progressive's 21.65% (exact 21.6572%, cut to
    two places) agree to the precision stated; the Banker-9 claims do not (exact 7.4670% and
    4.8889%: 7.48% and 4.91% are neither rounding of them)."""
    one = analyze(BaccaratRules(paytable=1))
    three = analyze(BaccaratRules(paytable=3))
    assert one.wager("player_9").claim_agrees is True
    assert three.wager("player_9").claim_agrees is True
    assert one.wager("banker_9").claim_agrees is False
    assert three.wager("banker_9").claim_agrees is False
    assert one.wager("progressive").claim_agrees is True
    assert one.wager("player").claim_agrees is None


@pytest.mark.parametrize("claim, exact, agrees", [
    ("21.65", Fraction(21657, 1000), True),     # the progressive's claim: cut, not rounded
    ("21.65", Fraction(21645, 1000), True),     # rounded up
    ("21.65", Fraction(2165, 100), True),
    ("21.65", Fraction(2166, 100), False),      # one whole unit of the last place away
    ("21.65", Fraction(2164, 100), False),
    ("7.48", Fraction(7467, 1000), False),
    ("4.1", Fraction(41255, 10000), True),       # one place stated: within 0.1
    ("4", Fraction(49, 10), True),
    ("4", Fraction(5), False),
])
def test_a_claim_agrees_when_it_is_the_exact_figure_rounded_either_way_to_its_places(
        claim: str, exact: Fraction, agrees: bool) -> None:
    assert agrees_to_stated_precision(Decimal(claim), exact) is agrees


@pytest.mark.parametrize("ranks", [(Rank.KING, Rank.ACE, Rank.EIGHT),
                                   (Rank.QUEEN, Rank.FOUR, Rank.FIVE)])
def test_enumeration_equals_a_walk_of_the_coup_engine_over_every_ordering(
        ranks: tuple[Rank, ...]) -> None:
    """A 12-card shoe (three ranks in four suits): suited A-8s, suited two- and three-card
    nines; the fast enumeration and the engine agree on every count."""
    cards = [Card(r, s) for r in ranks for s in Suit]
    per_suit = [0] * 10
    for r in ranks:
        per_suit[0 if r >= Rank.TEN else int(r)] += 1
    fast = count_coups_of(per_suit)
    assert_same_as_walk(fast, cards)
    assert sum(fast.progressive().values()) == fast.total
    assert fast.progressive()[ProgressiveAward.NONE] > 0
