"""`cardroom simulate pai-gow`: house way or the fast optimal setter against the house way,
with 95% intervals; player banking against the other players and the house dealer."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from cardroom.analysis import pai_gow_sim
from cardroom.analysis.pai_gow_optimal import (
    DealerTable,
    back_values,
    front_values,
    joint_from_hands,
)
from cardroom.analysis.pai_gow_sim import simulate
from cardroom.analysis.wager import Tally
from cardroom.cli import app
from cardroom.errors import CardroomError
from cardroom.games.pai_gow.houseway import house_way
from cardroom.games.pai_gow.houseway_kernel import compile_house_way

runner = CliRunner()


def test_same_seed_same_answer_and_counts_add_up() -> None:
    way = house_way("trump-plaza")
    a = simulate(150_000, 11, way, Fraction(1, 20))
    b = simulate(150_000, 11, way, Fraction(1, 20))
    assert a.player == b.player
    assert a.player.total == 150_000


def test_house_edge_near_published_figures() -> None:
    """Published: house way against house way with 5% commission, about 2.7% to 2.9%. With
    300,000 hands the 95% half-width is about 0.25%: the interval must reach that range."""
    r = simulate(300_000, 2026, house_way("trump-plaza"), Fraction(1, 20))
    edge, half = r.house_edge
    assert half < 0.003
    assert edge - half <= 0.029 and edge + half >= 0.027


def test_cli_json_and_refusals() -> None:
    res = runner.invoke(app, ["simulate", "pai-gow", "--hands", "70000", "--seed", "3",
                              "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["hands"] == 70000 and len(data["house_edge"]["ci95"]) == 2
    for bad in (["--player-strategy", "best"], ["--other-players", "2"],
                ["--banking", "--other-players", "6"]):
        res = runner.invoke(app, ["simulate", "pai-gow", "--hands", "10", *bad])
        assert isinstance(res.exception, CardroomError), bad
    res = runner.invoke(app, ["simulate", "pai-gow", "--hands", "0"])
    assert isinstance(res.exception, CardroomError)


def test_banking_every_other_hand_and_copies_favour_the_banker() -> None:
    """Banking clause: the player may bank at most every other hand; as banker the player
    wins the copies (clause 10 note), so wins outnumber losses on the banked hands."""
    r = simulate(200_000, 9, house_way("trump-plaza"), Fraction(1, 20), banking=True)
    assert r.banked == 100_000
    assert r.player.total == 100_000
    assert r.bank.win > r.bank.loss
    assert r.player.win < r.player.loss  # and the other way round when the house banks
    assert "as_banker" in r.to_json()


@pytest.fixture(scope="module")
def sample_table() -> DealerTable:
    """A house-way table from 50,000 random dealer hands: the simulation's code paths without
    the one-minute count of all 154,143,080 hands (that figure is in the docs)."""
    rng = np.random.default_rng(5)
    hands = np.argsort(rng.random((50_000, 53)), axis=1)[:, :7].astype(np.int64)
    fv, bv = front_values(), back_values(0)
    joint = joint_from_hands(hands, compile_house_way(house_way("trump-plaza")), 0, fv, bv)
    return DealerTable.from_joint(fv, bv, joint)


def test_optimal_is_paired_with_the_house_way_on_the_same_hands(
        sample_table: DealerTable) -> None:
    """The optimal run also scores the house way's setting of each same hand: its margins are
    exactly the house-way run with the same seed (same shuffles), and the optimal setter,
    maximising EV against the dealer's distribution, does better on the whole."""
    way = house_way("trump-plaza")
    opt = simulate(120_000, 4, way, Fraction(1, 20), strategy="optimal", table=sample_table)
    hw = simulate(120_000, 4, way, Fraction(1, 20))
    paired = [opt.counts[3 + 3 * k:6 + 3 * k] for k in range(3)]  # rows: optimal outcome
    assert Tally(*(sum(col) for col in zip(*paired, strict=True))) == hw.player
    assert Tally(*(sum(row) for row in paired)) == opt.player
    assert opt.house_way_edge is not None and opt.optimal_gain is not None
    assert abs(opt.house_way_edge[0] - hw.house_edge[0]) < 1e-12
    gain, half = opt.optimal_gain
    assert gain - half > 0
    assert abs(gain - (hw.house_edge[0] - opt.house_edge[0])) < 1e-12


def test_banking_clause_bank_plays_the_other_players_and_the_house_dealer() -> None:
    """Banking clause: the player-banker plays against the other players as well as the house
    dealer (one unit each here, the dealer's wager being the player's unit wager of the
    previous hand); the bank's net decides the commission."""
    way = house_way("trump-plaza")
    r = simulate(100_000, 12, way, Fraction(1, 20), banking=True, others=3)
    assert r.banked == 50_000
    assert r.bank.total == 4 * 50_000
    net = r.bank_net()
    assert sum(net.values()) == 50_000 and set(net) <= set(range(-4, 5))
    assert sum(k * c for k, c in net.items()) == r.bank.win - r.bank.loss
    data = r.to_json()["as_banker"]
    assert data["other_players"] == 3
    mean, _ = r.bank_result
    keep = 0.95
    expected = sum((k * keep if k > 0 else k) * c for k, c in net.items()) / 50_000
    assert abs(mean - expected) < 1e-12


def test_cli_optimal_strategy(monkeypatch: pytest.MonkeyPatch,
                              sample_table: DealerTable) -> None:
    monkeypatch.setattr(pai_gow_sim, "dealer_table", lambda way, wheel: sample_table)
    res = runner.invoke(app, ["simulate", "pai-gow", "--hands", "70000", "--seed", "3",
                              "--player-strategy", "optimal", "--banking",
                              "--other-players", "2", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["player_strategy"] == "optimal"
    assert "optimal_gain_over_house_way" in data and data["as_banker"]["other_players"] == 2
    res = runner.invoke(app, ["simulate", "pai-gow", "--hands", "70000", "--seed", "3",
                              "--player-strategy", "optimal"])
    assert res.exit_code == 0 and "optimal - house way" in res.output
