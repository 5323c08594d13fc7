"""The compiled Super Pan 9 kernel against the Python engine, and Monte Carlo against exact."""

from __future__ import annotations

import pytest

from cardroom.analysis.parallel import SimulationError
from cardroom.analysis.super_pan_9 import Holding, holdings
from cardroom.analysis.super_pan_9_sim import (
    kernel_deal,
    reference_deal,
    simulate,
    strategy_for,
)
from cardroom.games.super_pan_9 import SuperPan9Rules
from cardroom.shoe import SeededRandom, fisher_yates


def odd(h: Holding) -> bool:
    return 6 in h or sum(h) % 10 <= 2


@pytest.mark.parametrize(("decks", "seats", "cut", "plan"), [
    (8, 7, None, "optimal"), (8, 9, None, "odd"), (1, 1, None, "dealer-rule"),
    (2, 5, 30, "odd"), (1, 8, 3, "optimal"),
])
def test_kernel_deals_the_same_shoes_exactly_as_the_engine(decks: int, seats: int,
                                                          cut: int | None, plan: str) -> None:
    rules = SuperPan9Rules(decks=decks, cut_card_from_end=cut)
    strategy = ({h: odd(h) for h in holdings()} if plan == "odd"
                else strategy_for(plan, rules))
    source = SeededRandom(decks * 100 + seats)
    orders = [fisher_yates(rules.shoe_spec.cards(), source) for _ in range(6)]
    kernel = kernel_deal(orders, rules, seats, strategy)
    reference = reference_deal(orders, rules, seats, strategy)
    assert len(kernel) >= len(orders)
    assert kernel == reference


def test_simulation_brackets_the_exact_values_and_is_reproducible() -> None:
    rules = SuperPan9Rules()
    a = simulate(rules, 3_000_000, seats=7, seed=12345)
    assert a.main.exact_within_ci and a.tie.exact_within_ci
    assert a.main.half_width < 0.002 and a.hands >= 3_000_000
    b = simulate(rules, 3_000_000, seats=7, seed=12345)
    assert (a.hist == b.hist).all()
    c = simulate(rules, 1_000_000, seats=3, strategy="dealer-rule", seed=7)
    assert c.main.exact_within_ci


def test_simulation_bad_arguments() -> None:
    rules = SuperPan9Rules()
    with pytest.raises(SimulationError):
        simulate(rules, 0)
    with pytest.raises(SimulationError):
        simulate(rules, 100, seats=10)
    with pytest.raises(SimulationError):
        simulate(rules, 100, strategy="martingale")
