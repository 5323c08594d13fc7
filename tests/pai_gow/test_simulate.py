"""`cardroom simulate pai-gow`: house way against house way, with 95% intervals."""

from __future__ import annotations

import json
from fractions import Fraction

from typer.testing import CliRunner

from cardroom.analysis.pai_gow_sim import simulate
from cardroom.cli import app
from cardroom.errors import CardroomError
from cardroom.games.pai_gow.houseway import house_way

runner = CliRunner()


def test_same_seed_same_answer_and_counts_add_up() -> None:
    way = house_way("trump-plaza")
    a = simulate(150_000, 11, way, Fraction(1, 20))
    b = simulate(150_000, 11, way, Fraction(1, 20))
    assert (a.win, a.push, a.loss) == (b.win, b.push, b.loss)
    assert a.win + a.push + a.loss == 150_000


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
    res = runner.invoke(app, ["simulate", "pai-gow", "--player-strategy", "optimal"])
    assert isinstance(res.exception, CardroomError)
    res = runner.invoke(app, ["simulate", "pai-gow", "--hands", "0"])
    assert isinstance(res.exception, CardroomError)


def test_banking_every_other_hand_and_copies_favour_the_banker() -> None:
    """Banking clause: the player may bank at most every other hand; as banker the player
    wins the copies (clause 10 note), so wins outnumber losses on the banked hands."""
    r = simulate(200_000, 9, house_way("trump-plaza"), Fraction(1, 20), banking=True)
    assert r.banked == 100_000
    assert r.win + r.push + r.loss == 100_000
    assert r.bank_win > r.bank_loss
    assert r.win < r.loss  # and the other way round when the house banks
    assert "as_banker" in r.to_json()
