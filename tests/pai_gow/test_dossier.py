"""`cardroom report math pai-gow`: the simulated figures against the published house edge of
the house way against the house way (about 2.7% to 2.9%, ../shared/reference/
published-figures.md), and the commission-rounding table recomputed by hand."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from dossier_checks import check_provenance

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


def keys(node: Any) -> set[str]:
    """Every key of a JSON tree."""
    if isinstance(node, dict):
        return set(node).union(*(keys(v) for v in node.values()))
    if isinstance(node, list):
        return set().union(*(keys(v) for v in node))
    return set()


def test_simulated_figures_are_labelled_simulated_with_their_intervals(built: Dossier) -> None:
    """No key says `_exact` where a simulated ratio stands: the player's edge is
    `house_edge_simulated` (the observed loss rate less 95% of the win rate) with its 95%
    interval, each award's observed rate `probability_simulated` with
    1.959964 sqrt(p (1 - p) / n); the page's tables say SIMULATION and show the ± intervals."""
    assert not any(k.endswith("_exact") for k in keys(built.data))
    wager = built.data["wagers"][0]
    rates = built.data["commission_rounding"]
    p_win, p_loss = Fraction(rates["p_win"]), Fraction(rates["p_loss"])
    assert Fraction(wager["house_edge_simulated"]) == p_loss - p_win * Fraction(95, 100)
    assert wager["house_edge_ci95"] == pytest.approx(built.data["house_edge_ci95"], abs=1e-15)
    n = built.data["hands"]
    for award in wager["awards"]:
        p = float(Fraction(award["probability_simulated"]))
        low, high = award["probability_ci95"]
        assert (high - low) / 2 == pytest.approx(1.959964 * math.sqrt(p * (1 - p) / n),
                                                 rel=1e-6)
    section = built.sections[0]
    assert all("SIMULATION over 1,000,000 hands" in t.caption for t in section.tables)
    assert all(" ± " in cell for row in section.tables[0].rows for cell in row[1:4])


def test_a_published_figure_is_cited_with_its_source_and_only_where_it_applies(
        built: Dossier) -> None:
    """The published range (about 2.7% to 2.9%, house way against house way at 5% commission)
    is cited with its source; at a 4% commission it does not apply and is not cited."""
    notes = [n for s in built.sections for n in s.notes if "2.7% to 2.9%" in n]
    assert notes and all("published-figures.md" in n and "5% commission" in n for n in notes)
    rules = PaiGowRules(commission=Fraction(4, 100))
    other = dossier.build(rules, 20_000, seed=1, table=small_table(rules))
    page = render(other)
    assert "2.7% to 2.9%" not in page and "Published" not in page


def test_the_dossier_states_its_provenance(built: Dossier) -> None:
    """Date, version, commit, the Pai Gow rules with their hash, the seed of every run."""
    check_provenance(built.to_json()["provenance"], render(built), "pai-gow", [1])
