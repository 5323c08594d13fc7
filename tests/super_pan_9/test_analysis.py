"""Exact Super Pan 9 math, checked against independent reasoning and brute force."""

from __future__ import annotations

from fractions import Fraction
from math import perm

import pytest

from cardroom.analysis.super_pan_9 import (
    Holding,
    analyse,
    analyse_holdings,
    dealer_rule_strategy,
    holdings,
    main_result,
    shoe_counts,
    strategy_move,
    table_ev_by_orderings,
    tie_result,
)
from cardroom.engine import Action
from cardroom.errors import RulesError

from .helpers import stacked_table

SMALL = (6, 0, 0, 2, 0, 2, 2)
"""12 cards (six zeros, two each of 3, 5, 6): 41,580 distinct orderings, enough for a
two-seat table, small enough to deal every one of them."""


def draw_0_to_5(h: Holding) -> bool:
    return sum(h) % 10 <= 5


def odd_strategy(h: Holding) -> bool:
    """Depends on composition, not just total: draws holding a 6 or totalling 0 to 2."""
    return 6 in h or sum(h) % 10 <= 2


def test_super_pan_9_rule_1_shoe_composition() -> None:
    assert shoe_counts(8) == (96, 32, 32, 32, 32, 32, 32) and sum(shoe_counts(8)) == 288
    assert sum(shoe_counts(1)) == 36
    with pytest.raises(RulesError):
        shoe_counts(9)


def test_holdings_cover_every_deal_by_composition() -> None:
    results = analyse_holdings(shoe_counts(8))
    assert len(results) == 84  # multisets of 3 from 7 value classes
    assert sum(r.weight for r in results) == perm(288, 3)
    for r in results:
        for t in (r.stand, r.draw):
            assert t.win + t.push + t.loss == r.denom


@pytest.mark.parametrize("strategy", [draw_0_to_5, odd_strategy])
def test_enumeration_matches_dealing_every_ordering_of_a_small_shoe(strategy: object) -> None:
    results = analyse_holdings(SMALL)
    plan = {r.cards: strategy(r.cards) for r in results}  # type: ignore[operator]
    exact = main_result(results, plan, Fraction(0))
    [(win, push, loss)] = table_ev_by_orderings(SMALL, [strategy])  # type: ignore[list-item]
    assert (exact.win, exact.push, exact.loss) == (win, push, loss)


def test_rule_7_published_note_symmetric_before_commission_when_player_draws_0_to_5() -> None:
    """Reference: "with a dealer who draws on 0-5, the game is symmetric before commission
    when the player also draws on 0-5" -- exactly, for every number of decks."""
    for decks in range(1, 9):
        results = analyse_holdings(shoe_counts(decks))
        r = main_result(results, dealer_rule_strategy(results), Fraction(0))
        assert r.win == r.loss and r.ev == 0
        with_c = main_result(results, dealer_rule_strategy(results), Fraction(1, 20))
        assert with_c.house_edge == Fraction(1, 20) * r.win


def test_optimal_strategy_is_at_least_as_good_as_any_other() -> None:
    a = analyse(8)
    assert a.optimal.ev >= a.dealer_rule.ev
    results = a.results
    odd = main_result(results, {r.cards: odd_strategy(r.cards) for r in results}, a.commission)
    assert a.optimal.ev >= odd.ev
    assert a.optimal.win + a.optimal.push + a.optimal.loss == 1
    # Against a dealer who draws on 0-5, nothing beats a fair game before commission.
    assert analyse(8, Fraction(0)).optimal.ev == 0


def test_posted_table_and_exceptions_are_consistent() -> None:
    a = analyse(8)
    for r in a.results:
        posted = a.table.by_total[r.total]
        assert (a.strategy[r.cards] != posted) == (r in a.table.exceptions)


def test_other_players_do_not_change_a_seats_expectation() -> None:
    """Exchangeability: a seat's odds with another player drawing before it (by any rule)
    equal its heads-up odds, exactly."""
    [heads_up] = table_ev_by_orderings(SMALL, [draw_0_to_5])
    [_, second] = table_ev_by_orderings(SMALL, [odd_strategy, draw_0_to_5])
    assert second == heads_up


def test_rule_9_tie_bet_break_even_and_edge() -> None:
    p = Fraction(1, 9)
    t = tie_result(p, 8, Fraction(0))
    assert t.ev == 0 and t.break_even_pays == 8
    a = analyse(8, tie_pays=8)
    assert a.tie.probability == a.optimal.push
    assert tie_result(a.tie.probability, 8, Fraction(0)).ev == a.tie.ev
    be = a.tie.break_even_pays
    assert a.tie.probability * be - (1 - a.tie.probability) == 0


def test_warnings_when_a_wager_favours_the_player() -> None:
    a = analyse(8, Fraction(0), tie_pays=5)
    assert not any("TIE" in w for w in a.warnings)
    # P(tie) is near 0.119 here, so a break-even payout near 7.4 to 1: 8 to 1 favours the player.
    b = analyse(8, tie_pays=8)
    assert b.tie.house_edge < 0 and any("TIE BET FAVOURS THE PLAYER" in w for w in b.warnings)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(RulesError):
        analyse(8, Fraction(6, 100))
    with pytest.raises(RulesError):
        analyse(0)
    with pytest.raises(RulesError):
        analyse(8, tie_pays=0)


def test_strategy_table_draw_0_to_5_without_exceptions_for_every_shoe_and_commission() -> None:
    """The posted table for 1-8 decks at 0% and 5% commission (the gain from drawing is linear
    in the commission, so the endpoints settle every rate between)."""
    for decks in range(1, 9):
        for commission in (Fraction(0), Fraction(1, 20)):
            a = analyse(decks, commission)
            assert a.table.by_total == {t: t <= 5 for t in range(10)}
            assert a.table.exceptions == []


def test_rule_6_a_computer_player_moves_by_its_strategy_among_the_legal_actions() -> None:
    """Rule 6 (issue 24, bots on the protocol): the seat in turn draws or stands as its
    strategy says for its three cards, the move one of the engine's legal actions; a seat not
    in turn has no move to make."""
    table = stacked_table({1: "Kc 2d 3h", 2: "4c 4d Kh"}, dealer="Qc Qd Qh")
    draw_on_6 = {h: sum(h) % 10 == 6 for h in holdings()}  # seat 1 holds 5, seat 2 holds 8
    assert strategy_move(table, 1, draw_on_6) == Action("stand", (1,), 1)
    assert strategy_move(table, 1, {h: True for h in holdings()}) == Action("draw", (1,), 1)
    with pytest.raises(ValueError):
        strategy_move(table, 2, draw_on_6)  # seat 1 acts first
    table.apply(strategy_move(table, 1, draw_on_6))
    assert table.to_act == 2 and strategy_move(table, 2, draw_on_6) == Action("stand", (2,), 2)
