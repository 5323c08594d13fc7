"""`cardroom report math pai-gow`: the simulated figures against the published house edge of
the house way against the house way (about 2.7% to 2.9%, ../shared/reference/
published-figures.md), and the commission-rounding table recomputed by hand."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

from cardroom.analysis import pai_gow_optimal as po
from cardroom.analysis.dossier import pai_gow as dossier
from cardroom.analysis.dossier.html import render
from cardroom.analysis.dossier.model import Dossier
from cardroom.analysis.pai_gow_sim import simulate
from cardroom.games.pai_gow.houseway import house_way
from cardroom.games.pai_gow.houseway_kernel import compile_house_way
from cardroom.games.pai_gow.rules import PaiGowRules


def small_table(rules: PaiGowRules) -> po.DealerTable:
    """A house-way table over 3,000 random dealer hands: the optimal setter's machinery without
    the one-time count of all 154 million (tests only)."""
    rng = random.Random(14)
    hands = np.array([rng.sample(range(53), 7) for _ in range(3_000)], dtype=np.int64)
    wheel = int(rules.wheel_second)
    fvals, bvals = po.front_values(), po.back_values(wheel)
    p = compile_house_way(house_way(rules.house_way))
    return po.DealerTable.from_joint(fvals, bvals,
                                     po.joint_from_hands(hands, p, wheel, fvals, bvals))


@pytest.fixture(scope="module")
def built() -> Dossier:
    rules = PaiGowRules()
    return dossier.build(rules, 1_000_000, seed=1, table=small_table(rules))


def test_optimal_player_paired_with_the_house_way(built: Dossier) -> None:
    """The dossier reads the house-way player from the optimal run's paired counts: they are
    those of a separate house-way simulation with the same seed (the same hands), and the
    optimal edge is the house way's less the gain."""
    opt = built.data["optimal"]
    low, high = built.data["house_edge_ci95"]
    rules = PaiGowRules()
    plain = simulate(1_000_000, 1, house_way(rules.house_way), rules.commission)
    edge, half = plain.house_edge
    assert (low, high) == pytest.approx((edge - half, edge + half), abs=1e-12)
    assert opt["house_way_same_hands"]["value"] == pytest.approx(edge, abs=1e-12)
    assert opt["house_edge"]["value"] == pytest.approx(
        opt["house_way_same_hands"]["value"] - opt["gain_over_house_way"]["value"], abs=1e-12)
    assert "The optimal player against the house way (simulation)" in render(built)


def test_house_edge_interval_meets_the_published_range(built: Dossier) -> None:
    low, high = built.data["house_edge_ci95"]
    assert low <= 0.029 and high >= 0.027
    assert high - low < 0.004
    assert built.data["simulation"] is True


def test_commission_rounding_by_hand(built: Dossier) -> None:
    """5% of a whole-dollar bet is a whole number of cents, so every rounding to 1 cent is the
    posted rate; a $7 bet's 35 cents rounded to quarters is 50 cents up and 25 cents down."""
    table = built.data["commission_rounding"]
    p_win, p_loss = Fraction(table["p_win"]), Fraction(table["p_loss"])
    by = {(p["rounding"], p["unit_cents"]): p["by_bet"] for p in table["policies"]}
    posted = p_loss - p_win * Fraction(95, 100)
    for rounding in ("up", "down", "half-up", "half-even"):
        assert {Fraction(v) for v in by[(rounding, 1)].values()} == {posted}
    assert Fraction(by[("up", 25)]["700"]) == p_loss - p_win * (1 - Fraction(50, 700))
    assert Fraction(by[("down", 25)]["700"]) == p_loss - p_win * (1 - Fraction(25, 700))
    assert Fraction(by[("up", 100)]["500"]) == p_loss - p_win * (1 - Fraction(100, 500))


def test_banking_wheel_and_page(built: Dossier) -> None:
    assert [b["opponents"] for b in built.data["banking"]] == [1, 2, 3, 4, 5, 6]
    assert sorted(w["wheel_second_highest"] for w in built.data["wheel"]) == [False, True]
    page = render(built)
    assert "SIMULATION" in page and page.count("<svg") == 1 and "<script" not in page
